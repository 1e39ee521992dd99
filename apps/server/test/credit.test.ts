import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CreditChangeAction, CreditStatus, CreditType, ErrorCode, ExportFormat, ExportState, JournalKind, LedgerAccount, businessToday, moneyToFen } from '@lynx/contract';
import { backends, startTestApp, waitFor, ZX, ZX_EAST, HD, HD_SZ, type TestApp } from './harness.ts';
import { postJournal } from '../src/modules/money/ledger.ts';
import { dayPlus, refreshCredits } from '../src/modules/money/credit/credit-service.ts';
import { AppError } from '../src/platform/errors.ts';
import type { Tx } from '../src/db/client.ts';

/**
 * Issue 13, credit orders (Financial › Credit): the projection equals the valid orders after every change and after
 * expiry; a provisional credit is valid through its last day and expired the next; spending reaches exactly minus
 * the credit and not one fen more; reset; the §9 range buckets at their edges; only staff grant or change credit;
 * every call keeps a customer to its tenant; bad terms change nothing.
 */
const SYSTEM = { accountId: null, loginName: 'system' };
const L = 'core/finance/credit/';

describe.each(backends)('credit orders on %s', (backend) => {
  let t: TestApp;
  const ids: Record<string, number> = {};
  let admin: string;
  let enterprise: string;
  let channel: string;
  let sub: string;
  const today = businessToday();
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const balance = async (custId: number) => (await q<{ pre_deposit: string; credit: string }>(
    'select coalesce(b.pre_deposit, 0)::text as pre_deposit, coalesce(b.credit, 0)::text as credit from customers c left join customer_balances b on b.cust_id = c.cust_id where c.cust_id = $1', [custId]))[0];
  const move = (custId: number, kind: JournalKind, yuan: string) => t.deps.db.transaction((tx: Tx) => postJournal(tx, {
    kind, custId, by: SYSTEM,
    lines: kind === JournalKind.Spend
      ? [{ account: LedgerAccount.PreDeposit, fen: -moneyToFen(yuan)! }, { account: LedgerAccount.Revenue, fen: moneyToFen(yuan)! }]
      : [{ account: LedgerAccount.PreDeposit, fen: moneyToFen(yuan)! }, { account: LedgerAccount.PaymentClearing, fen: -moneyToFen(yuan)! }],
  }));
  const grant = (body: object, token = admin) => t.call(`${L}saveCredit`, { creditType: CreditType.Fixed, paymentTerm: 30, paymentUnit: 1, ...body }, { token });
  const orders = async () => Number((await q<{ n: string }>('select count(*) as n from credit_orders'))[0].n);

  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    for (const name of [ZX, ZX_EAST, HD, HD_SZ]) {
      ids[name] = (await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [name]))[0].cust_id;
    }
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
    channel = await t.login('channel');
    sub = await t.login('subcustomer');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('the demo credit is a real fixed order: the projection is its sum, with a change-log row', async () => {
    const list = (await t.call(`${L}getCreditListPage`, { custId: ids[ZX] }, { token: admin })).body.data;
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ creditType: CreditType.Fixed, status: CreditStatus.Valid, amount: '10000.00', validTo: null, custName: ZX });
    expect((await balance(ids[ZX])).credit).toBe('10000.00');
    const log = (await t.call(`${L}getCreditChangeLog`, { creditId: list.list[0].creditId }, { token: admin })).body.data;
    expect(log.list.map((r: { action: number }) => r.action)).toEqual([CreditChangeAction.Create]);
  });

  it('a provisional credit is valid through its last day and expired the next (the job rewrites the projection once)', async () => {
    const before = (await balance(ids[HD])).credit;
    const r = await grant({ custId: ids[HD], creditType: CreditType.Provisional, amount: '500.5', validTo: today, paymentTerm: 1, paymentUnit: 2 });
    expect(r.body.errorCode).toBeNull();
    expect(r.body.data).toMatchObject({ status: CreditStatus.Valid, amount: '500.50', validFrom: today, validTo: today });
    expect(r.body.data.creditNo).toMatch(/^CR\d{8}\d{6}$/);
    const withIt = (moneyToFen(before)! + 50050n);
    expect(moneyToFen((await balance(ids[HD])).credit)).toBe(withIt);
    // the last day: still valid, nothing to do
    expect(await refreshCredits(t.deps.db, today)).toEqual({ expired: 0, customers: 0 });
    expect(moneyToFen((await balance(ids[HD])).credit)).toBe(withIt);
    // the next day: expired, out of the projection, one "expired" row by system
    expect(await refreshCredits(t.deps.db, dayPlus(today, 1))).toMatchObject({ expired: 1 });
    expect((await balance(ids[HD])).credit).toBe(before);
    expect(await refreshCredits(t.deps.db, dayPlus(today, 1))).toEqual({ expired: 0, customers: 0 });
    const log = (await t.call(`${L}getCreditChangeLog`, { creditId: r.body.data.creditId }, { token: admin })).body.data;
    expect(log.list[0]).toMatchObject({ action: CreditChangeAction.Expire, createdBy: 'system' });
    expect(log.list[0].after.status).toBe(CreditStatus.Expired);
    expect(log.total).toBe(2);
  });

  it('spending reaches exactly minus the credit, one fen more is refused; a reset below what is used is refused, then allowed', async () => {
    const cust = ids[HD_SZ];
    const r = await grant({ custId: cust, amount: '1000' });
    expect(r.body.errorCode).toBeNull();
    const creditId = r.body.data.creditId;
    const pre = moneyToFen((await balance(cust)).pre_deposit)!;
    // spend everything down to exactly -1000.00
    const all = pre + 100000n;
    await move(cust, JournalKind.Spend, `${all / 100n}.${String(all % 100n).padStart(2, '0')}`);
    expect(await balance(cust)).toMatchObject({ pre_deposit: '-1000.00', credit: '1000.00' });
    await expect(move(cust, JournalKind.Spend, '0.01')).rejects.toSatisfy((e: unknown) => e instanceof AppError && e.code === ErrorCode.BalanceInsufficient);
    expect((await balance(cust)).pre_deposit).toBe('-1000.00');

    // the credit is in use: neither lowered nor reset below it
    const low = await t.call(`${L}updateCredit`, { creditId, creditType: CreditType.Fixed, amount: '999.99', paymentTerm: 30, paymentUnit: 1, reason: 'lower' }, { token: admin });
    expect(low.body.errorCode).toBe(ErrorCode.CreditBelowUsed);
    const early = await t.call(`${L}resetCredit`, { creditId, reason: 'overdue' }, { token: admin, lang: 'zh' });
    expect(early.body.errorCode).toBe(ErrorCode.CreditBelowUsed);
    expect(early.body.msg).toContain('1,000.00');
    expect((await balance(cust)).credit).toBe('1000.00');

    // raising it is fine; after a top-up the reset goes through and the amount no longer counts
    const up = await t.call(`${L}updateCredit`, { creditId, creditType: CreditType.Fixed, amount: '1200', paymentTerm: 2, paymentUnit: 2, reason: 'raise' }, { token: admin });
    expect(up.body.data).toMatchObject({ amount: '1200.00', paymentTerm: 2, paymentUnit: 2 });
    expect((await balance(cust)).credit).toBe('1200.00');
    await move(cust, JournalKind.Recharge, '1000');
    const reset = await t.call(`${L}resetCredit`, { creditId, reason: ' contract ended ' }, { token: admin });
    expect(reset.body.data).toMatchObject({ status: CreditStatus.Reset, resetReason: 'contract ended', resetBy: 'admin' });
    expect((await balance(cust)).credit).toBe('0.00');
    // an ended order cannot change any more
    expect((await t.call(`${L}resetCredit`, { creditId, reason: 'again' }, { token: admin })).body.errorCode).toBe(ErrorCode.CreditClosed);
    // the state reads once in either language (the zh label already says 已: 已重置, not 已已重置)
    expect((await t.call(`${L}resetCredit`, { creditId, reason: 'again' }, { token: admin, lang: 'zh' })).body.msg).toBe('该授信已重置，不能再修改或重置');
    expect((await t.call(`${L}resetCredit`, { creditId, reason: 'again' }, { token: admin, lang: 'en' })).body.msg).toBe('This credit order has ended (Reset): it can no longer be changed or reset');
    expect((await t.call(`${L}updateCredit`, { creditId, creditType: CreditType.Fixed, amount: '1', paymentTerm: 1, paymentUnit: 1, reason: 'x' }, { token: admin })).body.errorCode).toBe(ErrorCode.CreditClosed);
    const log = (await t.call(`${L}getCreditChangeLog`, { creditId }, { token: admin })).body.data;
    expect(log.list.map((x: { action: number }) => x.action)).toEqual([CreditChangeAction.Reset, CreditChangeAction.Edit, CreditChangeAction.Create]);
    expect(log.list[0]).toMatchObject({ reason: 'contract ended', createdBy: 'admin' });
    expect(log.list[1].before.amount).toBe('1000.00');
    expect(log.list[1].after.amount).toBe('1200.00');
    // audit records in the same transactions
    const audits = await q<{ n: string }>("select count(*) as n from audit_log where entity = 'creditOrder' and entity_id = $1", [String(creditId)]);
    expect(Number(audits[0].n)).toBe(3);
  });

  it('the §9 ranges are buckets at 1000 / 3000 / 5000 / 10000 (lower edge in, upper edge out)', async () => {
    const cust = ids[ZX_EAST];
    for (const amount of ['999.99', '1000', '2999.99', '3000', '4999.99', '5000', '9999.99', '10000']) {
      expect((await grant({ custId: cust, amount })).body.errorCode).toBeNull();
    }
    const inRange = async (range: number) => (await t.call(`${L}getCreditListPage`, { custId: cust, range, pageSize: 50 }, { token: admin })).body.data.list
      .map((r: { amount: string }) => r.amount).sort();
    expect(await inRange(1)).toEqual(['999.99']);
    expect(await inRange(2)).toEqual(['1000.00', '2999.99']);
    expect(await inRange(3)).toEqual(['3000.00', '4999.99']);
    expect(await inRange(4)).toEqual(['5000.00', '9999.99']);
    expect(await inRange(5)).toEqual(['10000.00']);
    expect((await balance(cust)).credit).toBe('37999.96');
  });

  it('a customer never grants or changes credit: itself 20802, its sub-customer 20870, another tenant not found', async () => {
    const n = await orders();
    expect((await grant({ custId: ids[ZX], amount: '100' }, enterprise)).body.errorCode).toBe(ErrorCode.MoneySelfReview);
    expect((await grant({ custId: ids[ZX_EAST], amount: '100' }, enterprise)).body.errorCode).toBe(ErrorCode.CreditStaffOnly);
    expect((await grant({ custId: ids[HD], amount: '100' }, enterprise)).body.errorCode).toBe(ErrorCode.NotFound);
    const zxOrder = (await t.call(`${L}getCreditListPage`, { custId: ids[ZX] }, { token: admin })).body.data.list[0].creditId;
    const edit = { creditId: zxOrder, creditType: CreditType.Fixed, amount: '20000', paymentTerm: 30, paymentUnit: 1, reason: 'mine' };
    expect((await t.call(`${L}updateCredit`, edit, { token: enterprise })).body.errorCode).toBe(ErrorCode.MoneySelfReview);
    expect((await t.call(`${L}resetCredit`, { creditId: zxOrder, reason: 'x' }, { token: enterprise })).body.errorCode).toBe(ErrorCode.MoneySelfReview);
    expect((await t.call(`${L}updateCredit`, edit, { token: channel })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(`${L}resetCredit`, { creditId: zxOrder, reason: 'x' }, { token: channel })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(`${L}updateCredit`, edit, { token: sub })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect(await orders()).toBe(n);
    expect((await balance(ids[ZX])).credit).toBe('10000.00');
  });

  it('every read keeps a customer to its tenant', async () => {
    const list = async (token: string) => (await t.call(`${L}getCreditListPage`, { pageSize: 200 }, { token })).body.data.list.map((r: { custId: number }) => r.custId);
    expect(new Set(await list(enterprise))).toEqual(new Set([ids[ZX], ids[ZX_EAST]]));
    expect(new Set(await list(channel))).toEqual(new Set([ids[HD], ids[HD_SZ]]));
    expect((await t.call(`${L}getCreditListPage`, {}, { token: sub })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    const hdOrder = (await t.call(`${L}getCreditListPage`, { custId: ids[HD] }, { token: admin })).body.data.list[0].creditId;
    expect((await t.call(`${L}getCreditDetail`, { creditId: hdOrder }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(`${L}getCreditChangeLog`, { creditId: hdOrder }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(`${L}getCreditChangeLog`, { creditId: 999999 }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(`${L}getCreditDetail`, { creditId: hdOrder }, { token: channel })).body.data.custId).toBe(ids[HD]);
    // the customer filter does not widen the scope
    expect(await list(enterprise)).not.toContain(ids[HD]);
    expect((await t.call(`${L}getCreditListPage`, { custId: ids[HD] }, { token: enterprise })).body.data.total).toBe(0);
    // the home overview's company balances: the caller's own, none for staff
    const mine = (await t.call('busCenter/home/companyInfo', {}, { token: enterprise })).body.data;
    expect(mine).toMatchObject({ custId: ids[ZX], credit: '10000.00' });
    expect((await t.call('busCenter/home/companyInfo', {}, { token: channel })).body.data.custId).toBe(ids[HD]);
    expect((await t.call('busCenter/home/companyInfo', {}, { token: admin })).body.data).toBeNull();
  });

  it('the credit export holds the caller\'s tenant only, in its language', async () => {
    const created = await t.call(`${L}exportCreditList`, { format: ExportFormat.Csv }, { token: enterprise, lang: 'en' });
    expect(created.body.errorCode).toBeNull();
    const taskId = created.body.data.taskId;
    const task = await waitFor(async () => {
      const r = await t.call('core/downloadTask/getListPage', {}, { token: enterprise });
      const found = r.body.data.list.find((x: { taskId: string }) => x.taskId === taskId);
      return found && found.state !== ExportState.InProcess ? found : null;
    });
    expect(task.state).toBe(ExportState.Succeeded);
    const res = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${taskId}&ts=1&lang=en`, headers: { authorization: enterprise } });
    const lines = res.body.slice(1).trim().split('\r\n');
    expect(lines[0]).toContain('Credit number,Customer,Type,Status,Amount (CNY)');
    const rows = lines.slice(1);
    expect(rows.length).toBe((await t.call(`${L}getCreditListPage`, { pageSize: 200 }, { token: enterprise })).body.data.total);
    expect(rows.every((l) => l.includes(ZX) || l.includes(ZX_EAST)), rows.join('\n')).toBe(true);
    expect(rows.some((l) => l.includes(HD))).toBe(false);
    expect(rows.some((l) => l.includes(ZX) && l.includes('Fixed,Valid')), rows.join('\n')).toBe(true);
  });

  it('bad terms are refused with the rule in the user\'s language, and nothing changes', async () => {
    const n = await orders();
    const cust = ids[HD];
    const cases: [object, number][] = [
      [{ creditType: CreditType.Provisional, amount: '100' }, ErrorCode.CreditValidToInvalid],
      [{ creditType: CreditType.Provisional, amount: '100', validTo: dayPlus(today, -1) }, ErrorCode.CreditValidToInvalid],
      [{ creditType: CreditType.Provisional, amount: '100', validTo: dayPlus(today, 366) }, ErrorCode.CreditValidToInvalid],
      [{ creditType: CreditType.Provisional, amount: '100', validTo: '2026-02-30' }, ErrorCode.CreditValidToInvalid],
      [{ amount: '0' }, ErrorCode.MoneyAmountInvalid],
      [{ amount: '100000000.01' }, ErrorCode.MoneyAmountInvalid],
      [{ amount: '100', paymentTerm: 13, paymentUnit: 2 }, ErrorCode.CreditTermInvalid],
      [{ amount: '100.001' }, ErrorCode.Validation],
    ];
    for (const [body, code] of cases) {
      const r = await grant({ custId: cust, ...body });
      expect(r.body.errorCode, JSON.stringify(body)).toBe(code);
    }
    const zh = await t.call(`${L}saveCredit`, { custId: cust, creditType: CreditType.Provisional, amount: '1', paymentTerm: 1, paymentUnit: 1 }, { token: admin, lang: 'zh' });
    expect(zh.body.msg).toContain('临时授信');
    // the longest validity is accepted
    const longest = await grant({ custId: cust, creditType: CreditType.Provisional, amount: '1', validTo: dayPlus(today, 365) });
    expect(longest.body.errorCode).toBeNull();
    const blank = await t.call(`${L}updateCredit`, { creditId: longest.body.data.creditId, creditType: CreditType.Fixed, amount: '2', paymentTerm: 1, paymentUnit: 1, reason: '   ' }, { token: admin });
    expect(blank.body.errorCode).toBe(ErrorCode.Validation);
    expect(await orders()).toBe(n + 1);
  });

  it('an order expired since the expiry job last ran does not make a new order or a raise look like a lowering', async () => {
    const cust = ids[HD_SZ];
    const p = await grant({ custId: cust, creditType: CreditType.Provisional, amount: '1000', validTo: today });
    expect(p.body.errorCode).toBeNull();
    const pre = moneyToFen((await balance(cust)).pre_deposit)!;
    const spent = pre + 50000n;
    await move(cust, JournalKind.Spend, `${spent / 100n}.${String(spent % 100n).padStart(2, '0')}`);
    expect((await balance(cust)).pre_deposit).toBe('-500.00');
    // the provisional order ended yesterday; the job has not run yet, so the projection still counts it
    await q('update credit_orders set valid_from = $2::date, valid_to = $2::date where credit_id = $1', [p.body.data.creditId, dayPlus(today, -1)]);
    expect((await balance(cust)).credit).toBe('1000.00');
    // granting 200 lowers nothing (the valid credit goes from 0 to 200): accepted, the projection is its orders again
    const n = await grant({ custId: cust, amount: '200' });
    expect(n.body.errorCode).toBeNull();
    expect((await balance(cust)).credit).toBe('200.00');
    // raising it is accepted too; lowering it below what is used is still refused
    const edit = { creditId: n.body.data.creditId, creditType: CreditType.Fixed, paymentTerm: 30, paymentUnit: 1, reason: 'x' };
    expect((await t.call(`${L}updateCredit`, { ...edit, amount: '300' }, { token: admin })).body.errorCode).toBeNull();
    expect((await t.call(`${L}updateCredit`, { ...edit, amount: '250' }, { token: admin })).body.errorCode).toBe(ErrorCode.CreditBelowUsed);
    expect((await balance(cust)).credit).toBe('300.00');
  });
});
