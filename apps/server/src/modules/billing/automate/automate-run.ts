import { sql } from 'drizzle-orm';
import {
  BillAutoActionResult as Result, BillAutoExecState as State, BillAutoReason as Reason, BillAutoWriteOffMode, BillRunState, ErrorCode, RoleType,
  businessDay, fenToMoney, moneyToFen,
} from '@lynx/contract';
import type { Db, Tx } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';
import type { Actor, SessionContext } from '../../../platform/context.ts';
import { lockBalances } from '../../money/ledger.ts';
import { BillService } from '../bills/bill-service.ts';
import { WriteOffService, WriteOffSource, payableFen } from '../bills/write-off.ts';
import { rowsOf } from '../bills/bill-sql.ts';
import { dayReached, execDayOf, targetPeriod } from './automate-days.ts';

/**
 * Executes the automated ledger's due rules (docs/decisions.md "Issue 14: automated ledger"). Each rule × period has
 * one execution row (unique), claimed with FOR UPDATE SKIP LOCKED and written in the same transaction as what its
 * actions did, so two workers never act twice and a process killed in the middle leaves nothing half done: the next
 * turn starts the execution again. Publishing and writing off go through the bill services (their rules, locks and
 * audit records), each in a savepoint so that a refused action is recorded and the transaction goes on.
 */

/** Who the automation acts as: platform finance without a person (journals, audit records and bills say so). */
export const AUTO_LEDGER_LOGIN = 'auto-ledger';
const AUTO_ACTOR: Actor = {
  accountId: 0, loginName: AUTO_LEDGER_LOGIN, userName: AUTO_LEDGER_LOGIN, roleId: RoleType.Admin, roleName: AUTO_LEDGER_LOGIN,
  roleType: RoleType.Admin, custId: null, rootCustId: null, permissions: new Set(), mustResetPassword: false,
};
export const AUTO_LEDGER_QUEUE = 'bill-automate';

const jobContext = (): SessionContext => ({ actor: AUTO_ACTOR, lang: 'zh', ip: '-', endpoint: `job:${AUTO_LEDGER_QUEUE}`, tokenHash: null, audited: false });

interface RuleRow { rule_id: number; cust_id: number; root_cust_id: number; day_of_month: number; publish: boolean; write_off: boolean; write_off_mode: number; enabled: boolean }

/** What one execution came to (also what the job logs). */
export interface ExecOutcome {
  ruleId: number;
  periodKey: string;
  state: number;
  publishResult: number;
  writeOffResult: number;
  writeOffAmount: string | null;
}

interface Outcome {
  billId: number | null;
  publish: number;
  publishReason: number | null;
  writeOff: number;
  writeOffReason: number | null;
  arrears: bigint | null;
  payable: bigint | null;
  amount: bigint | null;
  writeOffId: number | null;
  journalId: number | null;
  error: { code: number; params: Record<string, unknown> | null } | null;
}

const errorOf = (e: unknown) => (e instanceof AppError ? { code: e.code, params: (e.params as Record<string, unknown> | undefined) ?? null } : { code: ErrorCode.ServerError, params: null });

/** An execution's state from its actions: waiting while one waits, done when all did (or had nothing to do). */
function stateOf(o: Outcome): number {
  const results = [o.publish, o.writeOff];
  if (results.includes(Result.Waiting)) return State.Waiting;
  if (o.publishReason === Reason.NoBill || o.writeOffReason === Reason.NoBill) return State.Skipped;
  if (results.includes(Result.Failed) || results.includes(Result.Skipped) || o.writeOffReason === Reason.InsufficientBalance) return State.Attention;
  return State.Done;
}

/**
 * One turn of the job: gives up the waiting executions of earlier periods (and of rules deleted or moved on), then
 * executes every enabled rule whose day has come in today's month (business time) for the last closed period, unless
 * that execution is finished. `ruleIds` limits the turn (a test, a rule just switched on).
 */
export async function executeDueRules(db: Db, now = new Date(), log?: (err: unknown, ruleId: number) => void): Promise<ExecOutcome[]> {
  const today = businessDay(now.getTime());
  const period = targetPeriod(today);
  await giveUpStale(db, period, now);
  const due = rowsOf<{ rule_id: number }>(await db.execute(sql`select r.rule_id from bill_automate_rules r
    where r.enabled and r.deleted_at is null and r.day_of_month <= ${Number(today.slice(8, 10))} and r.first_period <= ${period}
      and not exists (select 1 from bill_automate_execs e where e.rule_id = r.rule_id and e.period_key = ${period} and e.state <> ${State.Waiting})
    order by r.rule_id`));
  const out: ExecOutcome[] = [];
  for (const { rule_id: ruleId } of due) {
    try {
      const done = await executeRule(db, Number(ruleId), period, now);
      if (done) out.push(done);
    } catch (err) {
      log?.(err, Number(ruleId));
    }
  }
  return out;
}

