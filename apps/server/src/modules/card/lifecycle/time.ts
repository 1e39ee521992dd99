// Calendar arithmetic of the card lifecycle in the business time zone (CMP_TIME_ZONE, Asia/Shanghai by default),
// whatever the host zone is: "next day" and "next month" start at 00:00 there.
import { PlanCycleUnit, PlanGoodsType, calendarParts, zonedTime } from '@lynx/contract';

const DAY_MS = 86_400_000;

const partsOf = (d: Date) => calendarParts(d)!;

/** Year and month (1-12) of an instant in the business zone. */
export function businessYearMonth(d: Date): { year: number; month: number } {
  const p = partsOf(d);
  return { year: p.year, month: p.month };
}

/** True when both instants fall in the same calendar month in the business zone. */
export function sameBusinessMonth(a: Date, b: Date): boolean {
  const x = businessYearMonth(a);
  const y = businessYearMonth(b);
  return x.year === y.year && x.month === y.month;
}

/** 00:00 (business zone) of the day after `d`. */
export function startOfNextBusinessDay(d: Date): Date {
  const p = partsOf(d);
  return zonedTime(p.year, p.month, p.day + 1);
}

/** 00:00 (business zone) on the 1st of the month `months` after the month of `d` (0 = this month). */
export function startOfBusinessMonth(d: Date, months = 0): Date {
  const p = partsOf(d);
  return zonedTime(p.year, p.month + months, 1);
}

/** `d` plus `months` calendar months in the business zone; the day is clamped to the target month's end (Jan 31 + 1 = Feb 28/29). */
export function addBusinessMonths(d: Date, months: number): Date {
  const p = partsOf(d);
  const lastDay = new Date(Date.UTC(p.year, p.month - 1 + months + 1, 0)).getUTCDate();
  const ms = d.getTime() % 1000;
  return new Date(zonedTime(p.year, p.month + months, Math.min(p.day, lastDay), p.hour, p.minute, p.second).getTime() + (ms < 0 ? ms + 1000 : ms));
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
  return isMonthlyGoods(rule.goodsType) ? startOfBusinessMonth(anchor, months) : addBusinessMonths(anchor, months);
}

/** End of cycle number `k` (1-based) of a contract that started at `anchor`, not capped by the contract end. */
export function cycleBoundary(rule: CycleRule, anchor: Date, k: number): Date {
  if (isMonthlyGoods(rule.goodsType)) return startOfBusinessMonth(anchor, k);
  const step = Math.max(1, rule.cycleValue);
  return rule.cycleUnit === PlanCycleUnit.Day ? addDays(anchor, k * step) : addBusinessMonths(anchor, k * step);
}
