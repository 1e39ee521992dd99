import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CalendarDayType, ErrorCode, formatDateTime, zonedTime, withdraw as api } from '@lynx/contract';
import { backends, startTestApp, type TestApp } from './harness.ts';
import { addWorkingDays, isWorkingDay, nextWorkingDay } from '../src/modules/money/workdays.ts';

/**
 * Issue 13, working days: Monday–Friday minus the holidays of the shipped calendar (China 2026, 2027 statutory dates),
 * plus make-up working days; staff edit the calendar (audited), customers cannot.
 */
describe.each(backends)('working days on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  const at = (y: number, m: number, d: number, h = 15) => zonedTime(y, m, d, h, 0, 0);
  const plus = async (from: Date, n: number) => formatDateTime(await addWorkingDays(t.deps.db, from, n));

  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('ships the official 2026 arrangement and the 2027 statutory dates marked provisional', async () => {
    const d2026 = (await t.call(api.getCalendarDays.name, { year: 2026 }, { token: admin })).body.data as { day: string; kind: number; provisional: boolean }[];
    const holidays = d2026.filter((d) => d.kind === CalendarDayType.Holiday).map((d) => d.day);
    const makeUp = d2026.filter((d) => d.kind === CalendarDayType.MakeUpWorkday).map((d) => d.day);
    expect(holidays).toHaveLength(3 + 9 + 3 + 5 + 3 + 3 + 7);
    expect(makeUp).toEqual(['2026-01-04', '2026-02-14', '2026-02-28', '2026-05-09', '2026-09-20', '2026-10-10']);
    expect(d2026.every((d) => !d.provisional)).toBe(true);
    const d2027 = (await t.call(api.getCalendarDays.name, { year: 2027 }, { token: enterprise })).body.data as { day: string; provisional: boolean }[];
    expect(d2027.length).toBeGreaterThan(10);
    expect(d2027.every((d) => d.provisional)).toBe(true);
  });

  it('a plain week: Friday 15:00 + 2 working days is Tuesday 15:00; + 0 is the same moment', async () => {
    expect(await plus(at(2026, 11, 27), 2)).toBe('2026-12-01 15:00:00');
    expect(await plus(at(2026, 11, 27), 1)).toBe('2026-11-30 15:00:00');
    expect(await plus(at(2026, 11, 28), 1)).toBe('2026-11-30 15:00:00');
    expect(await plus(at(2026, 11, 27), 0)).toBe('2026-11-27 15:00:00');
  });

  it('skips a holiday and counts a make-up working day', async () => {
    // National Day Oct 1–7; Saturday Oct 10 is a make-up working day
    expect(await plus(at(2026, 9, 30, 10), 1)).toBe('2026-10-08 10:00:00');
    expect(await plus(at(2026, 9, 30, 10), 3)).toBe('2026-10-10 10:00:00');
    expect(await plus(at(2026, 9, 30, 10), 4)).toBe('2026-10-12 10:00:00');
    // Spring Festival Feb 15–23; Saturday Feb 14 works
    expect(await plus(at(2026, 2, 13), 1)).toBe('2026-02-14 15:00:00');
    expect(await plus(at(2026, 2, 13), 2)).toBe('2026-02-24 15:00:00');
    expect(await isWorkingDay(t.deps.db, '2026-02-14')).toBe(true);
    expect(await isWorkingDay(t.deps.db, '2026-02-16')).toBe(false);
    expect(await isWorkingDay(t.deps.db, '2026-11-28')).toBe(false);
    expect(await isWorkingDay(t.deps.db, '2026-11-27')).toBe(true);
    expect(await nextWorkingDay(t.deps.db, '2026-10-01')).toBe('2026-10-08');
    // 2026-09-20 (Sunday) is a make-up working day
    expect(await nextWorkingDay(t.deps.db, '2026-09-19')).toBe('2026-09-20');
  });

  it('staff add, edit and delete a day (audited); the sums follow at once', async () => {
    const add = await t.call(api.addCalendarDay.name, { day: '2026-11-30', kind: CalendarDayType.Holiday, name: '测试假日', nameEn: 'Test holiday' }, { token: admin });
    expect(add.body.success).toBe(true);
    expect(await plus(at(2026, 11, 27), 2)).toBe('2026-12-02 15:00:00');
    const again = await t.call(api.addCalendarDay.name, { day: '2026-11-30', kind: CalendarDayType.Holiday, name: 'x' }, { token: admin, lang: 'zh' });
    expect(again.body.errorCode).toBe(ErrorCode.CalendarDayExists);
    expect(again.body.msg).toBe('2026-11-30 已在工作日历中，请直接修改');
    const weekdayMakeUp = await t.call(api.updateCalendarDay.name, { day: '2026-11-30', kind: CalendarDayType.MakeUpWorkday, name: 'x' }, { token: admin });
    expect(weekdayMakeUp.body.errorCode).toBe(ErrorCode.CalendarMakeUpNotWeekend);
    const saturday = await t.call(api.addCalendarDay.name, { day: '2026-11-28', kind: CalendarDayType.MakeUpWorkday, name: '调休' }, { token: admin });
    expect(saturday.body.success).toBe(true);
    expect(await plus(at(2026, 11, 27), 1)).toBe('2026-11-28 15:00:00');
    const edit = await t.call(api.updateCalendarDay.name, { day: '2026-11-28', kind: CalendarDayType.Holiday, name: '改为假日' }, { token: admin });
    expect(edit.body.data.kind).toBe(CalendarDayType.Holiday);
    const noDay = await t.call(api.deleteCalendarDay.name, { day: '2026-02-30' }, { token: admin });
    expect(noDay.body.success).toBe(false);
    expect(noDay.status).toBeLessThan(500);
    for (const day of ['2026-11-30', '2026-11-28']) expect((await t.call(api.deleteCalendarDay.name, { day }, { token: admin })).body.success).toBe(true);
    expect(await plus(at(2026, 11, 27), 2)).toBe('2026-12-01 15:00:00');
    const trail = await t.database.sql.query<{ n: string }>(`select count(*)::text as n from audit_log where entity = 'work_calendar'`);
    expect(Number(trail[0].n)).toBe(5);
  });

  it('a customer cannot edit the calendar; nothing changes', async () => {
    const r = await t.call(api.addCalendarDay.name, { day: '2026-12-01', kind: CalendarDayType.Holiday, name: 'x' }, { token: enterprise });
    expect(r.body.success).toBe(false);
    expect([ErrorCode.PermissionDenied, ErrorCode.CalendarStaffOnly]).toContain(r.body.errorCode);
    const del = await t.call(api.deleteCalendarDay.name, { day: '2026-10-01' }, { token: enterprise });
    expect(del.body.success).toBe(false);
    expect(await isWorkingDay(t.deps.db, '2026-12-01')).toBe(true);
    expect(await isWorkingDay(t.deps.db, '2026-10-01')).toBe(false);
  });
});