/** Waiting executions that will never be tried again: their period is no longer the target, or their rule moved past it or was deleted. */
async function giveUpStale(db: Db, period: string, now: Date) {
  const at = now.toISOString();
  await db.execute(sql`update bill_automate_execs e set state = ${State.Skipped}, finished_at = ${at}::timestamptz,
      publish_result = case when e.publish_result = ${Result.Waiting} then ${Result.Skipped} else e.publish_result end,
      write_off_result = case when e.write_off_result = ${Result.Waiting} then ${Result.Skipped} else e.write_off_result end,
      publish_reason = case when e.publish_result = ${Result.Waiting} then ${Reason.PeriodPassed} else e.publish_reason end,
      write_off_reason = case when e.write_off_result = ${Result.Waiting} then ${Reason.PeriodPassed} else e.write_off_reason end
    from bill_automate_rules r
    where r.rule_id = e.rule_id and e.state = ${State.Waiting} and (e.period_key < ${period} or r.deleted_at is not null or r.first_period > e.period_key)`);
}

/**
 * Executes one rule for one period, once: null when another worker holds the execution, it is finished, or the rule
 * is off or gone. Otherwise the execution as it now stands (still waiting when the bill is not ready).
 */
export async function executeRule(db: Db, ruleId: number, periodKey: string, now = new Date()): Promise<ExecOutcome | null> {
  const today = businessDay(now.getTime());
  const at = now.toISOString();
  return db.transaction(async (tx) => {
    // an edit or switch of the rule waits for this execution (and the other way round)
    const [rule] = rowsOf<RuleRow>(await tx.execute(sql`select rule_id, cust_id, root_cust_id, day_of_month, publish, write_off, write_off_mode, enabled
      from bill_automate_rules where rule_id = ${ruleId} and deleted_at is null for share`));
    if (!rule || !rule.enabled || !dayReached(today, Number(rule.day_of_month)) || targetPeriod(today) !== periodKey) return null;
    await tx.execute(sql`insert into bill_automate_execs (rule_id, cust_id, root_cust_id, period_key, due_day, first_tried_at, last_tried_at)
      values (${ruleId}, ${rule.cust_id}, ${rule.root_cust_id}, ${periodKey}, ${execDayOf(periodKey, Number(rule.day_of_month))}::date, ${at}::timestamptz, ${at}::timestamptz)
      on conflict (rule_id, period_key) do nothing`);
    const [exec] = rowsOf<{ exec_id: string; state: number }>(await tx.execute(sql`select exec_id, state from bill_automate_execs
      where rule_id = ${ruleId} and period_key = ${periodKey} for update skip locked`));
    if (!exec || Number(exec.state) !== State.Waiting) return null;

    const o = await act(tx, rule, periodKey, now);
    const state = stateOf(o);
    const money = (f: bigint | null) => (f == null ? null : fenToMoney(f));
    await tx.execute(sql`update bill_automate_execs set state = ${state}, bill_id = ${o.billId}, publish_result = ${o.publish}, publish_reason = ${o.publishReason},
        write_off_result = ${o.writeOff}, write_off_reason = ${o.writeOffReason}, arrears = ${money(o.arrears)}::numeric, payable = ${money(o.payable)}::numeric,
        write_off_amount = ${money(o.amount)}::numeric, write_off_id = ${o.writeOffId}, journal_id = ${o.journalId},
        error_code = ${o.error?.code ?? null}, error_params = ${o.error?.params ? JSON.stringify(o.error.params) : null}::jsonb,
        attempts = attempts + 1, last_tried_at = ${at}::timestamptz, finished_at = ${state === State.Waiting ? null : at}::timestamptz
      where exec_id = ${exec.exec_id}`);
    return { ruleId, periodKey, state, publishResult: o.publish, writeOffResult: o.writeOff, writeOffAmount: money(o.amount) };
  });
}

