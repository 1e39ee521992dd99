import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  ErrorCode, ExportFormat, JournalKind, LedgerAccount, ReportPeriod, businessDayStartMs, businessToday, fenToMoney, moneyToFen,
} from '@lynx/contract';
import { backends, startTestApp, ZX, ZX_EAST, ZX_COLD, HD, HD_SZ, type TestApp } from '../../../../test/harness.ts';
import { postJournal, type PostingLine } from '../ledger.ts';
import type { Tx } from '../../../db/client.ts';
import { AMOUNT_COLUMNS, buildAccountingReports, buildDay, nextDay, prevDay } from './report-builder.ts';

/**
 * Issue 14, Financial › Accounting reports: the builder turns the ledger's customer postings into one statement per
 * closed business day (each kind in its column, moves between a customer's own accounts netting to zero), a day with
 * no movement carries the balances on, a day is written once however often it is built, a build stopped anywhere goes
 * on to the same result, the 00:00 business-time boundary decides the day, a month is the sum of its days, and
 * opening + movements = closing on every row, equal to the ledger itself. Every endpoint keeps a customer to its tenant.
 */
const SYSTEM = { accountId: null, loginName: 'system' };
const R = 'core/finance/report/';
const HOUR = 3_600_000;
type Amounts = Record<(typeof AMOUNT_COLUMNS)[number]['key'], string>;
const fen = (v: string) => moneyToFen(v)!;
const flowsOf = (a: Amounts) => AMOUNT_COLUMNS.filter((c) => c.key !== 'opening' && c.key !== 'closing').reduce((s, c) => s + fen(a[c.key]), 0n);

