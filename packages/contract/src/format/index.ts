export * from './decimal.ts';
export * from './money.ts';
export * from './size.ts';
export * from './datetime.ts';
export * from './duration.ts';
