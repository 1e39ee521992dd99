import { sql } from 'drizzle-orm';
import { calendarParts, zonedTime } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';

/**
 * Working days (issue 13, docs/decisions.md "Withdrawals and working days"): Monday–Friday minus public holidays,
 * plus the make-up working days that fall on a weekend, as kept in the `work_calendar` table (shipped with China's
 * 2026 and 2027 arrangements, edited by staff). All days are calendar days of the business time zone.
 */

/** work_calendar.kind */
export const CalendarDayKind = { Holiday: 1, MakeUpWorkday: 2 } as const;

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** 'YYYY-MM-DD' + n calendar days (pure calendar arithmetic, no time zone involved). */
export function shiftDay(day: string, n: number): string {
  const m = DAY_RE.exec(day);
  if (!m) throw new Error(`not a day: ${day}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + n));
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Day of the week of a calendar day: 0 Sunday … 6 Saturday. */
export function weekdayOf(day: string): number {
  const m = DAY_RE.exec(day);
  if (!m) throw new Error(`not a day: ${day}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).getUTCDay();
}

const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

/** The calendar's entries between two days (inclusive), day → kind. */
async function entries(ex: Executor, from: string, to: string): Promise<Map<string, number>> {
  const rows = rowsOf<{ day: string; kind: number }>(await ex.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, kind
    from work_calendar where day between ${from}::date and ${to}::date`));
  return new Map(rows.map((r) => [r.day, Number(r.kind)]));
}

const working = (day: string, marks: Map<string, number>): boolean => {
  const kind = marks.get(day);
  if (kind === CalendarDayKind.Holiday) return false;
  if (kind === CalendarDayKind.MakeUpWorkday) return true;
  const wd = weekdayOf(day);
  return wd !== 0 && wd !== 6;
};

/** Whether a business-zone calendar day (YYYY-MM-DD) is a working day. */
export async function isWorkingDay(ex: Executor, day: string): Promise<boolean> {
  if (!DAY_RE.test(day)) throw new Error(`not a day: ${day}`);
  return working(day, await entries(ex, day, day));
}

/**
 * The first working day on or after `day` (a run due on a holiday happens on the next working day).
 */
export async function nextWorkingDay(ex: Executor, day: string): Promise<string> {
  let from = day;
  for (;;) {
    const to = shiftDay(from, 60);
    const marks = await entries(ex, from, to);
    for (let d = from; d <= to; d = shiftDay(d, 1)) if (working(d, marks)) return d;
    from = shiftDay(to, 1);
  }
}

/**
 * The moment `days` working days after `from`, in the business time zone: the same wall-clock time on the
 * `days`-th working day after the day of `from` (Friday 15:00 + 2 working days = Tuesday 15:00 when Monday is a
 * working day). `days` of 0 returns `from` itself.
 */
export async function addWorkingDays(ex: Executor, from: Date, days: number): Promise<Date> {
  if (!Number.isInteger(days) || days < 0) throw new Error(`working days must be a whole number ≥ 0: ${days}`);
  if (days === 0) return new Date(from.getTime());
  const p = calendarParts(from);
  if (!p) throw new Error('invalid date');
  let day = `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
  let left = days;
  // a window generously larger than `days` working days; widened while the holidays eat it up
  while (left > 0) {
    const start = shiftDay(day, 1);
    const end = shiftDay(day, left * 2 + 30);
    const marks = await entries(ex, start, end);
    for (let d = start; d <= end && left > 0; d = shiftDay(d, 1)) {
      day = d;
      if (working(d, marks)) left -= 1;
    }
  }
  const [y, m, d] = day.split('-').map(Number);
  const ms = from.getTime() % 1000;
  return new Date(zonedTime(y, m, d, p.hour, p.minute, p.second).getTime() + ms);
}
