import { sql, type SQL } from 'drizzle-orm';
import { ReportPeriod, type BodyOf, type report as api } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { notFound } from '../../../platform/errors.ts';
import { isChannel, isStaff, type Actor } from '../../../platform/context.ts';
import { contains, pageOf } from '../../../platform/paging.ts';
import { moneyCustomer } from '../capital-service.ts';
import { AMOUNT_COLUMNS, MOVEMENTS, lastBuiltDay, type AmountKey } from './report-builder.ts';

const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
type Row = Record<string, unknown>;

const MOVE_COLS = MOVEMENTS.map((m) => m.col);
/** the movement sums and the first opening / last closing of a group of day rows (ordered by `day`) */
const aggregate = (prefix = '') => sql.raw([
  `(array_agg(${prefix}opening order by ${prefix}day))[1] as opening`,
  ...[...MOVE_COLS, 'other'].map((c) => `sum(${prefix}${c}) as ${c}`),
  `(array_agg(${prefix}closing order by ${prefix}day desc))[1] as closing`,
].join(', '));
/** every amount column as a decimal string with two decimals */
const amountsText = (prefix = '') => sql.raw(AMOUNT_COLUMNS.map((c) => `${prefix}${c.col}::numeric(18, 2)::text as ${c.col}`).join(', '));
const amountsOf = (r: Row) => Object.fromEntries(AMOUNT_COLUMNS.map((c) => [c.key, String(r[c.col] ?? '0.00')])) as Record<AmountKey, string>;

