// Drizzle tables of communication services (issue 4); keep in step with migrations/0004_commserv.sql.
import { pgTable, integer, smallint, text, boolean, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const commSpeedLimitConfigs = pgTable('comm_speed_limit_configs', {
  speedLimitId: integer('speed_limit_id').primaryKey().generatedByDefaultAsIdentity(),
  speedLimitName: text('speed_limit_name').notNull(),
  uplinkKbps: integer('uplink_kbps').notNull(),
  downlinkKbps: integer('downlink_kbps').notNull(),
  description: text('description'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const commRedirectConfigs = pgTable('comm_redirect_configs', {
  redirectId: integer('redirect_id').primaryKey().generatedByDefaultAsIdentity(),
  redirectName: text('redirect_name').notNull(),
  redirectUrl: text('redirect_url').notNull(),
  targetContent: text('target_content'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const commServices = pgTable('comm_services', {
  commservId: integer('commserv_id').primaryKey().generatedByDefaultAsIdentity(),
  commservName: text('commserv_name').notNull(),
  /** the service's English name, when it has one (migration 0025) */
  commservNameEn: text('commserv_name_en'),
  commservType: smallint('commserv_type').notNull(),
  directional: boolean('directional').notNull().default(false),
  priority: smallint('priority').notNull(),
  description: text('description'),
  whitelist: text('whitelist').array().notNull().default([]),
  redirectAddress: text('redirect_address'),
  speedLimitId: integer('speed_limit_id').references(() => commSpeedLimitConfigs.speedLimitId),
  redirectId: integer('redirect_id').references(() => commRedirectConfigs.redirectId),
  status: smallint('status').notNull().default(1),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const commServiceQos = pgTable('comm_service_qos', {
  qosId: integer('qos_id').primaryKey().generatedByDefaultAsIdentity(),
  commservId: integer('commserv_id').notNull().references(() => commServices.commservId, { onDelete: 'cascade' }),
  qosName: text('qos_name').notNull(),
  qci: smallint('qci').notNull(),
  maxUplinkKbps: integer('max_uplink_kbps').notNull(),
  maxDownlinkKbps: integer('max_downlink_kbps').notNull(),
  gbrUplinkKbps: integer('gbr_uplink_kbps'),
  gbrDownlinkKbps: integer('gbr_downlink_kbps'),
  arpPriority: smallint('arp_priority').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
