import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  ErrorCode, ExportFormat, ExportState, JournalKind, LedgerAccount, WITHDRAW_PAYOUT_MAX_ATTEMPTS, WithdrawRunState, WithdrawRunTrigger, WithdrawState, fenToMoney, moneyToFen,
  withdraw as api,
} from '@lynx/contract';
import { backends, startTestApp, waitFor, ZX, HD, ZX_EAST, type TestApp } from './harness.ts';
import { postJournal, readBalances } from '../src/modules/money/ledger.ts';
import { runLedgerCheck } from '../src/modules/money/ledger-check.ts';
import { WithdrawService, failureReason } from '../src/modules/money/withdraw/withdraw-service.ts';
import type { RequestContext } from '../src/platform/context.ts';
import type { Tx } from '../src/db/client.ts';

/**
 * A payout that keeps failing does not stop the run (docs/decisions.md): each attempt is counted and its failure
 * recorded with the reason; after WITHDRAW_PAYOUT_MAX_ATTEMPTS the withdrawal is "payout failed", the money still
 * held, and the run pays the others. Finance retries it (8050002, audited) or rejects it (the hold is released).
 */
const SYSTEM = { accountId: null, loginName: 'system' };
const JOB: RequestContext = { actor: null, lang: 'zh', ip: '-', endpoint: 'test:withdraw-run', tokenHash: null, audited: false };