describe.each(backends)('accounting reports on %s', (backend) => {
  let t: TestApp;
  const ids: Record<string, number> = {};
  const tok: Record<string, string> = {};
  const today = businessToday();
  // the fixture's days: A with every kind of movement, B starting with a movement at 00:00 sharp, C without movement
  const A = prevDay(prevDay(prevDay(today)));
  const B = nextDay(A);
  const C = nextDay(B);
  const at = (day: string, hours: number) => new Date(businessDayStartMs(day) + hours * HOUR);
  // the builder's clock: today 01:00 (every day up to yesterday closed)
  const NOW = businessDayStartMs(today) + HOUR;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const move = (custId: number, kind: JournalKind, when: Date, lines: [LedgerAccount, string][]) => t.deps.db.transaction((tx: Tx) => postJournal(tx, {
    kind, custId, by: SYSTEM, at: when,
    lines: lines.map(([account, yuan]): PostingLine => ({ account, fen: fen(yuan) })),
  }));
  const call = async (name: string, body: object, who: string) => t.call(`${R}${name}`, body, { token: tok[who] });
  const ok = async (name: string, body: object, who: string) => {
    const r = await call(name, body, who);
    expect(r.body.errorCode, r.body.msg).toBeNull();
    return r.body.data;
  };
  /** every report row of a scope, oldest first */
  const allDays = async (who: string, extra: object = {}) =>
    (await ok('getAccountingReportListPage', { type: ReportPeriod.Daily, pageSize: 500, ...extra }, who)).list.reverse() as (Amounts & { id: string; customers: number })[];
  const statements = async (day: string, who = 'admin', extra: object = {}) =>
    (await ok('getAccountingReportDetail', { id: day, type: ReportPeriod.Daily, pageSize: 500, ...extra }, who)).list as (Amounts & { custId: number })[];
  const snapshot = async () => JSON.stringify(await q(`select day::text, cust_id, root_cust_id, ${AMOUNT_COLUMNS.map((c) => `${c.col}::text`).join(', ')}
    from accounting_day_customers order by day, cust_id`)) + JSON.stringify(await q(`select day::text, ${AMOUNT_COLUMNS.map((c) => `${c.col}::text`).join(', ')}, customers, postings
    from accounting_days order by day`)) + JSON.stringify(await q(`select month::text, cust_id, root_cust_id, ${AMOUNT_COLUMNS.map((c) => `${c.col}::text`).join(', ')}
    from accounting_month_customers order by month, cust_id`));
  const wipe = async () => {
    await q('delete from accounting_month_customers');
    await q('delete from accounting_day_customers');
    await q('delete from accounting_days');
  };

  beforeAll(async () => {
    t = await startTestApp(backend, { rateLimitPerToken: 1_000_000, rateLimitPerIp: 1_000_000 }, { jobs: false });
    for (const name of [ZX, ZX_EAST, ZX_COLD, HD, HD_SZ]) ids[name] = (await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [name]))[0].cust_id;
    // a second-level customer with the report page (the built-in role has no Financial area)
    await q('update roles set permissions = permissions || array[9000000, 9050000] where role_id = 5000');
    for (const who of ['admin', 'enterprise', 'channel', 'subcustomer']) tok[who] = await t.login(who);
    const { PreDeposit: PRE, Grants: GRANTS, WithdrawHold: HOLD, PaymentClearing: CLEAR, Bank: BANK, Revenue: REV, GrantExpense: GEXP } = LedgerAccount;
    // day A: every kind
    await move(ids[ZX], JournalKind.Recharge, at(A, 9), [[PRE, '1000.00'], [CLEAR, '-1000.00']]);
    await move(ids[ZX], JournalKind.Spend, at(A, 10), [[PRE, '-200.10'], [REV, '200.10']]);
    await move(ids[ZX], JournalKind.Grant, at(A, 11), [[GRANTS, '50.00'], [GEXP, '-50.00']]);
    await move(ids[ZX_EAST], JournalKind.Adjust, at(A, 12), [[PRE, '30.00'], [BANK, '-30.00']]);
    await move(ids[HD], JournalKind.Refund, at(A, 13), [[PRE, '-100.00'], [CLEAR, '100.00']]);
    await move(ids[HD], JournalKind.RefundReversal, at(A, 14), [[PRE, '100.00'], [CLEAR, '-100.00']]);
    await move(ids[HD], JournalKind.WithdrawHold, at(A, 15), [[PRE, '-500.00'], [HOLD, '500.00']]);
    await move(ids[HD], JournalKind.WithdrawPaid, at(A, 16), [[HOLD, '-500.00'], [BANK, '500.00']]);
    await move(ids[HD_SZ], JournalKind.Recharge, at(A, 17), [[PRE, '100.00'], [CLEAR, '-100.00']]);
    await move(ids[HD_SZ], JournalKind.WriteOff, at(A, 18), [[PRE, '-20.00'], [REV, '20.00']]);
    // a hold and its release the same day: nothing for the statement
    await move(ids[HD], JournalKind.WithdrawHold, at(A, 19), [[PRE, '-7.00'], [HOLD, '7.00']]);
    await move(ids[HD], JournalKind.WithdrawRelease, at(A, 20), [[HOLD, '-7.00'], [PRE, '7.00']]);
    // the 00:00 boundary: one fen before it is day A, 00:00 sharp is day B
    await move(ids[ZX], JournalKind.Recharge, new Date(businessDayStartMs(B) - 1), [[PRE, '0.01'], [CLEAR, '-0.01']]);
    await move(ids[ZX], JournalKind.Recharge, new Date(businessDayStartMs(B)), [[PRE, '2.00'], [CLEAR, '-2.00']]);
    await move(ids[ZX_EAST], JournalKind.Spend, at(B, 23.99), [[PRE, '-30.00'], [REV, '30.00']]);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('builds every closed business day from the first posting on, once', async () => {
    const built = await buildAccountingReports(t.deps.db, { now: NOW });
    const days = built.map((d) => d.day);
    expect(days[days.length - 1]).toBe(prevDay(today));
    // the demo's opening balances were brought in 30 days back: its first day is the first report
    const [{ first }] = await q<{ first: string }>(`select min(created_at)::text as first from ledger_postings where cust_id is not null`);
    expect(days[0]).toBe(businessToday(new Date(first).getTime()));
    // consecutive, no gaps
    for (let i = 1; i < days.length; i++) expect(days[i]).toBe(nextDay(days[i - 1]));
    expect(built.every((d) => d.built)).toBe(true);
    // today is not closed: not built; 00:10 the next day is inside the margin, 00:15 is not
    expect(await buildAccountingReports(t.deps.db, { now: NOW })).toEqual([]);
    expect(await buildAccountingReports(t.deps.db, { now: businessDayStartMs(nextDay(today)) + 10 * 60_000 })).toEqual([]);
  });

  it('puts each kind in its column, nets a customer\'s own moves to zero and takes 00:00 as the day\'s start', async () => {
    const rows = new Map((await statements(A)).map((r) => [r.custId, r]));
    expect(rows.get(ids[ZX])).toMatchObject({ opening: '50000.00', recharge: '1000.01', spend: '-200.10', grant: '50.00', closing: '50849.91' });
    expect(rows.get(ids[ZX_EAST])).toMatchObject({ opening: '0.00', adjust: '30.00', closing: '30.00' });
    expect(rows.get(ids[HD])).toMatchObject({
      opening: '120000.00', refund: '-100.00', refundReversal: '100.00', withdrawPaid: '-500.00', other: '0.00', closing: '119500.00',
    });
    expect(rows.get(ids[HD_SZ])).toMatchObject({ opening: '0.00', recharge: '100.00', writeOff: '-20.00', closing: '80.00' });
    // the customers without money and movement have no row
    expect(rows.has(ids[ZX_COLD])).toBe(false);
    const b = new Map((await statements(B)).map((r) => [r.custId, r]));
    expect(b.get(ids[ZX])).toMatchObject({ opening: '50849.91', recharge: '2.00', closing: '50851.91' });
    expect(b.get(ids[ZX_EAST])).toMatchObject({ opening: '30.00', spend: '-30.00', closing: '0.00' });
    // day C: no movement; the money carried on, a customer at zero dropped
    const c = new Map((await statements(C)).map((r) => [r.custId, r]));
    expect(c.get(ids[ZX])).toMatchObject({ opening: '50851.91', recharge: '0.00', spend: '0.00', closing: '50851.91' });
    expect(c.has(ids[ZX_EAST])).toBe(false);
    const [day] = (await ok('getAccountingReportListPage', { type: ReportPeriod.Daily, startDate: C, endDate: C }, 'admin')).list;
    expect(flowsOf(day)).toBe(0n);
    expect(day.opening).toBe(day.closing);
  });

  it('opening + movements = closing on every row, and each closing equals the ledger up to that day\'s end', async () => {
    const days = await allDays('admin');
    for (let i = 0; i < days.length; i++) {
      expect(fen(days[i].opening) + flowsOf(days[i]), days[i].id).toBe(fen(days[i].closing));
      if (i > 0) expect(days[i].opening, days[i].id).toBe(days[i - 1].closing);
    }
    for (const day of [A, B, C, prevDay(today)]) {
      const ledger = await q<{ cust_id: number; s: string }>(`select cust_id, sum(amount)::numeric(18, 2)::text as s from ledger_postings
        where cust_id is not null and created_at < $1 group by cust_id having sum(amount) <> 0 order by cust_id`, [new Date(businessDayStartMs(nextDay(day))).toISOString()]);
      const rows = (await statements(day)).filter((r) => fen(r.closing) !== 0n).sort((x, y) => x.custId - y.custId);
      expect(rows.map((r) => [r.custId, r.closing])).toEqual(ledger.map((l) => [l.cust_id, l.s]));
      for (const r of rows) expect(fen(r.opening) + flowsOf(r)).toBe(fen(r.closing));
    }
  });

  it('writes a day once however often it is built, and a build stopped anywhere ends where a whole one does', async () => {
    const whole = await snapshot();
    expect(await buildDay(t.deps.db, A)).toMatchObject({ built: false });
    expect(await snapshot()).toBe(whole);
    // two builders at once: each day written once
    await wipe();
    await Promise.all([buildAccountingReports(t.deps.db, { now: NOW }), buildAccountingReports(t.deps.db, { now: NOW })].map((p) => p.catch(() => null)));
    await buildAccountingReports(t.deps.db, { now: NOW });
    expect(await snapshot()).toBe(whole);
    // stopped after every day (a crash between two days' transactions), started again
    await wipe();
    for (let i = 0; i < 100 && (await buildAccountingReports(t.deps.db, { now: NOW, maxDays: 1 })).length; i++);
    expect(await snapshot()).toBe(whole);
    // a day whose previous day is missing while money existed before would invent its openings: refused, nothing written
    await wipe();
    for (let i = 0; i < 100 && (await buildAccountingReports(t.deps.db, { now: NOW, maxDays: 1 }))[0]?.day !== A; i++);
    await expect(buildDay(t.deps.db, C)).rejects.toThrow(/not built/);
    expect(Number((await q<{ n: string }>('select count(*) as n from accounting_days where day > $1', [A]))[0].n)).toBe(0);
    await buildAccountingReports(t.deps.db, { now: NOW });
    expect(await snapshot()).toBe(whole);
  });

  it('sums a month from its days: the first day\'s opening, the movements, the last day\'s closing', async () => {
    const days = await allDays('admin');
    const months = (await ok('getAccountingReportListPage', { type: ReportPeriod.Monthly, pageSize: 50 }, 'admin')).list as (Amounts & { id: string; periodStart: string; periodEnd: string; complete: boolean })[];
    expect(months.length).toBe(new Set(days.map((d) => d.id.slice(0, 7))).size);
    for (const m of months) {
      const inMonth = days.filter((d) => d.id.startsWith(m.id));
      expect(m.periodStart).toBe(inMonth[0].id);
      expect(m.periodEnd).toBe(inMonth[inMonth.length - 1].id);
      expect(m.opening).toBe(inMonth[0].opening);
      expect(m.closing).toBe(inMonth[inMonth.length - 1].closing);
      for (const c of AMOUNT_COLUMNS.filter((x) => x.key !== 'opening' && x.key !== 'closing')) {
        expect(m[c.key], `${m.id} ${c.key}`).toBe(fenToMoney(inMonth.reduce((s, d) => s + fen(d[c.key]), 0n)));
      }
      expect(fen(m.opening) + flowsOf(m)).toBe(fen(m.closing));
    }
    // each customer's month (kept by the daily builds) is its days summed: first opening, movements, last closing
    const perCustomer = await q<Record<string, string>>(`select to_char(day, 'YYYY-MM') as month, cust_id::text,
        (array_agg(opening order by day))[1]::text as opening, ${AMOUNT_COLUMNS.filter((c) => c.key !== 'opening' && c.key !== 'closing').map((c) => `sum(${c.col})::text as ${c.col}`).join(', ')},
        (array_agg(closing order by day desc))[1]::text as closing
      from accounting_day_customers group by 1, 2 order by 1, 2`);
    const kept = await q<Record<string, string>>(`select to_char(month, 'YYYY-MM') as month, cust_id::text, ${AMOUNT_COLUMNS.map((c) => `${c.col}::text`).join(', ')}
      from accounting_month_customers order by 1, 2`);
    expect(kept).toEqual(perCustomer);
    // the month of day A, per customer: the same sums from the customers' days
    const month = A.slice(0, 7);
    const detail = await ok('getAccountingReportDetail', { id: month, type: ReportPeriod.Monthly, pageSize: 500 }, 'admin');
    expect(detail.report.id).toBe(month);
    const zx = detail.list.find((r: { custId: number }) => r.custId === ids[ZX]);
    expect(fen(zx.opening) + flowsOf(zx)).toBe(fen(zx.closing));
    expect(BigInt(fen(zx.recharge))).toBeGreaterThanOrEqual(fen('1000.01'));
    // the list's totals over a range: first opening, sums, last closing
    const range = await ok('getAccountingReportListPage', { type: ReportPeriod.Daily, startDate: A, endDate: C }, 'admin');
    expect(range.total).toBe(3);
    expect(range.totals).toMatchObject({ opening: range.list[2].opening, closing: range.list[0].closing });
    expect(fen(range.totals.opening) + flowsOf(range.totals)).toBe(fen(range.totals.closing));
    expect(range.builtThrough).toBe(prevDay(today));
    // a customer name filter and sorting: names, parents and the order come with the page
    const named = await ok('getAccountingReportDetail', { id: A, type: ReportPeriod.Daily, custName: '华东', sortField: 'custName', sortOrder: 'ascend' }, 'admin');
    expect(named.total).toBe(1);
    expect(named.list[0]).toMatchObject({ custId: ids[ZX_EAST], custName: ZX_EAST, parentCustName: ZX, level: 2, adjust: '30.00' });
    const bySpend = (await ok('getAccountingReportDetail', { id: A, type: ReportPeriod.Daily, sortField: 'spend', sortOrder: 'ascend', pageSize: 2 }, 'admin'));
    expect(bySpend.list[0]).toMatchObject({ custId: ids[ZX], spend: '-200.10', parentCustName: null });
    expect(bySpend.total).toBe((await statements(A)).length);
    // a day not built is not found; a month id with the daily type is refused the same way
    expect((await call('getAccountingReportDetail', { id: today, type: ReportPeriod.Daily }, 'admin')).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await call('getAccountingReportDetail', { id: month, type: ReportPeriod.Daily }, 'admin')).body.errorCode).toBe(ErrorCode.NotFound);
  });

  it('keeps every endpoint to the tenant: a tree\'s rows and totals, a second-level customer\'s own, nobody else\'s', async () => {
    const zxTree = [ids[ZX], ids[ZX_EAST], ids[ZX_COLD]];
    const hdTree = [ids[HD], ids[HD_SZ]];
    const rowsOf = async (who: string, day = A) => (await statements(day, who)).map((r) => r.custId).sort((x, y) => x - y);
    expect((await rowsOf('enterprise')).every((id) => zxTree.includes(id))).toBe(true);
    expect(await rowsOf('channel')).toEqual([...hdTree].sort((x, y) => x - y));
    expect(await rowsOf('subcustomer')).toEqual([ids[ZX_EAST]]);
    // the tree's totals are its rows' sums, not the platform's
    const [chA] = (await ok('getAccountingReportListPage', { type: ReportPeriod.Daily, startDate: A, endDate: A }, 'channel')).list;
    expect(chA).toMatchObject({ opening: '120000.00', recharge: '100.00', refund: '-100.00', writeOff: '-20.00', closing: '119580.00', customers: 2 });
    const detail = await ok('getAccountingReportDetail', { id: A, type: ReportPeriod.Daily }, 'channel');
    expect(detail.report).toMatchObject({ opening: chA.opening, closing: chA.closing });
    const [subA] = (await ok('getAccountingReportListPage', { type: ReportPeriod.Daily, startDate: A, endDate: A }, 'subcustomer')).list;
    expect(subA).toMatchObject({ opening: '0.00', adjust: '30.00', closing: '30.00', customers: 1 });
    // naming another tenant's customer is answered like a missing one, on every endpoint
    for (const [name, body] of [
      ['getAccountingReportListPage', { type: ReportPeriod.Daily, custId: ids[HD] }],
      ['getAccountingReportDetail', { id: A, type: ReportPeriod.Daily, custId: ids[HD] }],
      ['exportAccountingReportList', { type: ReportPeriod.Daily, custId: ids[HD] }],
      ['exportAccountingReportDetail', { id: A, type: ReportPeriod.Daily, custId: ids[HD] }],
    ] as const) {
      expect((await call(name, body, 'enterprise')).body.errorCode, name).toBe(ErrorCode.NotFound);
      expect((await call(name, body, 'subcustomer')).body.errorCode, name).toBe(ErrorCode.NotFound);
    }
    // a sub-customer of its own tree is fine for the first-level customer
    const east = await ok('getAccountingReportListPage', { type: ReportPeriod.Daily, custId: ids[ZX_EAST], startDate: A, endDate: A }, 'enterprise');
    expect(east.list[0]).toMatchObject({ adjust: '30.00', customers: 1 });
    // exports hold the caller's rows only
    const exp = await ok('exportAccountingReportDetail', { id: A, type: ReportPeriod.Daily, format: ExportFormat.Csv }, 'channel');
    expect(exp.direct).toBe(true);
    const [task] = await q<{ row_count: number }>('select row_count from download_tasks where task_id = $1', [exp.taskId]);
    expect(task.row_count).toBe(2);
    const list = await ok('exportAccountingReportList', { type: ReportPeriod.Monthly, format: ExportFormat.Csv }, 'enterprise');
    expect(list.direct).toBe(true);
    // without the page's code: refused, on every endpoint
    await q('update roles set permissions = array_remove(permissions, 9050000) where role_id = 5000');
    const again = await t.login('subcustomer');
    for (const name of ['getAccountingReportListPage', 'getAccountingReportDetail', 'exportAccountingReportList', 'exportAccountingReportDetail']) {
      const r = await t.call(`${R}${name}`, { id: A, type: ReportPeriod.Daily, ...(name.includes('List') ? { id: undefined } : {}) }, { token: again });
      expect(r.body.errorCode, name).toBe(ErrorCode.PermissionDenied);
    }
    // no session
    expect((await t.call(`${R}getAccountingReportListPage`, { type: 1 })).body.errorCode).toBe(ErrorCode.SessionInvalid);
  });
});
