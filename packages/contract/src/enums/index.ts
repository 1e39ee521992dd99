export * from './define.ts';
export * from './account.ts';
export * from './system.ts';
export * from './commserv.ts';
export * from './plan.ts';
export * from './opconfig.ts';
export * from './netconfig.ts';
export * from './card.ts';
