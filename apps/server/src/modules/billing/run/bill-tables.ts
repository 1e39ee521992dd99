// Drizzle tables of bills (issue 14); keep in step with migrations/0035_bills.sql. bill_lines is partitioned by
// period in SQL (Drizzle cannot declare that); the table here reads and writes through the parent.
import { pgTable, integer, smallint, text, numeric, bigint, boolean, date, timestamp, primaryKey } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const day = (name: string) => date(name, { mode: 'string' });
/** money on a bill: an exact decimal string from numeric(16, 2), never a float */
const total = (name: string) => numeric(name, { precision: 16, scale: 2, mode: 'string' });
/** money on a line or a fee: numeric(14, 2) */
const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'string' });
const big = (name: string) => bigint(name, { mode: 'number' });

export const billRuns = pgTable('bill_runs', {
  runId: big('run_id').primaryKey().generatedAlwaysAsIdentity(),
  periodKey: text('period_key').notNull(),
  /** null: every customer; else a re-run of this customer's unpublished bill */
  custId: integer('cust_id'),
  /** BillRunState */
  state: smallint('state').notNull().default(1),
  cursorIccid: text('cursor_iccid'),
  cardsDone: big('cards_done').notNull().default(0),
  cardsTotal: big('cards_total').notNull().default(0),
  linesWritten: big('lines_written').notNull().default(0),
  /** failed attempts in a row (BILL_RUN_MAX_FAILURES: the run is failed) */
  failures: smallint('failures').notNull().default(0),
  /** 1 cards, 2 totals, 3 done */
  step: smallint('step').notNull().default(1),
  leaseOwner: text('lease_owner'),
  leaseUntil: ts('lease_until'),
  startedBy: text('started_by').notNull(),
  startedAt: ts('started_at').notNull().defaultNow(),
  finishedAt: ts('finished_at'),
  error: text('error'),
});

export const bills = pgTable('bills', {
  billId: big('bill_id').primaryKey().generatedAlwaysAsIdentity(),
  billNo: text('bill_no').notNull().unique(),
  periodKey: text('period_key').notNull(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  periodFrom: day('period_from').notNull(),
  periodTo: day('period_to').notNull(),
  published: boolean('published').notNull().default(false),
  publishedAt: ts('published_at'),
  publishedBy: text('published_by'),
  dueDate: day('due_date'),
  cardCount: integer('card_count').notNull().default(0),
  lineCount: big('line_count').notNull().default(0),
  total: total('total').notNull().default('0'),
  tax: total('tax').notNull().default('0'),
  planFee: total('plan_fee').notNull().default('0'),
  prepaidFee: total('prepaid_fee').notNull().default('0'),
  overageFee: total('overage_fee').notNull().default('0'),
  testFee: total('test_fee').notNull().default('0'),
  downtimeFee: total('downtime_fee').notNull().default('0'),
  packFee: total('pack_fee').notNull().default('0'),
  oneOffFee: total('one_off_fee').notNull().default('0'),
  withheld: total('withheld').notNull().default('0'),
  amountDue: total('amount_due').notNull().default('0'),
  writtenOff: total('written_off').notNull().default('0'),
  writtenOffAt: ts('written_off_at'),
  unbilledOverBytes: big('unbilled_over_bytes').notNull().default(0),
  runId: big('run_id'),
  ratedAt: ts('rated_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const billLines = pgTable(
  'bill_lines',
  {
    periodKey: text('period_key').notNull(),
    billId: big('bill_id').notNull(),
    /** '' for a customer-level one-off fee */
    iccid: text('iccid').notNull(),
    /** BillLineCategory */
    category: smallint('category').notNull(),
    fromDay: day('from_day').notNull(),
    toDay: day('to_day').notNull(),
    /** a one-off fee's id, else 0 */
    refId: big('ref_id').notNull().default(0),
    goodsReleaseId: integer('goods_release_id'),
    operatorId: smallint('operator_id'),
    cardTypeId: integer('card_type_id'),
    quantity: big('quantity').notNull(),
    unitPrice: money('unit_price').notNull(),
    /** including tax */
    amount: money('amount').notNull(),
    tax: money('tax').notNull(),
    usedBytes: big('used_bytes'),
    quotaBytes: big('quota_bytes'),
    withheld: boolean('withheld').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.periodKey, t.billId, t.iccid, t.category, t.fromDay, t.refId] })],
);

export const billSummaries = pgTable(
  'bill_summaries',
  {
    billId: big('bill_id').notNull().references(() => bills.billId, { onDelete: 'cascade' }),
    /** BillSummaryDim */
    dim: smallint('dim').notNull(),
    dimKey: integer('dim_key').notNull(),
    category: smallint('category').notNull(),
    cards: integer('cards').notNull(),
    quantity: big('quantity').notNull(),
    amount: total('amount').notNull(),
    tax: total('tax').notNull(),
    usedBytes: big('used_bytes').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.billId, t.dim, t.dimKey, t.category] })],
);

export const oneOffFees = pgTable('one_off_fees', {
  feeId: big('fee_id').primaryKey().generatedAlwaysAsIdentity(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  /** null: on the customer, not a card */
  iccid: text('iccid'),
  amount: money('amount').notNull(),
  /** percent, two decimals (6 = 6 %), as the plans' tax_rate */
  taxRate: numeric('tax_rate', { precision: 5, scale: 2, mode: 'number' }).notNull().default(6),
  reason: text('reason').notNull(),
  feeDay: day('fee_day').notNull(),
  /** OneOffFeeState */
  state: smallint('state').notNull().default(1),
  billId: big('bill_id'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  cancelledBy: text('cancelled_by'),
  cancelledAt: ts('cancelled_at'),
});

export const billWriteOffs = pgTable('bill_write_offs', {
  writeOffId: big('write_off_id').primaryKey().generatedAlwaysAsIdentity(),
  billId: big('bill_id').notNull().references(() => bills.billId),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  amount: money('amount').notNull(),
  fromGrants: money('from_grants').notNull().default('0'),
  fromPreDeposit: money('from_pre_deposit').notNull().default('0'),
  overdue: boolean('overdue').notNull().default(false),
  journalId: big('journal_id').notNull(),
  remark: text('remark'),
  /** 1 by a person, 2 by an automated ledger rule */
  source: smallint('source').notNull().default(1),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
