// Drizzle tables of the opconfig area (issue 4); keep in step with db/migrations/0007_opconfig.sql.
import { pgTable, integer, smallint, text, timestamp, boolean, jsonb, bigint, primaryKey } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const operatorAccounts = pgTable('operator_accounts', {
  operAccountId: integer('oper_account_id').primaryKey().generatedByDefaultAsIdentity(),
  operatorId: smallint('operator_id').notNull(),
  accountName: text('account_name').notNull(),
  endpointUrl: text('endpoint_url').notNull(),
  apiVersion: text('api_version').notNull(),
  adapter: text('adapter').notNull().default('simulator'),
  /** AES-256-GCM sealed JSON of appKey / appSecret / password: never leaves the server */
  credentialsSealed: text('credentials_sealed').notNull(),
  simFailureRate: smallint('sim_failure_rate').notNull().default(0),
  simFailIccidPattern: text('sim_fail_iccid_pattern'),
  remark: text('remark'),
  lastTestAt: ts('last_test_at'),
  lastTestOk: boolean('last_test_ok'),
  lastTestMessage: text('last_test_message'),
  lastTestLatencyMs: integer('last_test_latency_ms'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const platformConfigs = pgTable('platform_configs', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  platformType: smallint('platform_type').notNull(),
  name: text('name').notNull(),
  fieldValues: jsonb('field_values').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
  /** AES-256-GCM sealed JSON of the schema's secret fields */
  secretsSealed: text('secrets_sealed'),
  state: smallint('state').notNull().default(1),
  remark: text('remark'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const commPlans = pgTable('comm_plans', {
  commPlanId: integer('comm_plan_id').primaryKey().generatedByDefaultAsIdentity(),
  planName: text('plan_name').notNull(),
  operatorId: smallint('operator_id').notNull(),
  operAccountId: integer('oper_account_id').notNull(),
  apnIds: integer('apn_ids').array().notNull(),
  serviceKinds: smallint('service_kinds').array().notNull(),
  roaming: boolean('roaming').notNull().default(false),
  description: text('description'),
  status: smallint('status').notNull().default(1),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const cardChangeFailures = pgTable('card_change_failures', {
  failureId: bigint('failure_id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
  msisdn: text('msisdn').notNull(),
  iccid: text('iccid').notNull(),
  operatorId: smallint('operator_id').notNull(),
  operAccountId: integer('oper_account_id'),
  changeType: smallint('change_type').notNull(),
  request: jsonb('request').$type<Record<string, string | number | boolean | null>>().notNull(),
  failureCode: text('failure_code').notNull(),
  failureReason: text('failure_reason').notNull(),
  attempts: integer('attempts').notNull().default(1),
  state: smallint('state').notNull().default(1),
  remark: text('remark'),
  handledBy: text('handled_by'),
  handledAt: ts('handled_at'),
  custId: integer('cust_id'),
  rootCustId: integer('root_cust_id'),
  lastAttemptAt: ts('last_attempt_at').notNull().defaultNow(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const cardChangeAttempts = pgTable(
  'card_change_attempts',
  {
    failureId: bigint('failure_id', { mode: 'number' }).notNull(),
    attemptNo: integer('attempt_no').notNull(),
    ok: boolean('ok').notNull(),
    message: text('message').notNull(),
    latencyMs: integer('latency_ms'),
    triggeredBy: text('triggered_by'),
    attemptedAt: ts('attempted_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.failureId, t.attemptNo] })],
);
