import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  BillAutoActionResult as Result, BillAutoExecState as State, BillAutoReason as Reason, BillAutoWriteOffMode as Mode, BillStatus, ErrorCode,
  JournalKind, LedgerAccount, businessDayStart,
} from '@lynx/contract';
import { backends, callOk, HD, HD_SZ, ZX, ZX_COLD, ZX_EAST, type TestApp } from './harness.ts';
import { openBillWorld, type BillWorld } from './bill-fixtures.ts';
import { executeDueRules } from '../src/modules/billing/automate/automate-run.ts';
import { BillAutoRuleService } from '../src/modules/billing/automate/automate-rules.ts';

/**
 * Issue 14, the automated ledger (Billing › Automated ledger, 4060000): rule validation in both languages, execution
 * on the rule's day (the clock moved by passing `now`), publishing and writing off through the bill services with
 * their ledger journal, a bill not run yet (waits, then acts; given up when the next period comes), too little money
 * (whole-amount and as-much-as-possible rules), a bill already done (no-op), one execution per rule × period under
 * two workers at once, and every endpoint kept to its tenant. Bills are written straight into the tables.
 */
const A = 'core/finance/billAutomate/';
/** noon business time of a day */
const at = (day: string) => new Date(businessDayStart(day).getTime() + 12 * 3600_000);

