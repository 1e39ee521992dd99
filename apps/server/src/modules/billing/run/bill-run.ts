// The monthly bill run (issue 14; docs/billing.md): every customer's bill of a closed period, or a re-run of one
// customer's unpublished bill, rated set-based in SQL (bill-run-sql.ts) over the cards in ICCID order, a chunk of
// BILL_RUN_CHUNK_CARDS cards per transaction: the chunk's bills, lines and the run's cursor commit together, and the
// run is worked under a lease (like the usage feed), so a killed process's run is resumed by the next one from its
// cursor and every bill and line is written exactly once. Then one transaction adds the one-off fees and writes the
// totals and breakdowns.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { BILL_RUN_CHUNK_CARDS, BILL_RUN_MAX_FAILURES, BillRunState, ErrorCode, OneOffFeeState, businessDay, getBusinessTimeZone, zonedTime } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';
import { defaultBillingDay, isPeriodReadyToBill, lastDeliveredUsageDay, periodByKey, type BillingPeriod } from '../rating/periods.ts';
import { chargesSql, chunkSql, oneOffSql, totalsSql, type OperatorPeriod } from './bill-run-sql.ts';

const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
const rows = async <T>(ex: Executor, q: ReturnType<typeof sql>) => rowsOf<T>(await ex.execute(q));

/** A run not renewed for this long is taken over by the next worker (each chunk renews it). */
export const BILL_RUN_LEASE_MS = 120_000;
/** the bill runs' advisory lock class (a period's starts are serialised) */
export const START_LOCK = 7310036;

/** The run steps (bill_runs.step). */
export const BillRunStep = { Cards: 1, Totals: 2, Done: 3 } as const;

interface OperatorRow {
  operator_id: number;
  billing_day: number | null;
  watermark: Date | string | null;
  has_feed: boolean;
}

async function operatorPeriods(ex: Executor, periodKey: string): Promise<{ row: OperatorRow; period: BillingPeriod }[]> {
  const ops = await rows<OperatorRow>(ex, sql`
    select o.operator_id, o.billing_day, f.watermark, f.operator_id is not null has_feed
    from operators o left join usage_feeds f on f.operator_id = o.operator_id order by o.operator_id`);
  return ops.map((row) => ({ row, period: periodByKey(periodKey, row.billing_day ?? defaultBillingDay(row.operator_id)) }));
}

/**
 * Why the period cannot be billed at `now`, or null when it can: every operator's period must have closed (20900, with
 * the day bills can be run from), and the T+1 usage feed of every operator that has one must have delivered the
 * period's last day (20912, with the last day delivered and the day needed). An operator without a feed row has never
 * fed usage (no card of it has any), so its closed period is ready.
 */
export async function billPeriodNotReadyReason(
  ex: Executor, periodKey: string, now = Date.now(),
): Promise<{ code: ErrorCode; params: Record<string, string> } | null> {
  const ops = await operatorPeriods(ex, periodKey);
  const open = ops.filter((o) => now < o.period.end.getTime()).sort((a, b) => b.period.end.getTime() - a.period.end.getTime());
  if (open.length) return { code: ErrorCode.BillPeriodNotReady, params: { period: periodKey, day: businessDay(open[0].period.end.getTime()) } };
  for (const { row, period } of ops) {
    if (!row.has_feed) continue;
    const last = lastDeliveredUsageDay(row.watermark == null ? null : new Date(row.watermark));
    if (!isPeriodReadyToBill(period, now, last)) {
      return { code: ErrorCode.BillUsageNotArrived, params: { period: periodKey, last: last ?? '—', need: period.lastDay } };
    }
  }
  return null;
}

/** The unpublished bills a run of this scope rates again. */
const scopeBills = (periodKey: string, custId: number | null) =>
  sql`select bill_id from bills where period_key = ${periodKey} and not published and (${custId}::int is null or cust_id = ${custId}::int)`;

/** Cards a run rates: of a customer, with a plan, and not on a published bill of the period. */
const billableCards = (periodKey: string, custId: number | null) => sql`
  from cards c where c.cust_id is not null and c.goods_release_id is not null
    and (${custId}::int is null or c.cust_id = ${custId}::int)
    and not exists (select 1 from bills pb where pb.period_key = ${periodKey} and pb.cust_id = c.cust_id and pb.published)`;

const isUniqueViolation = (e: unknown) => {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code === '23505' || err?.cause?.code === '23505';
};

