// Monthly partitions of the usage tables (migration 0011 holds the SQL function that creates them).
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { businessMonth, monthFirstDay } from './usage-time.ts';

/** Months of partitions kept ready behind and ahead of the current one. */
export const PARTITION_MONTHS_BACK = 13;
export const PARTITION_MONTHS_AHEAD = 2;
/** Session records are kept this many whole months before the current one (daily totals are kept). */
export const SESSION_RETENTION_MONTHS = 3;

const rows = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

/** Creates any missing monthly partition of card_sessions and card_usage_daily from 13 months back to 2 ahead; returns how many. */
export async function ensureUsagePartitions(ex: Executor, now = Date.now()): Promise<number> {
  const month = businessMonth(now);
  const [r] = rows<{ n: number }>(await ex.execute(sql`
    select usage_ensure_partitions(${monthFirstDay(month, -PARTITION_MONTHS_BACK)}::date, ${monthFirstDay(month, PARTITION_MONTHS_AHEAD)}::date) as n`));
  return Number(r.n);
}

/** Monthly partitions of a table, oldest first, as { name, month: YYYY-MM }. */
export async function usagePartitions(ex: Executor, table: 'card_sessions' | 'card_usage_daily'): Promise<{ name: string; month: string }[]> {
  const list = rows<{ name: string }>(await ex.execute(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${table}::regclass order by c.relname`));
  return list.map((p) => ({ name: p.name, month: p.name.slice(-7).replace('_', '-') }));
}

/** Drops session partitions older than the retention (a whole month at once, no row-by-row delete); returns their names. */
export async function dropExpiredSessionPartitions(ex: Executor, now = Date.now()): Promise<string[]> {
  const oldest = monthFirstDay(businessMonth(now), -SESSION_RETENTION_MONTHS).slice(0, 7);
  const expired = (await usagePartitions(ex, 'card_sessions')).filter((p) => p.month < oldest);
  for (const p of expired) await ex.execute(sql.raw(`drop table if exists "${p.name.replace(/"/g, '')}"`));
  return expired.map((p) => p.name);
}
