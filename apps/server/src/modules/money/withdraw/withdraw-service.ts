import { sql, type SQL } from 'drizzle-orm';
import {
  ErrorCode, JournalKind, LedgerAccount, WITHDRAW_ARRIVAL_DAYS, WITHDRAW_IN_PROGRESS, WITHDRAW_PAYOUT_MAX_ATTEMPTS, WITHDRAW_RUN_DAY, WithdrawRunState,
  WithdrawRunTrigger, WithdrawState,
  businessDay, businessDayEnd, businessDayStartMs, fenToMoney, formatMoney, moneyToFen, NUMERIC_MAX, type BodyOf, type withdraw as api,
} from '@lynx/contract';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError, denied, invalid, notFound } from '../../../platform/errors.ts';
import { isStaff, type Actor, type RequestContext, type SessionContext } from '../../../platform/context.ts';
import { contains, pageOf } from '../../../platform/paging.ts';
import { customerScope } from '../capital-service.ts';
import { balancesOut, lockBalances, postJournal, readBalances, withdrawableFen } from '../ledger.ts';
import { nextWorkingDay, shiftDay } from '../workdays.ts';
import { claimRun } from './run-lock.ts';

const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
const isoOf = (v: unknown): string | null => (v == null ? null : new Date(v as string).toISOString());
const dayText = (v: unknown): string => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

/** The queue of one payout run (data { runId }) and of the monthly run on the 10th. */
export const WITHDRAW_RUN_QUEUE = 'withdraw-run';
export const WITHDRAW_MONTHLY_QUEUE = 'withdraw-monthly';
/** 09:00 on the 10th of each month, business time zone. */
export const WITHDRAW_MONTHLY_CRON = `0 9 ${WITHDRAW_RUN_DAY} * *`;
/** Withdrawals paid per chunk read of a run (each one still in its own transaction). */
const RUN_CHUNK = 100;
const IN_PROGRESS = sql.raw(WITHDRAW_IN_PROGRESS.join(', '));
/** What a payout attempt left: paid, not this run's to pay (any more), failed (to be tried again), or given up (payout failed). */
type Attempt = 'paid' | 'skipped' | 'failed' | 'gave-up';

/**
 * The run that pays an application made on `day`, and the day its money should arrive: the next 10th (this month's
 * when applied before the 10th, else next month's), and about 10 calendar days after that run, moved to the next
 * working day when it falls on a weekend or holiday.
 */
export async function expectedDates(ex: Executor, day: string): Promise<{ runDay: string; arrivalDay: string }> {
  const [y, m, d] = day.split('-').map(Number);
  const pad = (n: number) => String(n).padStart(2, '0');
  const runDay = d < WITHDRAW_RUN_DAY
    ? `${y}-${pad(m)}-${pad(WITHDRAW_RUN_DAY)}`
    : (m === 12 ? `${y + 1}-01-${pad(WITHDRAW_RUN_DAY)}` : `${y}-${pad(m + 1)}-${pad(WITHDRAW_RUN_DAY)}`);
  const arrivalDay = await nextWorkingDay(ex, shiftDay(runDay, WITHDRAW_ARRIVAL_DAYS));
  return { runDay, arrivalDay };
}

const SELECT = sql`select w.withdraw_id, w.withdraw_no, w.cust_id, w.root_cust_id, c.cust_name, w.amount::text as amount, w.account_name,
  w.bank_name, w.bank_account, w.state, w.remark, w.applied_by, w.applied_at, to_char(w.expected_run_day, 'YYYY-MM-DD') as expected_run_day,
  to_char(w.expected_arrival_day, 'YYYY-MM-DD') as expected_arrival_day, w.reviewed_by, w.reviewed_at, w.review_reason, w.run_id,
  w.paid_at, w.paid_by, w.payout_attempts, w.payout_error, w.payout_failed_at
  from withdrawals w join customers c on c.cust_id = w.cust_id`;

