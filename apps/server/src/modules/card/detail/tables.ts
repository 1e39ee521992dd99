import { pgTable, integer, smallint, text, timestamp, uuid, jsonb, primaryKey } from 'drizzle-orm/pg-core';

// Drizzle tables of the card detail area; keep in step with migrations/0014_card_detail.sql.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const cardSms = pgTable(
  'card_sms',
  {
    iccid: text('iccid').notNull(),
    smsId: uuid('sms_id').notNull().defaultRandom(),
    msisdn: text('msisdn'),
    direction: smallint('direction').notNull().default(1),
    content: text('content').notNull(),
    status: smallint('status').notNull().default(1),
    operAccountId: integer('oper_account_id'),
    messageId: text('message_id'),
    failReason: text('fail_reason'),
    custId: integer('cust_id'),
    rootCustId: integer('root_cust_id'),
    createdBy: text('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    // the SMS centre (migration 0047, docs/sms.md)
    source: smallint('source').notNull().default(1),
    batchId: uuid('batch_id'),
    encoding: smallint('encoding'),
    submittedAt: ts('submitted_at'),
    reportCode: text('report_code'),
    reportAt: ts('report_at'),
    ref: text('ref'),
  },
  (t) => [primaryKey({ columns: [t.iccid, t.smsId] })],
);

export const cardAllocations = pgTable('card_allocations', {
  allocationId: uuid('allocation_id').primaryKey(),
  mode: text('mode').notNull().$type<'transfer' | 'distribute'>(),
  targetCustId: integer('target_cust_id').notNull(),
  targetRootCustId: integer('target_root_cust_id').notNull(),
  goodsReleaseId: integer('goods_release_id'),
  initialState: smallint('initial_state'),
  iccids: text('iccids').array().notNull(),
  cardCount: integer('card_count').notNull(),
  status: smallint('status').notNull().default(1),
  errorCode: integer('error_code'),
  errorParams: jsonb('error_params').$type<Record<string, string | number>>(),
  failedIccid: text('failed_iccid'),
  remark: text('remark'),
  accountId: integer('account_id').notNull(),
  createdBy: text('created_by').notNull(),
  lang: text('lang').notNull(),
  custId: integer('cust_id'),
  rootCustId: integer('root_cust_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  finishedAt: ts('finished_at'),
});
