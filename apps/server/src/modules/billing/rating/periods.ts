// Billing periods of the operators (spec §9; docs/billing.md): China Unicom bills from the 26th of the previous month
// to the 25th, the other operators by natural month. A period is named by the month it ends in ('2026-11' is
// 2026-10-26 … 2026-11-25 for China Unicom, 2026-11-01 … 2026-11-30 for the others) and its days are business days
// (CMP_TIME_ZONE): it starts at 00:00 business time of its first day and ends at 00:00 of the day after its last.
// Pure: the operator's billing day is the `operators.billing_day` column the caller read.
import { Operator, businessDay, businessDayStartMs, zonedTime } from '@lynx/contract';

/** China Unicom's billing day (spec §9). */
export const UNICOM_BILLING_DAY = 26;

/** The billing day an operator row gets when none is configured: China Unicom the 26th, the others the 1st. */
export const defaultBillingDay = (operatorId: number): number => (operatorId === Operator.ChinaUnicom ? UNICOM_BILLING_DAY : 1);

export interface BillingPeriod {
  /** 'YYYY-MM': the month the period ends in */
  key: string;
  /** the day of the month it starts on (1 = natural month) */
  billingDay: number;
  /** first business day (YYYY-MM-DD) */
  firstDay: string;
  /** last business day (YYYY-MM-DD), inclusive */
  lastDay: string;
  /** 00:00 business time of the first day */
  start: Date;
  /** 00:00 business time of the day after the last day (exclusive) */
  end: Date;
}

const KEY_RE = /^(\d{4})-(\d{2})$/;
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A calendar date from fields that may overflow (month 13, day 0), as YYYY-MM-DD. */
function civilDay(year: number, month: number, day: number): string {
  const d = new Date(Date.UTC(year, month - 1, day));
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/**
 * Days 29–31 do not exist in every month, so a billing day is held to 1–28, as the usage module's `billingPeriod`
 * does (an operator row with 30 bills from the 28th).
 */
export const clampBillingDay = (billingDay: number): number => Math.min(Math.max(1, Math.trunc(billingDay) || 1), 28);

function keyParts(key: string): { year: number; month: number } {
  const m = KEY_RE.exec(key);
  const year = m ? Number(m[1]) : NaN;
  const month = m ? Number(m[2]) : NaN;
  if (!m || month < 1 || month > 12) throw new RangeError(`"${key}" is not a billing period key (YYYY-MM)`);
  return { year, month };
}

/** The period named `key` ('YYYY-MM') of an operator with this billing day. */
export function periodByKey(key: string, billingDay: number): BillingPeriod {
  const { year, month } = keyParts(key);
  const day = clampBillingDay(billingDay);
  // a natural month starts in its own month; a period from the 26th starts in the month before the one it is named by
  const startMonth = day === 1 ? month : month - 1;
  return {
    key,
    billingDay: day,
    firstDay: civilDay(year, startMonth, day),
    lastDay: civilDay(year, startMonth + 1, day - 1),
    start: zonedTime(year, startMonth, day),
    end: zonedTime(year, startMonth + 1, day),
  };
}

/** The key of the period `n` periods after `key` (negative: before). */
export function shiftPeriodKey(key: string, n: number): string {
  const { year, month } = keyParts(key);
  return civilDay(year, month + n, 1).slice(0, 7);
}

/** The period a business day (YYYY-MM-DD) falls in. */
export function periodOfDay(day: string, billingDay: number): BillingPeriod {
  const m = DAY_RE.exec(day);
  if (!m || civilDay(Number(m[1]), Number(m[2]), Number(m[3])) !== day) throw new RangeError(`"${day}" is not a day (YYYY-MM-DD)`);
  const d = clampBillingDay(billingDay);
  const dayOfMonth = Number(m[3]);
  // from the billing day on, a day belongs to the period named by the next month (26 Dec 2026 → '2027-01')
  const key = d > 1 && dayOfMonth >= d ? civilDay(Number(m[1]), Number(m[2]) + 1, 1).slice(0, 7) : day.slice(0, 7);
  return periodByKey(key, d);
}

/** The period an instant falls in (its business day's). */
export const periodAt = (at: Date | number, billingDay: number): BillingPeriod =>
  periodOfDay(businessDay(typeof at === 'number' ? at : at.getTime()), billingDay);

/** The period `n` periods after `period` (negative: before). */
export const periodAfter = (period: BillingPeriod, n = 1): BillingPeriod => periodByKey(shiftPeriodKey(period.key, n), period.billingDay);

/** Whether an instant lies in the period: start ≤ at < end. */
export function periodContains(period: BillingPeriod, at: Date | number): boolean {
  const ms = typeof at === 'number' ? at : at.getTime();
  return period.start.getTime() <= ms && ms < period.end.getTime();
}

/**
 * The last business day whose usage the feed has delivered in full: the day before the one its watermark is in
 * (a watermark of exactly 00:00 has delivered the whole previous day; one at 06:00 has delivered the previous day
 * and a quarter of today). Null when the feed has never run.
 */
export function lastDeliveredUsageDay(watermark: Date | number | null | undefined): string | null {
  if (watermark == null) return null;
  const ms = typeof watermark === 'number' ? watermark : watermark.getTime();
  return businessDay(businessDayStartMs(businessDay(ms)) - 1);
}

/**
 * A bill run for a period may start only when the period has closed (`now` is at or past its end) and the T+1
 * usage feed has delivered its last day (issue 14). `lastDeliveredDay` is the operator's
 * `lastDeliveredUsageDay(usage_feeds.watermark)`; null (no feed yet) is never ready.
 */
export function isPeriodReadyToBill(period: BillingPeriod, now: Date | number, lastDeliveredDay: string | null): boolean {
  const ms = typeof now === 'number' ? now : now.getTime();
  return ms >= period.end.getTime() && lastDeliveredDay !== null && lastDeliveredDay >= period.lastDay;
}