function rowOut(r: Record<string, unknown>) {
  return {
    withdrawId: Number(r.withdraw_id), withdrawNo: String(r.withdraw_no), custId: Number(r.cust_id), custName: String(r.cust_name),
    amount: String(r.amount), accountName: String(r.account_name), bankName: String(r.bank_name), bankAccount: String(r.bank_account),
    state: Number(r.state), remark: (r.remark as string | null) ?? null, appliedBy: String(r.applied_by), appliedAt: isoOf(r.applied_at)!,
    expectedRunDay: dayText(r.expected_run_day), expectedArrivalDay: dayText(r.expected_arrival_day),
    reviewedBy: (r.reviewed_by as string | null) ?? null, reviewedAt: isoOf(r.reviewed_at), reviewReason: (r.review_reason as string | null) ?? null,
    runId: r.run_id == null ? null : Number(r.run_id), paidAt: isoOf(r.paid_at), paidBy: (r.paid_by as string | null) ?? null,
    payoutAttempts: Number(r.payout_attempts ?? 0), payoutError: (r.payout_error as string | null) ?? null, payoutFailedAt: isoOf(r.payout_failed_at),
  };
}
export type WithdrawalOut = ReturnType<typeof rowOut>;

/**
 * A withdrawal as `actor` may see it: why a payout failed is the database's or the bank's raw message, for finance
 * only; a customer sees the state ("payout failed") and the page's help, never the technical reason.
 */
function visibleTo(w: WithdrawalOut, actor: Actor): WithdrawalOut {
  return isStaff(actor) ? w : { ...w, payoutError: null };
}

function runOut(r: Record<string, unknown>) {
  return {
    runId: Number(r.run_id), trigger: Number(r.trigger), state: Number(r.state), itemCount: Number(r.item_count), paidCount: Number(r.paid_count),
    failedCount: Number(r.failed_count ?? 0),
    startedBy: String(r.started_by), startedAt: isoOf(r.started_at)!, finishedAt: isoOf(r.finished_at),
  };
}

/**
 * Why a payout attempt failed, for finance: the database's or the rule's own message (the driver wraps a database
 * error in "Failed query: <sql>", whose cause says what went wrong), with an error code when there is one.
 */
export function failureReason(e: unknown): string {
  let cur: unknown = e;
  while (cur instanceof Error && cur.cause instanceof Error) cur = cur.cause;
  const err = cur as { message?: unknown; code?: unknown } | null;
  const code = err && (typeof err.code === 'string' || typeof err.code === 'number') ? `${err.code}: ` : '';
  const message = err && typeof err.message === 'string' ? err.message : String(cur);
  return `${code}${message}`.replace(/\s+/g, ' ').trim().slice(0, 500);
}

/** A job's context for audit records: no person, the run's queue as the endpoint. */
const jobContext = (endpoint: string): RequestContext => ({ actor: null, lang: 'zh', ip: '-', endpoint, tokenHash: null, audited: false });

/** Business › Withdrawals: apply (hold), review (approve / reject and release), payout runs, list and export. */
export class WithdrawService {
  constructor(private db: Db) {}

  private async one(ex: Executor, withdrawId: number, actor: Actor | null): Promise<WithdrawalOut | null> {
    const scope = actor ? customerScope(actor) : sql`true`;
    const [r] = rowsOf<Record<string, unknown>>(await ex.execute(sql`${SELECT} where w.withdraw_id = ${withdrawId} and ${scope}`));
    return r ? rowOut(r) : null;
  }

  async info(withdrawId: number, actor: Actor) {
    const w = await this.one(this.db, withdrawId, actor);
    if (!w) throw notFound();
    return visibleTo(w, actor);
  }