/**
 * Starts a bill run of the period for every customer, or (custId) a re-run of one customer's bill; answers its id.
 * Refused while the period is not ready (20900), while a run of the period is running (20901: one of the same
 * scope, or a whole-period run and a customer's re-run at once), for a customer whose bill is published (20902), and
 * when there is nothing to bill (20908). The scope's unpublished bills are cleared (lines, breakdowns, card counts;
 * their one-off fees pending again) in the same transaction, so the run rates them from scratch. The work itself is
 * `continueBillRun` (the job queue's, `kickBillRun`).
 */
export async function startBillRun(db: Db, a: { periodKey: string; custId?: number; by: string }, now = Date.now()): Promise<number> {
  const periodKey = a.periodKey;
  const custId = a.custId ?? null;
  periodByKey(periodKey, 1);
  const notReady = await billPeriodNotReadyReason(db, periodKey, now);
  if (notReady) throw new AppError(notReady.code, notReady.params);
  await db.execute(sql`select bill_lines_ensure_partition(${periodKey})`);
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${START_LOCK}, hashtext(${periodKey}))`);
      const running = await rows<{ run_id: number }>(tx, sql`
        select run_id from bill_runs where period_key = ${periodKey} and state = ${BillRunState.Running}
          and (cust_id is null or ${custId}::int is null or cust_id = ${custId}::int) limit 1`);
      if (running.length) throw new AppError(ErrorCode.BillRunRunning, { period: periodKey });
      let hasBill = false;
      if (custId !== null) {
        const [bill] = await rows<{ published: boolean }>(tx, sql`select published from bills where period_key = ${periodKey} and cust_id = ${custId}`);
        if (bill?.published) throw new AppError(ErrorCode.BillPublished);
        hasBill = !!bill;
      }
      const [{ n: cards }] = await rows<{ n: number }>(tx, sql`select count(*)::int n ${billableCards(periodKey, custId)}`);
      if (cards === 0 && !hasBill) {
        const [{ n: fees }] = await rows<{ n: number }>(tx, sql`
          select ((select count(*) from one_off_fees where state = ${OneOffFeeState.Pending} and (${custId}::int is null or cust_id = ${custId}::int))
            + (select count(*) from card_charges where period_key = ${periodKey} and (${custId}::int is null or cust_id = ${custId}::int)))::int n`);
        if (fees === 0) throw new AppError(ErrorCode.BillRunNothing, { period: periodKey });
      }
      await tx.execute(sql`delete from bill_lines where period_key = ${periodKey} and bill_id in (${scopeBills(periodKey, custId)})`);
      await tx.execute(sql`delete from bill_summaries where bill_id in (${scopeBills(periodKey, custId)})`);
      await tx.execute(sql`update one_off_fees set state = ${OneOffFeeState.Pending}, bill_id = null
        where state = ${OneOffFeeState.Billed} and bill_id in (${scopeBills(periodKey, custId)})`);
      await tx.execute(sql`update bills set card_count = 0, unbilled_over_bytes = 0, updated_at = now()
        where bill_id in (${scopeBills(periodKey, custId)})`);
      const [run] = await rows<{ run_id: number }>(tx, sql`
        insert into bill_runs (period_key, cust_id, cards_total, started_by) values (${periodKey}, ${custId}, ${cards}, ${a.by}) returning run_id`);
      return Number(run.run_id);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError(ErrorCode.BillRunRunning, { period: periodKey });
    throw e;
  }
}

/** The operators' periods as the SQL reads them, and the natural month the period is named by. */
export function runPeriods(periodKey: string, ops: { operator_id: number; billing_day: number | null }[]) {
  const [y, m] = periodKey.split('-').map(Number);
  const monthStart = zonedTime(y, m, 1);
  const monthEnd = zonedTime(y, m + 1, 1);
  const periods = ops.map((o) => ({ operatorId: o.operator_id, period: periodByKey(periodKey, o.billing_day ?? defaultBillingDay(o.operator_id)) }));
  const list: OperatorPeriod[] = periods.map(({ operatorId, period }) => {
    // the natural-month cycle ending in the period: ending at the month's end (natural month) or its start (from the 26th)
    const oe = period.start < monthEnd && monthEnd <= period.end ? monthEnd : monthStart;
    const p = businessDay(oe.getTime() - 1).split('-').map(Number);
    return {
      operator_id: operatorId, ps: period.start.toISOString(), pe: period.end.toISOString(), first_day: period.firstDay, last_day: period.lastDay,
      os: zonedTime(p[0], p[1], 1).toISOString(), oe: oe.toISOString(),
    };
  });
  const firstDay = list.reduce((d, o) => (o.first_day < d ? o.first_day : d), list[0]?.first_day ?? `${periodKey}-01`);
  const lastDay = list.reduce((d, o) => (o.last_day > d ? o.last_day : d), list[0]?.last_day ?? businessDay(monthEnd.getTime() - 1));
  return { ops: list, monthStart, monthEnd, firstDay, lastDay };
}

export interface ContinueOptions {
  leaseMs?: number;
  chunkCards?: number;
  /** stop after this many chunks (tests: a crash after N chunks) */
  maxChunks?: number;
  /** stop once this long has passed (the job's turn; the next one goes on) */
  budgetMs?: number;
}

export interface ContinueResult {
  /** false: another worker holds the run, or it is not running */
  claimed: boolean;
  chunks: number;
  state: number;
}

class LeaseLost extends Error {}

/**
 * Works a running run under a lease: its remaining card chunks, then the totals. Safe to call from any number of
 * processes (one holds the lease; the others answer `claimed: false`) and after a crash (the next call after the
 * lease ran out resumes at the cursor). A failure is recorded on the run, the lease freed and the error thrown; the
 * job's next turn tries again.
 */
export async function continueBillRun(db: Db, runId: number, owner: string, opts: ContinueOptions = {}): Promise<ContinueResult> {
  const leaseMs = opts.leaseMs ?? BILL_RUN_LEASE_MS;
  const lease = sql`now() + ${`${Math.ceil(leaseMs / 1000)} seconds`}::interval`;
  const started = Date.now();
  const [run] = await rows<{ period_key: string; cust_id: number | null; step: number; cursor_iccid: string | null }>(db, sql`
    update bill_runs set lease_owner = ${owner}, lease_until = ${lease}
    where run_id = ${runId} and state = ${BillRunState.Running}
      and (lease_owner is null or lease_until is null or lease_until < now() or lease_owner = ${owner})
    returning period_key, cust_id, step, cursor_iccid`);
  if (!run) return { claimed: false, chunks: 0, state: await runState(db, runId) };
  const custId = run.cust_id === null ? null : Number(run.cust_id);
  const periodKey = run.period_key;
  const ops = await rows<{ operator_id: number; billing_day: number | null }>(db, sql`select operator_id, billing_day from operators order by operator_id`);
  const p = runPeriods(periodKey, ops);
  const chunk = opts.chunkCards ?? BILL_RUN_CHUNK_CARDS;
  let cursor = run.cursor_iccid;
  let step = Number(run.step);
  let chunks = 0;
  const mine = sql`run_id = ${runId} and lease_owner = ${owner}`;
  try {
    await db.execute(sql`select bill_lines_ensure_partition(${periodKey})`);
    while (step === BillRunStep.Cards) {
      if (opts.maxChunks !== undefined && chunks >= opts.maxChunks) return { claimed: true, chunks, state: BillRunState.Running };
      if (opts.budgetMs !== undefined && Date.now() - started > opts.budgetMs) return { claimed: true, chunks, state: BillRunState.Running };
      const lo = cursor ?? '';
      // the last card of the next chunk (the chunk's end is a key, so a resumed chunk covers the same cards)
      const [edge] = await rows<{ hi: string | null }>(db, sql`
        select max(iccid) hi from (select c.iccid ${billableCards(periodKey, custId)} and c.iccid > ${lo} order by c.iccid limit ${chunk}) x`);
      await db.transaction(async (tx) => {
        await tx.execute(sql`set local jit = off`);
        await tx.execute(sql`set local work_mem = '64MB'`);
        let moved;
        if (edge?.hi) {
          const [r] = await rows<{ cards: number; lines: number }>(tx, chunkSql({
            periodKey, runId, lo, hi: edge.hi, custId, ops: p.ops, monthStart: p.monthStart.toISOString(), monthEnd: p.monthEnd.toISOString(),
            timeZone: getBusinessTimeZone(),
          }));
          moved = await rows(tx, sql`
            update bill_runs set cursor_iccid = ${edge.hi}, cards_done = cards_done + ${r.cards}, lines_written = lines_written + ${r.lines},
              lease_until = ${lease}, error = null, failures = 0
            where ${mine} and step = ${BillRunStep.Cards} and cursor_iccid is not distinct from ${cursor} returning 1`);
        } else {
          moved = await rows(tx, sql`update bill_runs set step = ${BillRunStep.Totals}, lease_until = ${lease}
            where ${mine} and step = ${BillRunStep.Cards} returning 1`);
        }
        if (!moved.length) throw new LeaseLost('the bill run\'s lease was lost to another process');
      });
      if (edge?.hi) {
        cursor = edge.hi;
        chunks++;
      } else {
        step = BillRunStep.Totals;
      }
    }
    if (step === BillRunStep.Totals) {
      await db.transaction(async (tx) => {
        await tx.execute(sql`set local jit = off`);
        await tx.execute(sql`set local work_mem = '128MB'`);
        await tx.execute(oneOffSql({ periodKey, runId, custId, periodFrom: p.firstDay, periodTo: p.lastDay }));
        await tx.execute(chargesSql({ periodKey, runId, custId, periodFrom: p.firstDay, periodTo: p.lastDay }));
        for (const q of totalsSql({ periodKey, runId, custId })) await tx.execute(q);
        const done = await rows(tx, sql`
          update bill_runs set step = ${BillRunStep.Done}, state = ${BillRunState.Done}, finished_at = now(), error = null,
            lines_written = (select count(*) from bill_lines where period_key = ${periodKey} and bill_id in (
              select bill_id from bills where period_key = ${periodKey} and run_id = ${runId}))
          where ${mine} and step = ${BillRunStep.Totals} returning 1`);
        if (!done.length) throw new LeaseLost('the bill run\'s lease was lost to another process');
      });
    }
    return { claimed: true, chunks, state: BillRunState.Done };
  } catch (e) {
    if (!(e instanceof LeaseLost)) {
      // a run failing BILL_RUN_MAX_FAILURES times in a row gives up: failed, with its last error (a new run may start)
      await db.execute(sql`update bill_runs set error = ${String((e as Error)?.message ?? e).slice(0, 500)}, failures = failures + 1,
          state = case when failures + 1 >= ${BILL_RUN_MAX_FAILURES} then ${BillRunState.Failed} else state end,
          finished_at = case when failures + 1 >= ${BILL_RUN_MAX_FAILURES} then now() else finished_at end
        where ${mine} and state = ${BillRunState.Running}`).catch(() => {});
    }
    throw e;
  } finally {
    await db.execute(sql`update bill_runs set lease_owner = null, lease_until = null where ${mine}`).catch(() => {});
  }
}

async function runState(db: Db, runId: number): Promise<number> {
  const [r] = await rows<{ state: number }>(db, sql`select state from bill_runs where run_id = ${runId}`);
  return r ? Number(r.state) : 0;
}

/** A worker's name for the lease: process and a random part. */
export const billRunOwner = () => `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;

