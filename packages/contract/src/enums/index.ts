export * from './define.ts';
export * from './account.ts';
export * from './system.ts';
