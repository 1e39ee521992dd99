// Date pickers show a wall clock in the browser's own zone; the product's days and times are in its business zone
// (docs/time-zone.md). These helpers translate between the two, so a user in Berlin who picks 2026-11-20 means the
// business day 2026-11-20, and a picked 09:00 means 09:00 on the business clock.
import dayjs, { type Dayjs } from 'dayjs';
import { businessToday, calendarParts, formatDateTime, formatZoneOffset, getBusinessTimeZone, zonedTime, type DateInput } from '@lynx/contract';

/** The instant (ISO) a picked date and time mean on the business clock. */
export function pickerToInstant(d: Dayjs): string {
  return zonedTime(d.year(), d.month() + 1, d.date(), d.hour(), d.minute(), d.second()).toISOString();
}

/** The business day (YYYY-MM-DD) a picked date means. */
export const pickerToDay = (d: Dayjs): string => d.format('YYYY-MM-DD');

/** A picker value showing an instant's business wall clock (the inverse of pickerToInstant). */
export function instantToPicker(v: DateInput): Dayjs | null {
  const p = calendarParts(v);
  if (!p) return null;
  // an ISO text without an offset is read as the picker's own wall clock, which is what it must show
  return dayjs(formatDateTime(v).replace(' ', 'T'));
}

/** Now, as a picker value on the business clock (for "not before now" rules). */
export const businessNow = (): Dayjs => instantToPicker(Date.now())!;

/** Today's business day as a picker value (for "not before today" rules). */
export const businessTodayPicker = (): Dayjs => dayjs(businessToday());

/** A picked range of days → the business days it covers. */
export function pickedDays(range: [Dayjs | null, Dayjs | null] | null | undefined): [string, string] | null {
  return range?.[0] && range[1] ? [pickerToDay(range[0]), pickerToDay(range[1])] : null;
}

/** The zone label beside times: 'UTC+8'. */
export const zoneLabel = (): string => formatZoneOffset(getBusinessTimeZone());
