import { pgTable, integer, smallint, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const apns = pgTable('apns', {
  apnId: integer('apn_id').primaryKey().generatedByDefaultAsIdentity(),
  apnName: text('apn_name').notNull(),
  operatorId: smallint('operator_id').notNull(),
  apnType: smallint('apn_type').notNull(),
  ipAllocation: smallint('ip_allocation').notNull(),
  status: smallint('status').notNull().default(1),
  remark: text('remark'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