/** Does what the rule asks of the bill, through the bill services; never throws for a refused action. */
async function act(tx: Tx, rule: RuleRow, periodKey: string, now: Date): Promise<Outcome> {
  const o: Outcome = {
    billId: null, publish: rule.publish ? Result.Waiting : Result.NotAsked, publishReason: null,
    writeOff: rule.write_off ? Result.Waiting : Result.NotAsked, writeOffReason: null,
    arrears: null, payable: null, amount: null, writeOffId: null, journalId: null, error: null,
  };
  const wait = (reason: number) => {
    if (o.publish === Result.Waiting) o.publishReason = reason;
    if (o.writeOff === Result.Waiting) o.writeOffReason = reason;
    return o;
  };
  // the customer's money before the bill row: the order the write-off (and every journal) locks in
  if (rule.write_off) await lockBalances(tx, rule.cust_id);
  const [lastRun] = rowsOf<{ state: number }>(await tx.execute(sql`select state from bill_runs where period_key = ${periodKey}
    and (cust_id is null or cust_id = ${rule.cust_id}) order by run_id desc limit 1`));
  const runState = lastRun ? Number(lastRun.state) : null;
  const [bill] = rowsOf<{ bill_id: string; published: boolean; rated_at: unknown }>(await tx.execute(sql`select bill_id, published, rated_at from bills
    where period_key = ${periodKey} and cust_id = ${rule.cust_id}`));
  if (!bill) {
    // a finished run without a bill for the customer: nothing to bill this period
    if (runState === BillRunState.Done) {
      if (o.publish === Result.Waiting) [o.publish, o.publishReason] = [Result.Skipped, Reason.NoBill];
      if (o.writeOff === Result.Waiting) [o.writeOff, o.writeOffReason] = [Result.Skipped, Reason.NoBill];
      return o;
    }
    return wait(Reason.BillNotRun);
  }
  o.billId = Number(bill.bill_id);
  const ctx = jobContext();
  if (!bill.published) {
    if (!bill.rated_at || (runState != null && runState !== BillRunState.Done)) return wait(Reason.BillNotRun);
    if (!rule.publish) return wait(Reason.NotPublished);
    try {
      await new BillService(tx as unknown as Db).publish(o.billId, ctx, now);
      o.publish = Result.Done;
    } catch (e) {
      const err = errorOf(e);
      // a run started meanwhile, or its last run did not finish: the bill is not ready yet
      if (err.code === ErrorCode.BillRunRunning || err.code === ErrorCode.BillNotRated) return wait(Reason.BillNotRun);
      [o.publish, o.publishReason, o.error] = [Result.Failed, Reason.Error, err];
      if (o.writeOff === Result.Waiting) [o.writeOff, o.writeOffReason] = [Result.Skipped, Reason.NotPublished];
      return o;
    }
  } else if (rule.publish) {
    o.publish = Result.AlreadyDone;
  }
  if (!rule.write_off) return o;
  return writeOff(tx, rule, o, ctx, now);
}

/** Writes off what the rule's mode allows: the whole amount due, or as much as pre-deposit + grants cover. */
async function writeOff(tx: Tx, rule: RuleRow, o: Outcome, ctx: SessionContext, now: Date): Promise<Outcome> {
  const billId = o.billId!;
  const [b] = rowsOf<{ arrears: string }>(await tx.execute(sql`select (amount_due - written_off)::text as arrears from bills where bill_id = ${billId}`));
  const arrears = moneyToFen(b.arrears) ?? 0n;
  o.arrears = arrears > 0n ? arrears : 0n;
  if (arrears <= 0n) {
    [o.writeOff, o.writeOffReason] = [Result.AlreadyDone, Reason.NothingDue];
    return o;
  }
  const payable = payableFen(await lockBalances(tx, rule.cust_id));
  o.payable = payable;
  const fen = payable >= arrears ? arrears : Number(rule.write_off_mode) === BillAutoWriteOffMode.Available ? payable : 0n;
  if (fen <= 0n) {
    [o.writeOff, o.writeOffReason] = [Result.Skipped, Reason.InsufficientBalance];
    return o;
  }
  try {
    const done = await new WriteOffService(tx as unknown as Db).writeOff(
      { billId, amount: fenToMoney(fen), remark: `自动出账 Automated ledger #${rule.rule_id}` }, ctx, now, WriteOffSource.Rule);
    [o.writeOff, o.amount, o.writeOffId, o.journalId] = [Result.Done, fen, done.writeOff.writeOffId, done.writeOff.journalId];
    if (fen < arrears) o.writeOffReason = Reason.InsufficientBalance;
  } catch (e) {
    [o.writeOff, o.writeOffReason, o.error] = [Result.Failed, Reason.Error, errorOf(e)];
  }
  return o;
}
