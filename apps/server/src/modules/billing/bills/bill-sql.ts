import { sql, type SQL } from 'drizzle-orm';
import { BillStatus, getBusinessTimeZone } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { notFound } from '../../../platform/errors.ts';
import { isStaff, type Actor } from '../../../platform/context.ts';
import { customerScope } from '../../money/capital-service.ts';
import { dayPlus } from '../../money/credit/credit-service.ts';

/**
 * The pieces every bill read shares: who sees which bill, the status computed at read, and the row of the contract's
 * BillRow. Bills are read with raw SQL, table aliased `b`, customer `c`.
 */

export const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
export const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());
const num = (v: unknown) => Number(v ?? 0);
const s = (n: number) => sql.raw(String(n));

/**
 * Staff see every bill; a first-level customer its tree's published bills, a second-level customer its own published
 * bills (an unpublished bill is finance's draft). A bill outside answers like a missing one.
 */
export function billScope(actor: Actor): SQL {
  if (isStaff(actor)) return sql`true`;
  return sql`(${customerScope(actor, 'b')} and b.published)`;
}

/**
 * A bill's status (spec §4) on a business day, in SQL so that lists filter by it: unpublished or nothing due → 1;
 * all written off → 3, or 4 when the write-off completing it was made after the due date; money due → 2 through
 * the due date, 5 after it.
 */
export function billStatusSql(today: string): SQL {
  return sql`(case when not b.published or b.amount_due <= 0 then ${s(BillStatus.Normal)}
    when b.written_off >= b.amount_due then (case when timezone(${getBusinessTimeZone()}::text, b.written_off_at)::date > b.due_date
      then ${s(BillStatus.OverdueWrittenOff)} else ${s(BillStatus.WrittenOff)} end)
    when ${today}::date > b.due_date then ${s(BillStatus.OverdueNotWrittenOff)} else ${s(BillStatus.ToWriteOff)} end)`;
}

export const billColumns = (today: string) => sql`b.bill_id, b.bill_no, b.period_key, b.period_from::text as period_from,
  b.period_to::text as period_to, b.cust_id, b.root_cust_id, c.cust_name, b.published, b.published_at, b.published_by,
  b.due_date::text as due_date, b.card_count, b.line_count, b.total::text as total, b.tax::text as tax, b.plan_fee::text as plan_fee,
  b.prepaid_fee::text as prepaid_fee, b.overage_fee::text as overage_fee, b.test_fee::text as test_fee, b.downtime_fee::text as downtime_fee,
  b.pack_fee::text as pack_fee, b.one_off_fee::text as one_off_fee, b.withheld::text as withheld, b.amount_due::text as amount_due,
  b.written_off::text as written_off, (b.amount_due - b.written_off)::numeric(16, 2)::text as arrears, b.written_off_at, b.rated_at,
  b.unbilled_over_bytes, ${billStatusSql(today)} as status`;

/** The contract's BillRow of a row read with billColumns. */
export function billRowOut(r: Record<string, unknown>) {
  return {
    billId: num(r.bill_id), billNo: String(r.bill_no), periodKey: String(r.period_key), periodFrom: String(r.period_from),
    periodTo: String(r.period_to), custId: num(r.cust_id), custName: String(r.cust_name), status: num(r.status),
    published: r.published ? 1 : 0, publishedAt: iso(r.published_at), publishedBy: (r.published_by as string | null) ?? null,
    dueDate: (r.due_date as string | null) ?? null, cardCount: num(r.card_count), total: String(r.total), tax: String(r.tax),
    categories: {
      planFee: String(r.plan_fee), prepaidFee: String(r.prepaid_fee), overageFee: String(r.overage_fee), testFee: String(r.test_fee),
      downtimeFee: String(r.downtime_fee), packFee: String(r.pack_fee), oneOffFee: String(r.one_off_fee),
    },
    withheld: String(r.withheld), amountDue: String(r.amount_due), writtenOff: String(r.written_off), arrears: String(r.arrears),
    writtenOffAt: iso(r.written_off_at), ratedAt: iso(r.rated_at),
  };
}
export type BillOut = ReturnType<typeof billRowOut>;

/** What services need of a bill beyond its row. */
export interface LoadedBill {
  row: BillOut;
  rootCustId: number;
  lineCount: number;
  unbilledOverBytes: number;
}

/** One bill as the actor may see it (NotFound otherwise); `lock` takes its row lock (inside a transaction). */
export async function loadBill(ex: Executor, billId: number, actor: Actor, today: string, lock = false): Promise<LoadedBill> {
  const [r] = rowsOf<Record<string, unknown>>(await ex.execute(sql`select ${billColumns(today)} from bills b
    join customers c on c.cust_id = b.cust_id where b.bill_id = ${billId} and ${billScope(actor)}${lock ? sql` for update of b` : sql``}`));
  if (!r) throw notFound();
  return { row: billRowOut(r), rootCustId: num(r.root_cust_id), lineCount: num(r.line_count), unbilledOverBytes: num(r.unbilled_over_bytes) };
}

/** Whether a string is a real calendar day YYYY-MM-DD. */
export const isDay = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day) && dayPlus(day, 0) === day;
