import { pgTable, integer, smallint, text, timestamp, uuid, jsonb, primaryKey } from 'drizzle-orm/pg-core';

// Drizzle tables of card batch operations; keep in step with migrations/0012_batch.sql.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const cardBatches = pgTable('card_batches', {
  batchId: uuid('batch_id').primaryKey(),
  type: smallint('type').notNull(),
  params: jsonb('params').notNull(),
  source: smallint('source').notNull(),
  sourceDetail: jsonb('source_detail'),
  state: smallint('state').notNull().default(1),
  creatorAccountId: integer('creator_account_id').notNull(),
  createdBy: text('created_by').notNull(),
  custId: integer('cust_id'),
  rootCustId: integer('root_cust_id'),
  totalCount: integer('total_count').notNull().default(0),
  validCount: integer('valid_count').notNull().default(0),
  invalidCount: integer('invalid_count').notNull().default(0),
  alreadyCount: integer('already_count').notNull().default(0),
  duplicateCount: integer('duplicate_count').notNull().default(0),
  succeededCount: integer('succeeded_count').notNull().default(0),
  failedCount: integer('failed_count').notNull().default(0),
  processedCount: integer('processed_count').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  confirmedAt: ts('confirmed_at'),
  finishedAt: ts('finished_at'),
  cancelledAt: ts('cancelled_at'),
  heartbeatAt: ts('heartbeat_at'),
});

export const cardBatchItems = pgTable(
  'card_batch_items',
  {
    batchId: uuid('batch_id').notNull().references(() => cardBatches.batchId, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    iccid: text('iccid').notNull(),
    verdict: smallint('verdict').notNull(),
    reasonZh: text('reason_zh'),
    reasonEn: text('reason_en'),
    status: smallint('status').notNull(),
    errorZh: text('error_zh'),
    errorEn: text('error_en'),
    doneAt: ts('done_at'),
    /** what an item of another module's batch carries besides its ICCID (migration 0064) */
    payload: jsonb('payload'),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.seq] })],
);
