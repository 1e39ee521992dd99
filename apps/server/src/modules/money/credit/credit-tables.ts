import { pgTable, bigint, date, integer, jsonb, numeric, smallint, text, timestamp } from 'drizzle-orm/pg-core';

// Drizzle tables of credit orders; keep in step with migrations/0030_credit.sql.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** Money columns read as exact decimal strings ('1234.50'), never as floats. */
const money = (name: string) => numeric(name, { precision: 16, scale: 2 });

export const creditOrders = pgTable('credit_orders', {
  creditId: integer('credit_id').primaryKey().generatedByDefaultAsIdentity(),
  creditNo: text('credit_no').notNull().unique(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  creditType: smallint('credit_type').notNull(),
  amount: money('amount').notNull(),
  paymentTerm: integer('payment_term').notNull(),
  paymentUnit: smallint('payment_unit').notNull(),
  validFrom: date('valid_from', { mode: 'string' }).notNull(),
  validTo: date('valid_to', { mode: 'string' }),
  remark: text('remark'),
  resetAt: ts('reset_at'),
  resetBy: text('reset_by'),
  resetReason: text('reset_reason'),
  expiredAt: ts('expired_at'),
  accountId: integer('account_id'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const creditChanges = pgTable('credit_changes', {
  changeId: bigint('change_id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  creditId: integer('credit_id').notNull().references(() => creditOrders.creditId),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  action: smallint('action').notNull(),
  before: jsonb('before'),
  after: jsonb('after'),
  reason: text('reason'),
  accountId: integer('account_id'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