describe.each(backends)('automated ledger on %s', (backend) => {
  let w: BillWorld;
  let t: TestApp;
  let ids: Record<string, number>;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let sub: string;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => w.q<T>(text, params);
  const rule = (body: Record<string, unknown>) => callOk(t, `${A}addBillAutomateRule`, { dayOfMonth: 5, publish: 1, writeOff: 1, writeOffMode: Mode.Full, ...body }, admin);
  const drop = (ruleId: number) => callOk(t, `${A}deleteBillAutomateRule`, { ruleId }, admin);
  const execs = (ruleId: number, token = admin) => callOk(t, `${A}getBillAutomateExecPage`, { ruleId }, token).then((p) => p.list);
  const run = (day: string) => executeDueRules(t.deps.db, at(day));
  const count = async (table: string, where = 'true', params: unknown[] = []) =>
    Number((await q<{ n: string }>(`select count(*) as n from ${table} where ${where}`, params))[0].n);

  beforeAll(async () => {
    w = await openBillWorld(backend);
    ({ t, ids, admin, enterprise, channel, sub } = w);
  });
  afterAll(async () => {
    await w?.t.stop();
  });

  it('validates a rule with messages in both languages; a refused change changes nothing', async () => {
    const before = { rules: await count('bill_automate_rules'), audits: await count('audit_log', `entity = 'billAutomateRule'`) };
    const base = { custId: ids[ZX], dayOfMonth: 5, publish: 1, writeOff: 1, writeOffMode: Mode.Full };
    const none = await t.call(`${A}addBillAutomateRule`, { ...base, publish: 0, writeOff: 0 }, { token: admin, lang: 'zh' });
    expect(none.body).toMatchObject({ success: false, errorCode: ErrorCode.BillAutoNoAction, msg: '请至少选择一个动作：发布账单或核销账单' });
    const noneEn = await t.call(`${A}addBillAutomateRule`, { ...base, publish: 0, writeOff: 0 }, { token: admin, lang: 'en' });
    expect(noneEn.body.msg).toBe('Choose at least one action: publish the bill or write it off');
    for (const day of [0, 29, 31]) {
      const zh = await t.call(`${A}addBillAutomateRule`, { ...base, dayOfMonth: day }, { token: admin, lang: 'zh' });
      expect(zh.body.errorCode).toBe(ErrorCode.Validation);
      expect(zh.body.msg).toContain('dayOfMonth');
      expect(zh.body.msg).toMatch(/不能(小|大)于/);
      const en = await t.call(`${A}addBillAutomateRule`, { ...base, dayOfMonth: day }, { token: admin, lang: 'en' });
      expect(en.body.msg).toMatch(/dayOfMonth: must not be (less|greater) than/);
    }
    for (const bad of [{ writeOffMode: 3 }, { remark: 'x'.repeat(201) }, { publish: 2 }, { custId: 0 }, { bogus: 1 }, { dayOfMonth: '5' }]) {
      expect((await t.call(`${A}addBillAutomateRule`, { ...base, ...bad }, { token: admin })).body.success, JSON.stringify(bad)).toBe(false);
    }
    // a customer that does not exist answers like one outside the caller's scope
    expect((await t.call(`${A}addBillAutomateRule`, { ...base, custId: 999999 }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
    // customers' finance cannot add, edit or delete (staff-only buttons)
    expect((await t.call(`${A}addBillAutomateRule`, base, { token: enterprise })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect({ rules: await count('bill_automate_rules'), audits: await count('audit_log', `entity = 'billAutomateRule'`) }).toEqual(before);

    const r = await rule({ custId: ids[ZX], dayOfMonth: 28, writeOff: 0, writeOffMode: Mode.Available, remark: '  monthly  ' });
    expect(r).toMatchObject({ custName: ZX, dayOfMonth: 28, publish: 1, writeOff: 0, writeOffMode: Mode.Full, enabled: 1, remark: 'monthly', createdBy: 'admin' });
    // one rule per customer
    const dup = await t.call(`${A}addBillAutomateRule`, base, { token: admin, lang: 'zh' });
    expect(dup.body).toMatchObject({ errorCode: ErrorCode.BillAutoRuleExists, msg: `客户 ${ZX} 已有自动出账规则，请编辑该规则` });
    expect((await t.call(`${A}addBillAutomateRule`, base, { token: admin, lang: 'en' })).body.msg).toBe(`Customer ${ZX} already has an automated ledger rule; edit that rule`);
    // two adds at once for one customer: one rule
    await q(`delete from bill_automate_rules where rule_id = $1`, [r.ruleId]);
    const both = await Promise.all([t.call(`${A}addBillAutomateRule`, base, { token: admin }), t.call(`${A}addBillAutomateRule`, base, { token: admin })]);
    expect(both.map((x) => x.body.errorCode).sort()).toEqual([null, ErrorCode.BillAutoRuleExists].sort());
    const kept = both.find((x) => x.body.success)!.body.data;

    // a refused edit changes nothing
    const edit = await t.call(`${A}editBillAutomateRule`, { ruleId: kept.ruleId, dayOfMonth: 7, publish: 0, writeOff: 0, writeOffMode: 1 }, { token: admin });
    expect(edit.body.errorCode).toBe(ErrorCode.BillAutoNoAction);
    expect((await t.call(`${A}editBillAutomateRule`, { ruleId: kept.ruleId, dayOfMonth: 29, publish: 1, writeOff: 1, writeOffMode: 1 }, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
    expect(await callOk(t, `${A}getBillAutomateDetail`, { ruleId: kept.ruleId }, admin)).toMatchObject({ dayOfMonth: 5, publish: 1, writeOff: 1 });
    const edited = await callOk(t, `${A}editBillAutomateRule`, { ruleId: kept.ruleId, dayOfMonth: 6, publish: 1, writeOff: 1, writeOffMode: Mode.Available, remark: '' }, admin);
    expect(edited).toMatchObject({ dayOfMonth: 6, writeOffMode: Mode.Available, remark: null, updatedBy: 'admin' });
    const audit = await q<{ before: { dayOfMonth: number }; after: { dayOfMonth: number } }>(`select before, after from audit_log where entity = 'billAutomateRule'
      and entity_id = $1 order by created_at desc limit 1`, [String(kept.ruleId)]);
    expect(audit[0]).toMatchObject({ before: { dayOfMonth: 5 }, after: { dayOfMonth: 6 } });
    await drop(kept.ruleId);
    expect((await t.call(`${A}getBillAutomateDetail`, { ruleId: kept.ruleId }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
  });

  it('on its day publishes the last closed period\'s bill and writes it off through the bill services, once', async () => {
    await w.setMoney(ZX_EAST, '80.00', '50.00');
    const r = await rule({ custId: ids[ZX_EAST], dayOfMonth: 5 });
    const billId = await w.bill({ cust: ZX_EAST, periodKey: '2031-02', published: false, due: '100.00' });
    expect(await run('2031-03-04')).toEqual([]);
    expect(await count('bill_automate_execs', 'rule_id = $1', [r.ruleId])).toBe(0);

    const [done] = await run('2031-03-05');
    expect(done).toMatchObject({ ruleId: r.ruleId, periodKey: '2031-02', state: State.Done, publishResult: Result.Done, writeOffResult: Result.Done, writeOffAmount: '100.00' });
    const bill = await w.billRow(billId);
    expect(bill).toMatchObject({ published: 1, publishedBy: 'auto-ledger', writtenOff: '100.00', arrears: '0.00', status: BillStatus.WrittenOff });
    expect(await w.money(ZX_EAST)).toEqual({ pre: '30.00', grants: '0.00' });
    const [exec] = await execs(r.ruleId);
    expect(exec).toMatchObject({ periodKey: '2031-02', dueDay: '2031-03-05', state: State.Done, billId, billNo: bill.billNo, writeOffAmount: '100.00', arrears: '100.00', payable: '130.00', attempts: 1, error: null });
    // the ledger: one WriteOff journal, grants first, then pre-deposit, to revenue; the write-off marked as the rule's
    const postings = await q<{ account: number; amount: string; kind: number }>(`select p.account, p.amount::text as amount, j.kind from ledger_postings p
      join ledger_journals j on j.journal_id = p.journal_id where p.journal_id = $1 order by p.account`, [exec.journalId]);
    expect(postings).toEqual([
      { account: LedgerAccount.PreDeposit, amount: '-50.00', kind: JournalKind.WriteOff },
      { account: LedgerAccount.Grants, amount: '-50.00', kind: JournalKind.WriteOff },
      { account: LedgerAccount.Revenue, amount: '100.00', kind: JournalKind.WriteOff },
    ]);
    const detail = await callOk(t, 'core/finance/bill/getBillDetail', { billId }, admin);
    expect(detail.writeOffs).toEqual([expect.objectContaining({ writeOffId: exec.writeOffId, source: 2, createdBy: 'auto-ledger', journalId: exec.journalId })]);
    expect(await count('audit_log', `entity = 'bill' and entity_id = $1 and endpoint = 'job:bill-automate'`, [String(billId)])).toBe(2);

    // later turns, the next day: nothing again
    expect(await run('2031-03-05')).toEqual([]);
    expect(await run('2031-03-20')).toEqual([]);
    expect(await count('bill_write_offs', 'bill_id = $1', [billId])).toBe(1);
    expect(await count('bill_automate_execs', 'rule_id = $1', [r.ruleId])).toBe(1);
    // the list says when it acts next: the next month's day for the next period
    const listed = (await callOk(t, `${A}getBillAutomateListPage`, { custId: ids[ZX_EAST] }, admin)).list[0];
    expect(listed).toMatchObject({ ruleId: r.ruleId, lastExec: { periodKey: '2031-02', state: State.Done } });
    await drop(r.ruleId);
  });

  it('a bill not run yet: waits and is tried again; acts once ready; given up when the next period comes; no bill: skipped', async () => {
    await w.setMoney(HD, '1000.00', '0.00');
    const r = await rule({ custId: ids[HD], dayOfMonth: 3 });
    const [first] = await run('2031-06-03');
    expect(first).toMatchObject({ periodKey: '2031-05', state: State.Waiting, publishResult: Result.Waiting, writeOffResult: Result.Waiting });
    // a run under way: still waiting
    await q(`insert into bill_runs (period_key, state, started_by) values ('2031-05', 1, 'admin')`);
    const billId = await w.bill({ cust: HD, periodKey: '2031-05', published: false, due: '40.00' });
    expect((await run('2031-06-03'))[0].state).toBe(State.Waiting);
    const [waiting] = await execs(r.ruleId);
    expect(waiting).toMatchObject({ state: State.Waiting, publishReason: Reason.BillNotRun, writeOffReason: Reason.BillNotRun, attempts: 2, billId });
    expect((await w.billRow(billId)).published).toBe(0);
    // the run finishes: the next turn publishes and writes off
    await q(`update bill_runs set state = 2 where period_key = '2031-05'`);
    const [done] = await run('2031-06-04');
    expect(done).toMatchObject({ state: State.Done, writeOffAmount: '40.00' });
    expect(await execs(r.ruleId)).toHaveLength(1);

    // June's bill never comes: waiting through July, given up on 3 August when July's period is the target
    expect((await run('2031-07-03'))[0]).toMatchObject({ periodKey: '2031-06', state: State.Waiting });
    expect((await run('2031-07-31'))[0]).toMatchObject({ periodKey: '2031-06', state: State.Waiting });
    await run('2031-08-01');
    const june = (await execs(r.ruleId)).find((e: { periodKey: string }) => e.periodKey === '2031-06');
    expect(june).toMatchObject({ state: State.Skipped, publishResult: Result.Skipped, publishReason: Reason.PeriodPassed });
    // July's run finished without a bill for the customer: nothing to do
    await q(`insert into bill_runs (period_key, state, started_by) values ('2031-07', 2, 'admin')`);
    expect((await run('2031-08-03'))[0]).toMatchObject({ periodKey: '2031-07', state: State.Skipped, publishResult: Result.Skipped });
    const july = (await execs(r.ruleId)).find((e: { periodKey: string }) => e.periodKey === '2031-07');
    expect(july).toMatchObject({ publishReason: Reason.NoBill, writeOffReason: Reason.NoBill });
    await drop(r.ruleId);
  });

  it('too little money: a whole-amount rule publishes and leaves the write-off; an as-much-as-possible rule takes what there is', async () => {
    await w.setMoney(ZX_COLD, '30.00', '20.00');
    const full = await rule({ custId: ids[ZX_COLD], dayOfMonth: 1 });
    const billId = await w.bill({ cust: ZX_COLD, periodKey: '2031-09', published: false, due: '100.00' });
    const journals = await count('ledger_journals', 'cust_id = $1', [ids[ZX_COLD]]);
    const [a] = await run('2031-10-01');
    expect(a).toMatchObject({ state: State.Attention, publishResult: Result.Done, writeOffResult: Result.Skipped, writeOffAmount: null });
    const [ea] = await execs(full.ruleId);
    expect(ea).toMatchObject({ writeOffReason: Reason.InsufficientBalance, arrears: '100.00', payable: '50.00', journalId: null });
    expect(await w.money(ZX_COLD)).toEqual({ pre: '30.00', grants: '20.00' });
    expect(await count('ledger_journals', 'cust_id = $1', [ids[ZX_COLD]])).toBe(journals);
    expect(await w.billRow(billId)).toMatchObject({ published: 1, arrears: '100.00' });
    // finished: not tried again that month, even with money now
    await w.setMoney(ZX_COLD, '500.00', '0.00');
    expect(await run('2031-10-02')).toEqual([]);
    await drop(full.ruleId);

    await w.setMoney(ZX_COLD, '30.00', '20.00');
    const some = await rule({ custId: ids[ZX_COLD], dayOfMonth: 1, publish: 0, writeOffMode: Mode.Available });
    const second = await w.bill({ cust: ZX_COLD, periodKey: '2031-10', published: true, due: '100.00' });
    const [b] = await run('2031-11-01');
    expect(b).toMatchObject({ state: State.Attention, publishResult: Result.NotAsked, writeOffResult: Result.Done, writeOffAmount: '50.00' });
    expect((await execs(some.ruleId))[0]).toMatchObject({ writeOffReason: Reason.InsufficientBalance, payable: '50.00', arrears: '100.00' });
    expect(await w.billRow(second)).toMatchObject({ writtenOff: '50.00', arrears: '50.00', status: BillStatus.ToWriteOff });
    expect(await w.money(ZX_COLD)).toEqual({ pre: '0.00', grants: '0.00' });

    // nothing at all: skipped, nothing moves
    const third = await w.bill({ cust: ZX_COLD, periodKey: '2031-11', published: true, due: '10.00' });
    expect((await run('2031-12-01'))[0]).toMatchObject({ state: State.Attention, writeOffResult: Result.Skipped });
    expect((await w.billRow(third)).writtenOff).toBe('0.00');
    await drop(some.ruleId);
  });

  it('a bill already published and written off: both actions are no-ops; a write-off rule waits for an unpublished bill', async () => {
    await w.setMoney(HD_SZ, '100.00', '0.00');
    const r = await rule({ custId: ids[HD_SZ], dayOfMonth: 10 });
    const billId = await w.bill({ cust: HD_SZ, periodKey: '2032-01', published: true, due: '20.00' });
    await callOk(t, 'core/finance/cancelBill/writeOffBill', { billId, amount: '20' }, admin);
    const [done] = await run('2032-02-10');
    expect(done).toMatchObject({ state: State.Done, publishResult: Result.AlreadyDone, writeOffResult: Result.AlreadyDone });
    expect((await execs(r.ruleId))[0]).toMatchObject({ writeOffReason: Reason.NothingDue });
    expect(await count('bill_write_offs', 'bill_id = $1', [billId])).toBe(1);

    // a rule that only writes off does not publish: it waits until finance does
    await callOk(t, `${A}editBillAutomateRule`, { ruleId: r.ruleId, dayOfMonth: 10, publish: 0, writeOff: 1, writeOffMode: Mode.Full }, admin);
    const draft = await w.bill({ cust: HD_SZ, periodKey: '2032-02', published: false, due: '30.00' });
    expect((await run('2032-03-10'))[0]).toMatchObject({ state: State.Waiting, writeOffResult: Result.Waiting });
    expect((await execs(r.ruleId))[0]).toMatchObject({ writeOffReason: Reason.NotPublished });
    await callOk(t, 'core/finance/bill/publishBill', { billId: draft }, admin);
    expect((await run('2032-03-10'))[0]).toMatchObject({ state: State.Done, writeOffAmount: '30.00' });

    // switched off: not executed; switched on after its day: from the next month
    await callOk(t, `${A}switchBillAutomateRule`, { ruleId: r.ruleId, enabled: 0 }, admin);
    await w.bill({ cust: HD_SZ, periodKey: '2032-03', published: true, due: '5.00' });
    expect(await run('2032-04-10')).toEqual([]);
    const ctx = { actor: await w.actorOf('admin'), lang: 'en' as const, ip: '-', endpoint: 'test', tokenHash: null, audited: false };
    expect(await new BillAutoRuleService(t.deps.db).switch({ ruleId: r.ruleId, enabled: 1 }, ctx, at('2032-04-11'))).toMatchObject({ enabled: 1, firstPeriod: '2032-04' });
    expect(await run('2032-04-12')).toEqual([]);
    // (April's bill is not run yet: the rule waits for it)
    expect((await run('2032-05-10'))[0]).toMatchObject({ periodKey: '2032-04', state: State.Waiting });
    expect((await execs(r.ruleId)).map((e: { periodKey: string }) => e.periodKey)).toEqual(['2032-04', '2032-02', '2032-01']);
    await drop(r.ruleId);
  });

  it('two workers at once execute a rule × period once', async () => {
    await w.setMoney(ZX, '1000.00', '0.00');
    const r = await rule({ custId: ids[ZX], dayOfMonth: 2 });
    const billId = await w.bill({ cust: ZX, periodKey: '2032-06', published: false, due: '60.00' });
    const results = await Promise.all([run('2032-07-02'), run('2032-07-02'), run('2032-07-02')]);
    expect(results.flat().filter((x) => x.ruleId === r.ruleId)).toHaveLength(1);
    expect(await count('bill_write_offs', 'bill_id = $1', [billId])).toBe(1);
    expect((await w.billRow(billId)).writtenOff).toBe('60.00');
    expect((await w.money(ZX)).pre).toBe('940.00');
    expect(await execs(r.ruleId)).toEqual([expect.objectContaining({ state: State.Done, attempts: 1 })]);
    await drop(r.ruleId);
  });

  it('keeps every endpoint to its tenant: customers see their tree\'s rules, switch them, and nothing else', async () => {
    const zx = await rule({ custId: ids[ZX_EAST], dayOfMonth: 8 });
    const hd = await rule({ custId: ids[HD], dayOfMonth: 8 });
    const listOf = async (token: string) => (await callOk(t, `${A}getBillAutomateListPage`, {}, token)).list.map((x: { ruleId: number }) => x.ruleId);
    expect(await listOf(admin)).toEqual(expect.arrayContaining([zx.ruleId, hd.ruleId]));
    expect(await listOf(enterprise)).toContain(zx.ruleId);
    expect(await listOf(enterprise)).not.toContain(hd.ruleId);
    expect(await listOf(channel)).toEqual([hd.ruleId]);
    // another tenant's rule answers like a missing one, for reading and switching
    expect((await t.call(`${A}getBillAutomateDetail`, { ruleId: hd.ruleId }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(`${A}switchBillAutomateRule`, { ruleId: hd.ruleId, enabled: 0 }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(`${A}getBillAutomateExecPage`, { ruleId: hd.ruleId }, { token: enterprise })).body.data.list).toEqual([]);
    expect((await callOk(t, `${A}getBillAutomateDetail`, { ruleId: hd.ruleId }, admin)).enabled).toBe(1);
    // a customer's finance switches its own rule, and cannot edit or delete it
    expect(await callOk(t, `${A}switchBillAutomateRule`, { ruleId: zx.ruleId, enabled: 0 }, enterprise)).toMatchObject({ enabled: 0, updatedBy: 'enterprise', nextDay: null });
    expect((await t.call(`${A}editBillAutomateRule`, { ruleId: zx.ruleId, dayOfMonth: 9, publish: 1, writeOff: 1, writeOffMode: 1 }, { token: enterprise })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect((await t.call(`${A}deleteBillAutomateRule`, { ruleId: zx.ruleId }, { token: enterprise })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    // a second-level customer has no automated ledger
    for (const name of ['getBillAutomateListPage', 'getBillAutomateExecPage']) {
      expect((await t.call(`${A}${name}`, {}, { token: sub })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    }
    // no session: 20003
    expect((await t.call(`${A}getBillAutomateListPage`, {}, { token: null })).body.errorCode).toBe(ErrorCode.SessionInvalid);
    await drop(zx.ruleId);
    await drop(hd.ruleId);
  });
});
