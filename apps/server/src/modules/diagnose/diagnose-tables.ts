import { pgTable, integer, smallint, text, timestamp, uuid, boolean, jsonb, primaryKey } from 'drizzle-orm/pg-core';

// Drizzle table of card diagnoses; keep in step with migrations/0015_diagnose.sql.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const cardDiagnoses = pgTable(
  'card_diagnoses',
  {
    iccid: text('iccid').notNull(),
    diagnosisId: uuid('diagnosis_id').notNull().defaultRandom(),
    advanced: boolean('advanced').notNull().default(false),
    overall: smallint('overall').notNull(),
    cardState: smallint('card_state'),
    result: jsonb('result').notNull(),
    accountId: integer('account_id'),
    loginName: text('login_name').notNull(),
    custId: integer('cust_id'),
    rootCustId: integer('root_cust_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.iccid, t.diagnosisId] })],
);
