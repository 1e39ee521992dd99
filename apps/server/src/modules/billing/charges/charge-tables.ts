// Drizzle tables of the charges at the event (issue 14); keep in step with migrations/0040_card_charges.sql.
import { pgTable, integer, smallint, text, numeric, bigint, date, timestamp, primaryKey } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const day = (name: string) => date(name, { mode: 'string' });
const big = (name: string) => bigint(name, { mode: 'number' });

export const cardCharges = pgTable('card_charges', {
  chargeId: big('charge_id').primaryKey().generatedAlwaysAsIdentity(),
  custId: integer('cust_id').notNull(),
  rootCustId: integer('root_cust_id').notNull(),
  /** ChargeEvent */
  event: smallint('event').notNull(),
  /** BillLineCategory 2 or 6 */
  category: smallint('category').notNull(),
  goodsReleaseId: integer('goods_release_id').notNull(),
  periodKey: text('period_key').notNull(),
  cards: integer('cards').notNull(),
  quantity: big('quantity').notNull(),
  amount: numeric('amount', { precision: 16, scale: 2, mode: 'string' }).notNull(),
  tax: numeric('tax', { precision: 16, scale: 2, mode: 'string' }).notNull(),
  /** ChargeState */
  state: smallint('state').notNull(),
  journalId: big('journal_id'),
  actor: text('actor').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const cardChargeItems = pgTable('card_charge_items', {
  chargeId: big('charge_id').notNull().references(() => cardCharges.chargeId, { onDelete: 'cascade' }),
  iccid: text('iccid').notNull(),
  fromDay: day('from_day').notNull(),
  toDay: day('to_day').notNull(),
  quantity: big('quantity').notNull(),
  unitPrice: numeric('unit_price', { precision: 14, scale: 2, mode: 'string' }).notNull(),
  amount: numeric('amount', { precision: 14, scale: 2, mode: 'string' }).notNull(),
  tax: numeric('tax', { precision: 14, scale: 2, mode: 'string' }).notNull(),
  operatorId: smallint('operator_id'),
  cardTypeId: integer('card_type_id'),
}, (t) => [primaryKey({ columns: [t.chargeId, t.iccid] })]);
