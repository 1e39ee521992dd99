import { pgTable, integer, smallint, text, uuid, jsonb, real, bigint, timestamp, boolean } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const tenant = {
  custId: integer('cust_id'),
  rootCustId: integer('root_cust_id'),
};

export const auditLog = pgTable('audit_log', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: integer('account_id'),
  loginName: text('login_name'),
  ...tenant,
  endpoint: text('endpoint').notNull(),
  entity: text('entity').notNull(),
  entityId: text('entity_id'),
  before: jsonb('before'),
  after: jsonb('after'),
  ip: text('ip'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const behaviorLog = pgTable('behavior_log', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  accountId: integer('account_id'),
  loginName: text('login_name').notNull(),
  action: smallint('action').notNull(),
  target: text('target'),
  detail: text('detail'),
  ip: text('ip'),
  ...tenant,
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const apiLog = pgTable('api_log', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: integer('account_id'),
  loginName: text('login_name'),
  ...tenant,
  method: text('method').notNull(),
  path: text('path').notNull(),
  status: smallint('status').notNull(),
  errorCode: integer('error_code'),
  durationMs: real('duration_ms').notNull(),
  ip: text('ip'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const files = pgTable('files', {
  fileId: uuid('file_id').primaryKey(),
  use: text('use').notNull(),
  originalName: text('original_name').notNull(),
  mimeType: text('mime_type').notNull(),
  size: integer('size').notNull(),
  storageKey: text('storage_key').notNull(),
  ownerAccountId: integer('owner_account_id'),
  ...tenant,
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const downloadTasks = pgTable('download_tasks', {
  taskId: uuid('task_id').primaryKey(),
  taskName: text('task_name').notNull(),
  source: text('source').notNull(),
  filters: jsonb('filters').notNull(),
  format: smallint('format').notNull(),
  state: smallint('state').notNull(),
  rowCount: integer('row_count'),
  fileSize: bigint('file_size', { mode: 'number' }),
  fileKey: text('file_key'),
  error: text('error'),
  lang: text('lang').notNull(),
  ownerAccountId: integer('owner_account_id').notNull(),
  loginName: text('login_name').notNull(),
  ...tenant,
  createdAt: ts('created_at').notNull().defaultNow(),
  finishedAt: ts('finished_at'),
  // issue 12 (0021_home.sql): the title and the filters in words in both languages, the first download, direct exports
  titleZh: text('title_zh'),
  titleEn: text('title_en'),
  filtersZh: text('filters_zh'),
  filtersEn: text('filters_en'),
  downloadedAt: ts('downloaded_at'),
  direct: boolean('direct').notNull().default(false),
});
