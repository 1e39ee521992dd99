export type Lang = 'zh' | 'en';

/** The product runs in mainland China; servers may run in UTC, so never rely on the host zone. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

// The server writes exports in China time; the console shows the browser's own zone, matching its date pickers.
let displayTimeZone = DEFAULT_TIME_ZONE;
/** Sets the zone formatDateTime/formatDate use when none is given. */
export function setDisplayTimeZone(tz: string): void {
  displayTimeZone = tz;
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

/** Wall-clock fields of `d` in `timeZone`; null for missing or invalid input. */
export function calendarParts(d: DateInput, timeZone: string = DEFAULT_TIME_ZONE): CalendarParts | null {
  if (typeof d === 'string') {
    const dateOnly = parseDateOnly(d.trim());
    if (dateOnly) return dateOnly;
    if (DATE_ONLY_RE.test(d.trim())) return null;
  }
  const date = toDate(d);
  if (!date) return null;
  const out: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(date)) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return {
    year: out.year,
    month: out.month,
    day: out.day,
    hour: out.hour,
    minute: out.minute,
    second: out.second,
  };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * 'YYYY-MM-DD HH:mm:ss' in `timeZone`. The same layout is used for both languages
 * because it is unambiguous in each; `lang` is accepted so call sites stay uniform.
 */
export function formatDateTime(d: DateInput, _lang: Lang = 'zh', timeZone: string = displayTimeZone): string {
  const p = calendarParts(d, timeZone);
  if (!p) return '-';
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** 'YYYY-MM-DD' in `timeZone`. */
export function formatDate(d: DateInput, _lang: Lang = 'zh', timeZone: string = displayTimeZone): string {
  const p = calendarParts(d, timeZone);
  if (!p) return '-';
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}
