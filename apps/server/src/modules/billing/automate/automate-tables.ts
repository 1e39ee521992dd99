// Drizzle tables of the automated ledger (Billing › Automated ledger, 4060000); keep in step with
// migrations/0038_bill_automation.sql. The module reads and writes them with SQL (automate-*.ts).
import { pgTable, integer, smallint, text, numeric, bigint, boolean, date, timestamp, jsonb, unique } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'string' });
const big = (name: string) => bigint(name, { mode: 'number' });

export const billAutomateRules = pgTable('bill_automate_rules', {
  ruleId: integer('rule_id').primaryKey().generatedAlwaysAsIdentity(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  dayOfMonth: smallint('day_of_month').notNull(),
  publish: boolean('publish').notNull(),
  writeOff: boolean('write_off').notNull(),
  /** BillAutoWriteOffMode */
  writeOffMode: smallint('write_off_mode').notNull().default(1),
  enabled: boolean('enabled').notNull().default(true),
  remark: text('remark'),
  firstPeriod: text('first_period').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedBy: text('updated_by'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
  deletedBy: text('deleted_by'),
});

export const billAutomateExecs = pgTable('bill_automate_execs', {
  execId: big('exec_id').primaryKey().generatedAlwaysAsIdentity(),
  ruleId: integer('rule_id').notNull(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  periodKey: text('period_key').notNull(),
  dueDay: date('due_day', { mode: 'string' }).notNull(),
  /** BillAutoExecState */
  state: smallint('state').notNull().default(1),
  billId: big('bill_id'),
  publishResult: smallint('publish_result').notNull().default(0),
  publishReason: smallint('publish_reason'),
  writeOffResult: smallint('write_off_result').notNull().default(0),
  writeOffReason: smallint('write_off_reason'),
  arrears: money('arrears'),
  payable: money('payable'),
  writeOffAmount: money('write_off_amount'),
  writeOffId: big('write_off_id'),
  journalId: big('journal_id'),
  errorCode: integer('error_code'),
  errorParams: jsonb('error_params'),
  attempts: integer('attempts').notNull().default(0),
  firstTriedAt: ts('first_tried_at').notNull().defaultNow(),
  lastTriedAt: ts('last_tried_at').notNull().defaultNow(),
  finishedAt: ts('finished_at'),
}, (t) => [unique().on(t.ruleId, t.periodKey)]);
