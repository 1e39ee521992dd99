import { sql } from 'drizzle-orm';
import { JournalKind, businessDay, businessDayEnd, businessDayStartMs } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';

const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

export const ACCOUNTING_REPORT_QUEUE = 'accounting-report';
/**
 * A day is built this long after it closed: a movement's time is its transaction's start, so one that began just
 * before 00:00 may commit a little after; the build waits for it (docs/accounting-reports.md).
 */
export const BUILD_MARGIN_MS = 15 * 60_000;

/**
 * The movement columns, each the sum of the customer postings of some journal kinds (signed: in +, out -). Moves
 * between a customer's own accounts (withdrawal hold and release) sum to zero per journal; with any kind added
 * later they land in `other`, so opening + movements = closing always holds.
 */
export const MOVEMENTS = [
  { col: 'carried_in', key: 'carriedIn', kinds: [JournalKind.Opening] },
  { col: 'recharge', key: 'recharge', kinds: [JournalKind.Recharge] },
  { col: 'grant_amount', key: 'grant', kinds: [JournalKind.Grant] },
  { col: 'refund', key: 'refund', kinds: [JournalKind.Refund] },
  { col: 'refund_reversal', key: 'refundReversal', kinds: [JournalKind.RefundReversal] },
  { col: 'spend', key: 'spend', kinds: [JournalKind.Spend] },
  { col: 'write_off', key: 'writeOff', kinds: [JournalKind.WriteOff] },
  { col: 'withdraw_paid', key: 'withdrawPaid', kinds: [JournalKind.WithdrawPaid] },
  { col: 'adjust', key: 'adjust', kinds: [JournalKind.Adjust] },
] as const;
const NAMED_KINDS = MOVEMENTS.flatMap((m) => m.kinds);
/** every amount column of a report row, in the order opening, movements, other, closing */
export const AMOUNT_COLUMNS = [
  { col: 'opening', key: 'opening' }, ...MOVEMENTS.map((m) => ({ col: m.col, key: m.key })), { col: 'other', key: 'other' }, { col: 'closing', key: 'closing' },
] as const;
export type AmountKey = (typeof AMOUNT_COLUMNS)[number]['key'];

const DAY_MS = 86_400_000;
/** The business day after / before `day` (a day is 23 to 25 hours long where the zone keeps summer time). */
export const nextDay = (day: string): string => businessDay(businessDayStartMs(day) + DAY_MS + DAY_MS / 2);
export const prevDay = (day: string): string => businessDay(businessDayStartMs(day) - DAY_MS / 2);

/** The business day of the first customer posting (null: the ledger has none). */
async function firstPostingDay(ex: Executor): Promise<string | null> {
  const [r] = rowsOf<{ at: string | null }>(await ex.execute(sql`select min(created_at) as at from ledger_postings where cust_id is not null`));
  return r?.at ? businessDay(new Date(r.at).getTime()) : null;
}

/** The last day built (null: none yet). */
export async function lastBuiltDay(ex: Executor): Promise<string | null> {
  const [r] = rowsOf<{ day: string | null }>(await ex.execute(sql`select max(day)::text as day from accounting_days`));
  return r?.day ?? null;
}

export interface DayBuilt {
  day: string;
  /** false: it had been built already (by another process, or an earlier run): nothing was written */
  built: boolean;
  customers: number;
  postings: number;
  ms: number;
}

/**
 * Builds one business day's report in one transaction, set-based: the day's customer postings grouped by customer
 * and kind, joined with the previous day's closing of every customer that had money. A day built before is left as it
 * is (its row is the claim: a second builder waits on it and then finds it). The previous day must be built, or no
 * money may exist before this day (the first day): otherwise the openings would be invented, and the build refuses.
 */
