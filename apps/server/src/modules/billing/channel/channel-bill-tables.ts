// Drizzle tables of channel bills (issue 14); keep in step with migrations/0037_channel_bills.sql and 0042. channel_bill_lines is
// partitioned by bill in SQL (Drizzle cannot declare that); the table here reads and writes through the parent.
import { pgTable, integer, smallint, text, numeric, bigint, boolean, date, timestamp, primaryKey } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const day = (name: string) => date(name, { mode: 'string' });
const big = (name: string) => bigint(name, { mode: 'number' });

export const channelBills = pgTable('channel_bills', {
  billId: big('bill_id').primaryKey().generatedAlwaysAsIdentity(),
  periodKey: text('period_key').notNull(),
  operatorId: smallint('operator_id').notNull(),
  periodFrom: day('period_from').notNull(),
  periodTo: day('period_to').notNull(),
  /** ChannelBillSource */
  sourceType: smallint('source_type').notNull(),
  sourceName: text('source_name').notNull(),
  findMissing: boolean('find_missing').notNull().default(true),
  /** ChannelBillState */
  state: smallint('state').notNull().default(1),
  fileName: text('file_name').notNull(),
  fileSize: big('file_size').notNull(),
  storageKey: text('storage_key').notNull(),
  remark: text('remark'),
  /** the operator bill the lines were copied from (no file then); one live channel bill per operator bill */
  operatorBillId: big('operator_bill_id'),
  totalLines: big('total_lines').notNull().default(0),
  linesDone: big('lines_done').notNull().default(0),
  errorCount: big('error_count').notNull().default(0),
  failureZh: text('failure_zh'),
  failureEn: text('failure_en'),
  channelAmount: numeric('channel_amount', { precision: 16, scale: 2, mode: 'string' }).notNull().default('0'),
  leaseOwner: text('lease_owner'),
  leaseUntil: ts('lease_until'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  importedAt: ts('imported_at'),
  reconciledAt: ts('reconciled_at'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const channelBillLines = pgTable(
  'channel_bill_lines',
  {
    billId: big('bill_id').notNull(),
    iccid: text('iccid').notNull(),
    /** null: a card only the platform has */
    lineNo: integer('line_no'),
    channelBytes: big('channel_bytes'),
    channelSms: integer('channel_sms'),
    channelAmount: numeric('channel_amount', { precision: 14, scale: 2, mode: 'string' }),
    platformBytes: big('platform_bytes'),
    platformSms: integer('platform_sms'),
    /** ChannelBillLineState */
    state: smallint('state').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.billId, t.iccid] })],
);

export const channelBillErrors = pgTable(
  'channel_bill_errors',
  {
    billId: big('bill_id').notNull().references(() => channelBills.billId, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
    columnName: text('column_name').notNull(),
    iccid: text('iccid'),
    reasonZh: text('reason_zh').notNull(),
    reasonEn: text('reason_en').notNull(),
  },
  (t) => [primaryKey({ columns: [t.billId, t.lineNo, t.columnName] })],
);

export const channelBillSummaries = pgTable(
  'channel_bill_summaries',
  {
    billId: big('bill_id').notNull().references(() => channelBills.billId, { onDelete: 'cascade' }),
    /** ChannelBillLineState */
    state: smallint('state').notNull(),
    lines: big('lines').notNull(),
    channelBytes: big('channel_bytes').notNull().default(0),
    platformBytes: big('platform_bytes').notNull().default(0),
    channelSms: big('channel_sms').notNull().default(0),
    platformSms: big('platform_sms').notNull().default(0),
    channelAmount: numeric('channel_amount', { precision: 16, scale: 2, mode: 'string' }).notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.billId, t.state] })],
);
