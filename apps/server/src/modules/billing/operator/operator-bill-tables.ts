// Drizzle tables of operator bills (issue 14); keep in step with migrations/0039_operator_bills.sql. operator_bill_cards
// is partitioned by period in SQL (Drizzle cannot declare that); the table here reads and writes through the parent.
import { pgTable, integer, smallint, text, numeric, bigint, date, timestamp, jsonb, primaryKey } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const day = (name: string) => date(name, { mode: 'string' });
const total = (name: string) => numeric(name, { precision: 16, scale: 2, mode: 'string' });
const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'string' });
const big = (name: string) => bigint(name, { mode: 'number' });

export const operatorBills = pgTable('operator_bills', {
  operatorBillId: big('operator_bill_id').primaryKey().generatedAlwaysAsIdentity(),
  /** 0: the operator's built-in network simulator */
  operAccountId: integer('oper_account_id').notNull(),
  operatorId: smallint('operator_id').notNull(),
  accountName: text('account_name').notNull(),
  periodKey: text('period_key').notNull(),
  periodFrom: day('period_from').notNull(),
  periodTo: day('period_to').notNull(),
  /** OperatorBillState */
  state: smallint('state').notNull().default(1),
  cursorIccid: text('cursor_iccid'),
  billRef: text('bill_ref'),
  tariff: jsonb('tariff'),
  cards: integer('cards').notNull().default(0),
  dataBytes: big('data_bytes').notNull().default(0),
  billedMb: big('billed_mb').notNull().default(0),
  sms: big('sms').notNull().default(0),
  cardFee: total('card_fee').notNull().default('0'),
  dataFee: total('data_fee').notNull().default('0'),
  smsFee: total('sms_fee').notNull().default('0'),
  amount: total('amount').notNull().default('0'),
  tax: total('tax').notNull().default('0'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
  leaseOwner: text('lease_owner'),
  leaseUntil: ts('lease_until'),
  fetchedAt: ts('fetched_at'),
  confirmedAt: ts('confirmed_at'),
  confirmedBy: text('confirmed_by'),
  requestedBy: text('requested_by').notNull().default('system'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const operatorBillPlans = pgTable(
  'operator_bill_plans',
  {
    operatorBillId: big('operator_bill_id').notNull().references(() => operatorBills.operatorBillId, { onDelete: 'cascade' }),
    planCode: text('plan_code').notNull(),
    cards: integer('cards').notNull(),
    dataBytes: big('data_bytes').notNull(),
    billedMb: big('billed_mb').notNull(),
    sms: big('sms').notNull(),
    cardFee: total('card_fee').notNull(),
    dataFee: total('data_fee').notNull(),
    smsFee: total('sms_fee').notNull(),
    amount: total('amount').notNull(),
    tax: total('tax').notNull(),
  },
  (t) => [primaryKey({ columns: [t.operatorBillId, t.planCode] })],
);

export const operatorBillCards = pgTable(
  'operator_bill_cards',
  {
    periodKey: text('period_key').notNull(),
    operatorBillId: big('operator_bill_id').notNull(),
    iccid: text('iccid').notNull(),
    planCode: text('plan_code').notNull().default(''),
    dataBytes: big('data_bytes').notNull(),
    billedMb: big('billed_mb').notNull(),
    sms: integer('sms').notNull(),
    cardFee: money('card_fee').notNull(),
    dataFee: money('data_fee').notNull(),
    smsFee: money('sms_fee').notNull(),
    amount: money('amount').notNull(),
    tax: money('tax').notNull(),
  },
  (t) => [primaryKey({ columns: [t.periodKey, t.operatorBillId, t.iccid] })],
);
