export * from './i18n.ts';
export * from './regions.ts';
export * from './errors.ts';
export * from './error-messages.ts';
export * from './permissions.ts';
export * from './enums/index.ts';
export * from './api/index.ts';
export * from './validate/index.ts';
export {
  formatMoney, moneyToFen, fenToMoney, toMoneyText, formatCount, formatDuration, formatDurationBetween, formatSize, formatSizeFromMB, formatSizeIn, parseSize, SIZE_UNITS, formatDateTime, formatDate, calendarParts, toDate,
  DEFAULT_TIME_ZONE, setBusinessTimeZone, getBusinessTimeZone, isValidTimeZone, zoneOffsetMs, zonedTime, formatDateRange,
  businessDay, businessDayStart, businessDayStartMs, businessDayEnd, businessToday, formatZoneOffset, withZoneLabel, type DateInput, parseDecimal, roundHalfAwayFromZero, groupThousands, toFiniteNumber, type SizeUnit,
} from './format/index.ts';
