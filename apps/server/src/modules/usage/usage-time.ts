// Calendar helpers of the usage area: usage days and months are those of the business time zone (CMP_TIME_ZONE),
// whatever the host's zone is.
import { businessDay, businessDayStartMs, calendarParts, zonedTime } from '@lynx/contract';

export { businessDay, businessDayStartMs };

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** `day` plus `n` days (YYYY-MM-DD). */
export const addDay = (day: string, n: number): string => businessDay(businessDayStartMs(day) + n * DAY_MS + HOUR_MS);

/** Whole days from `a` to `b` (b − a). */
export const daysBetween = (a: string, b: string): number => Math.round((businessDayStartMs(b) - businessDayStartMs(a)) / DAY_MS);

/** The business month (YYYY-MM) of an instant. */
export const businessMonth = (ms: number): string => businessDay(ms).slice(0, 7);

/** First day (YYYY-MM-DD) of a month `n` months after `month` (YYYY-MM). */
export function monthFirstDay(month: string, n = 0): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return d.toISOString().slice(0, 10);
}

/**
 * The operator's billing period containing `at`: from the billing day (1-28) of this or the previous month,
 * 00:00 business time (China Unicom bills from the 26th, spec §9). Cards without a contract cycle use it.
 */
export function billingPeriod(at: number, billingDay: number): { start: Date; end: Date } {
  const p = calendarParts(at)!;
  const day = Math.min(Math.max(1, billingDay), 28);
  const m = p.month + (p.day >= day ? 0 : -1);
  return { start: zonedTime(p.year, m, day), end: zonedTime(p.year, m + 1, day) };
}

/** An instant floored to the minute. */
export const floorMinute = (ms: number): number => Math.floor(ms / 60_000) * 60_000;
