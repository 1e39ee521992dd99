// Near / over quota (issue 12) — THE ONE PLACE that decides it.
//
// A card is near quota when it has used 80–100 % of its current cycle's quota, over quota above 100 %. The cycle and
// the quota are the usage module's (usage-quota.ts: the contract cycle, else the operator's billing period; the
// plan's quota plus the event packs running now; cards whose plan has no quota are never near or over). The cards
// carry them as maintained columns (migration 0019, usage/cycle-columns.ts), so the overview's counts and the card
// list's quotaLevel filter are current with the last usage feed; the % column lets the list's % index find them.
import { sql, type SQL } from 'drizzle-orm';
import { home } from '@lynx/contract';
import { cards } from '../card/card-tables.ts';

const { QUOTA_NEAR_PERCENT } = home;
export type QuotaLevelKey = home.QuotaLevelKey;

/** Cards near or over their quota this cycle, as a predicate on `cards` (tenant filters are the caller's). */
export function quotaLevelCondition(level: QuotaLevelKey): SQL {
  // the exact test is on bytes; the (rounded) % column only narrows the rows first
  if (level === 'over') {
    return sql`(${cards.cycleUsedPct} >= 99.9 and ${cards.cycleQuotaBytes} > 0 and ${cards.cycleUsedBytes} > ${cards.cycleQuotaBytes})`;
  }
  return sql`(${cards.cycleUsedPct} >= ${QUOTA_NEAR_PERCENT - 0.1} and ${cards.cycleQuotaBytes} > 0
    and ${cards.cycleUsedBytes} * 100 >= ${cards.cycleQuotaBytes} * ${QUOTA_NEAR_PERCENT}::int and ${cards.cycleUsedBytes} <= ${cards.cycleQuotaBytes})`;
}

/** When near / over quota were counted: null, they are always current (the contract keeps the field, docs/home.md). */
export async function quotaCountedAt(): Promise<Date | null> {
  return null;
}
