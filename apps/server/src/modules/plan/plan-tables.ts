// Drizzle tables of basic plans and supplementary packs (issue 4); keep in step with migrations/0005_plan.sql.
import { pgTable, integer, smallint, text, numeric, boolean, date, timestamp, primaryKey, unique, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { operators, customers } from '../account/tables.ts';
import { apns } from '../network/tables.ts';
import { commServices } from '../network/commserv/tables.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** money: an exact decimal string from numeric (never a float) */
const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'string' });
/** a quota in MB: not money, read as a number */
const quota = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'number' });
const percent = (name: string) => numeric(name, { precision: 5, scale: 2, mode: 'number' });

export const basicPlans = pgTable('basic_plans', {
  goodsReleaseId: integer('goods_release_id').primaryKey().generatedByDefaultAsIdentity(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  goodsType: smallint('goods_type').notNull(),
  tariffType: smallint('tariff_type').notNull(),
  standardPrice: money('standard_price').notNull().default('0'),
  salePrice: money('sale_price').notNull(),
  status: smallint('status').notNull().default(1),
  cycleUnit: smallint('cycle_unit').notNull().default(1),
  cycleValue: integer('cycle_value').notNull().default(1),
  durationMonths: integer('duration_months').notNull().default(1),
  quotaMb: quota('quota_mb').notNull().default(0),
  useUpAction: smallint('use_up_action').notNull().default(1),
  terminateByUsage: boolean('terminate_by_usage').notNull().default(false),
  operatorId: smallint('operator_id').references(() => operators.operatorId),
  operationMode: smallint('operation_mode').notNull().default(1),
  overageGrade: smallint('overage_grade'),
  overagePrice: money('overage_price'),
  testPeriodMonths: smallint('test_period_months').notNull().default(0),
  testQuotaKb: integer('test_quota_kb').notNull().default(100),
  testPrice: money('test_price').notNull().default('0'),
  testValidityDays: smallint('test_validity_days'),
  silentPeriodMonths: smallint('silent_period_months').notNull().default(0),
  renewalMode: smallint('renewal_mode').notNull().default(1),
  downtimeFee: money('downtime_fee').notNull().default('0'),
  downtimeFreeMonths: smallint('downtime_free_months').notNull().default(0),
  taxRate: percent('tax_rate').notNull().default(0),
  currency: text('currency').notNull().default('CNY'),
  profitShareRatio: percent('profit_share_ratio').notNull().default(0),
  profitShareMethod: smallint('profit_share_method').notNull().default(1),
  networkTypes: smallint('network_types').array().notNull().default([]),
  remark: text('remark'),
  copiedFrom: integer('copied_from').references((): AnyPgColumn => basicPlans.goodsReleaseId, { onDelete: 'set null' }),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const planApns = pgTable(
  'plan_apns',
  {
    goodsReleaseId: integer('goods_release_id').notNull().references(() => basicPlans.goodsReleaseId, { onDelete: 'cascade' }),
    apnId: integer('apn_id').notNull().references(() => apns.apnId),
  },
  (t) => [primaryKey({ columns: [t.goodsReleaseId, t.apnId] })],
);

export const planZones = pgTable('plan_zones', {
  zoneId: integer('zone_id').primaryKey().generatedByDefaultAsIdentity(),
  goodsReleaseId: integer('goods_release_id').notNull().references(() => basicPlans.goodsReleaseId, { onDelete: 'cascade' }),
  zoneName: text('zone_name').notNull(),
  /** the zone's English name, when it has one (migration 0025) */
  zoneNameEn: text('zone_name_en'),
  regions: text('regions').array().notNull().default([]),
  quotaMb: quota('quota_mb'),
  price: money('price'),
  sort: smallint('sort').notNull().default(0),
});

export const planZoneServices = pgTable(
  'plan_zone_services',
  {
    goodsReleaseId: integer('goods_release_id').notNull().references(() => basicPlans.goodsReleaseId, { onDelete: 'cascade' }),
    zoneId: integer('zone_id').notNull().references(() => planZones.zoneId, { onDelete: 'cascade' }),
    commservId: integer('commserv_id').notNull().references(() => commServices.commservId),
  },
  (t) => [primaryKey({ columns: [t.zoneId, t.commservId] }), unique().on(t.goodsReleaseId, t.commservId)],
);

export const planReleases = pgTable(
  'plan_releases',
  {
    goodsReleaseId: integer('goods_release_id').notNull().references(() => basicPlans.goodsReleaseId, { onDelete: 'cascade' }),
    custId: integer('cust_id').notNull().references(() => customers.custId),
    rootCustId: integer('root_cust_id').notNull(),
    salePrice: money('sale_price').notNull(),
    releasedBy: text('released_by').notNull(),
    releasedAt: ts('released_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.goodsReleaseId, t.custId] })],
);

export const planAlternatives = pgTable(
  'plan_alternatives',
  {
    goodsReleaseId: integer('goods_release_id').notNull().references(() => basicPlans.goodsReleaseId, { onDelete: 'cascade' }),
    altGoodsReleaseId: integer('alt_goods_release_id').notNull().references(() => basicPlans.goodsReleaseId, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.goodsReleaseId, t.altGoodsReleaseId] })],
);

export const planPriceChanges = pgTable('plan_price_changes', {
  changeId: integer('change_id').primaryKey().generatedByDefaultAsIdentity(),
  goodsReleaseId: integer('goods_release_id').notNull().references(() => basicPlans.goodsReleaseId, { onDelete: 'cascade' }),
  oldPrice: money('old_price').notNull(),
  newPrice: money('new_price').notNull(),
  effectiveDate: date('effective_date', { mode: 'string' }).notNull(),
  status: smallint('status').notNull().default(1),
  successCount: integer('success_count').notNull().default(0),
  failureCount: integer('failure_count').notNull().default(0),
  remark: text('remark'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const planPriceChangeItems = pgTable('plan_price_change_items', {
  itemId: integer('item_id').primaryKey().generatedByDefaultAsIdentity(),
  changeId: integer('change_id').notNull().references(() => planPriceChanges.changeId, { onDelete: 'cascade' }),
  goodsReleaseId: integer('goods_release_id').notNull(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  result: smallint('result').notNull(),
  reasonCode: smallint('reason_code'),
  retailId: integer('retail_id'),
  retailName: text('retail_name'),
  retailPrice: money('retail_price'),
  createdAt: ts('created_at').notNull().defaultNow(),
});
