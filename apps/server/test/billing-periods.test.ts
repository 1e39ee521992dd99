import { describe, it, expect, afterEach } from 'vitest';
import { Operator, formatDateTime, setBusinessTimeZone, zonedTime, DEFAULT_TIME_ZONE } from '@lynx/contract';
import {
  UNICOM_BILLING_DAY, clampBillingDay, defaultBillingDay, isPeriodReadyToBill, lastDeliveredUsageDay, periodAfter, periodAt,
  periodByKey, periodContains, periodOfDay, shiftPeriodKey,
} from '../src/modules/billing/rating/periods.ts';
import { billingPeriod } from '../src/modules/usage/usage-time.ts';

// Issue 14: billing periods (spec §9): China Unicom from the 26th of the previous month to the 25th, the other
// operators the natural month; named by the month they end in; days in the business time zone.

const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => zonedTime(y, mo, d, h, mi, s);
const shown = (p: { key: string; firstDay: string; lastDay: string; start: Date; end: Date }) =>
  [p.key, p.firstDay, p.lastDay, formatDateTime(p.start), formatDateTime(p.end)];

describe('billing periods', () => {
  afterEach(() => setBusinessTimeZone(DEFAULT_TIME_ZONE));

  it('gives China Unicom the 26th and the other operators the 1st', () => {
    expect(defaultBillingDay(Operator.ChinaUnicom)).toBe(UNICOM_BILLING_DAY);
    expect(defaultBillingDay(Operator.ChinaMobile)).toBe(1);
    expect(defaultBillingDay(Operator.ChinaTelecom)).toBe(1);
  });

  it.each([
    // key, billing day → key, first day, last day, start, end (business time)
    ['2026-11', 1, ['2026-11', '2026-11-01', '2026-11-30', '2026-11-01 00:00:00', '2026-12-01 00:00:00']],
    ['2026-02', 1, ['2026-02', '2026-02-01', '2026-02-28', '2026-02-01 00:00:00', '2026-03-01 00:00:00']],
    ['2028-02', 1, ['2028-02', '2028-02-01', '2028-02-29', '2028-02-01 00:00:00', '2028-03-01 00:00:00']],
    ['2026-12', 1, ['2026-12', '2026-12-01', '2026-12-31', '2026-12-01 00:00:00', '2027-01-01 00:00:00']],
    ['2026-11', 26, ['2026-11', '2026-10-26', '2026-11-25', '2026-10-26 00:00:00', '2026-11-26 00:00:00']],
    ['2027-01', 26, ['2027-01', '2026-12-26', '2027-01-25', '2026-12-26 00:00:00', '2027-01-26 00:00:00']],
    ['2026-12', 26, ['2026-12', '2026-11-26', '2026-12-25', '2026-11-26 00:00:00', '2026-12-26 00:00:00']],
    ['2026-03', 26, ['2026-03', '2026-02-26', '2026-03-25', '2026-02-26 00:00:00', '2026-03-26 00:00:00']],
    // a billing day past 28 is held to 28 (as the usage module's billingPeriod does)
    ['2026-03', 31, ['2026-03', '2026-02-28', '2026-03-27', '2026-02-28 00:00:00', '2026-03-28 00:00:00']],
  ] as const)('period %s with billing day %i', (key, day, want) => {
    expect(shown(periodByKey(key, day))).toEqual(want);
  });

  it.each([
    // China Unicom: the 25th belongs to the period named by its month, the 26th to the next one; across the year
    ['2026-11-25', 26, '2026-11'],
    ['2026-11-26', 26, '2026-12'],
    ['2026-12-25', 26, '2026-12'],
    ['2026-12-26', 26, '2027-01'],
    ['2026-12-31', 26, '2027-01'],
    ['2027-01-01', 26, '2027-01'],
    ['2027-01-25', 26, '2027-01'],
    ['2027-01-26', 26, '2027-02'],
    ['2026-01-01', 26, '2026-01'],
    ['2025-12-26', 26, '2026-01'],
    // natural month
    ['2026-11-30', 1, '2026-11'],
    ['2026-12-01', 1, '2026-12'],
    ['2026-12-31', 1, '2026-12'],
    ['2027-01-01', 1, '2027-01'],
  ] as const)('day %s with billing day %i is in %s', (day, billingDay, key) => {
    const p = periodOfDay(day, billingDay);
    expect(p.key).toBe(key);
    expect(day >= p.firstDay && day <= p.lastDay).toBe(true);
  });

  it('splits China Unicom periods at 26th 00:00 business time, not UTC', () => {
    const before = at(2026, 12, 25, 23, 59, 59);
    const after = at(2026, 12, 26, 0, 0, 0);
    expect(periodAt(before, 26).key).toBe('2026-12');
    expect(periodAt(new Date(after.getTime() - 1), 26).key).toBe('2026-12');
    expect(periodAt(after, 26).key).toBe('2027-01');
    // 2026-12-25 16:00 UTC is already the 26th in Shanghai
    expect(periodAt(new Date('2026-12-25T16:00:00Z'), 26).key).toBe('2027-01');
    expect(periodAt(new Date('2026-12-25T15:59:59.999Z'), 26).key).toBe('2026-12');
    const p = periodByKey('2027-01', 26);
    expect(periodContains(p, before)).toBe(false);
    expect(periodContains(p, after)).toBe(true);
    expect(periodContains(p, p.end)).toBe(false);
    expect(periodContains(p, p.end.getTime() - 1)).toBe(true);
  });

  it('follows the configured business zone', () => {
    setBusinessTimeZone('Europe/Berlin');
    // the clocks go forward on 2026-03-29: the period starts in CET and ends in CEST
    const p = periodByKey('2026-04', 26);
    expect(p.start.toISOString()).toBe('2026-03-25T23:00:00.000Z');
    expect(p.end.toISOString()).toBe('2026-04-25T22:00:00.000Z');
    expect(periodAt(new Date('2026-04-25T21:59:59Z'), 26).key).toBe('2026-04');
    expect(periodAt(new Date('2026-04-25T22:00:00Z'), 26).key).toBe('2026-05');
  });

  it('walks to neighbours across the year and agrees with the usage module at every day of two years', () => {
    expect(shiftPeriodKey('2026-12', 1)).toBe('2027-01');
    expect(shiftPeriodKey('2027-01', -1)).toBe('2026-12');
    expect(shiftPeriodKey('2026-11', -23)).toBe('2024-12');
    expect(periodAfter(periodByKey('2026-12', 26)).firstDay).toBe('2026-12-26');
    expect(periodAfter(periodByKey('2026-12', 26), -1).lastDay).toBe('2026-11-25');
    for (const day of [1, 26]) {
      let p = periodByKey('2025-12', day);
      for (let i = 0; i < 26; i++) {
        const next = periodAfter(p);
        expect(next.start.getTime()).toBe(p.end.getTime()); // no gap, no overlap
        for (const probe of [p.start.getTime(), p.end.getTime() - 1, (p.start.getTime() + p.end.getTime()) / 2]) {
          const u = billingPeriod(probe, day);
          expect([u.start.getTime(), u.end.getTime()]).toEqual([p.start.getTime(), p.end.getTime()]);
          expect(periodAt(probe, day).key).toBe(p.key);
        }
        p = next;
      }
    }
  });

  it('refuses keys and days that are not dates', () => {
    expect(() => periodByKey('2026-13', 1)).toThrow(RangeError);
    expect(() => periodByKey('2026-1', 1)).toThrow(RangeError);
    expect(() => periodOfDay('2026-02-30', 26)).toThrow(RangeError);
    expect(clampBillingDay(0)).toBe(1);
    expect(clampBillingDay(29)).toBe(28);
  });

  it('knows the last usage day the feed delivered from its watermark', () => {
    expect(lastDeliveredUsageDay(null)).toBeNull();
    expect(lastDeliveredUsageDay(at(2026, 11, 26))).toBe('2026-11-25'); // exactly midnight: the whole 25th is in
    expect(lastDeliveredUsageDay(at(2026, 11, 26, 6))).toBe('2026-11-25');
    expect(lastDeliveredUsageDay(at(2026, 11, 25, 23, 59, 59))).toBe('2026-11-24');
  });

  it.each([
    // now, last delivered day → ready (period '2026-11' of China Unicom: 2026-10-26 … 2026-11-25)
    [at(2026, 11, 25, 23, 59, 59), '2026-11-25', false], // not closed yet
    [at(2026, 11, 26), null, false], // closed, no feed
    [at(2026, 11, 26), '2026-11-24', false], // closed, the last day not delivered (T+1)
    [at(2026, 11, 26, 2), '2026-11-25', true],
    [at(2026, 11, 27, 2), '2026-11-26', true],
  ] as const)('a China Unicom period is ready to bill at %s with usage through %s: %s', (now, delivered, ready) => {
    expect(isPeriodReadyToBill(periodByKey('2026-11', 26), now, delivered)).toBe(ready);
  });

  it('a natural-month period is ready once December 31 is delivered, in January', () => {
    const dec = periodByKey('2026-12', 1);
    expect(isPeriodReadyToBill(dec, at(2027, 1, 1, 1), '2026-12-30')).toBe(false);
    expect(isPeriodReadyToBill(dec, at(2027, 1, 1, 1), lastDeliveredUsageDay(at(2027, 1, 1)))).toBe(true);
    expect(isPeriodReadyToBill(dec, at(2026, 12, 31, 23, 59, 59), '2026-12-31')).toBe(false);
  });
});
