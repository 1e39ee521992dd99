import { pgTable, integer, smallint, text, timestamp, uuid, boolean, primaryKey, date, bigint, real } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

// Drizzle tables of the card area; keep in step with migrations/0009_card.sql and 0010_card_lifecycle.sql.

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
  // lifecycle facts (migration 0010): what the engine's snapshot needs beyond the state
  contractStartAt: ts('contract_start_at'),
  contractMonths: integer('contract_months').notNull().default(0),
  cyclesUsed: integer('cycles_used').notNull().default(0),
  pendingPlanId: integer('pending_plan_id'),
  pendingPlanRequestedAt: ts('pending_plan_requested_at'),
  pendingPlanEffectiveAt: ts('pending_plan_effective_at'),
  pendingPlanOnActivation: boolean('pending_plan_on_activation').notNull().default(false),
  // pending_price_change (0010) is no longer read: a pending price change is the plan's (plan_price_changes)
  lastPlanChangeAt: ts('last_plan_change_at'),
  frozenFrom: smallint('frozen_from'),
  lastNetworkResetAt: ts('last_network_reset_at'),
  nextDeadlineAt: ts('next_deadline_at'),
  cycleStartAt: ts('cycle_start_at'),
  cycleEndAt: ts('cycle_end_at'),
  // the data pool the card is in (migration 0016, modules/pool)
  poolId: integer('pool_id'),
  poolJoinedAt: ts('pool_joined_at'),
  // the current cycle's usage and quota, maintained (migration 0019, usage/cycle-columns.ts): the cycle's China days,
  // when they must be worked out again, bytes used, quota in bytes (null: no quota) and % used (generated)
  cycleFrom: date('cycle_from', { mode: 'string' }),
  cycleTo: date('cycle_to', { mode: 'string' }),
  cycleNextAt: ts('cycle_next_at'),
  cycleUsedBytes: bigint('cycle_used_bytes', { mode: 'number' }).notNull().default(0),
  cycleQuotaBytes: bigint('cycle_quota_bytes', { mode: 'number' }),
  /** SMS in the current cycle (migration 0050), kept like cycleUsedBytes */
  cycleSms: integer('cycle_sms').notNull().default(0),
  /** when the usage feed last moved cycleUsedBytes or cycleSms (migration 0059): the feed check's touched cards */
  usageMovedAt: ts('usage_moved_at'),
  cycleUsedPct: real('cycle_used_pct').generatedAlwaysAs(
    sql`case when cycle_quota_bytes > 0 then (cycle_used_bytes::float8 * 100 / cycle_quota_bytes)::real end`,
  ),
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
    /** what the person typed, as typed */
    reason: text('reason'),
    /** what the server wrote about the change, in both languages (migration 0024) */
    noteZh: text('note_zh'),
    noteEn: text('note_en'),
    planId: integer('plan_id'),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.iccid, t.historyId] })],
);

/** Zones, regions or networks blocked on a card (migration 0010). */
export const cardZoneBlocks = pgTable(
  'card_zone_blocks',
  {
    iccid: text('iccid').notNull(),
    kind: text('kind').notNull().$type<'zone' | 'region' | 'network'>(),
    targetId: integer('target_id').notNull(),
    byDeactivation: boolean('by_deactivation').notNull().default(false),
    blockedAt: ts('blocked_at').notNull().defaultNow(),
    blockedBy: text('blocked_by'),
  },
  (t) => [primaryKey({ columns: [t.iccid, t.kind, t.targetId] })],
);

/** Event packs ordered on a card; each ends with the base cycle it was ordered in (migration 0010). */
export const cardEventPacks = pgTable(
  'card_event_packs',
  {
    iccid: text('iccid').notNull(),
    orderId: uuid('order_id').notNull().defaultRandom(),
    packId: integer('pack_id').notNull(),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    orderedBy: text('ordered_by'),
    orderedAt: ts('ordered_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.iccid, t.orderId] })],
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
