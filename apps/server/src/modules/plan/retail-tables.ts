// Drizzle tables of retail plans (issue 4); keep in step with migrations/0006_retail.sql.
import { pgTable, integer, smallint, text, numeric, jsonb, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'string' });
const percent = (name: string) => numeric(name, { precision: 5, scale: 2, mode: 'number' });

export interface RetailFieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export const retailPlans = pgTable('retail_plans', {
  retailId: integer('retail_id').primaryKey().generatedByDefaultAsIdentity(),
  retailName: text('retail_name').notNull(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  goodsReleaseId: integer('goods_release_id').notNull(),
  price: money('price').notNull(),
  crossedPrice: money('crossed_price'),
  taxRate: percent('tax_rate').notNull().default(0),
  dividendMethod: smallint('dividend_method').notNull(),
  dividendProportion: percent('dividend_proportion').notNull(),
  description: text('description'),
  eventGoodsReleaseId: integer('event_goods_release_id'),
  status: smallint('status').notNull().default(1),
  createdBy: text('created_by').notNull(),
  updatedBy: text('updated_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const retailPlanRecords = pgTable('retail_plan_records', {
  recordId: integer('record_id').primaryKey().generatedByDefaultAsIdentity(),
  retailId: integer('retail_id').notNull(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  action: smallint('action').notNull(),
  changes: jsonb('changes').$type<RetailFieldChange[]>().notNull().default([]),
  loginName: text('login_name').notNull(),
  userName: text('user_name').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
