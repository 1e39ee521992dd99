// Test data used by test cards: the usage module's daily per-card totals (card_usage_daily) from the China day
// the test started through today, one indexed range per card.
import type { Executor } from '../../../db/client.ts';
import { cycleUsage } from '../../usage/usage-quota.ts';
import { businessDay } from '../../usage/usage-time.ts';

/**
 * KB each card used since its test started, for a page of test cards. A card whose test start is not recorded
 * is left out (its usage is not known; the screen shows "-"); a card with no usage rows used 0 KB.
 */
export async function testUsageKb(ex: Executor, cards: { iccid: string; since: Date | null }[], now = new Date()): Promise<Map<string, number>> {
  const today = businessDay(now.getTime());
  const items = cards.filter((c) => c.since !== null).map((c) => ({ iccid: c.iccid, from: businessDay(c.since!.getTime()), to: today }));
  const bytes = await cycleUsage(ex, items);
  return new Map(items.map((i) => [i.iccid, Math.round(((bytes.get(i.iccid) ?? 0) / 1024) * 100) / 100]));
}
