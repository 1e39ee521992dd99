import { pgTable, integer, text, boolean, timestamp, date, smallint, primaryKey } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const apiKeys = pgTable('api_keys', {
  custId: integer('cust_id').primaryKey(),
  rootCustId: integer('root_cust_id').notNull(),
  appKey: text('app_key').notNull(),
  secretHash: text('secret_hash').notNull(),
  secretHint: text('secret_hint').notNull(),
  /** the secret sealed with the installation key (signed calls need it); null for a key made before 0044 */
  secretSealed: text('secret_sealed'),
  createdAt: ts('created_at').notNull().defaultNow(),
  rotatedAt: ts('rotated_at'),
});

export const apiConfigs = pgTable('api_configs', {
  custId: integer('cust_id').primaryKey(),
  rootCustId: integer('root_cust_id').notNull(),
  callbackUrl: text('callback_url'),
  ipWhitelistEnabled: boolean('ip_whitelist_enabled').notNull().default(false),
  /** WebhookEventType values the callback address receives (ability subscription) */
  eventTypes: smallint('event_types').array().notNull().default([]),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const userIps = pgTable('user_ips', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  startIp: text('start_ip').notNull(),
  endIp: text('end_ip'),
  remark: text('remark'),
  open: boolean('open').notNull().default(true),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const apiNonces = pgTable('api_nonces', {
  appKey: text('app_key').notNull(),
  nonce: text('nonce').notNull(),
  expiresAt: ts('expires_at').notNull(),
}, (t) => [primaryKey({ columns: [t.appKey, t.nonce] })]);

export const apiUsageDaily = pgTable('api_usage_daily', {
  custId: integer('cust_id').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  appKey: text('app_key').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  calls: integer('calls').notNull().default(0),
  errors: integer('errors').notNull().default(0),
  refused: integer('refused').notNull().default(0),
}, (t) => [primaryKey({ columns: [t.custId, t.day, t.appKey] })]);
