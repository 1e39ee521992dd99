// Calendar arithmetic of the card lifecycle. Business dates are China Standard Time (UTC+8, no daylight
// saving), whatever the host zone is: "next day" and "next month" start at 00:00 in Beijing.
import { PlanCycleUnit, PlanGoodsType } from '@lynx/contract';

const CST_MS = 8 * 3600_000;
const DAY_MS = 86_400_000;

/** Year and month (1-12) of an instant in China time. */
export function cstYearMonth(d: Date): { year: number; month: number } {
  const s = new Date(d.getTime() + CST_MS);
  return { year: s.getUTCFullYear(), month: s.getUTCMonth() + 1 };
}

/** True when both instants fall in the same calendar month in China time. */
export function sameCstMonth(a: Date, b: Date): boolean {
  const x = cstYearMonth(a);
  const y = cstYearMonth(b);
  return x.year === y.year && x.month === y.month;
}

/** 00:00 China time of the day after `d`. */
export function startOfNextCstDay(d: Date): Date {
  const s = new Date(d.getTime() + CST_MS);
  return new Date(Date.UTC(s.getUTCFullYear(), s.getUTCMonth(), s.getUTCDate() + 1) - CST_MS);
}

/** 00:00 China time on the 1st of the month `months` after the month of `d` (0 = this month). */
export function startOfCstMonth(d: Date, months = 0): Date {
  const s = new Date(d.getTime() + CST_MS);
  return new Date(Date.UTC(s.getUTCFullYear(), s.getUTCMonth() + months, 1) - CST_MS);
}

/** `d` plus `months` calendar months in China time; the day is clamped to the target month's end (Jan 31 + 1 = Feb 28/29). */
export function addCstMonths(d: Date, months: number): Date {
  const s = new Date(d.getTime() + CST_MS);
  const y = s.getUTCFullYear();
  const m = s.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(s.getUTCDate(), lastDay);
  const ms = s.getTime() - Date.UTC(s.getUTCFullYear(), s.getUTCMonth(), s.getUTCDate());
  return new Date(Date.UTC(y, m, day) + ms - CST_MS);
}

export function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * DAY_MS);
}

/** Monthly plans bill by natural month; prepaid and test plans run from their start for the plan's cycle. */
export function isMonthlyGoods(goodsType: number): boolean {
  return goodsType === PlanGoodsType.Monthly;
}

export interface CycleRule {
  goodsType: number;
  cycleUnit: number;
  cycleValue: number;
  durationMonths: number;
}

/** End of the contract (valid period) that started at `anchor` and runs `months` months. */
export function contractEndOf(rule: CycleRule, anchor: Date, months: number): Date {
  // A monthly plan counts the month of activation as its first month.
  return isMonthlyGoods(rule.goodsType) ? startOfCstMonth(anchor, months) : addCstMonths(anchor, months);
}

/** End of cycle number `k` (1-based) of a contract that started at `anchor`, not capped by the contract end. */
export function cycleBoundary(rule: CycleRule, anchor: Date, k: number): Date {
  if (isMonthlyGoods(rule.goodsType)) return startOfCstMonth(anchor, k);
  const step = Math.max(1, rule.cycleValue);
  return rule.cycleUnit === PlanCycleUnit.Day ? addDays(anchor, k * step) : addCstMonths(anchor, k * step);
}