const MONTH = /^\d{4}-\d{2}$/;
const monthStart = (id: string) => `${id}-01`;
/** the first day of the month after 'YYYY-MM' */
function monthAfter(id: string): string {
  const [y, m] = id.split('-').map(Number);
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

/** Sortable columns of a report's customer statements. */
const SORTS: Record<string, string> = {
  custName: 'lower(c.cust_name)',
  ...Object.fromEntries(AMOUNT_COLUMNS.map((c) => [c.key, `a.${c.col}`])),
};

/**
 * Financial › Accounting reports: the built days read for the viewer's scope. Staff without a customer filter read
 * the platform's day rows; any narrower scope sums its customers' rows per day (the tree's index or the customer's).
 */
export class ReportService {
  constructor(private db: Db) {}

  /** The predicate on accounting_day_customers `a` for the viewer (and the customer it names); null: the platform. */
  private async scope(actor: Actor, custId: number | undefined): Promise<SQL | null> {
    if (custId !== undefined) {
      const c = await moneyCustomer(this.db, actor, custId);
      return sql`a.cust_id = ${c.custId}`;
    }
    if (isStaff(actor)) return null;
    if (isChannel(actor)) return actor.rootCustId == null ? sql`false` : sql`a.root_cust_id = ${actor.rootCustId}`;
    return actor.custId == null ? sql`false` : sql`a.cust_id = ${actor.custId}`;
  }

  /** The built days within [from, to) for a scope: one row per day with its amounts and customers. */
  private days(scope: SQL | null, from: string | null, to: string | null): SQL {
    const range = sql.join([
      sql`true`,
      ...(from ? [sql`d.day >= ${from}::date`] : []),
      ...(to ? [sql`d.day < ${to}::date`] : []),
    ], sql` and `);
    if (!scope) {
      return sql`select d.day, ${sql.raw(AMOUNT_COLUMNS.map((c) => `d.${c.col}`).join(', '))}, d.customers, d.built_at from accounting_days d where ${range}`;
    }
    const sums = sql.raw(AMOUNT_COLUMNS.map((c) => `coalesce(sum(a.${c.col}), 0) as ${c.col}`).join(', '));
    return sql`select d.day, ${sums}, count(a.cust_id) as customers, d.built_at
      from accounting_days d left join accounting_day_customers a on a.day = d.day and ${scope}
      where ${range} group by d.day, d.built_at`;
  }

  /** The list's rows as periods: days as they are, or months summed from their days. */
  private periods(type: number, days: SQL): SQL {
    if (type === ReportPeriod.Daily) {
      return sql`select day::text as id, day::text as period_start, day::text as period_end, true as complete,
        ${amountsText()}, customers, built_at from (${days}) x`;
    }
    return sql`select id, period_start, period_end, complete, ${amountsText()}, customers, built_at from (
        select to_char(day, 'YYYY-MM') as id, min(day)::text as period_start, max(day)::text as period_end,
          max(day) = (date_trunc('month', max(day)) + interval '1 month' - interval '1 day')::date as complete,
          ${aggregate()}, max(customers) as customers, max(built_at) as built_at
        from (${days}) x group by 1) g`;
  }

  private static reportRow(type: number, r: Row) {
    return {
      id: String(r.id), type, periodStart: String(r.period_start), periodEnd: String(r.period_end), complete: Boolean(r.complete),
      customers: Number(r.customers), builtAt: new Date(r.built_at as string).toISOString(), ...amountsOf(r),
    };
  }

  /** The range of days a list filter covers: days as given, or the whole months they touch. */
  private static range(type: number, startDate?: string, endDate?: string): { from: string | null; to: string | null } {
    if (type === ReportPeriod.Monthly) {
      return { from: startDate ? monthStart(startDate.slice(0, 7)) : null, to: endDate ? monthAfter(endDate.slice(0, 7)) : null };
    }
    return { from: startDate ?? null, to: endDate ? dayAfter(endDate) : null };
  }

  async list(q: BodyOf<typeof api.getAccountingReportListPage>, actor: Actor) {
    const p = pageOf(q);
    const scope = await this.scope(actor, q.custId);
    const { from, to } = ReportService.range(q.type, q.startDate, q.endDate);
    const days = this.days(scope, from, to);
    const periods = this.periods(q.type, days);
    const [rows, [tot], [{ n }], builtThrough] = await Promise.all([
      this.db.execute(sql`select * from (${periods}) r order by id desc limit ${p.limit} offset ${p.offset}`).then((r) => rowsOf<Row>(r)),
      this.db.execute(sql`select ${amountsText()} from (select ${aggregate()} from (${days}) x) t`).then((r) => rowsOf<Row>(r)),
      this.db.execute(sql`select count(*) as n from (${periods}) y`).then((r) => rowsOf<{ n: string }>(r)),
      lastBuiltDay(this.db),
    ]);
    return {
      list: rows.map((r) => ReportService.reportRow(q.type, r)),
      total: Number(n), current: p.current, pageSize: p.pageSize,
      totals: Number(n) > 0 && tot ? amountsOf(tot) : null,
      builtThrough,
    };
  }

  /** One day's or month's report over the viewer's scope, and each customer's statement in it. */
  async detail(q: BodyOf<typeof api.getAccountingReportDetail>, actor: Actor) {
    const p = pageOf(q);
    const monthly = q.type === ReportPeriod.Monthly;
    if (monthly !== MONTH.test(q.id)) throw notFound();
    const scope = await this.scope(actor, q.custId);
    const from = monthly ? monthStart(q.id) : q.id;
    const to = monthly ? monthAfter(q.id) : dayAfter(q.id);
    const [head] = rowsOf<Row>(await this.db.execute(this.periods(q.type, this.days(scope, from, to))));
    if (!head) throw notFound();
    // a day's statements are its customer rows; a month's the customers' month rows (kept by each day's build)
    const table = sql.raw(monthly ? 'accounting_month_customers' : 'accounting_day_customers');
    const where: SQL[] = [monthly ? sql`a.month = ${from}::date` : sql`a.day = ${from}::date`, scope ?? sql`true`];
    // names are needed to choose the page only when it is filtered or sorted by them
    const byName = q.sortField === 'custName';
    const named = Boolean(q.custName) || byName;
    if (q.custName) where.push(sql`c.cust_name ilike ${contains(q.custName)}`);
    const cond = sql.join(where, sql` and `);
    const from_ = named ? sql`${table} a join customers c on c.cust_id = a.cust_id` : sql`${table} a`;
    const dir = q.sortOrder === 'ascend' ? 'asc' : 'desc';
    const order = q.sortField && SORTS[q.sortField] ? sql.raw(`${SORTS[q.sortField]} ${dir}, a.cust_id`) : sql.raw('a.closing desc, a.cust_id');
    // the page is chosen from the report rows alone (a top-N of one day's or month's rows); names for its rows only
    const [rows, [{ n }]] = await Promise.all([
      this.db.execute(sql`select a.cust_id, ${amountsText('a.')} from ${from_} where ${cond}
        order by ${order} limit ${p.limit} offset ${p.offset}`).then((r) => rowsOf<Row>(r)),
      this.db.execute(sql`select count(*) as n from ${from_} where ${cond}`).then((r) => rowsOf<{ n: string }>(r)),
    ]);
    const ids = rows.map((r) => Number(r.cust_id));
    const names = new Map(ids.length
      ? rowsOf<{ cust_id: number; cust_name: string; level: number; parent_cust_name: string | null }>(await this.db.execute(sql`
          select c.cust_id, c.cust_name, c.level, pc.cust_name as parent_cust_name
          from customers c left join customers pc on pc.cust_id = c.parent_cust_id
          where c.cust_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`)).map((r) => [Number(r.cust_id), r])
      : []);
    const total = Number(n);
    return {
      report: ReportService.reportRow(q.type, head),
      list: rows.map((r) => {
        const c = names.get(Number(r.cust_id));
        return { custId: Number(r.cust_id), custName: c?.cust_name ?? '', level: Number(c?.level ?? 0), parentCustName: c?.parent_cust_name ?? null, ...amountsOf(r) };
      }),
      total, current: p.current, pageSize: p.pageSize,
    };
  }
}

/** The calendar day after 'YYYY-MM-DD' (a date, not an instant: the range ends of date columns). */
export function dayAfter(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return new Date(d.getTime() + 86_400_000).toISOString().slice(0, 10);
}