/** The runs still running (the job resumes them). */
export async function runningBillRuns(db: Db): Promise<number[]> {
  const r = await rows<{ run_id: number }>(db, sql`select run_id from bill_runs where state = ${BillRunState.Running} order by run_id`);
  return r.map((x) => Number(x.run_id));
}

const iso = (v: Date | string | null) => (v == null ? null : new Date(v).toISOString());

/** A run as the contract's BillRunRow. */
export async function billRunRow(db: Executor, runId: number) {
  const [r] = await rows<Record<string, unknown>>(db, sql`
    select r.run_id, r.period_key, r.cust_id, cu.cust_name, r.state, r.step, r.cards_done, r.cards_total, r.lines_written,
      r.started_by, r.started_at, r.finished_at, r.error
    from bill_runs r left join customers cu on cu.cust_id = r.cust_id where r.run_id = ${runId}`);
  if (!r) throw new AppError(ErrorCode.NotFound);
  return {
    runId: Number(r.run_id), periodKey: String(r.period_key), custId: r.cust_id == null ? null : Number(r.cust_id),
    custName: (r.cust_name as string | null) ?? null, state: Number(r.state), step: Number(r.step), cardsDone: Number(r.cards_done),
    cardsTotal: Number(r.cards_total), linesWritten: Number(r.lines_written), startedBy: String(r.started_by),
    startedAt: iso(r.started_at as string)!, finishedAt: iso(r.finished_at as string | null), error: (r.error as string | null) ?? null,
  };
}
