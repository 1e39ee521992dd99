import { sql } from 'drizzle-orm';
import { pgTable, integer, smallint, text, numeric, bigint, boolean, jsonb, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** Money columns read as exact decimal strings ('1234.50'), never as floats. */
const money = (name: string) => numeric(name, { precision: 16, scale: 2 });

/** One movement of money (0027_ledger.sql): its postings sum to zero. */
export const ledgerJournals = pgTable('ledger_journals', {
  journalId: bigint('journal_id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  kind: smallint('kind').notNull(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  refType: text('ref_type'),
  refId: text('ref_id'),
  memo: text('memo'),
  idempotencyKey: text('idempotency_key'),
  accountId: integer('account_id'),
  createdBy: text('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const ledgerPostings = pgTable('ledger_postings', {
  postingId: bigint('posting_id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  journalId: bigint('journal_id', { mode: 'number' }).notNull(),
  custId: integer('cust_id'),
  account: smallint('account').notNull(),
  /** the journal's kind (0032: the ledger page filters and counts by it without the journals) */
  kind: smallint('kind').notNull(),
  amount: money('amount').notNull(),
  balanceAfter: money('balance_after'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** The projection of each customer's postings (and its valid credit, kept by the credit orders). */
export const customerBalances = pgTable('customer_balances', {
  custId: integer('cust_id').primaryKey(),
  rootCustId: integer('root_cust_id').notNull(),
  preDeposit: money('pre_deposit').notNull().default('0'),
  grants: money('grants').notNull().default('0'),
  contractPayment: money('contract_payment').notNull().default('0'),
  withdrawHold: money('withdraw_hold').notNull().default('0'),
  credit: money('credit').notNull().default('0'),
  /** pre-deposit + grants + contract payments + credit (a stored generated column, 0031_balance_order.sql) */
  available: money('available').generatedAlwaysAs(sql`pre_deposit + grants + contract_payment + credit`),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const ledgerChecks = pgTable('ledger_checks', {
  checkId: integer('check_id').primaryKey().generatedAlwaysAsIdentity(),
  checkedAt: ts('checked_at').notNull().defaultNow(),
  ok: boolean('ok').notNull(),
  postings: bigint('postings', { mode: 'number' }).notNull(),
  durationMs: integer('duration_ms').notNull(),
  mismatches: jsonb('mismatches').notNull().default([]),
});
