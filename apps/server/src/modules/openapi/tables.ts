import { pgTable, integer, text, boolean, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const apiKeys = pgTable('api_keys', {
  custId: integer('cust_id').primaryKey(),
  rootCustId: integer('root_cust_id').notNull(),
  appKey: text('app_key').notNull(),
  secretHash: text('secret_hash').notNull(),
  secretHint: text('secret_hint').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  rotatedAt: ts('rotated_at'),
});

export const apiConfigs = pgTable('api_configs', {
  custId: integer('cust_id').primaryKey(),
  rootCustId: integer('root_cust_id').notNull(),
  callbackUrl: text('callback_url'),
  ipWhitelistEnabled: boolean('ip_whitelist_enabled').notNull().default(false),
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
