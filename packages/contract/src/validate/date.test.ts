import { describe, expect, it } from 'vitest';
import { isWithinMonths } from './date.ts';

const now = new Date('2024-06-15T04:00:00Z'); // 12:00 in Shanghai

describe('isWithinMonths', () => {
  it.each<[string, number, boolean]>([
    ['2024-06-01', 1, true],
    ['2024-05-31', 1, false],
    ['2024-05-01', 2, true],
    ['2024-04-30', 2, false],
    ['2024-01-01', 6, true],
    ['2023-12-31', 6, false],
    ['2023-07-01', 12, true], // 11 months apart
    ['2023-06-30', 12, false], // 12 months apart
    ['2023-06-30', 24, false], // different year: only under 12 months apart
    ['2024-08-01', 3, true], // future dates count by distance too
    ['2024-09-01', 3, false],
    ['2024-06-15', 0, false],
    ['2024-06-15', -1, false],
    ['garbage', 12, false],
  ])('%s within %d months', (date, months, expected) => {
    expect(isWithinMonths(date, months, now)).toBe(expected);
  });

  it('crosses a year boundary when under 12 months apart', () => {
    const jan = new Date('2025-01-10T00:00:00Z');
    expect(isWithinMonths('2024-12-31', 2, jan)).toBe(true);
    expect(isWithinMonths('2024-11-30', 2, jan)).toBe(false);
    expect(isWithinMonths('2024-02-01', 12, jan)).toBe(true);
    expect(isWithinMonths('2024-01-31', 12, jan)).toBe(false);
  });

  it('takes months in the given time zone', () => {
    // 2024-06-30T20:00Z is already July 1st in Shanghai.
    const instant = '2024-06-30T20:00:00Z';
    const julyNow = new Date('2024-07-15T04:00:00Z');
    expect(isWithinMonths(instant, 1, julyNow)).toBe(true);
    expect(isWithinMonths(instant, 1, julyNow, 'UTC')).toBe(false);
  });

  it('defaults now to the current time', () => {
    expect(isWithinMonths(new Date(), 1)).toBe(true);
  });
});
