// Every Drizzle table of every module, for the typed query builder. Tables are created by the SQL files
// in db/migrations; a test checks that both agree.
export * from '../modules/account/tables.ts';
export * from '../modules/auth/tables.ts';
export * from '../platform/tables.ts';
export * from '../modules/notice/tables.ts';
export * from '../modules/openapi/tables.ts';
export * from '../modules/network/tables.ts';
export * from '../modules/network/commserv/tables.ts';
export * from '../modules/plan/plan-tables.ts';
export * from '../modules/network/opconfig/tables.ts';
export * from '../modules/network/netconfig/tables.ts';
export * from '../modules/plan/retail-tables.ts';
export * from '../modules/card/card-tables.ts';
export * from '../modules/card/batch/tables.ts';
export * from '../modules/card/detail/tables.ts';
export * from '../modules/diagnose/diagnose-tables.ts';
export * from '../modules/card/catalog/tables.ts';
export * from '../modules/usage/usage-tables.ts';
export * from '../modules/pool/pool-tables.ts';
export * from '../modules/money/ledger-tables.ts';
export * from '../modules/money/recharge/recharge-tables.ts';
export * from '../modules/money/withdraw/withdraw-tables.ts';
export * from '../modules/money/credit/credit-tables.ts';
export * from '../modules/billing/run/bill-tables.ts';
