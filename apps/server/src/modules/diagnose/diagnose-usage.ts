// Usage and sessions for the diagnosis, read from the usage area's tables (migration 0011_usage): daily per-card
// totals and per-session records, both partitioned by China month. Every query is one card's rows by the primary
// key (iccid first), with the partitions pruned by the time bounds.
import { and, count, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { cardSessions, cardUsageDaily } from '../usage/usage-tables.ts';
import { businessDay, DAY_MS } from '../usage/usage-time.ts';
import { SESSION_RETENTION_MONTHS } from '../usage/usage-partitions.ts';
import type { SessionFacts } from './diagnose-checks.ts';

const MB = 1024 * 1024;
/** The session check counts sessions in the last 3 days (spec §9: the session history shows 3 days). */
const RECENT_MS = 3 * DAY_MS;

/**
 * Data the card used in the cycle that started at `from`, up to `to`, MB: the daily totals of the China days from
 * the cycle's first day through today (usage is reported per day, so a cycle starting mid-day counts that whole day).
 */
export async function cycleUsageMb(ex: Executor, iccid: string, from: Date, to: Date): Promise<number> {
  const [r] = await ex
    .select({ bytes: sql<string | null>`sum(${cardUsageDaily.bytes})` })
    .from(cardUsageDaily)
    .where(and(eq(cardUsageDaily.iccid, iccid), gte(cardUsageDaily.day, businessDay(from.getTime())), lte(cardUsageDaily.day, businessDay(to.getTime()))));
  return Number(r?.bytes ?? 0) / MB;
}

/** The card's last data session (within the kept session months) and the number of sessions started in the last 3 days. */
export async function lastSessionOf(ex: Executor, iccid: string, now: Date): Promise<{ last: SessionFacts | null; recentCount: number | null }> {
  const kept = new Date(now.getTime() - (SESSION_RETENTION_MONTHS + 1) * 31 * DAY_MS);
  const [[last], [recent]] = await Promise.all([
    ex
      .select({ startedAt: cardSessions.startedAt, endedAt: cardSessions.endedAt, apn: cardSessions.apn, up: cardSessions.bytesUp, down: cardSessions.bytesDown })
      .from(cardSessions)
      .where(and(eq(cardSessions.iccid, iccid), gte(cardSessions.startedAt, kept), lte(cardSessions.startedAt, now)))
      .orderBy(desc(cardSessions.startedAt))
      .limit(1),
    ex
      .select({ n: count() })
      .from(cardSessions)
      .where(and(eq(cardSessions.iccid, iccid), gte(cardSessions.startedAt, new Date(now.getTime() - RECENT_MS)), lte(cardSessions.startedAt, now))),
  ]);
  return {
    last: last ? { startedAt: last.startedAt, endedAt: last.endedAt, apn: last.apn, bytes: Number(last.up) + Number(last.down) } : null,
    recentCount: Number(recent?.n ?? 0),
  };
}
