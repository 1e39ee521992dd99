import { calendarParts, getBusinessTimeZone, type DateInput } from '../format/datetime.ts';

/**
 * Whether `date` lies within `months` calendar months of `now` (either direction),
 * counted on year*12+month so December and the following January are 1 month apart,
 * while dates in different years qualify only when under 12 months apart.
 * Months are taken in `timeZone` (the business zone) because month boundaries differ between zones.
 */
export function isWithinMonths(
  date: DateInput,
  months: number,
  now: DateInput = new Date(),
  timeZone: string = getBusinessTimeZone(),
): boolean {
  const d = calendarParts(date, timeZone);
  const n = calendarParts(now, timeZone);
  if (!d || !n || !(months > 0)) return false;
  const apart = Math.abs(n.year * 12 + n.month - (d.year * 12 + d.month));
  return apart < months && apart < 12;
}
