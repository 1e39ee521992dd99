import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { DEFAULT_TIME_ZONE, formatDateTime, setBusinessTimeZone } from '@lynx/contract';
import { businessTodayPicker, instantToPicker, pickedDays, pickerToDay, pickerToInstant, zoneLabel } from './businessTime.ts';
import { dateRange } from './SearchTable.tsx';

// A picker shows a wall clock; whatever the browser's zone, the product means that wall clock in its business zone.
describe('picker conversions in the business zone', () => {
  // the "browser" is in a third zone, so a result that leans on the host zone shows
  const hostZone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'America/Los_Angeles';
  });
  afterAll(() => {
    if (hostZone === undefined) delete process.env.TZ;
    else process.env.TZ = hostZone;
  });
  afterEach(() => setBusinessTimeZone(DEFAULT_TIME_ZONE));

  it.each([
    ['Asia/Shanghai', '2026-11-20 09:30', '2026-11-20T01:30:00.000Z'],
    ['Europe/Berlin', '2026-11-20 09:30', '2026-11-20T08:30:00.000Z'],
    ['Europe/Berlin', '2026-07-01 00:00', '2026-06-30T22:00:00.000Z'],
    ['America/New_York', '2026-11-20 23:59', '2026-11-21T04:59:00.000Z'],
  ])('in %s a picked %s is the instant %s, and shows back as picked', (zone, picked, instant) => {
    setBusinessTimeZone(zone);
    const d = dayjs(picked);
    expect(pickerToInstant(d)).toBe(instant);
    expect(instantToPicker(instant)!.format('YYYY-MM-DD HH:mm')).toBe(picked);
  });

  it('keeps picked days as the business days they name', () => {
    setBusinessTimeZone('Europe/Berlin');
    expect(pickerToDay(dayjs('2026-11-20'))).toBe('2026-11-20');
    expect(pickedDays([dayjs('2026-11-01'), dayjs('2026-11-30')])).toEqual(['2026-11-01', '2026-11-30']);
    expect(pickedDays([dayjs('2026-11-01'), null])).toBeNull();
    expect(pickedDays(undefined)).toBeNull();
  });

  it('turns a picked time range into business-clock instants for the list filters', () => {
    setBusinessTimeZone('Asia/Shanghai');
    expect(dateRange({ range: [dayjs('2026-11-20 00:00:00'), dayjs('2026-11-20 23:59:59')], q: 'x' })).toEqual({
      q: 'x', startDate: '2026-11-19T16:00:00.000Z', endDate: '2026-11-20T15:59:59.000Z',
    });
    expect(dateRange({ range: null, q: 'x' })).toEqual({ q: 'x' });
  });

  it("takes today from the business clock, not the browser's", () => {
    setBusinessTimeZone('Asia/Shanghai');
    const today = businessTodayPicker().format('YYYY-MM-DD');
    expect(today).toBe(formatDateTime(Date.now()).slice(0, 10));
  });

  it('labels the zone by its offset', () => {
    setBusinessTimeZone('Asia/Shanghai');
    expect(zoneLabel()).toBe('UTC+8');
    setBusinessTimeZone('Asia/Kolkata');
    expect(zoneLabel()).toBe('UTC+5:30');
  });

  it('gives no picker value for a missing time', () => {
    expect(instantToPicker(null)).toBeNull();
    expect(instantToPicker('nonsense')).toBeNull();
  });
});
