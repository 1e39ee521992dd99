import { pgTable, integer, smallint, text, timestamp, numeric, uuid, boolean, primaryKey } from 'drizzle-orm/pg-core';

// Drizzle tables of the netconfig area; keep in step with migrations/0008_netconfig.sql.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const decimal = (name: string, precision: number, scale: number) => numeric(name, { precision, scale, mode: 'number' });

export const fwAddresses = pgTable('fw_addresses', {
  addressId: integer('address_id').primaryKey().generatedByDefaultAsIdentity(),
  addressScope: text('address_scope').$type<'srcaddr' | 'dstaddr'>().notNull(),
  addressName: text('address_name').notNull(),
  addressType: smallint('address_type').notNull(),
  ipAddress: text('ip_address'),
  startIp: text('start_ip'),
  endIp: text('end_ip'),
  description: text('description'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const fwPolicies = pgTable('fw_policies', {
  policyId: integer('policy_id').primaryKey().generatedByDefaultAsIdentity(),
  policyName: text('policy_name').notNull(),
  operatorId: smallint('operator_id').notNull(),
  direction: smallint('direction').notNull(),
  action: smallint('action').notNull(),
  protocol: smallint('protocol').notNull(),
  ports: text('ports'),
  priority: integer('priority').notNull(),
  status: smallint('status').notNull().default(1),
  description: text('description'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const fwPolicyAddresses = pgTable(
  'fw_policy_addresses',
  {
    policyId: integer('policy_id').notNull(),
    addressId: integer('address_id').notNull(),
    addressScope: text('address_scope').$type<'srcaddr' | 'dstaddr'>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.policyId, t.addressId] })],
);

export const operatorGoods = pgTable('operator_goods', {
  goodsId: integer('goods_id').primaryKey().generatedByDefaultAsIdentity(),
  goodsCode: text('goods_code').notNull(),
  goodsName: text('goods_name').notNull(),
  operatorId: smallint('operator_id').notNull(),
  goodsType: smallint('goods_type').notNull(),
  quota: decimal('quota', 16, 3).notNull(),
  quotaUnit: smallint('quota_unit').notNull(),
  quotaBase: decimal('quota_base', 20, 3).notNull(),
  validityDays: integer('validity_days').notNull(),
  // money: an exact decimal string, never a float
  price: numeric('price', { precision: 16, scale: 2, mode: 'string' }).notNull(),
  status: smallint('status').notNull().default(1),
  importBatch: uuid('import_batch').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const unicomCommPlans = pgTable('unicom_comm_plans', {
  planId: integer('plan_id').primaryKey().generatedByDefaultAsIdentity(),
  planName: text('plan_name').notNull(),
  planCode: text('plan_code').notNull(),
  dataEnabled: boolean('data_enabled').notNull(),
  smsEnabled: boolean('sms_enabled').notNull(),
  voiceEnabled: boolean('voice_enabled').notNull(),
  apnId: integer('apn_id'),
  roamingZone: smallint('roaming_zone').notNull(),
  dataLimitMb: decimal('data_limit_mb', 16, 3),
  smsLimit: integer('sms_limit'),
  speedLimitKbps: integer('speed_limit_kbps'),
  billingDay: smallint('billing_day').notNull(),
  description: text('description'),
  status: smallint('status').notNull().default(1),
  copiedFrom: integer('copied_from'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
