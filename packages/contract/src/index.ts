export * from './i18n.ts';
export * from './errors.ts';
export * from './error-messages.ts';
export * from './permissions.ts';
export * from './enums/index.ts';
export * from './api/index.ts';
export * from './validate/index.ts';
export {
  formatMoney, formatSize, formatSizeFromMB, parseSize, formatDateTime, formatDate, calendarParts, toDate,
  DEFAULT_TIME_ZONE, setDisplayTimeZone, parseDecimal, roundHalfAwayFromZero, groupThousands, toFiniteNumber,
} from './format/index.ts';
