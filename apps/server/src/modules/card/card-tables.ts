import { pgTable, integer, smallint, text, timestamp, uuid, boolean, primaryKey } from 'drizzle-orm/pg-core';

// Drizzle tables of the card area; keep in step with migrations/0009_card.sql.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const cards = pgTable('cards', {
  iccid: text('iccid').primaryKey(),
  msisdn: text('msisdn'),
  imsi: text('imsi'),
  imei: text('imei'),
  state: smallint('state').notNull().default(60),
  operatorId: smallint('operator_id').notNull(),
  custId: integer('cust_id'),
  rootCustId: integer('root_cust_id'),
  goodsReleaseId: integer('goods_release_id'),
  operationMode: smallint('operation_mode'),
  cardTypeId: integer('card_type_id'),
  batchId: uuid('batch_id'),
  batchNo: text('batch_no'),
  labelIds: integer('label_ids').array().notNull().default([]),
  custom1: text('custom1'),
  custom2: text('custom2'),
  online: boolean('online').notNull().default(false),
  lastSessionAt: ts('last_session_at'),
  activatedAt: ts('activated_at'),
  firstUsedAt: ts('first_used_at'),
  testEndAt: ts('test_end_at'),
  silentEndAt: ts('silent_end_at'),
  contractEndAt: ts('contract_end_at'),
  renewalMode: smallint('renewal_mode'),
  euicc: boolean('euicc').notNull().default(false),
  eid: text('eid'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const cardHistory = pgTable(
  'card_history',
  {
    iccid: text('iccid').notNull(),
    historyId: uuid('history_id').notNull().defaultRandom(),
    fromState: smallint('from_state'),
    toState: smallint('to_state'),
    action: smallint('action'),
    source: smallint('source').notNull(),
    actor: text('actor'),
    reason: text('reason'),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.iccid, t.historyId] })],
);

export const cardImportBatches = pgTable('card_import_batches', {
  batchId: uuid('batch_id').primaryKey(),
  fileName: text('file_name').notNull(),
  fileSize: integer('file_size').notNull(),
  remark: text('remark'),
  totalRows: integer('total_rows').notNull(),
  successRows: integer('success_rows').notNull(),
  failedRows: integer('failed_rows').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const cardImportErrors = pgTable(
  'card_import_errors',
  {
    batchId: uuid('batch_id').notNull().references(() => cardImportBatches.batchId, { onDelete: 'cascade' }),
    rowNo: integer('row_no').notNull(),
    iccid: text('iccid'),
    msisdn: text('msisdn'),
    imsi: text('imsi'),
    columnName: text('column_name').notNull(),
    reasonZh: text('reason_zh').notNull(),
    reasonEn: text('reason_en').notNull(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.rowNo, t.columnName] })],
);
