import { pgTable, integer, smallint, text, numeric, bigint, boolean, jsonb, timestamp, uuid, date, serial } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** Money columns read as exact decimal strings, never as floats. */
const money = (name: string) => numeric(name, { precision: 16, scale: 2 });

/** Top-ups (0028_recharge.sql). */
export const rechargeOrders = pgTable('recharge_orders', {
  rechargeId: serial('recharge_id').primaryKey(),
  rechargeNo: text('recharge_no').notNull().unique(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  channel: smallint('channel').notNull(),
  amount: money('amount').notNull(),
  refunded: money('refunded').notNull().default('0'),
  payState: smallint('pay_state').notNull(),
  auditState: smallint('audit_state'),
  gateway: text('gateway'),
  payOrderNo: text('pay_order_no').unique(),
  tradeNo: text('trade_no'),
  expiresAt: ts('expires_at'),
  serialNo: text('serial_no'),
  transferDate: date('transfer_date', { mode: 'string' }),
  proofFileId: uuid('proof_file_id'),
  dueAt: ts('due_at'),
  note: text('note'),
  reviewReason: text('review_reason'),
  reviewedBy: text('reviewed_by'),
  reviewedAt: ts('reviewed_at'),
  journalId: bigint('journal_id', { mode: 'number' }),
  paidAt: ts('paid_at'),
  closedAt: ts('closed_at'),
  accountId: integer('account_id'),
  createdBy: text('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const rechargeRefunds = pgTable('recharge_refunds', {
  refundId: serial('refund_id').primaryKey(),
  refundNo: text('refund_no').notNull().unique(),
  rechargeId: integer('recharge_id').notNull(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  amount: money('amount').notNull(),
  reason: text('reason').notNull(),
  channelRefundNo: text('channel_refund_no'),
  journalId: bigint('journal_id', { mode: 'number' }).notNull(),
  accountId: integer('account_id'),
  createdBy: text('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const paymentNotifications = pgTable('payment_notifications', {
  notificationId: serial('notification_id').primaryKey(),
  gateway: text('gateway').notNull(),
  payOrderNo: text('pay_order_no'),
  state: text('state'),
  notifyId: text('notify_id'),
  raw: jsonb('raw').notNull(),
  verified: boolean('verified').notNull(),
  outcome: text('outcome').notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
});

