import { shiftPeriodKey } from '../rating/periods.ts';

/**
 * The calendar of the automated ledger (business days YYYY-MM-DD, periods YYYY-MM named by the month they end in).
 * On day D of a month a rule acts on the period named by the month before: by then every operator's period of that
 * key has ended (China Unicom's on the 25th, the others' on the last day).
 */

/** The month a business day falls in, as a period key. */
const monthOf = (day: string) => day.slice(0, 7);
const dayNumber = (day: string) => Number(day.slice(8, 10));

/** The period a rule acting on `today` works on: the one named by the previous month. */
export const targetPeriod = (today: string): string => shiftPeriodKey(monthOf(today), -1);

/** The business day a rule with day `dayOfMonth` acts on `periodKey`. */
export const execDayOf = (periodKey: string, dayOfMonth: number): string => `${shiftPeriodKey(periodKey, 1)}-${String(dayOfMonth).padStart(2, '0')}`;

/** Whether the day of a rule has come in today's month. */
export const dayReached = (today: string, dayOfMonth: number): boolean => dayNumber(today) >= dayOfMonth;

/**
 * The first period a rule created, changed or switched on today acts on: this month's target when its day is still
 * to come (or is today), else next month's. A rule never reaches back to a day that passed before it was set.
 */
export const firstPeriodFrom = (today: string, dayOfMonth: number): string =>
  (dayNumber(today) <= dayOfMonth ? targetPeriod(today) : monthOf(today));

/** The later of two period keys. */
export const laterPeriod = (a: string, b: string): string => (a >= b ? a : b);

/**
 * When an enabled rule acts next and on which period: today's target if it is not finished and the rule covers it
 * (on its day, or today when the day has passed and it is still waiting for the bill), else next month's.
 */
export function nextExecution(today: string, dayOfMonth: number, firstPeriod: string, targetFinished: boolean): { day: string; period: string } {
  const target = targetPeriod(today);
  if (target >= firstPeriod && !targetFinished) {
    const day = execDayOf(target, dayOfMonth);
    return { day: day > today ? day : today, period: target };
  }
  const period = laterPeriod(shiftPeriodKey(target, 1), firstPeriod);
  return { day: execDayOf(period, dayOfMonth), period };
}