export async function buildDay(db: Db, day: string): Promise<DayBuilt> {
  const started = Date.now();
  const start = new Date(businessDayStartMs(day)).toISOString();
  const end = businessDayEnd(day).toISOString();
  const before = prevDay(day);
  return db.transaction(async (tx) => {
    const [claim] = rowsOf<{ day: string }>(await tx.execute(sql`insert into accounting_days (day) values (${day}::date) on conflict (day) do nothing returning day::text`));
    if (!claim) return { day, built: false, customers: 0, postings: 0, ms: Date.now() - started };
    const [prev] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select exists (select 1 from accounting_days where day = ${before}::date) as ok`));
    if (!prev?.ok) {
      const [earlier] = rowsOf<{ at: string }>(await tx.execute(sql`select created_at as at from ledger_postings
        where cust_id is not null and created_at < ${start}::timestamptz limit 1`));
      if (earlier) throw new Error(`accounting report ${day}: the day before (${before}) is not built, and money existed before ${day}`);
    }
    const sums = MOVEMENTS.map((m) => sql`coalesce(sum(amount) filter (where kind in (${sql.join(m.kinds.map((k) => sql`${k}`), sql`, `)})), 0) as ${sql.raw(m.col)}`);
    const moveCols = MOVEMENTS.map((m) => sql.raw(`coalesce(m.${m.col}, 0) as ${m.col}`));
    const [ins] = rowsOf<{ customers: string; postings: string }>(await tx.execute(sql`
      with moves as (
        select cust_id, ${sql.join(sums, sql`, `)},
          coalesce(sum(amount) filter (where kind not in (${sql.join(NAMED_KINDS.map((k) => sql`${k}`), sql`, `)})), 0) as other,
          sum(amount) as net, count(*) as n
        from ledger_postings
        where cust_id is not null and created_at >= ${start}::timestamptz and created_at < ${end}::timestamptz
        group by cust_id
      ), prev as (
        select cust_id, closing from accounting_day_customers where day = ${before}::date and closing <> 0
      ), rows as (
        select coalesce(m.cust_id, p.cust_id) as cust_id, coalesce(p.closing, 0) as opening, ${sql.join(moveCols, sql`, `)},
          coalesce(m.other, 0) as other, coalesce(p.closing, 0) + coalesce(m.net, 0) as closing, coalesce(m.n, 0) as n
        from moves m full join prev p on p.cust_id = m.cust_id
      ), ins as (
        insert into accounting_day_customers (day, cust_id, root_cust_id, opening, ${sql.raw(MOVEMENTS.map((m) => m.col).join(', '))}, other, closing)
        select ${day}::date, r.cust_id, c.root_cust_id, r.opening, ${sql.raw(MOVEMENTS.map((m) => `r.${m.col}`).join(', '))}, r.other, r.closing
        from rows r join customers c on c.cust_id = r.cust_id
        -- a customer with no money and only moves between its own accounts has nothing to state
        where r.opening <> 0 or r.closing <> 0 or ${sql.raw(MOVEMENTS.map((m) => `r.${m.col} <> 0`).join(' or '))} or r.other <> 0
        returning 1
      )
      select (select count(*) from ins) as customers, (select coalesce(sum(n), 0) from rows) as postings`));
    // the customers' month so far: the first day opens it, every day adds its movements and sets the closing
    const flowCols = [...MOVEMENTS.map((m) => m.col), 'other'];
    await tx.execute(sql`insert into accounting_month_customers as m (month, cust_id, root_cust_id, ${sql.raw(AMOUNT_COLUMNS.map((c) => c.col).join(', '))})
      select date_trunc('month', day)::date, cust_id, root_cust_id, ${sql.raw(AMOUNT_COLUMNS.map((c) => c.col).join(', '))}
      from accounting_day_customers where day = ${day}::date
      on conflict (month, cust_id) do update set ${sql.raw(flowCols.map((c) => `${c} = m.${c} + excluded.${c}`).join(', '))},
        closing = excluded.closing, root_cust_id = excluded.root_cust_id`);
    const totals = AMOUNT_COLUMNS.map((c) => sql.raw(`${c.col} = coalesce((select sum(${c.col}) from accounting_day_customers where day = d.day), 0)`));
    await tx.execute(sql`update accounting_days d set ${sql.join(totals, sql`, `)},
      customers = ${Number(ins.customers)}, postings = ${Number(ins.postings)}, build_ms = ${Date.now() - started}, built_at = now()
      where d.day = ${day}::date`);
    return { day, built: true, customers: Number(ins.customers), postings: Number(ins.postings), ms: Date.now() - started };
  });
}

/**
 * The job: builds every closed business day not built yet, oldest first, one transaction each, from the day after the
 * last one built (or the day of the first customer posting). Stopped anywhere, the next run goes on from there.
 */
export async function buildAccountingReports(db: Db, opts: { now?: number; maxDays?: number } = {}): Promise<DayBuilt[]> {
  const now = opts.now ?? Date.now();
  const last = await lastBuiltDay(db);
  let day = last ? nextDay(last) : await firstPostingDay(db);
  const done: DayBuilt[] = [];
  while (day && businessDayEnd(day).getTime() + BUILD_MARGIN_MS <= now && done.length < (opts.maxDays ?? Number.POSITIVE_INFINITY)) {
    done.push(await buildDay(db, day));
    day = nextDay(day);
  }
  return done;
}
