export type Lang = 'zh' | 'en';

/** The product's business time zone unless the server is configured otherwise (CMP_TIME_ZONE). */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

// One zone governs every business day, month, billing cycle and shown time: the server sets it from its
// configuration at start, the console from the server's public settings. Never the host's or browser's zone.
let businessTimeZone = DEFAULT_TIME_ZONE;

/** Whether `tz` is a time zone name this runtime knows (an IANA name such as Europe/Berlin, or UTC). */
export function isValidTimeZone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || !tz.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Sets the business time zone every formatter and calendar helper uses when none is given. */
export function setBusinessTimeZone(tz: string): void {
  if (!isValidTimeZone(tz)) throw new Error(`"${tz}" is not a time zone name (example: Asia/Shanghai, Europe/Berlin)`);
  businessTimeZone = tz;
}

/** The business time zone (IANA name). */
export function getBusinessTimeZone(): string {
  return businessTimeZone;
}

export type DateInput = Date | string | number | null | undefined;

export interface CalendarParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

// Intl.DateTimeFormat construction is slow enough to matter when rendering big tables.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      // h23 so midnight is '00', not '24' as some ICU versions emit with hour12: false.
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

// Zone offsets change only on quarter-hour boundaries (UTC), so one lookup serves a 15-minute bucket; formatting
// a million export rows or usage days then costs a Map hit per value instead of an Intl call.
const BUCKET_MS = 900_000;
const offsets = new Map<string, number>();

/** Offset of `timeZone` from UTC at instant `at` (ms): +8 h for Asia/Shanghai, +1 h or +2 h for Europe/Berlin. */
export function zoneOffsetMs(at: number, timeZone: string = businessTimeZone): number {
  const bucket = Math.floor(at / BUCKET_MS) * BUCKET_MS;
  const key = `${timeZone}|${bucket}`;
  let off = offsets.get(key);
  if (off === undefined) {
    const p: Record<string, number> = {};
    for (const part of formatterFor(timeZone).formatToParts(new Date(bucket))) {
      if (part.type !== 'literal') p[part.type] = Number(part.value);
    }
    const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    off = wall - bucket;
    if (offsets.size > 20_000) offsets.clear();
    offsets.set(key, off);
  }
  return off;
}

/** The instant at which the wall clock of `timeZone` reads the given fields (month 1-12; overflow rolls over). */
export function zonedTime(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, timeZone: string = businessTimeZone): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // two passes settle the offset on either side of a daylight-saving change
  let at = wall - zoneOffsetMs(wall, timeZone);
  at = wall - zoneOffsetMs(at, timeZone);
  return new Date(at);
}

// Date-only values ('2024-05-01', DB `date` columns, month pickers) are calendar
// dates, not instants: parsing them as UTC midnight would shift the day west of UTC.
const DATE_ONLY_RE = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/;

function parseDateOnly(s: string): CalendarParts | null {
  const m = DATE_ONLY_RE.exec(s);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = m[3] === undefined ? 1 : Number(m[3]);
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  return { year, month, day, hour: 0, minute: 0, second: 0 };
}

export function toDate(d: DateInput): Date | null {
  if (d === null || d === undefined) return null;
  if (typeof d === 'string' && d.trim() === '') return null;
  const date = d instanceof Date ? d : new Date(d);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Wall-clock fields of `d` in `timeZone` (the business zone by default); null for missing or invalid input. */
export function calendarParts(d: DateInput, timeZone: string = businessTimeZone): CalendarParts | null {
  if (typeof d === 'string') {
    const dateOnly = parseDateOnly(d.trim());
    if (dateOnly) return dateOnly;
    if (DATE_ONLY_RE.test(d.trim())) return null;
  }
  const date = toDate(d);
  if (!date) return null;
  const ms = date.getTime();
  const s = new Date(ms + zoneOffsetMs(ms, timeZone));
  return {
    year: s.getUTCFullYear(),
    month: s.getUTCMonth() + 1,
    day: s.getUTCDate(),
    hour: s.getUTCHours(),
    minute: s.getUTCMinutes(),
    second: s.getUTCSeconds(),
  };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * 'YYYY-MM-DD HH:mm:ss' in `timeZone` (the business zone by default). The same layout is used for both
 * languages because it is unambiguous in each; `lang` is accepted so call sites stay uniform.
 */
export function formatDateTime(d: DateInput, _lang: Lang = 'zh', timeZone: string = businessTimeZone): string {
  const p = calendarParts(d, timeZone);
  if (!p) return '-';
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** 'YYYY-MM-DD' in `timeZone` (the business zone by default). */
export function formatDate(d: DateInput, _lang: Lang = 'zh', timeZone: string = businessTimeZone): string {
  const p = calendarParts(d, timeZone);
  if (!p) return '-';
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/**
 * A period as calendar dates, '2026-11-01 – 2026-11-30'. `end` is exclusive (the instant the next period
 * starts, as cycles are stored), so the last day shown is the day before it; a date-only `end` is inclusive.
 */
export function formatDateRange(start: DateInput, end: DateInput, timeZone: string = businessTimeZone): string {
  const to = typeof end === 'string' && DATE_ONLY_RE.test(end.trim()) ? end : (() => {
    const e = toDate(end);
    return e ? new Date(e.getTime() - 1) : null;
  })();
  return `${formatDate(start, 'zh', timeZone)} – ${formatDate(to, 'zh', timeZone)}`;
}

/** The business day (YYYY-MM-DD) an instant (ms) falls on. */
export function businessDay(ms: number, timeZone: string = businessTimeZone): string {
  return new Date(ms + zoneOffsetMs(ms, timeZone)).toISOString().slice(0, 10);
}

/** The instant (ms) a business day (YYYY-MM-DD) starts: 00:00 on that day in the business zone. */
export function businessDayStartMs(day: string, timeZone: string = businessTimeZone): number {
  const [y, m, d] = day.split('-').map(Number);
  return zonedTime(y, m, d, 0, 0, 0, timeZone).getTime();
}

/** The instant a business day (YYYY-MM-DD) starts, as a Date. */
export const businessDayStart = (day: string, timeZone: string = businessTimeZone): Date => new Date(businessDayStartMs(day, timeZone));

/** Today's business day (YYYY-MM-DD). */
export const businessToday = (now: number = Date.now(), timeZone: string = businessTimeZone): string => businessDay(now, timeZone);

/**
 * The zone's offset as users read it: 'UTC+8', 'UTC+5:30', 'UTC-3', 'UTC' (at `at`, so Berlin is UTC+1 in winter
 * and UTC+2 in summer). This is the label beside times wherever a user could doubt their zone.
 */
export function formatZoneOffset(timeZone: string = businessTimeZone, at: number = Date.now()): string {
  const minutes = Math.round(zoneOffsetMs(at, timeZone) / 60_000);
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  const h = Math.floor(abs / 60);
  const m = abs % 60;
  return `UTC${sign}${h}${m ? `:${pad(m)}` : ''}`;
}

/** A column or field title with the zone label: 'Created at (UTC+8)', '创建时间 (UTC+8)'. */
export const withZoneLabel = (title: string, timeZone: string = businessTimeZone, at: number = Date.now()): string =>
  `${title} (${formatZoneOffset(timeZone, at)})`;

/** The instant a business day (YYYY-MM-DD) ends: 00:00 of the next day (23 or 25 hours later across a clock change). */
export function businessDayEnd(day: string, timeZone: string = businessTimeZone): Date {
  const [y, m, d] = day.split('-').map(Number);
  return zonedTime(y, m, d + 1, 0, 0, 0, timeZone);
}
