import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ErrorCode, JournalKind, LedgerAccount, WithdrawRunState, WithdrawRunTrigger, WithdrawState, fenToMoney, moneyToFen, withdraw as api } from '@lynx/contract';
import { backends, startTestApp, waitFor, ZX, HD, ZX_EAST, type TestApp } from './harness.ts';
import { postJournal, readBalances } from '../src/modules/money/ledger.ts';
import { runLedgerCheck } from '../src/modules/money/ledger-check.ts';
import { WithdrawService, expectedDates } from '../src/modules/money/withdraw/withdraw-service.ts';
import type { RequestContext } from '../src/platform/context.ts';
import type { Tx } from '../src/db/client.ts';

/**
 * Issue 13, withdrawals: the withdrawable boundary (exactly OK, +0.01 refused with the spec's text), one in progress
 * at a time, grants never withdrawable, a bank account required, rejection releases the hold, the payout run pays
 * each approved withdrawal exactly once even when interrupted, and every call keeps to its tenant.
 */
const SYSTEM = { accountId: null, loginName: 'system' };
const JOB: RequestContext = { actor: null, lang: 'zh', ip: '-', endpoint: 'test:withdraw-run', tokenHash: null, audited: false };

describe.each(backends)('withdrawals on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let sub: string;
  let zx: number;
  let hd: number;
  let east: number;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const custOf = async (name: string) => (await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [name]))[0].cust_id;
  const bal = async (custId: number) => {
    const b = (await readBalances(t.deps.db, custId))!;
    return { pre: fenToMoney(b.preDeposit), grants: fenToMoney(b.grants), hold: fenToMoney(b.withdrawHold) };
  };
  const topUp = (custId: number, yuan: string, account: LedgerAccount = LedgerAccount.PreDeposit) => t.deps.db.transaction((tx: Tx) => postJournal(tx, {
    kind: account === LedgerAccount.Grants ? JournalKind.Grant : JournalKind.Recharge, custId, by: SYSTEM,
    lines: [{ account, fen: moneyToFen(yuan)! }, { account: account === LedgerAccount.Grants ? LedgerAccount.GrantExpense : LedgerAccount.PaymentClearing, fen: -moneyToFen(yuan)! }],
  }));
  const apply = (token: string, amount: string, lang: 'zh' | 'en' = 'en') => t.call(api.applyWithdraw.name, { amount }, { token, lang });
  const check = (token: string, withdrawId: number, approve: boolean, reason?: string, lang: 'zh' | 'en' = 'en') =>
    t.call(api.checkWithdraw.name, { withdrawId, approve, reason }, { token, lang });
  const count = async () => Number((await q<{ n: string }>('select count(*)::text as n from withdrawals'))[0].n);
  const ledgerOk = async () => expect((await runLedgerCheck(t.deps.db)).mismatches).toEqual([]);

  beforeAll(async () => {
    t = await startTestApp(backend);
    // the rules must hold for any role: the enterprise's role gets the staff-only review and payout codes, the
    // second-level customer's role the withdrawal page (neither has them built in)
    await q(`update roles set permissions = permissions || array[8050001, 8050002] where role_id = 3000`);
    await q(`update roles set permissions = permissions || array[8050000, 8050003] where role_id = 5000`);
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
    channel = await t.login('channel');
    sub = await t.login('subcustomer');
    zx = await custOf(ZX);
    hd = await custOf(HD);
    east = await custOf(ZX_EAST);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('expected dates: the next 10th, and about 10 days later on a working day', async () => {
    expect(await expectedDates(t.deps.db, '2026-11-09')).toEqual({ runDay: '2026-11-10', arrivalDay: '2026-11-20' });
    expect(await expectedDates(t.deps.db, '2026-11-10')).toEqual({ runDay: '2026-12-10', arrivalDay: '2026-12-21' });
    expect(await expectedDates(t.deps.db, '2026-12-26')).toEqual({ runDay: '2027-01-10', arrivalDay: '2027-01-20' });
    // 2026-09-10 + 10 = Sunday Sep 20, a make-up working day
    expect(await expectedDates(t.deps.db, '2026-09-01')).toEqual({ runDay: '2026-09-10', arrivalDay: '2026-09-20' });
  });

  it('the apply dialog shows the withdrawable pre-deposit, payee and dates; grants are never withdrawable', async () => {
    await topUp(zx, '300.00', LedgerAccount.Grants);
    const info = (await t.call(api.getWithdrawApplyInfo.name, {}, { token: enterprise })).body.data;
    const b = await bal(zx);
    expect(info.withdrawable).toBe(b.pre);
    expect(info.grants).toBe(b.grants);
    expect(Number(info.grants)).toBeGreaterThanOrEqual(300);
    expect(info.bankAccount).toBeTruthy();
    expect(info.expectedRunDay).toMatch(/^\d{4}-\d{2}-10$/);
    expect(info.inProgress).toBeNull();
    const staff = await t.call(api.getWithdrawApplyInfo.name, {}, { token: admin });
    expect(staff.body.success).toBe(false);
  });

  it('withdrawable + 0.01 is refused with the spec text in zh and en, nothing changes; exactly withdrawable is held', async () => {
    const before = await bal(zx);
    const over = fenToMoney(moneyToFen(before.pre)! + 1n);
    const zh = await apply(enterprise, over, 'zh');
    expect(zh.body.errorCode).toBe(ErrorCode.WithdrawInsufficient);
    expect(zh.body.msg).toMatch(/^可提现金额不足/);
    const en = await apply(enterprise, over, 'en');
    expect(en.body.msg).toMatch(/^Insufficient for withdrawal/);
    expect(await bal(zx)).toEqual(before);
    expect(await count()).toBe(0);

    const ok = await apply(enterprise, before.pre);
    expect(ok.body.success).toBe(true);
    const w = ok.body.data;
    expect(w.state).toBe(WithdrawState.Applied);
    expect(w.amount).toBe(before.pre);
    expect(w.withdrawNo).toMatch(/^W\d{8}\d{6}$/);
    expect(await bal(zx)).toEqual({ pre: '0.00', grants: before.grants, hold: before.pre });
    const trail = await q<{ n: string }>(`select count(*)::text as n from audit_log where entity = 'withdrawal' and entity_id = $1`, [String(w.withdrawId)]);
    expect(trail[0].n).toBe('1');
    await ledgerOk();
  });

  it('a second application while one is in progress is refused (zh/en); grants do not make up for it', async () => {
    const zh = await apply(enterprise, '0.01', 'zh');
    expect(zh.body.errorCode).toBe(ErrorCode.WithdrawInProgress);
    expect(zh.body.msg).toBe('有提现正在处理中，暂不能发起新的提现');
    const en = await apply(enterprise, '0.01', 'en');
    expect(en.body.msg).toBe('A withdrawal cannot be started while one is being processed');
    expect(await count()).toBe(1);
  });

  it('only staff review: a customer gets 20802 on its own, nothing elsewhere; rejecting needs a reason and releases the hold', async () => {
    const [{ withdraw_id: id }] = await q<{ withdraw_id: number }>('select withdraw_id from withdrawals where cust_id = $1', [zx]);
    const before = await bal(zx);
    const self = await check(enterprise, id, true, undefined, 'zh');
    expect(self.body.errorCode).toBe(ErrorCode.MoneySelfReview);
    expect(self.body.msg).toBe('客户不能为自己审核、打款或授信');
    expect((await check(channel, id, true)).body.errorCode).toBe(ErrorCode.PermissionDenied);
    const noReason = await check(admin, id, false, '  ', 'zh');
    expect(noReason.body.errorCode).toBe(ErrorCode.WithdrawReasonRequired);
    expect(await bal(zx)).toEqual(before);

    const rejected = await check(admin, id, false, '账户信息有误');
    expect(rejected.body.data.state).toBe(WithdrawState.Rejected);
    expect(rejected.body.data.reviewedBy).toBe('admin');
    expect(await bal(zx)).toEqual({ pre: before.hold, grants: before.grants, hold: '0.00' });
    const twice = await check(admin, id, true);
    expect(twice.body.errorCode).toBe(ErrorCode.WithdrawStateChanged);
    await ledgerOk();
  });

  it('refuses an application without a bank account, with a clear message', async () => {
    await topUp(east, '500.00');
    const r = await apply(sub, '100.00', 'zh');
    expect(r.body.errorCode).toBe(ErrorCode.WithdrawNoBankAccount);
    expect(r.body.msg).toContain('银行账号');
    expect((await bal(east)).pre).toBe('500.00');
    await q(`update customers set bank_name = '建设银行', bank_account = '6217000010001234' where cust_id = $1`, [east]);
  });

  it('tenancy: every call keeps to the caller\'s customers', async () => {
    const e = (await apply(sub, '100.00')).body.data;
    const h = (await apply(channel, '1000.00')).body.data;
    const z = (await apply(enterprise, '200.00')).body.data;
    const ids = async (token: string) => ((await t.call(api.getWithdrawListPage.name, { pageSize: 100 }, { token })).body.data.list as { withdrawId: number }[]).map((r) => r.withdrawId).sort();
    expect(await ids(admin)).toEqual(expect.arrayContaining([e.withdrawId, h.withdrawId, z.withdrawId]));
    expect(await ids(enterprise)).toEqual(expect.arrayContaining([e.withdrawId, z.withdrawId]));
    expect(await ids(enterprise)).not.toContain(h.withdrawId);
    expect(await ids(channel)).toEqual([h.withdrawId]);
    expect(await ids(sub)).toEqual([e.withdrawId]);
    expect((await t.call(api.getWithdrawListPage.name, { custId: hd }, { token: enterprise })).body.data.total).toBe(0);
    expect((await t.call(api.getWithdrawInfo.name, { withdrawId: h.withdrawId }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(api.getWithdrawInfo.name, { withdrawId: z.withdrawId }, { token: sub })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(api.getWithdrawInfo.name, { withdrawId: e.withdrawId }, { token: enterprise })).body.data.custId).toBe(east);
    expect((await check(channel, z.withdrawId, true)).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await t.call(api.runWithdrawPayouts.name, {}, { token: enterprise })).body.errorCode).toBe(ErrorCode.MoneySelfReview);
    expect((await check(enterprise, e.withdrawId, true)).body.errorCode).toBe(ErrorCode.MoneySelfReview);
    expect((await t.call(api.getWithdrawRuns.name, {}, { token: channel })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    const exp = await t.call(api.exportWithdraws.name, {}, { token: channel });
    expect(exp.body.success).toBe(true);
    const nothing = await t.call(api.runWithdrawPayouts.name, {}, { token: admin, lang: 'zh' });
    expect(nothing.body.errorCode).toBe(ErrorCode.WithdrawNothingApproved);
  });

  it('an interrupted run pays each approved withdrawal exactly once when run again', async () => {
    const list = await q<{ withdraw_id: number; cust_id: number; amount: string }>(`select withdraw_id, cust_id, amount::text from withdrawals where state = $1 order by withdraw_id`, [WithdrawState.Applied]);
    expect(list).toHaveLength(3);
    const before = new Map(await Promise.all(list.map(async (w) => [w.cust_id, await bal(w.cust_id)] as const)));
    for (const w of list) expect((await check(admin, w.withdraw_id, true)).body.data.state).toBe(WithdrawState.Approved);

    const svc = new WithdrawService(t.deps.db);
    const run = (await svc.startRun(JOB, WithdrawRunTrigger.Scheduled))!;
    expect(run.itemCount).toBe(3);
    // a second run cannot start while this one is unfinished
    await expect(svc.startRun(JOB, WithdrawRunTrigger.Scheduled)).rejects.toMatchObject({ code: ErrorCode.WithdrawRunBusy });
    await expect(svc.processRun(run.runId, { stopAfter: 1 })).rejects.toThrow(/stopped after 1/);
    const mid = await q<{ state: number; n: string }>(`select state, count(*)::text as n from withdrawals where run_id = $1 group by state order by state`, [run.runId]);
    expect(mid).toEqual([{ state: WithdrawState.Approved, n: '2' }, { state: WithdrawState.Paid, n: '1' }]);
    expect(await svc.unfinishedRuns()).toEqual([run.runId]);

    expect((await svc.processRun(run.runId)).paid).toBe(2);
    expect((await svc.processRun(run.runId)).paid).toBe(0);
    const journals = await q<{ ref_id: string; n: string }>(`select ref_id, count(*)::text as n from ledger_journals where kind = $1 group by ref_id`, [JournalKind.WithdrawPaid]);
    expect(journals).toHaveLength(3);
    expect(journals.every((j) => j.n === '1')).toBe(true);
    const [r] = await q<{ state: number; paid_count: number }>('select state, paid_count from withdraw_runs where run_id = $1', [run.runId]);
    expect(r).toEqual({ state: WithdrawRunState.Finished, paid_count: 3 });
    for (const w of list) {
      const b = before.get(w.cust_id)!;
      expect(await bal(w.cust_id)).toEqual({ pre: b.pre, grants: b.grants, hold: fenToMoney(moneyToFen(b.hold)! - moneyToFen(w.amount)!) });
    }
    const paid = (await t.call(api.getWithdrawInfo.name, { withdrawId: list[0].withdraw_id }, { token: admin })).body.data;
    expect(paid.state).toBe(WithdrawState.Paid);
    expect(paid.paidAt).toBeTruthy();
    await ledgerOk();
  });

  it('a crash inside one payment (after its journal, before its state) rolls that payment back whole; the run goes on; a retry pays it once', async () => {
    // two approved withdrawals; the database refuses to mark the second paid, as a process dying mid-transaction would
    await topUp(zx, '100.00');
    await topUp(hd, '100.00');
    const a = (await apply(enterprise, '10.00')).body.data;
    const b = (await apply(channel, '20.00')).body.data;
    for (const w of [a, b]) expect((await check(admin, w.withdrawId, true)).body.success).toBe(true);
    const hdBefore = await bal(hd);
    await q(`create or replace function test_withdraw_crash() returns trigger language plpgsql as $$
      begin if new.withdraw_id = ${b.withdrawId} and new.state = ${WithdrawState.Paid} then raise exception 'simulated crash'; end if; return new; end $$`);
    await q(`create trigger test_withdraw_crash before update on withdrawals for each row execute function test_withdraw_crash()`);
    const svc = new WithdrawService(t.deps.db);
    const run = (await svc.startRun(JOB, WithdrawRunTrigger.Scheduled))!;
    expect(run.itemCount).toBe(2);
    try {
      // the failing payout no longer stops the run: attempted WITHDRAW_PAYOUT_MAX_ATTEMPTS times, then payout failed
      expect(await svc.processRun(run.runId)).toEqual({ paid: 1, failed: 1 });
    } finally {
      await q('drop trigger test_withdraw_crash on withdrawals');
      await q('drop function test_withdraw_crash()');
    }
    const journalsOf = async (no: string) => Number((await q<{ n: string }>(`select count(*)::text as n from ledger_journals where kind = $1 and ref_id = $2`, [JournalKind.WithdrawPaid, no]))[0].n);
    expect(await journalsOf(a.withdrawNo)).toBe(1);
    expect(await journalsOf(b.withdrawNo)).toBe(0);
    expect(await bal(hd)).toEqual(hdBefore);
    expect(await svc.unfinishedRuns()).toEqual([]);
    const failed = (await t.call(api.getWithdrawInfo.name, { withdrawId: b.withdrawId }, { token: admin })).body.data;
    expect(failed).toMatchObject({ state: WithdrawState.PayoutFailed, payoutAttempts: 3 });
    expect(failed.payoutError).toMatch(/simulated crash/);
    // finance retries it: approved again, the next run pays it exactly once
    expect((await t.call(api.retryWithdrawPayout.name, { withdrawId: b.withdrawId }, { token: admin })).body.data).toMatchObject({ state: WithdrawState.Approved, runId: null, payoutAttempts: 0 });
    const again = (await svc.startRun(JOB, WithdrawRunTrigger.Scheduled))!;
    expect(await svc.processRun(again.runId)).toEqual({ paid: 1, failed: 0 });
    expect(await journalsOf(a.withdrawNo)).toBe(1);
    expect(await journalsOf(b.withdrawNo)).toBe(1);
    expect(await bal(hd)).toEqual({ ...hdBefore, hold: fenToMoney(moneyToFen(hdBefore.hold)! - 2000n) });
    await ledgerOk();
  });

  it('finance starts a run by hand: the job pays the approved withdrawal; the customer can apply again', async () => {
    const w = (await apply(enterprise, '50.00')).body.data;
    await check(admin, w.withdrawId, true);
    const run = await t.call(api.runWithdrawPayouts.name, {}, { token: admin });
    expect(run.body.data.itemCount).toBe(1);
    await waitFor(async () => (await t.call(api.getWithdrawInfo.name, { withdrawId: w.withdrawId }, { token: enterprise })).body.data.state === WithdrawState.Paid, 20_000);
    const runs = (await t.call(api.getWithdrawRuns.name, {}, { token: admin })).body.data.list;
    expect(runs[0]).toMatchObject({ runId: run.body.data.runId, trigger: WithdrawRunTrigger.Manual, startedBy: 'admin' });
    expect((await apply(enterprise, '1.00')).body.success).toBe(true);
    await ledgerOk();
  });

  it('two applications at the same moment: one is held, the other refused; the balance moves once', async () => {
    const before = await bal(hd);
    const [x, y] = await Promise.all([apply(channel, '1.00'), apply(channel, '2.00')]);
    const codes = [x.body.errorCode, y.body.errorCode].sort();
    expect(codes).toEqual([ErrorCode.WithdrawInProgress, null].sort());
    const held = x.body.success ? '1.00' : '2.00';
    expect(await bal(hd)).toEqual({ ...before, pre: fenToMoney(moneyToFen(before.pre)! - moneyToFen(held)!), hold: fenToMoney(moneyToFen(before.hold)! + moneyToFen(held)!) });
    await ledgerOk();
  });
});