describe.each(backends)('withdrawal payouts that fail on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let east: string;
  const custs: Record<string, number> = {};
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const bal = async (custId: number) => {
    const b = (await readBalances(t.deps.db, custId))!;
    return { pre: fenToMoney(b.preDeposit), hold: fenToMoney(b.withdrawHold) };
  };
  const topUp = (custId: number, yuan: string) => t.deps.db.transaction((tx: Tx) => postJournal(tx, {
    kind: JournalKind.Recharge, custId, by: SYSTEM,
    lines: [{ account: LedgerAccount.PreDeposit, fen: moneyToFen(yuan)! }, { account: LedgerAccount.PaymentClearing, fen: -moneyToFen(yuan)! }],
  }));
  const apply = async (token: string, amount: string) => {
    const r = await t.call(api.applyWithdraw.name, { amount }, { token });
    if (!r.body.success) throw new Error(r.body.msg);
    return r.body.data as { withdrawId: number; withdrawNo: string; custId: number };
  };
  const approve = async (withdrawId: number) => expect((await t.call(api.checkWithdraw.name, { withdrawId, approve: true }, { token: admin })).body.success).toBe(true);
  const info = async (withdrawId: number) => (await t.call(api.getWithdrawInfo.name, { withdrawId }, { token: admin })).body.data;
  const paidJournals = async (no: string) => Number((await q<{ n: string }>('select count(*)::text as n from ledger_journals where kind = $1 and ref_id = $2', [JournalKind.WithdrawPaid, no]))[0].n);
  /** The database refuses to mark these withdrawals paid (always, or only the first `times` attempts). */
  const failPayouts = async (ids: number[], times?: number) => {
    await q('create sequence if not exists test_payout_fail_seq');
    await q(`select setval('test_payout_fail_seq', 1, false)`);
    const limit = times === undefined ? 'true' : `nextval('test_payout_fail_seq') <= ${times}`;
    await q(`create or replace function test_payout_fail() returns trigger language plpgsql as $$
      begin if new.withdraw_id in (${ids.join(', ')}) and new.state = ${WithdrawState.Paid} and ${limit} then raise exception 'bank refused the transfer (test)'; end if; return new; end $$`);
    await q('create trigger test_payout_fail before update on withdrawals for each row execute function test_payout_fail()');
  };
  const healPayouts = async () => {
    await q('drop trigger if exists test_payout_fail on withdrawals');
    await q('drop function if exists test_payout_fail()');
  };
  const runAll = async () => {
    const svc = new WithdrawService(t.deps.db);
    const run = (await svc.startRun(JOB, WithdrawRunTrigger.Scheduled))!;
    return { run, result: await svc.processRun(run.runId) };
  };

  beforeAll(async () => {
    t = await startTestApp(backend, { rateLimitPerToken: 1_000_000, rateLimitPerIp: 1_000_000 }, { jobs: false });
    // the enterprise's role gets the payout code, to prove a customer still cannot retry a payout
    await q(`update roles set permissions = permissions || array[8050001, 8050002] where role_id = 3000`);
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
    channel = await t.login('channel');
    east = await t.login('subcustomer');
    for (const name of [ZX, HD, ZX_EAST]) custs[name] = (await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [name]))[0].cust_id;
    for (const id of Object.values(custs)) await topUp(id, '1000.00');
    await q(`update customers set bank_name = coalesce(bank_name, 'Bank'), bank_account = coalesce(bank_account, '6222000000000001') where cust_id = $1`, [custs[ZX_EAST]]);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('a failure of one attempt is retried in the same run and paid once', async () => {
    const a = await apply(enterprise, '11.00');
    const b = await apply(channel, '12.00');
    for (const w of [a, b]) await approve(w.withdrawId);
    await failPayouts([a.withdrawId], 1);
    try {
      expect((await runAll()).result).toEqual({ paid: 2, failed: 0 });
    } finally {
      await healPayouts();
    }
    expect(await info(a.withdrawId)).toMatchObject({ state: WithdrawState.Paid, payoutAttempts: 2, payoutError: expect.stringMatching(/bank refused the transfer/) });
    expect(await info(b.withdrawId)).toMatchObject({ state: WithdrawState.Paid, payoutAttempts: 1, payoutError: null });
    expect(await paidJournals(a.withdrawNo)).toBe(1);
    // the failed attempt is in the audit log with its reason, the money still held then
    const [logged] = await q<{ after: { payoutAttempt: number; payoutError: string; held: boolean } }>(
      `select after from audit_log where entity = 'withdrawal' and entity_id = $1 and after ? 'payoutError' order by 1`, [String(a.withdrawId)]);
    expect(logged.after).toMatchObject({ payoutAttempt: 1, held: true, payoutError: expect.stringMatching(/bank refused/) });
  });

  it('a payout that keeps failing: the run goes on, the item is payout failed with its reason, the money stays held', async () => {
    const a = await apply(enterprise, '21.00');
    const b = await apply(channel, '22.00');
    for (const w of [a, b]) await approve(w.withdrawId);
    const zxBefore = await bal(custs[ZX]);
    await failPayouts([a.withdrawId]);
    let run;
    try {
      const done = await runAll();
      run = done.run;
      expect(done.result).toEqual({ paid: 1, failed: 1 });
    } finally {
      await healPayouts();
    }
    const [r] = await q<{ state: number; paid_count: number; failed_count: number }>('select state, paid_count, failed_count from withdraw_runs where run_id = $1', [run.runId]);
    expect(r).toEqual({ state: WithdrawRunState.Finished, paid_count: 1, failed_count: 1 });
    expect((await t.call(api.getWithdrawRuns.name, {}, { token: admin })).body.data.list[0]).toMatchObject({ runId: run.runId, paidCount: 1, failedCount: 1 });
    const failed = await info(a.withdrawId);
    expect(failed).toMatchObject({ state: WithdrawState.PayoutFailed, payoutAttempts: WITHDRAW_PAYOUT_MAX_ATTEMPTS, payoutFailedAt: expect.any(String) });
    expect(failed.payoutError).toMatch(/bank refused the transfer/);
    expect(await info(b.withdrawId)).toMatchObject({ state: WithdrawState.Paid });
    expect(await paidJournals(a.withdrawNo)).toBe(0);
    expect(await bal(custs[ZX])).toEqual(zxBefore);
    // finance finds it by its state
    const list = (await t.call(api.getWithdrawListPage.name, { state: WithdrawState.PayoutFailed }, { token: admin })).body.data;
    expect(list.list.map((w: { withdrawId: number }) => w.withdrawId)).toEqual([a.withdrawId]);
    // still in progress: the customer cannot apply for another one meanwhile
    expect((await t.call(api.applyWithdraw.name, { amount: '1.00' }, { token: enterprise })).body.errorCode).toBe(ErrorCode.WithdrawInProgress);
    expect((await t.call(api.getWithdrawApplyInfo.name, {}, { token: enterprise })).body.data.inProgress).toMatchObject({ withdrawId: a.withdrawId });

    // who may retry: not a customer (even with the code), not another tenant, only a failed payout
    expect((await t.call(api.retryWithdrawPayout.name, { withdrawId: a.withdrawId }, { token: enterprise })).body.errorCode).toBe(ErrorCode.MoneySelfReview);
    expect((await t.call(api.retryWithdrawPayout.name, { withdrawId: a.withdrawId }, { token: channel })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await t.call(api.retryWithdrawPayout.name, { withdrawId: a.withdrawId }, { token: east })).body.success).toBe(false);
    expect((await t.call(api.retryWithdrawPayout.name, { withdrawId: b.withdrawId }, { token: admin, lang: 'zh' })).body.errorCode).toBe(ErrorCode.WithdrawStateChanged);
    expect(await info(a.withdrawId)).toMatchObject({ state: WithdrawState.PayoutFailed });

    // finance retries: approved again, attempts reset, audited; the next run pays it exactly once
    const retried = (await t.call(api.retryWithdrawPayout.name, { withdrawId: a.withdrawId }, { token: admin })).body.data;
    expect(retried).toMatchObject({ state: WithdrawState.Approved, runId: null, payoutAttempts: 0, payoutFailedAt: null });
    const [audited] = await q<{ login_name: string; before: { state: number }; after: { state: number; retry: boolean } }>(
      `select login_name, before, after from audit_log where entity = 'withdrawal' and entity_id = $1 and after ? 'retry'`, [String(a.withdrawId)]);
    expect(audited).toMatchObject({ login_name: 'admin', before: { state: WithdrawState.PayoutFailed }, after: { state: WithdrawState.Approved, retry: true } });
    expect((await runAll()).result).toEqual({ paid: 1, failed: 0 });
    expect(await paidJournals(a.withdrawNo)).toBe(1);
    expect(await bal(custs[ZX])).toEqual({ ...zxBefore, hold: fenToMoney(moneyToFen(zxBefore.hold)! - 2100n) });
    expect((await runLedgerCheck(t.deps.db)).mismatches).toEqual([]);
  });

  it('the raw reason of a failed payout is for staff only: the customer\'s list, info and export show the state without it', async () => {
    const a = await apply(channel, '7.00');
    await approve(a.withdrawId);
    await failPayouts([a.withdrawId]);
    try {
      expect((await runAll()).result).toEqual({ paid: 0, failed: 1 });
    } finally {
      await healPayouts();
    }
    const reason = /bank refused the transfer/;
    // staff see why
    expect(await info(a.withdrawId)).toMatchObject({ state: WithdrawState.PayoutFailed, payoutError: expect.stringMatching(reason) });
    const staffList = (await t.call(api.getWithdrawListPage.name, { withdrawNo: a.withdrawNo }, { token: admin })).body.data.list;
    expect(staffList[0]).toMatchObject({ withdrawId: a.withdrawId, payoutError: expect.stringMatching(reason) });
    // the customer sees the state and its attempts, never the database's message
    const mine = (await t.call(api.getWithdrawInfo.name, { withdrawId: a.withdrawId }, { token: channel })).body.data;
    expect(mine).toMatchObject({ withdrawId: a.withdrawId, state: WithdrawState.PayoutFailed, payoutAttempts: WITHDRAW_PAYOUT_MAX_ATTEMPTS, payoutError: null });
    const myList = (await t.call(api.getWithdrawListPage.name, { withdrawNo: a.withdrawNo }, { token: channel })).body.data.list;
    expect(myList).toHaveLength(1);
    expect(myList[0]).toMatchObject({ state: WithdrawState.PayoutFailed, payoutError: null });
    expect((await t.call(api.getWithdrawApplyInfo.name, {}, { token: channel })).body.data.inProgress).toMatchObject({ withdrawId: a.withdrawId, payoutError: null });

    const exported = async (token: string) => {
      const created = await t.call(api.exportWithdraws.name, { withdrawNo: a.withdrawNo, format: ExportFormat.Csv }, { token });
      expect(created.body.success, created.body.msg).toBe(true);
      const task = await waitFor(async () => {
        const r = await t.call('core/downloadTask/getListPage', {}, { token });
        const x = r.body.data.list.find((y: { taskId: string; state: number }) => y.taskId === created.body.data.taskId);
        return x && x.state !== ExportState.InProcess ? x : null;
      });
      expect(task.state).toBe(ExportState.Succeeded);
      const res = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${task.taskId}&ts=1&lang=en`, headers: { authorization: token } });
      expect(res.statusCode).toBe(200);
      return res.body;
    };
    const staffCsv = await exported(admin);
    expect(staffCsv).toContain(a.withdrawNo);
    expect(staffCsv).toMatch(reason);
    const customerCsv = await exported(channel);
    expect(customerCsv).toContain(a.withdrawNo);
    expect(customerCsv).not.toMatch(reason);

    // leave nothing in progress for the tests after this one
    expect((await t.call(api.checkWithdraw.name, { withdrawId: a.withdrawId, approve: false, reason: 'test' }, { token: admin })).body.success).toBe(true);
  });

  it('two jobs on one run: the second returns at once, attempts count real attempts, nothing is given up early', async () => {
    const a = await apply(channel, '8.00');
    await approve(a.withdrawId);
    // every attempt but the last fails: a run alone pays it on its last attempt
    await failPayouts([a.withdrawId], WITHDRAW_PAYOUT_MAX_ATTEMPTS - 1);
    const svc = new WithdrawService(t.deps.db);
    const other = new WithdrawService(t.deps.db);
    const run = (await svc.startRun(JOB, WithdrawRunTrigger.Manual))!;
    let results;
    try {
      results = await Promise.all([svc.processRun(run.runId, { retryPauseMs: 20 }), other.processRun(run.runId, { retryPauseMs: 20 })]);
    } finally {
      await healPayouts();
    }
    expect(results).toEqual([{ paid: 1, failed: 0 }, { paid: 0, failed: 0 }]);
    expect(await info(a.withdrawId)).toMatchObject({ state: WithdrawState.Paid, payoutAttempts: WITHDRAW_PAYOUT_MAX_ATTEMPTS, payoutFailedAt: null });
    expect(await paidJournals(a.withdrawNo)).toBe(1);
    // one audit record per failed attempt, numbered 1, 2, …
    const failures = await q<{ attempt: number }>(`select (after->>'payoutAttempt')::int as attempt from audit_log where entity = 'withdrawal' and entity_id = $1
      and after ? 'payoutError' order by 1`, [String(a.withdrawId)]);
    expect(failures.map((f) => f.attempt)).toEqual(Array.from({ length: WITHDRAW_PAYOUT_MAX_ATTEMPTS - 1 }, (_, i) => i + 1));
    const [r] = await q<{ state: number; paid_count: number; failed_count: number }>('select state, paid_count, failed_count from withdraw_runs where run_id = $1', [run.runId]);
    expect(r).toEqual({ state: WithdrawRunState.Finished, paid_count: 1, failed_count: 0 });
    // once released, the run can be taken again (and is finished: nothing to do)
    expect(await other.processRun(run.runId)).toEqual({ paid: 0, failed: 0 });
  });

  it.runIf(backend === 'postgres')('a run another process holds (its advisory lock) is left alone', async () => {
    const a = await apply(channel, '9.00');
    await approve(a.withdrawId);
    const svc = new WithdrawService(t.deps.db);
    const run = (await svc.startRun(JOB, WithdrawRunTrigger.Manual))!;
    await t.database.sql.transaction(async (other) => {
      await other.query(`select pg_advisory_xact_lock(hashtext('withdraw-run'), $1)`, [run.runId]);
      expect(await svc.processRun(run.runId)).toEqual({ paid: 0, failed: 0 });
    });
    expect(await info(a.withdrawId)).toMatchObject({ state: WithdrawState.Approved, payoutAttempts: 0 });
    // that process gone, the run is paid
    expect(await svc.processRun(run.runId)).toEqual({ paid: 1, failed: 0 });
    expect(await info(a.withdrawId)).toMatchObject({ state: WithdrawState.Paid, payoutAttempts: 1 });
  });

  it('finance rejects a failed payout instead: the hold is released once; the customer may apply again', async () => {
    const a = await apply(enterprise, '31.00');
    await approve(a.withdrawId);
    const before = await bal(custs[ZX]);
    await failPayouts([a.withdrawId]);
    try {
      expect((await runAll()).result).toEqual({ paid: 0, failed: 1 });
    } finally {
      await healPayouts();
    }
    // a rejection needs its reason; approving a failed payout is not a review (that is the retry)
    expect((await t.call(api.checkWithdraw.name, { withdrawId: a.withdrawId, approve: false }, { token: admin })).body.errorCode).toBe(ErrorCode.WithdrawReasonRequired);
    expect((await t.call(api.checkWithdraw.name, { withdrawId: a.withdrawId, approve: true }, { token: admin })).body.errorCode).toBe(ErrorCode.WithdrawStateChanged);
    const rejected = (await t.call(api.checkWithdraw.name, { withdrawId: a.withdrawId, approve: false, reason: '收款账户已注销' }, { token: admin })).body.data;
    expect(rejected).toMatchObject({ state: WithdrawState.Rejected, reviewReason: '收款账户已注销' });
    expect(await bal(custs[ZX])).toEqual({ pre: fenToMoney(moneyToFen(before.pre)! + 3100n), hold: fenToMoney(moneyToFen(before.hold)! - 3100n) });
    expect((await t.call(api.checkWithdraw.name, { withdrawId: a.withdrawId, approve: false, reason: 'again' }, { token: admin })).body.errorCode).toBe(ErrorCode.WithdrawStateChanged);
    expect((await t.call(api.retryWithdrawPayout.name, { withdrawId: a.withdrawId }, { token: admin })).body.errorCode).toBe(ErrorCode.WithdrawStateChanged);
    expect(await paidJournals(a.withdrawNo)).toBe(0);
    expect((await apply(enterprise, '1.00')).withdrawId).toBeGreaterThan(a.withdrawId);
    expect((await runLedgerCheck(t.deps.db)).mismatches).toEqual([]);
  });

  it('attempts that died with the process count: spent attempts make it payout failed on resume, nothing paid twice', async () => {
    // the previous test left the enterprise's 1.00 applied; approve it and another
    const [pending] = await q<{ withdraw_id: number; withdraw_no: string }>('select withdraw_id, withdraw_no from withdrawals where state = $1 and cust_id = $2', [WithdrawState.Applied, custs[ZX]]);
    await approve(pending.withdraw_id);
    const other = await apply(channel, '5.00');
    await approve(other.withdrawId);
    const svc = new WithdrawService(t.deps.db);
    const run = (await svc.startRun(JOB, WithdrawRunTrigger.Manual))!;
    // three processes died while paying the first one: its attempts are spent, it is still approved
    await q('update withdrawals set payout_attempts = $1 where withdraw_id = $2', [WITHDRAW_PAYOUT_MAX_ATTEMPTS, pending.withdraw_id]);
    expect(await svc.processRun(run.runId)).toEqual({ paid: 1, failed: 1 });
    expect(await info(pending.withdraw_id)).toMatchObject({ state: WithdrawState.PayoutFailed, payoutError: expect.stringMatching(/interrupted/) });
    expect(await paidJournals(pending.withdraw_no)).toBe(0);
    expect(await svc.processRun(run.runId)).toEqual({ paid: 0, failed: 0 });
    expect((await runLedgerCheck(t.deps.db)).mismatches).toEqual([]);
  });

  it('names the real cause of a failure, not the driver wrapper', () => {
    const wrapped = new Error('Failed query: update withdrawals set state = $1\nparams: 3', { cause: Object.assign(new Error('simulated   crash'), { code: 'P0001' }) });
    expect(failureReason(wrapped)).toBe('P0001: simulated crash');
    expect(failureReason('plain')).toBe('plain');
  });
});
