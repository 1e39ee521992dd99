import { pgTable, integer, smallint, text, timestamp, bigint, date, primaryKey } from 'drizzle-orm/pg-core';

// Drizzle tables of the usage area; keep in step with migrations/0011_usage.sql. The two card-scale tables are
// partitioned by month there (Drizzle cannot declare partitioned tables); queries see them as plain tables.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const big = (name: string) => bigint(name, { mode: 'number' });

export const cardSessions = pgTable(
  'card_sessions',
  {
    iccid: text('iccid').notNull(),
    sessionId: text('session_id').notNull(),
    startedAt: ts('started_at').notNull(),
    endedAt: ts('ended_at'),
    reportedAt: ts('reported_at').notNull(),
    apn: text('apn').notNull(),
    bytesUp: big('bytes_up').notNull().default(0),
    bytesDown: big('bytes_down').notNull().default(0),
    rat: smallint('rat'),
    cell: text('cell'),
    operatorId: smallint('operator_id').notNull(),
    custId: integer('cust_id'),
    rootCustId: integer('root_cust_id'),
  },
  (t) => [primaryKey({ columns: [t.iccid, t.startedAt, t.sessionId] })],
);

export const cardUsageDaily = pgTable(
  'card_usage_daily',
  {
    iccid: text('iccid').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    bytesUp: big('bytes_up').notNull().default(0),
    bytesDown: big('bytes_down').notNull().default(0),
    bytes: big('bytes').notNull().default(0),
    sms: integer('sms').notNull().default(0),
    voiceSeconds: integer('voice_seconds').notNull().default(0),
    sessions: integer('sessions').notNull().default(0),
    apn: text('apn').notNull(),
    operatorId: smallint('operator_id').notNull(),
    custId: integer('cust_id'),
    rootCustId: integer('root_cust_id'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.iccid, t.day] })],
);

export const cardUsageDailyCust = pgTable(
  'card_usage_daily_cust',
  {
    day: date('day', { mode: 'string' }).notNull(),
    custId: integer('cust_id').notNull(),
    rootCustId: integer('root_cust_id').notNull(),
    operatorId: smallint('operator_id').notNull(),
    apn: text('apn').notNull(),
    bytes: big('bytes').notNull().default(0),
    sms: big('sms').notNull().default(0),
    voiceSeconds: big('voice_seconds').notNull().default(0),
    sessions: big('sessions').notNull().default(0),
    cards: integer('cards').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.custId, t.operatorId, t.apn] })],
);

export const usageFeeds = pgTable('usage_feeds', {
  operatorId: smallint('operator_id').primaryKey(),
  watermark: ts('watermark').notNull(),
  windowTo: ts('window_to'),
  cursorIccid: text('cursor_iccid'),
  leaseOwner: text('lease_owner'),
  leaseUntil: ts('lease_until'),
  lastRunAt: ts('last_run_at'),
  lastError: text('last_error'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const cardQuotaExhaustions = pgTable(
  'card_quota_exhaustions',
  {
    iccid: text('iccid').notNull(),
    cycleStart: ts('cycle_start').notNull(),
    exhaustedAt: ts('exhausted_at').notNull(),
    usedBytes: big('used_bytes').notNull(),
    quotaBytes: big('quota_bytes').notNull(),
    action: smallint('action').notNull(),
    failure: text('failure'),
    releasedAt: ts('released_at'),
  },
  (t) => [primaryKey({ columns: [t.iccid, t.cycleStart] })],
);