  async list(q: BodyOf<typeof api.getWithdrawListPage>, actor: Actor) {
    const p = pageOf(q);
    const where: SQL[] = [customerScope(actor)];
    if (q.state !== undefined) where.push(sql`w.state = ${q.state}`);
    if (q.custId !== undefined) where.push(sql`w.cust_id = ${q.custId}`);
    if (q.custName) where.push(sql`c.cust_name ilike ${contains(q.custName)}`);
    if (q.withdrawNo) where.push(sql`w.withdraw_no ilike ${contains(q.withdrawNo)}`);
    if (q.startDate) where.push(sql`w.applied_at >= ${new Date(businessDayStartMs(q.startDate)).toISOString()}::timestamptz`);
    if (q.endDate) where.push(sql`w.applied_at < ${businessDayEnd(q.endDate).toISOString()}::timestamptz`);
    const cond = sql.join(where, sql` and `);
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`${SELECT} where ${cond}
      order by w.withdraw_id desc limit ${p.limit} offset ${p.offset}`));
    const [{ n }] = rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from withdrawals w join customers c on c.cust_id = w.cust_id where ${cond}`));
    return { list: rows.map((r) => visibleTo(rowOut(r), actor)), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  /** The caller's own customer (withdrawals are applied for by a customer, never by staff for one). */
  private ownCustomer(actor: Actor): number {
    if (isStaff(actor) || actor.custId == null) {
      throw invalid('amount', { zh: '提现由客户本人申请，平台人员不能代为申请', en: 'A withdrawal is applied for by the customer itself, not by platform staff' });
    }
    return actor.custId;
  }

  private async customer(ex: Executor, custId: number) {
    const [c] = rowsOf<{ cust_id: number; root_cust_id: number; cust_name: string; bank_name: string | null; bank_account: string | null }>(
      await ex.execute(sql`select cust_id, root_cust_id, cust_name, bank_name, bank_account from customers where cust_id = ${custId}`));
    if (!c) throw notFound();
    return c;
  }

  async applyInfo(actor: Actor) {
    const custId = this.ownCustomer(actor);
    const c = await this.customer(this.db, custId);
    const b = await readBalances(this.db, custId);
    if (!b) throw notFound();
    const out = balancesOut(b);
    const { runDay, arrivalDay } = await expectedDates(this.db, businessDay(Date.now()));
    const [prog] = rowsOf<{ withdraw_id: number }>(await this.db.execute(sql`select withdraw_id from withdrawals where cust_id = ${custId} and state in (${IN_PROGRESS})`));
    const inProgress = prog ? await this.one(this.db, Number(prog.withdraw_id), null) : null;
    return {
      custId, custName: c.cust_name, withdrawable: out.withdrawable, preDeposit: out.preDeposit, grants: out.grants, withdrawHold: out.withdrawHold,
      accountName: c.cust_name, bankName: c.bank_name?.trim() || null, bankAccount: c.bank_account?.trim() || null,
      expectedRunDay: runDay, expectedArrivalDay: arrivalDay,
      inProgress: inProgress && visibleTo(inProgress, actor),
    };
  }

  /**
   * Applies for a withdrawal of the caller's own customer: under the balance row's lock, refuses while another is in
   * progress, without a bank account, or beyond the withdrawable pre-deposit; else records it and holds the amount
   * (JournalKind.WithdrawHold: pre-deposit −amount, held +amount) in the same transaction.
   */
  async apply(b: BodyOf<typeof api.applyWithdraw>, ctx: SessionContext) {
    const custId = this.ownCustomer(ctx.actor);
    const fen = moneyToFen(b.amount);
    if (fen == null || fen <= 0n || fen > moneyToFen(String(NUMERIC_MAX))!) {
      throw new AppError(ErrorCode.MoneyAmountInvalid, { max: formatMoney(String(NUMERIC_MAX)) });
    }
    const remark = b.remark?.trim() || null;
    const id = await this.db.transaction(async (tx) => {
      const bal = await lockBalances(tx, custId);
      const [busy] = rowsOf<{ withdraw_id: number }>(await tx.execute(sql`select withdraw_id from withdrawals where cust_id = ${custId}
        and state in (${IN_PROGRESS}) limit 1`));
      if (busy) throw new AppError(ErrorCode.WithdrawInProgress);
      const c = await this.customer(tx, custId);
      const bankName = c.bank_name?.trim();
      const bankAccount = c.bank_account?.trim();
      if (!bankName || !bankAccount) throw new AppError(ErrorCode.WithdrawNoBankAccount);
      const withdrawable = withdrawableFen(bal);
      const insufficient = () => new AppError(ErrorCode.WithdrawInsufficient, { withdrawable: formatMoney(fenToMoney(withdrawable)) });
      if (fen > withdrawable) throw insufficient();

      const today = businessDay(Date.now());
      const { runDay, arrivalDay } = await expectedDates(tx, today);
      const [row] = rowsOf<{ withdraw_id: number }>(await tx.execute(sql`insert into withdrawals (withdraw_no, cust_id, root_cust_id, amount,
          account_name, bank_name, bank_account, state, remark, applied_by, applied_account_id, expected_run_day, expected_arrival_day)
        values (${`tmp-${crypto.randomUUID()}`}, ${custId}, ${c.root_cust_id}, ${fenToMoney(fen)}::numeric, ${c.cust_name}, ${bankName}, ${bankAccount},
          ${WithdrawState.Applied}, ${remark}, ${ctx.actor.loginName}, ${ctx.actor.accountId}, ${runDay}::date, ${arrivalDay}::date)
        returning withdraw_id`));
      const withdrawId = Number(row.withdraw_id);
      const withdrawNo = `W${today.replaceAll('-', '')}${String(withdrawId).padStart(6, '0')}`;
      let journalId: number;
      try {
        ({ journalId } = await postJournal(tx, {
          kind: JournalKind.WithdrawHold, custId,
          lines: [{ account: LedgerAccount.PreDeposit, fen: -fen }, { account: LedgerAccount.WithdrawHold, fen }],
          refType: 'withdraw', refId: withdrawNo, memo: remark ?? undefined, idempotencyKey: `withdraw:${withdrawId}:hold`,
          by: { accountId: ctx.actor.accountId, loginName: ctx.actor.loginName },
        }));
      } catch (e) {
        if (e instanceof AppError && e.code === ErrorCode.BalanceInsufficient) throw insufficient();
        throw e;
      }
      await tx.execute(sql`update withdrawals set withdraw_no = ${withdrawNo}, hold_journal_id = ${journalId} where withdraw_id = ${withdrawId}`);
      await audit(tx, ctx, {
        entity: 'withdrawal', entityId: withdrawId, custId, rootCustId: c.root_cust_id,
        after: { withdrawNo, amount: fenToMoney(fen), bankName, bankAccount, state: WithdrawState.Applied, expectedRunDay: runDay, expectedArrivalDay: arrivalDay, journalId, remark },
      });
      return withdrawId;
    }).catch((e: unknown) => {
      // two applications racing past the lock cannot both stay in progress (withdrawals_in_progress_uq)
      if ((e as { code?: string }).code === '23505' || String((e as Error).message).includes('withdrawals_in_progress_uq')) throw new AppError(ErrorCode.WithdrawInProgress);
      throw e;
    });
    return visibleTo((await this.one(this.db, id, null))!, ctx.actor);
  }

  /**
   * Finance's review: approve (it waits for the payout run) or reject with a reason (the hold is released:
   * JournalKind.WithdrawRelease). A withdrawal whose payout failed can be rejected too (the money goes back to the
   * pre-deposit); approving it again is `retryPayout`. Staff only: a customer never reviews a withdrawal, least of
   * all its own.
   */
  async check(b: BodyOf<typeof api.checkWithdraw>, ctx: SessionContext) {
    const actor = ctx.actor;
    if (!isStaff(actor)) {
      const w = await this.one(this.db, b.withdrawId, actor);
      if (!w) throw notFound();
      throw new AppError(ErrorCode.MoneySelfReview);
    }
    const reason = b.reason?.trim() || null;
    if (!b.approve && !reason) throw new AppError(ErrorCode.WithdrawReasonRequired);
    await this.db.transaction(async (tx) => {
      const [w] = rowsOf<Record<string, unknown>>(await tx.execute(sql`select withdraw_id, withdraw_no, cust_id, root_cust_id, amount::text as amount, state
        from withdrawals where withdraw_id = ${b.withdrawId}`));
      if (!w) throw notFound();
      const custId = Number(w.cust_id);
      // the balance lock first (the order every money change takes), then the withdrawal's row
      await lockBalances(tx, custId);
      const [cur] = rowsOf<{ state: number }>(await tx.execute(sql`select state from withdrawals where withdraw_id = ${b.withdrawId} for update`));
      const reviewable = Number(cur.state) === WithdrawState.Applied || (!b.approve && Number(cur.state) === WithdrawState.PayoutFailed);
      if (!reviewable) throw new AppError(ErrorCode.WithdrawStateChanged);
      const fen = moneyToFen(String(w.amount))!;
      let journalId: number | null = null;
      if (!b.approve) {
        ({ journalId } = await postJournal(tx, {
          kind: JournalKind.WithdrawRelease, custId,
          lines: [{ account: LedgerAccount.WithdrawHold, fen: -fen }, { account: LedgerAccount.PreDeposit, fen }],
          refType: 'withdraw', refId: String(w.withdraw_no), memo: reason ?? undefined, idempotencyKey: `withdraw:${b.withdrawId}:release`,
          by: { accountId: actor.accountId, loginName: actor.loginName },
        }));
      }
      const state = b.approve ? WithdrawState.Approved : WithdrawState.Rejected;
      await tx.execute(sql`update withdrawals set state = ${state}, reviewed_by = ${actor.loginName}, reviewed_at = now(), review_reason = ${reason},
        settle_journal_id = ${journalId}, updated_at = now() where withdraw_id = ${b.withdrawId}`);
      await audit(tx, ctx, {
        entity: 'withdrawal', entityId: b.withdrawId, custId, rootCustId: Number(w.root_cust_id),
        before: { state: Number(cur.state) }, after: { state, reason, journalId, amount: String(w.amount) },
      });
    });
    return visibleTo((await this.one(this.db, b.withdrawId, null))!, actor);
  }

  /* ---- payout runs ---- */

  async runs(q: BodyOf<typeof api.getWithdrawRuns>, actor: Actor) {
    if (!isStaff(actor)) throw denied();
    const p = pageOf(q);
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select * from withdraw_runs order by run_id desc limit ${p.limit} offset ${p.offset}`));
    const [{ n }] = rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from withdraw_runs`));
    return { list: rows.map(runOut), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  /** The runs started and not finished (interrupted ones are resumed by their job's retry and by the monthly run). */
  async unfinishedRuns(): Promise<number[]> {
    const rows = rowsOf<{ run_id: number }>(await this.db.execute(sql`select run_id from withdraw_runs where state = ${WithdrawRunState.Running} order by run_id`));
    return rows.map((r) => Number(r.run_id));
  }

  /**
   * Starts a payout run: claims every approved withdrawal not yet claimed (set-based, in one transaction with the
   * run's row and its audit record). Refused while another run is unfinished (20854) and when nothing is approved
   * (20855, for a run started by hand; the monthly run then simply records nothing). Returns null for an empty
   * scheduled run.
   */
  async startRun(ctx: RequestContext, trigger: number): Promise<ReturnType<typeof runOut> | null> {
    if (ctx.actor && !isStaff(ctx.actor)) throw new AppError(ErrorCode.MoneySelfReview);
    return this.db.transaction(async (tx) => {
      // one run at a time across processes: the advisory lock serialises the check-and-insert
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('withdraw-run'))`);
      const [running] = rowsOf<{ run_id: number }>(await tx.execute(sql`select run_id from withdraw_runs where state = ${WithdrawRunState.Running} limit 1`));
      if (running) throw new AppError(ErrorCode.WithdrawRunBusy, { runId: Number(running.run_id) });
      const [{ n }] = rowsOf<{ n: string }>(await tx.execute(sql`select count(*) as n from withdrawals where state = ${WithdrawState.Approved} and run_id is null`));
      if (Number(n) === 0) {
        if (trigger === WithdrawRunTrigger.Manual) throw new AppError(ErrorCode.WithdrawNothingApproved);
        return null;
      }
      const by = ctx.actor?.loginName ?? 'system';
      const [run] = rowsOf<{ run_id: number }>(await tx.execute(sql`insert into withdraw_runs (trigger, started_by, started_account_id)
        values (${trigger}, ${by}, ${ctx.actor?.accountId ?? null}) returning run_id`));
      const runId = Number(run.run_id);
      const claimed = rowsOf<{ withdraw_id: number }>(await tx.execute(sql`update withdrawals set run_id = ${runId}, updated_at = now()
        where state = ${WithdrawState.Approved} and run_id is null returning withdraw_id`));
      await tx.execute(sql`update withdraw_runs set item_count = ${claimed.length} where run_id = ${runId}`);
      await audit(tx, ctx, {
        entity: 'withdraw_run', entityId: runId, custId: null, rootCustId: null,
        after: { trigger, itemCount: claimed.length, withdrawIds: claimed.length <= 1000 ? claimed.map((c) => Number(c.withdraw_id)) : undefined },
      });
      const [r] = rowsOf<Record<string, unknown>>(await tx.execute(sql`select * from withdraw_runs where run_id = ${runId}`));
      return runOut(r);
    });
  }

  /**
   * Pays a run's withdrawals: chunk by chunk, each in its own transaction that posts JournalKind.WithdrawPaid (held
   * −amount, bank +amount; idempotency key per withdrawal), marks it paid and counts it in the run. A run stopped at
   * any point (a crash, kill -9) leaves each withdrawal either paid with its journal or approved without one; running
   * it again pays the rest, each exactly once.
   *
   * A payout that fails does not stop the run: each attempt is counted before it is made (so one that kills the
   * process counts too), a failed one leaves its reason (the withdrawal's payout_error and an audit record), and the
   * run goes on with the next withdrawals. The run passes over its unpaid withdrawals again (after `retryPauseMs`)
   * until each is paid or has had WITHDRAW_PAYOUT_MAX_ATTEMPTS attempts; then it is "payout failed": the money stays
   * held, and finance retries it (`retryPayout`) or rejects it (the hold is released). `stopAfter` (tests) throws
   * after that many payments.
   *
   * One job pays a run at a time (`claimRun`): a second one on the same run (the run's job sent again while the first
   * still runs) returns at once, touching nothing, so the attempts count real attempts only.
   */
  async processRun(runId: number, opts: { stopAfter?: number; retryPauseMs?: number } = {}): Promise<{ paid: number; failed: number }> {
    const release = await claimRun(this.db, runId);
    if (!release) return { paid: 0, failed: 0 };
    try {
      return await this.payRun(runId, opts);
    } finally {
      await release();
    }
  }

  private async payRun(runId: number, opts: { stopAfter?: number; retryPauseMs?: number }): Promise<{ paid: number; failed: number }> {
    const [run] = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select * from withdraw_runs where run_id = ${runId}`));
    if (!run || Number(run.state) === WithdrawRunState.Finished) return { paid: 0, failed: 0 };
    const by = String(run.started_by);
    const ctx = jobContext(`job:${WITHDRAW_RUN_QUEUE}`);
    let paid = 0;
    let failed = 0;
    let after = 0;
    for (;;) {
      const ids = rowsOf<{ withdraw_id: number }>(await this.db.execute(sql`select withdraw_id from withdrawals
        where run_id = ${runId} and state = ${WithdrawState.Approved} and withdraw_id > ${after} order by withdraw_id limit ${RUN_CHUNK}`));
      if (!ids.length) {
        // the end of a pass: what failed in it is tried again in the next pass; every pass adds an attempt to each
        // withdrawal it meets, so there are at most WITHDRAW_PAYOUT_MAX_ATTEMPTS + 1 passes
        if (after === 0) break;
        after = 0;
        if (opts.retryPauseMs) await new Promise((r) => setTimeout(r, opts.retryPauseMs));
        continue;
      }
      for (const { withdraw_id } of ids) {
        after = Number(withdraw_id);
        if (opts.stopAfter !== undefined && paid >= opts.stopAfter) throw new Error(`payout run ${runId} stopped after ${paid} (test)`);
        const attempt = await this.attemptPayout(Number(withdraw_id), runId, by, ctx);
        if (attempt === 'paid') paid += 1;
        if (attempt === 'gave-up') failed += 1;
      }
    }
    await this.db.execute(sql`update withdraw_runs set state = ${WithdrawRunState.Finished}, finished_at = now(),
      paid_count = (select count(*) from withdrawals where run_id = ${runId} and state = ${WithdrawState.Paid}),
      failed_count = (select count(*) from withdrawals where run_id = ${runId} and state = ${WithdrawState.PayoutFailed})
      where run_id = ${runId} and state = ${WithdrawRunState.Running}`);
    return { paid, failed };
  }

  /** One payout attempt of one withdrawal of a run: counted first, then paid in its own transaction, or its failure recorded. */
  private async attemptPayout(withdrawId: number, runId: number, by: string, ctx: RequestContext): Promise<Attempt> {
    const [claim] = rowsOf<{ payout_attempts: number }>(await this.db.execute(sql`update withdrawals set payout_attempts = payout_attempts + 1,
      updated_at = now() where withdraw_id = ${withdrawId} and run_id = ${runId} and state = ${WithdrawState.Approved}
      and payout_attempts < ${WITHDRAW_PAYOUT_MAX_ATTEMPTS} returning payout_attempts`));
    if (!claim) {
      // its attempts are spent and it is still approved: the last one was interrupted (the process stopped during it)
      const gaveUp = await this.payoutFailed(withdrawId, runId, 'interrupted: the process stopped during the last payout attempt', ctx, true);
      return gaveUp ? 'gave-up' : 'skipped';
    }
    try {
      return (await this.payOne(withdrawId, runId, by, ctx)) ? 'paid' : 'skipped';
    } catch (e) {
      const reason = failureReason(e);
      const last = Number(claim.payout_attempts) >= WITHDRAW_PAYOUT_MAX_ATTEMPTS;
      return (await this.payoutFailed(withdrawId, runId, reason, ctx, last)) && last ? 'gave-up' : 'failed';
    }
  }

  /**
   * Records a failed payout attempt with its reason (an audit record each); `giveUp` marks the withdrawal payout
   * failed. Only while it is still this run's approved withdrawal; answers whether it was.
   */
  private async payoutFailed(withdrawId: number, runId: number, reason: string, ctx: RequestContext, giveUp: boolean): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [w] = rowsOf<Record<string, unknown>>(await tx.execute(sql`select withdraw_id, cust_id, root_cust_id, amount::text as amount, state, run_id,
        payout_attempts from withdrawals where withdraw_id = ${withdrawId} for update`));
      if (!w || Number(w.state) !== WithdrawState.Approved || Number(w.run_id) !== runId) return false;
      const state = giveUp ? WithdrawState.PayoutFailed : WithdrawState.Approved;
      await tx.execute(sql`update withdrawals set state = ${state}, payout_error = ${reason},
        payout_failed_at = ${giveUp ? sql`now()` : sql`null`}, updated_at = now() where withdraw_id = ${withdrawId}`);
      await audit(tx, ctx, {
        entity: 'withdrawal', entityId: withdrawId, custId: Number(w.cust_id), rootCustId: Number(w.root_cust_id),
        before: { state: WithdrawState.Approved },
        after: { state, runId, payoutAttempt: Number(w.payout_attempts), payoutError: reason, amount: String(w.amount), held: true },
      });
      return true;
    });
  }

  /**
   * Finance retries a failed payout: the withdrawal is approved again, its attempts reset, out of its run, and the
   * next run pays it (the money stayed held). Staff only (a customer never pays out a withdrawal); 20853 unless its
   * payout failed.
   */
  async retryPayout(withdrawId: number, ctx: SessionContext) {
    const actor = ctx.actor;
    const w = await this.one(this.db, withdrawId, actor);
    if (!w) throw notFound();
    if (!isStaff(actor)) throw new AppError(ErrorCode.MoneySelfReview);
    await this.db.transaction(async (tx) => {
      await lockBalances(tx, w.custId);
      const [cur] = rowsOf<{ state: number; root_cust_id: number; run_id: number | null; payout_attempts: number; payout_error: string | null }>(await tx.execute(sql`select
        state, root_cust_id, run_id, payout_attempts, payout_error from withdrawals where withdraw_id = ${withdrawId} for update`));
      if (Number(cur.state) !== WithdrawState.PayoutFailed) throw new AppError(ErrorCode.WithdrawStateChanged);
      await tx.execute(sql`update withdrawals set state = ${WithdrawState.Approved}, run_id = null, payout_attempts = 0, payout_failed_at = null,
        updated_at = now() where withdraw_id = ${withdrawId}`);
      await audit(tx, ctx, {
        entity: 'withdrawal', entityId: withdrawId, custId: w.custId, rootCustId: Number(cur.root_cust_id),
        before: { state: WithdrawState.PayoutFailed, runId: cur.run_id, payoutAttempts: Number(cur.payout_attempts), payoutError: cur.payout_error },
        after: { state: WithdrawState.Approved, runId: null, payoutAttempts: 0, retry: true, amount: w.amount },
      });
    });
    return visibleTo((await this.one(this.db, withdrawId, null))!, actor);
  }

  private async payOne(withdrawId: number, runId: number, by: string, ctx: RequestContext): Promise<boolean> {
    return this.db.transaction(async (tx: Tx) => {
      const [w] = rowsOf<Record<string, unknown>>(await tx.execute(sql`select withdraw_id, withdraw_no, cust_id, root_cust_id, amount::text as amount
        from withdrawals where withdraw_id = ${withdrawId}`));
      if (!w) return false;
      const custId = Number(w.cust_id);
      await lockBalances(tx, custId);
      const [cur] = rowsOf<{ state: number; run_id: number | null }>(await tx.execute(sql`select state, run_id from withdrawals where withdraw_id = ${withdrawId} for update`));
      if (Number(cur.state) !== WithdrawState.Approved || Number(cur.run_id) !== runId) return false;
      const fen = moneyToFen(String(w.amount))!;
      const posted = await postJournal(tx, {
        kind: JournalKind.WithdrawPaid, custId,
        lines: [{ account: LedgerAccount.WithdrawHold, fen: -fen }, { account: LedgerAccount.Bank, fen }],
        refType: 'withdraw', refId: String(w.withdraw_no), idempotencyKey: `withdraw:${withdrawId}:paid`,
        by: { accountId: null, loginName: by },
      });
      await tx.execute(sql`update withdrawals set state = ${WithdrawState.Paid}, paid_at = now(), paid_by = ${by}, settle_journal_id = ${posted.journalId},
        updated_at = now() where withdraw_id = ${withdrawId}`);
      await tx.execute(sql`update withdraw_runs set paid_count = paid_count + 1 where run_id = ${runId}`);
      await audit(tx, ctx, {
        entity: 'withdrawal', entityId: withdrawId, custId, rootCustId: Number(w.root_cust_id),
        before: { state: WithdrawState.Approved }, after: { state: WithdrawState.Paid, runId, journalId: posted.journalId, amount: String(w.amount), startedBy: by },
      });
      return true;
    });
  }
}
