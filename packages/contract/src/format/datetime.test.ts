import { describe, expect, it } from 'vitest';
import { calendarParts, formatDate, formatDateTime, toDate, type DateInput } from './datetime.ts';

const instant = '2024-01-31T16:30:05Z';

describe('formatDateTime', () => {
  it.each<[DateInput, string | undefined, string]>([
    // Default zone is Asia/Shanghai (UTC+8): crosses into the next day and month.
    [instant, undefined, '2024-02-01 00:30:05'],
    [new Date(instant), undefined, '2024-02-01 00:30:05'],
    [Date.parse(instant), undefined, '2024-02-01 00:30:05'],
    [instant, 'UTC', '2024-01-31 16:30:05'],
    [instant, 'America/New_York', '2024-01-31 11:30:05'],
    // Midnight must be '00', not '24'.
    ['2024-01-01T16:00:00Z', undefined, '2024-01-02 00:00:00'],
    ['2024-12-31T23:59:59Z', 'UTC', '2024-12-31 23:59:59'],
    [null, undefined, '-'],
    [undefined, undefined, '-'],
    ['', undefined, '-'],
    ['not a date', undefined, '-'],
    [new Date(NaN), undefined, '-'],
    // Date-only values are calendar dates and must not shift with the zone.
    ['2024-05-01', 'America/Los_Angeles', '2024-05-01 00:00:00'],
  ])('%j in %s', (input, tz, expected) => {
    expect(formatDateTime(input, 'zh', tz)).toBe(expected);
  });

  it('uses the same layout for both languages', () => {
    expect(formatDateTime(instant, 'en')).toBe(formatDateTime(instant, 'zh'));
  });
});

describe('formatDate', () => {
  it.each<[DateInput, string | undefined, string]>([
    [instant, undefined, '2024-02-01'],
    [instant, 'UTC', '2024-01-31'],
    ['2024-05-01', 'America/Los_Angeles', '2024-05-01'],
    ['2024-05-01', 'Asia/Shanghai', '2024-05-01'],
    ['2024-05', undefined, '2024-05-01'],
    ['2024-02-30', undefined, '-'],
    ['2023-02-29', undefined, '-'],
    ['2024-02-29', undefined, '2024-02-29'],
    [null, undefined, '-'],
  ])('%j in %s', (input, tz, expected) => {
    expect(formatDate(input, 'en', tz)).toBe(expected);
  });
});

describe('toDate / calendarParts', () => {
  it('returns null for invalid input', () => {
    expect(toDate('nope')).toBeNull();
    expect(toDate('  ')).toBeNull();
    expect(calendarParts('2024-13-01')).toBeNull();
  });

  it('gives numeric wall-clock fields', () => {
    expect(calendarParts(instant, 'Asia/Shanghai')).toEqual({
      year: 2024, month: 2, day: 1, hour: 0, minute: 30, second: 5,
    });
  });

  it('throws on an unknown zone (programmer error)', () => {
    expect(() => formatDate(instant, 'zh', 'Mars/Olympus')).toThrow(RangeError);
  });
});
