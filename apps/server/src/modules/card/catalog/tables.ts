import { pgTable, integer, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

// Drizzle tables of the card catalogue; keep in step with migrations/0013_card_catalog.sql.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const cardLabels = pgTable('card_labels', {
  labelId: serial('label_id').primaryKey(),
  name: text('name').notNull(),
  colour: text('colour').notNull(),
  description: text('description'),
  /** null: a platform-wide label made by operator staff */
  custId: integer('cust_id'),
  rootCustId: integer('root_cust_id'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const cardTypes = pgTable('card_types', {
  cardTypeId: serial('card_type_id').primaryKey(),
  nameZh: text('name_zh').notNull(),
  nameEn: text('name_en').notNull(),
  formFactor: smallint('form_factor').notNull(),
  grade: smallint('grade').notNull(),
  tempMin: smallint('temp_min').notNull(),
  tempMax: smallint('temp_max').notNull(),
  description: text('description'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
