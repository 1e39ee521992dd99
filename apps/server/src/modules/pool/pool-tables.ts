import { pgTable, bigint, bigserial, integer, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

// Drizzle tables of data pools; keep in step with migrations/0016_pool.sql (cards.pool_id is in card-tables.ts).

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const cardPools = pgTable('card_pools', {
  poolId: serial('pool_id').primaryKey(),
  name: text('name').notNull(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  operatorId: smallint('operator_id').notNull(),
  exhaustAction: smallint('exhaust_action').notNull().default(1),
  alertPercent: smallint('alert_percent').notNull().default(80),
  description: text('description'),
  state: smallint('state').notNull().default(1),
  blockedAt: ts('blocked_at'),
  /** 'pool-usage' for a block by the quota rule, else the login name of a manual block */
  blockedBy: text('blocked_by'),
  memberCount: integer('member_count').notNull().default(0),
  cycleStart: ts('cycle_start'),
  cycleEnd: ts('cycle_end'),
  quotaBytes: bigint('quota_bytes', { mode: 'number' }).notNull().default(0),
  usedBytes: bigint('used_bytes', { mode: 'number' }).notNull().default(0),
  usageCheckedAt: ts('usage_checked_at'),
  alertedCycleStart: ts('alerted_cycle_start'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const cardPoolEvents = pgTable('card_pool_events', {
  eventId: bigserial('event_id', { mode: 'number' }).primaryKey(),
  poolId: integer('pool_id').notNull().references(() => cardPools.poolId, { onDelete: 'cascade' }),
  type: smallint('type').notNull(),
  usedBytes: bigint('used_bytes', { mode: 'number' }),
  quotaBytes: bigint('quota_bytes', { mode: 'number' }),
  memberCount: integer('member_count'),
  reason: text('reason'),
  actor: text('actor').notNull(),
  at: ts('at').notNull().defaultNow(),
});
