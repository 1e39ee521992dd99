// China calendar helpers of the usage area: usage days and months are China Standard Time (UTC+8, no daylight
// saving), whatever the host's zone is.
import { chinaDay, chinaDayStart } from '../../operators/simulator-usage.ts';

export { chinaDay, chinaDayStart };

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
const CST_MS = 8 * HOUR_MS;

/** `day` plus `n` days (YYYY-MM-DD). */
export const addDay = (day: string, n: number): string => chinaDay(chinaDayStart(day) + n * DAY_MS + HOUR_MS);

/** Whole days from `a` to `b` (b − a). */
export const daysBetween = (a: string, b: string): number => Math.round((chinaDayStart(b) - chinaDayStart(a)) / DAY_MS);

/** The China month (YYYY-MM) of an instant. */
export const chinaMonth = (ms: number): string => chinaDay(ms).slice(0, 7);

/** First day (YYYY-MM-DD) of a month `n` months after `month` (YYYY-MM). */
export function monthFirstDay(month: string, n = 0): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return d.toISOString().slice(0, 10);
}

/**
 * The operator's billing period containing `at`: from the billing day (1-28) of this or the previous month,
 * 00:00 China time (China Unicom bills from the 26th, spec §9). Cards without a contract cycle use it.
 */
export function billingPeriod(at: number, billingDay: number): { start: Date; end: Date } {
  const s = new Date(at + CST_MS);
  const day = Math.min(Math.max(1, billingDay), 28);
  const y = s.getUTCFullYear();
  const m = s.getUTCMonth() + (s.getUTCDate() >= day ? 0 : -1);
  return { start: new Date(Date.UTC(y, m, day) - CST_MS), end: new Date(Date.UTC(y, m + 1, day) - CST_MS) };
}

/** An instant floored to the minute. */
export const floorMinute = (ms: number): number => Math.floor(ms / 60_000) * 60_000;
