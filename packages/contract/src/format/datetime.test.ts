import { describe, expect, it } from 'vitest';
import {
  businessDay, businessDayStart, calendarParts, DEFAULT_TIME_ZONE, formatDate, formatDateRange, formatDateTime, formatZoneOffset, getBusinessTimeZone,
  isValidTimeZone, setBusinessTimeZone, toDate, withZoneLabel, zonedTime, type DateInput,
} from './datetime.ts';

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

describe('business time zone helpers', () => {
  it('finds business days and their starts in the given zone', () => {
    // 2026-11-19 23:30 UTC is already the 20th in Shanghai, still the 20th 00:30 in Berlin (UTC+1)
    const at = Date.parse('2026-11-19T23:30:00Z');
    expect(businessDay(at, 'Asia/Shanghai')).toBe('2026-11-20');
    expect(businessDay(at, 'Europe/Berlin')).toBe('2026-11-20');
    expect(businessDay(at, 'America/New_York')).toBe('2026-11-19');
    expect(businessDayStart('2026-11-20', 'Asia/Shanghai').toISOString()).toBe('2026-11-19T16:00:00.000Z');
    expect(businessDayStart('2026-11-20', 'Europe/Berlin').toISOString()).toBe('2026-11-19T23:00:00.000Z');
    // summer time: Berlin is UTC+2
    expect(businessDayStart('2026-07-01', 'Europe/Berlin').toISOString()).toBe('2026-06-30T22:00:00.000Z');
  });

  it('settles wall times on both sides of a daylight-saving change', () => {
    // Berlin moves from UTC+1 to UTC+2 at 2026-03-29 02:00 local
    expect(zonedTime(2026, 3, 29, 1, 0, 0, 'Europe/Berlin').toISOString()).toBe('2026-03-29T00:00:00.000Z');
    expect(zonedTime(2026, 3, 29, 3, 0, 0, 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(zonedTime(2026, 10, 25, 12, 0, 0, 'Europe/Berlin').toISOString()).toBe('2026-10-25T11:00:00.000Z');
  });

  it('labels the zone by its offset at the time', () => {
    const winter = Date.parse('2026-11-20T00:00:00Z');
    const summer = Date.parse('2026-07-01T00:00:00Z');
    expect(formatZoneOffset('Asia/Shanghai', winter)).toBe('UTC+8');
    expect(formatZoneOffset('Europe/Berlin', winter)).toBe('UTC+1');
    expect(formatZoneOffset('Europe/Berlin', summer)).toBe('UTC+2');
    expect(formatZoneOffset('Asia/Kolkata', winter)).toBe('UTC+5:30');
    expect(formatZoneOffset('America/Sao_Paulo', winter)).toBe('UTC-3');
    expect(formatZoneOffset('UTC', winter)).toBe('UTC');
    expect(withZoneLabel('Created at', 'Asia/Shanghai', winter)).toBe('Created at (UTC+8)');
  });

  it('shows a cycle as the calendar dates it covers', () => {
    // a November cycle stored as [Nov 1 00:00, Dec 1 00:00) Shanghai time
    expect(formatDateRange('2026-10-31T16:00:00Z', '2026-11-30T16:00:00Z', 'Asia/Shanghai')).toBe('2026-11-01 – 2026-11-30');
    expect(formatDateRange('2026-11-01', '2026-11-30')).toBe('2026-11-01 – 2026-11-30');
  });

  it('follows the zone it is set to, and refuses unknown names', () => {
    const at = '2026-11-20T08:00:00Z';
    try {
      expect(formatDateTime(at)).toBe('2026-11-20 16:00:00');
      setBusinessTimeZone('Europe/Berlin');
      expect(getBusinessTimeZone()).toBe('Europe/Berlin');
      expect(formatDateTime(at)).toBe('2026-11-20 09:00:00');
      expect(() => setBusinessTimeZone('Mars/Olympus')).toThrow(/not a time zone name/);
      expect(isValidTimeZone('Asia/Shanghai')).toBe(true);
      expect(isValidTimeZone('')).toBe(false);
    } finally {
      setBusinessTimeZone(DEFAULT_TIME_ZONE);
    }
  });
});
