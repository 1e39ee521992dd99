import { describe, it, expect } from 'vitest';
import { dayReached, execDayOf, firstPeriodFrom, nextExecution, targetPeriod } from '../src/modules/billing/automate/automate-days.ts';

/** The automated ledger's calendar (pure): which period a day acts on, from when a rule acts, when it acts next. */
describe('automated ledger calendar', () => {
  it.each([
    ['2026-11-28', '2026-10'],
    ['2027-01-01', '2026-12'],
    ['2027-03-31', '2027-02'],
  ])('on %s a rule acts on the period %s', (day, period) => {
    expect(targetPeriod(day)).toBe(period);
  });

  it.each([
    ['2026-12', 5, '2027-01-05'],
    ['2026-10', 28, '2026-11-28'],
    ['2027-01', 1, '2027-02-01'],
  ])('the period %s with day %i is acted on %s', (period, day, on) => {
    expect(execDayOf(period, day)).toBe(on);
  });

  it('the day is reached on and after it', () => {
    expect(dayReached('2026-11-04', 5)).toBe(false);
    expect(dayReached('2026-11-05', 5)).toBe(true);
    expect(dayReached('2026-11-30', 28)).toBe(true);
  });

  it.each([
    // created before or on its day: this month's execution (last month's bill); after it: next month's
    ['2026-11-04', 5, '2026-10'],
    ['2026-11-05', 5, '2026-10'],
    ['2026-11-06', 5, '2026-11'],
    ['2026-12-31', 28, '2026-12'],
    ['2027-01-01', 1, '2026-12'],
  ])('a rule set on %s with day %i acts first on %s', (today, day, period) => {
    expect(firstPeriodFrom(today, day)).toBe(period);
  });

  it('says when a rule acts next', () => {
    // due today, not finished: today for last month's period
    expect(nextExecution('2026-11-28', 28, '2026-10', false)).toEqual({ day: '2026-11-28', period: '2026-10' });
    // its day passed and still waiting for the bill: tried again today
    expect(nextExecution('2026-11-28', 5, '2026-10', false)).toEqual({ day: '2026-11-28', period: '2026-10' });
    // finished this month: next month's day
    expect(nextExecution('2026-11-28', 5, '2026-10', true)).toEqual({ day: '2026-12-05', period: '2026-11' });
    // day still to come this month
    expect(nextExecution('2026-11-03', 5, '2026-10', false)).toEqual({ day: '2026-11-05', period: '2026-10' });
    // set after its day: from next month, over the year's end too
    expect(nextExecution('2026-12-20', 5, '2026-12', false)).toEqual({ day: '2027-01-05', period: '2026-12' });
  });
});
