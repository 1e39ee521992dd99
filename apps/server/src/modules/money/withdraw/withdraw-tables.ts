import { pgTable, integer, smallint, text, numeric, bigint, boolean, date, timestamp } from 'drizzle-orm/pg-core';

// Drizzle tables of withdrawals and the working-day calendar; keep in step with migrations/0029_withdraw.sql and 0034_withdraw_payout.sql.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** Money columns read as exact decimal strings ('1234.50'), never as floats. */
const money = (name: string) => numeric(name, { precision: 16, scale: 2 });

/** Holidays (kind 1) and make-up working days (kind 2) of the business time zone's calendar. */
export const workCalendar = pgTable('work_calendar', {
  day: date('day', { mode: 'string' }).primaryKey(),
  kind: smallint('kind').notNull(),
  name: text('name').notNull(),
  nameEn: text('name_en'),
  provisional: boolean('provisional').notNull().default(false),
  updatedBy: text('updated_by'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const withdrawRuns = pgTable('withdraw_runs', {
  runId: integer('run_id').primaryKey().generatedAlwaysAsIdentity(),
  trigger: smallint('trigger').notNull(),
  state: smallint('state').notNull().default(1),
  itemCount: integer('item_count').notNull().default(0),
  paidCount: integer('paid_count').notNull().default(0),
  failedCount: integer('failed_count').notNull().default(0),
  startedBy: text('started_by').notNull(),
  startedAccountId: integer('started_account_id'),
  startedAt: ts('started_at').notNull().defaultNow(),
  finishedAt: ts('finished_at'),
});

export const withdrawals = pgTable('withdrawals', {
  withdrawId: integer('withdraw_id').primaryKey().generatedAlwaysAsIdentity(),
  withdrawNo: text('withdraw_no').notNull(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  amount: money('amount').notNull(),
  accountName: text('account_name').notNull(),
  bankName: text('bank_name').notNull(),
  bankAccount: text('bank_account').notNull(),
  state: smallint('state').notNull().default(1),
  remark: text('remark'),
  appliedBy: text('applied_by').notNull(),
  appliedAccountId: integer('applied_account_id'),
  appliedAt: ts('applied_at').notNull().defaultNow(),
  expectedRunDay: date('expected_run_day', { mode: 'string' }).notNull(),
  expectedArrivalDay: date('expected_arrival_day', { mode: 'string' }).notNull(),
  reviewedBy: text('reviewed_by'),
  reviewedAt: ts('reviewed_at'),
  reviewReason: text('review_reason'),
  runId: integer('run_id'),
  paidAt: ts('paid_at'),
  paidBy: text('paid_by'),
  holdJournalId: bigint('hold_journal_id', { mode: 'number' }),
  settleJournalId: bigint('settle_journal_id', { mode: 'number' }),
  payoutAttempts: smallint('payout_attempts').notNull().default(0),
  payoutError: text('payout_error'),
  payoutFailedAt: ts('payout_failed_at'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
