import { pgTable, integer, smallint, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const notifications = pgTable('notifications', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  content: text('content').notNull(),
  englishContent: text('english_content').notNull(),
  sendMode: smallint('send_mode').notNull(),
  sendTime: ts('send_time').notNull(),
  endDate: ts('end_date').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
