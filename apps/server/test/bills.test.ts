import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  BILL_DUE_DAYS, BILL_LINES_COUNT_CAP, BillLineCategory, BillStatus, CardState, ErrorCode, ExportState, OneOffFeeState, Operator, businessDayStart, businessToday, moneyToFen,
} from '@lynx/contract';
import { backends, callOk, insertCards, iccidsOf, HD, HD_SZ, ZX, ZX_COLD, ZX_EAST, type TestApp } from './harness.ts';
import { B, F, W, openBillWorld, type BillSpec, type BillWorld } from './bill-fixtures.ts';
import { dayPlus } from '../src/modules/money/credit/credit-service.ts';
import { BillService } from '../src/modules/billing/bills/bill-service.ts';
import { OneOffFeeService } from '../src/modules/billing/bills/one-off-fees.ts';
import { BillLineService } from '../src/modules/billing/bills/bill-lines.ts';
import { continueBillRuns } from '../src/modules/billing/run/bill-run-jobs.ts';

/**
 * Issue 14, bills (Billing › Bills, the card detail's bill lines, one-off fees): status at read, publishing, keyset
 * paging of card lines and their export, the detail's breakdowns, one-off fee rules, every endpoint kept to its
 * tenant, and the seam to the run engine (a real run's bills listed, paged, published, written off). Bills are
 * written straight into the tables (bill-fixtures.ts); write-off rules are in bill-write-off.test.ts.
 */
describe.each(backends)('bills on %s', (backend) => {
  let w: BillWorld;
  let t: TestApp;
  let ids: Record<string, number>;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let sub: string;
  const today = businessToday();
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => w.q<T>(text, params);
  const bill = (o: BillSpec) => w.bill(o);
  const nextPeriod = () => w.nextPeriod();
  const setMoney = (cust: string, pre: string, grants: string) => w.setMoney(cust, pre, grants);
  const billRow = (billId: number, token = admin) => w.billRow(billId, token);
  const writeOff = (billId: number, amount: string, token = admin) => w.writeOff(billId, amount, token);

  beforeAll(async () => {
    w = await openBillWorld(backend);
    ({ t, ids, admin, enterprise, channel, sub } = w);
  });
  afterAll(async () => {
    await w?.t.stop();
  });

  it('publishes only a rated bill of a finished run; due BILL_DUE_DAYS later; publishing again changes nothing', async () => {
    const unrated = await bill({ cust: ZX, published: false, rated: false });
    expect((await t.call(`${B}publishBill`, { billId: unrated }, { token: admin })).body.errorCode).toBe(ErrorCode.BillNotRated);

    const periodKey = nextPeriod();
    const id = await bill({ cust: ZX, published: false, periodKey });
    await q(`insert into bill_runs (period_key, state, started_by) values ($1, 1, 'admin')`, [periodKey]);
    const r = await t.call(`${B}publishBill`, { billId: id }, { token: admin });
    expect(r.body.errorCode).toBe(ErrorCode.BillRunRunning);
    expect(r.body.msg).toContain(periodKey);
    // a failed run cleared the bill's lines: it is not publishable until a run finishes
    await q(`update bill_runs set state = 3 where period_key = $1`, [periodKey]);
    expect((await t.call(`${B}publishBill`, { billId: id }, { token: admin })).body.errorCode).toBe(ErrorCode.BillNotRated);
    await q(`insert into bill_runs (period_key, cust_id, state, started_by) values ($1, $2, 2, 'admin')`, [periodKey, ids[ZX]]);

    // customers never see a draft, and cannot publish (20002 before any record is read)
    expect((await t.call(`${B}getBillDetail`, { billId: id }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(`${B}publishBill`, { billId: id }, { token: enterprise })).body.errorCode).toBe(ErrorCode.PermissionDenied);

    const published = await callOk(t, `${B}publishBill`, { billId: id }, admin);
    expect(published).toMatchObject({ published: 1, publishedBy: 'admin', dueDate: dayPlus(today, BILL_DUE_DAYS), status: BillStatus.ToWriteOff, arrears: '100.00' });
    await q(`update bills set due_date = '2030-01-01' where bill_id = $1`, [id]);
    const again = await callOk(t, `${B}publishBill`, { billId: id }, admin);
    expect(again.dueDate).toBe('2030-01-01');
    expect(await billRow(id, enterprise)).toMatchObject({ billId: id, published: 1 });
    const audits = await q<{ n: string }>(`select count(*) as n from audit_log where entity = 'bill' and entity_id = $1`, [String(id)]);
    expect(Number(audits[0].n)).toBe(2);

    // nothing due: published as normal
    const zero = await bill({ cust: ZX, published: false, due: '0' });
    expect(await callOk(t, `${B}publishBill`, { billId: zero }, admin)).toMatchObject({ published: 1, status: BillStatus.Normal });
  });

  it('computes the status at read: to write off through the due date, overdue the day after (SQL filter too)', async () => {
    const id = await bill({ cust: HD, dueDate: today });
    const svc = new BillService(t.deps.db);
    const actor = { ...await w.actorOf('admin') };
    const at = (day: string) => new Date(businessDayStart(day).getTime() + 12 * 3600_000);
    const statusOn = async (day: string) => (await svc.list({ custId: ids[HD], periodKey: (await billRow(id)).periodKey }, actor, at(day))).list[0].status;
    expect(await statusOn(today)).toBe(BillStatus.ToWriteOff);
    expect(await statusOn(dayPlus(today, 1))).toBe(BillStatus.OverdueNotWrittenOff);
    const byStatus = async (status: number, day: string) => (await svc.list({ status, custId: ids[HD] }, actor, at(day))).list.map((b) => b.billId);
    expect(await byStatus(BillStatus.ToWriteOff, today)).toContain(id);
    expect(await byStatus(BillStatus.OverdueNotWrittenOff, today)).not.toContain(id);
    expect(await byStatus(BillStatus.OverdueNotWrittenOff, dayPlus(today, 1))).toContain(id);
    const draft = await bill({ cust: HD, published: false });
    expect(await byStatus(BillStatus.Normal, dayPlus(today, 30))).toContain(draft);
    // over HTTP: the same filter
    const list = (await callOk(t, `${B}getBillListPage`, { status: BillStatus.ToWriteOff, custId: ids[HD] }, admin)).list.map((b: { billId: number }) => b.billId);
    expect(list).toContain(id);
  });

  it('card lines: keyset pages in key order, exact totals when filtered by ICCID, a bad position refused', async () => {
    await q(`select bill_lines_ensure_partition('2026-10')`);
    const owner = { cust_id: ids[ZX_EAST], root_cust_id: ids[ZX] };
    const iccids = await insertCards(t, iccidsOf('8986991', 0, 5), { state: CardState.Activated, owner, operatorId: Operator.ChinaMobile });
    const [plan] = await q<{ goods_release_id: number; name: string }>('select goods_release_id, name from basic_plans order by goods_release_id limit 1');
    const id = await bill({ cust: ZX_EAST, periodKey: '2026-10', lineCount: 11 });
    for (const iccid of iccids) {
      for (const category of [BillLineCategory.PlanFee, BillLineCategory.OutOfPlanUsage]) {
        await q(`insert into bill_lines (period_key, bill_id, iccid, category, from_day, to_day, goods_release_id, operator_id, quantity, unit_price, amount, tax, used_bytes, quota_bytes)
          values ('2026-10', $1, $2, $3, '2026-10-01', '2026-10-31', $4, 1, 1, 10, 10, 0.57, 1048576, 2097152)`, [id, iccid, category, plan.goods_release_id]);
      }
    }
    await q(`insert into bill_lines (period_key, bill_id, iccid, category, from_day, to_day, ref_id, quantity, unit_price, amount, tax, withheld)
      values ('2026-10', $1, $2, 7, '2026-10-05', '2026-10-05', 77, 1, 5, 5, 0.28, false)`, [id, iccids[2]]);
    const seen: string[] = [];
    let after: string | null | undefined;
    let pages = 0;
    do {
      const page = await callOk(t, `${B}getBillCardLines`, { billId: id, pageSize: 3, ...(after ? { after } : {}) }, enterprise);
      expect(page.total).toBe(11);
      seen.push(...page.list.map((l: { iccid: string; category: number }) => `${l.iccid}/${l.category}`));
      after = page.next;
      pages++;
    } while (after && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toEqual([...iccids.flatMap((i) => (i === iccids[2] ? [`${i}/1`, `${i}/3`, `${i}/7`] : [`${i}/1`, `${i}/3`]))]);
    // one category, by key: its lines in ICCID order, page after page (the category index's order)
    const overage: string[] = [];
    after = undefined;
    do {
      const page: { list: { iccid: string; category: number }[]; next: string | null } = await callOk(t, `${B}getBillCardLines`,
        { billId: id, category: BillLineCategory.OutOfPlanUsage, pageSize: 2, ...(after ? { after } : {}) }, admin);
      overage.push(...page.list.map((l) => `${l.iccid}/${l.category}`));
      after = page.next;
    } while (after && overage.length < 20);
    expect(overage).toEqual(iccids.map((i) => `${i}/${BillLineCategory.OutOfPlanUsage}`));
    const first = await callOk(t, `${B}getBillCardLines`, { billId: id, pageSize: 1 }, sub);
    expect(first.list[0]).toMatchObject({ iccid: iccids[0], planName: plan.name, quotaBytes: 2097152, usedBytes: 1048576, amount: '10.00', withheld: false });
    // one card, a prefix: counted
    expect((await callOk(t, `${B}getBillCardLines`, { billId: id, iccid: iccids[2] }, admin)).total).toBe(3);
    expect((await callOk(t, `${B}getBillCardLines`, { billId: id, iccid: '8986991' }, admin)).total).toBe(11);
    expect((await callOk(t, `${B}getBillCardLines`, { billId: id, iccid: '8986992' }, admin)).total).toBe(0);
    expect((await callOk(t, `${B}getBillCardLines`, { billId: id, iccid: '8986991' }, admin)).totalCapped).toBe(false);
    // a short prefix over more lines than the cap: counted up to the cap only (a million-line bill costs no full count)
    const big = await bill({ cust: ZX_EAST, periodKey: '2026-09', lineCount: BILL_LINES_COUNT_CAP + 5 });
    await q(`select bill_lines_ensure_partition('2026-09')`);
    await q(`insert into bill_lines (period_key, bill_id, iccid, category, from_day, to_day, quantity, unit_price, amount, tax)
      select '2026-09', $1, '8986993' || lpad(g::text, 12, '0'), 1, '2026-09-01', '2026-09-30', 1, 1, 1, 0.06 from generate_series(1, $2::int) g`,
    [big, BILL_LINES_COUNT_CAP + 5]);
    const capped = await callOk(t, `${B}getBillCardLines`, { billId: big, iccid: '8986993' }, admin);
    expect(capped).toMatchObject({ total: BILL_LINES_COUNT_CAP, totalCapped: true });
    expect(capped.list).toHaveLength(20);
    expect(await callOk(t, `${B}getBillCardLines`, { billId: big }, admin)).toMatchObject({ total: BILL_LINES_COUNT_CAP + 5, totalCapped: false });
    const cat = await callOk(t, `${B}getBillCardLines`, { billId: id, category: BillLineCategory.OneOffFee }, admin);
    expect(cat.list.map((l: { iccid: string }) => l.iccid)).toEqual([iccids[2]]);
    // a page number without a position: by offset (what the export falls back on)
    expect((await callOk(t, `${B}getBillCardLines`, { billId: id, pageSize: 3, current: 4 }, admin)).list).toHaveLength(2);
    expect((await t.call(`${B}getBillCardLines`, { billId: id, after: 'x|1' }, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
    // other tenants: like a missing bill
    expect((await t.call(`${B}getBillCardLines`, { billId: id }, { token: channel })).body.errorCode).toBe(ErrorCode.NotFound);

    // a card's lines across bills (card detail): in scope only
    const mine = await callOk(t, `${B}getCardBillLines`, { iccid: iccids[2] }, enterprise);
    expect(mine.total).toBe(3);
    expect(mine.list[0]).toMatchObject({ billId: id, periodKey: '2026-10', published: 1 });
    expect((await t.call(`${B}getCardBillLines`, { iccid: iccids[2] }, { token: channel })).body.errorCode).toBe(ErrorCode.NotFound);
    await q('update bills set published = false where bill_id = $1', [id]);
    expect((await callOk(t, `${B}getCardBillLines`, { iccid: iccids[2] }, enterprise)).total).toBe(0);
    expect((await callOk(t, `${B}getCardBillLines`, { iccid: iccids[2] }, admin)).total).toBe(3);
    await q('update bills set published = true where bill_id = $1', [id]);

    // the export: every line, in one file
    const exp = await callOk(t, `${B}exportBillCardLines`, { billId: id }, enterprise);
    expect(exp.direct).toBe(true);
    const [task] = await q<{ state: number; row_count: number }>('select state, row_count from download_tasks where task_id = $1', [exp.taskId]);
    expect(task).toMatchObject({ state: ExportState.Succeeded, row_count: 11 });
    expect((await t.call(`${B}exportBillCardLines`, { billId: id }, { token: channel })).body.errorCode).toBe(ErrorCode.NotFound);
  });

  it('the card-lines export walks a bill bigger than a page by key, exactly once each line', async () => {
    await q(`select bill_lines_ensure_partition('2026-11')`);
    const id = await bill({ cust: HD, periodKey: '2026-11', lineCount: 1203 });
    await q(`insert into bill_lines (period_key, bill_id, iccid, category, from_day, to_day, quantity, unit_price, amount, tax)
      select '2026-11', $1, '898600' || lpad(g::text, 14, '0'), 1, '2026-11-01', '2026-11-30', 1, 1, 1, 0 from generate_series(1, 1203) g`, [id]);
    const lines = new BillLineService(t.deps.db);
    const actor = await w.actorOf('channel');
    const got: string[] = [];
    for (let current = 1; ; current++) {
      const page = await lines.exportPage({ billId: id, current, pageSize: 500 }, actor, 'test');
      got.push(...page.list.map((l) => l.iccid));
      if (page.list.length < 500 || current * 500 >= page.total) break;
    }
    expect(got).toHaveLength(1203);
    expect(new Set(got).size).toBe(1203);
    expect(got[1202]).toBe('89860000000000001203');
  });

  it('bill detail: breakdowns named in the reader\'s language, write-offs, one-off fees, unbilled usage', async () => {
    const id = await bill({ cust: HD });
    const [plan] = await q<{ goods_release_id: number; name: string }>('select goods_release_id, name from basic_plans order by goods_release_id limit 1');
    await q(`insert into bill_summaries (bill_id, dim, dim_key, category, cards, quantity, amount, tax, used_bytes) values
      ($1, 1, $2, 1, 3, 3, 30, 1.7, 100), ($1, 2, ${Operator.ChinaMobile}, 1, 3, 3, 30, 1.7, 100), ($1, 3, 0, 1, 3, 3, 30, 1.7, 100)`, [id, plan.goods_release_id]);
    const [fee] = await q<{ fee_id: string }>(`insert into one_off_fees (cust_id, root_cust_id, amount, reason, fee_day, state, bill_id, created_by)
      values ($1, $1, 12.5, 'SIM replacement', '2026-10-03', 2, $2, 'admin') returning fee_id`, [ids[HD], id]);
    const en = await callOk(t, `${B}getBillDetail`, { billId: id }, channel);
    expect(en.summaries.map((s: { name: string }) => s.name)).toEqual([plan.name, 'China Mobile', 'None']);
    expect(en.summaries[0]).toMatchObject({ dim: 1, key: plan.goods_release_id, category: 1, cards: 3, amount: '30.00', tax: '1.70', usedBytes: 100 });
    expect(en.oneOffFees).toEqual([{ feeId: Number(fee.fee_id), iccid: null, amount: '12.50', reason: 'SIM replacement', feeDay: '2026-10-03' }]);
    expect(en.unbilledOverBytes).toBe(4096);
    expect(en.bill.categories.planFee).toBe('100.00');
    const zh = (await t.call(`${B}getBillDetail`, { billId: id }, { token: channel, lang: 'zh' })).body.data;
    expect(zh.summaries[1].name).toBe('中国移动');
    expect(zh.summaries[2].name).toBe('无');
  });

  it('keeps every endpoint to its tenant', async () => {
    const zxBill = await bill({ cust: ZX });
    const eastBill = await bill({ cust: ZX_EAST });
    const hdBill = await bill({ cust: HD });
    const listOf = async (token: string) => (await callOk(t, `${B}getBillListPage`, { pageSize: 500 }, token)).list as { billId: number; custId: number; published: number }[];
    const ent = await listOf(enterprise);
    expect(ent.map((b) => b.billId)).toEqual(expect.arrayContaining([zxBill, eastBill]));
    expect(ent.map((b) => b.billId)).not.toContain(hdBill);
    expect(ent.every((b) => [ids[ZX], ids[ZX_EAST], ids[ZX_COLD]].includes(b.custId) && b.published === 1)).toBe(true);
    const mine = await listOf(sub);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((b) => b.custId === ids[ZX_EAST])).toBe(true);
    const ch = await listOf(channel);
    expect(ch.every((b) => [ids[HD], ids[HD_SZ]].includes(b.custId))).toBe(true);
    expect((await listOf(admin)).some((b) => b.published === 0)).toBe(true);

    for (const [token, billId] of [[enterprise, hdBill], [sub, zxBill], [channel, eastBill]] as const) {
      expect((await t.call(`${B}getBillDetail`, { billId }, { token })).body.errorCode).toBe(ErrorCode.NotFound);
      expect((await t.call(`${B}getBillCardLines`, { billId }, { token })).body.errorCode).toBe(ErrorCode.NotFound);
    }
    expect((await writeOff(hdBill, '1', enterprise)).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await writeOff(zxBill, '1', channel)).body.errorCode).toBe(ErrorCode.NotFound);
    // a second-level customer has no write-off screen
    expect((await writeOff(eastBill, '1', sub)).body.errorCode).toBe(ErrorCode.PermissionDenied);
    const tabs = await callOk(t, `${W}getWriteOffListPage`, { tab: 1, pageSize: 500 }, channel);
    expect(tabs.list.every((b: { custId: number }) => [ids[HD], ids[HD_SZ]].includes(b.custId))).toBe(true);
    // a filter naming another tenant's customer finds nothing
    expect((await callOk(t, `${B}getBillListPage`, { custId: ids[HD] }, enterprise)).total).toBe(0);

    // staff only
    for (const token of [enterprise, channel, sub]) {
      expect((await t.call(`${B}publishBill`, { billId: zxBill }, { token })).body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await t.call(`${B}runBills`, { periodKey: '2026-10' }, { token })).body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await t.call(`${B}getBillRuns`, {}, { token })).body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await t.call(`${B}getBillPeriods`, {}, { token })).body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await t.call(`${F}addOneOffFee`, { custId: ids[ZX], amount: '1', reason: 'x' }, { token })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    }

    // the bill export: the same scope as the list
    const exp = await callOk(t, `${B}exportBills`, {}, channel);
    const [task] = await q<{ state: number; row_count: number }>('select state, row_count from download_tasks where task_id = $1', [exp.taskId]);
    expect(task).toMatchObject({ state: ExportState.Succeeded, row_count: ch.length });
  });

  it('one-off fees: on a customer or its own card, today by default; cancelled only while pending', async () => {
    const owner = { cust_id: ids[ZX_EAST], root_cust_id: ids[ZX] };
    const [card] = await insertCards(t, iccidsOf('8986992', 0, 1), { state: CardState.Activated, owner, operatorId: Operator.ChinaMobile });
    const fee = await callOk(t, `${F}addOneOffFee`, { custId: ids[ZX_EAST], iccid: card, amount: '25.5', reason: ' SIM replacement ' }, admin);
    expect(fee).toMatchObject({ custId: ids[ZX_EAST], custName: ZX_EAST, iccid: card, amount: '25.50', taxRate: 6, reason: 'SIM replacement', feeDay: today, state: OneOffFeeState.Pending, billId: null, createdBy: 'admin' });
    const notOwned = await t.call(`${F}addOneOffFee`, { custId: ids[ZX], iccid: card, amount: '1', reason: 'x' }, { token: admin });
    expect(notOwned.body.errorCode).toBe(ErrorCode.OneOffFeeCardNotOwned);
    expect(notOwned.body.msg).toContain(card);
    expect((await t.call(`${F}addOneOffFee`, { custId: ids[ZX], amount: '0', reason: 'x' }, { token: admin })).body.errorCode).toBe(ErrorCode.MoneyAmountInvalid);
    expect((await t.call(`${F}addOneOffFee`, { custId: ids[ZX], amount: '1', reason: 'x', feeDay: '2026-02-30' }, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
    const onCust = await callOk(t, `${F}addOneOffFee`, { custId: ids[HD], amount: '3', reason: 'setup', feeDay: '2026-10-01' }, admin);
    expect(onCust).toMatchObject({ iccid: null, feeDay: '2026-10-01' });

    // scope of the list (the demo's customer roles do not hold 6090000: asked of the service with the enterprise's actor)
    const entActor = await w.actorOf('enterprise');
    const entList = await new OneOffFeeService(t.deps.db).list({ pageSize: 500 }, entActor);
    expect(entList.list.map((f: { feeId: number }) => f.feeId)).toContain(fee.feeId);
    expect(entList.list.map((f: { feeId: number }) => f.feeId)).not.toContain(onCust.feeId);
    expect((await callOk(t, `${F}getOneOffFeeListPage`, { iccid: card }, admin)).list.map((f: { feeId: number }) => f.feeId)).toEqual([fee.feeId]);

    expect((await t.call(`${F}cancelOneOffFee`, { feeId: fee.feeId }, { token: enterprise })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect(await callOk(t, `${F}cancelOneOffFee`, { feeId: fee.feeId }, admin)).toMatchObject({ state: OneOffFeeState.Cancelled });
    expect((await t.call(`${F}cancelOneOffFee`, { feeId: fee.feeId }, { token: admin })).body.errorCode).toBe(ErrorCode.OneOffFeeBilled);
    await q('update one_off_fees set state = 2 where fee_id = $1', [onCust.feeId]);
    expect((await t.call(`${F}cancelOneOffFee`, { feeId: onCust.feeId }, { token: admin })).body.errorCode).toBe(ErrorCode.OneOffFeeBilled);
    expect((await t.call(`${F}cancelOneOffFee`, { feeId: 999999 }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
  });

  it('bill periods: the last six, newest first, with readiness and counts', async () => {
    const periods = await callOk(t, `${B}getBillPeriods`, {}, admin);
    expect(periods).toHaveLength(6);
    expect(periods[0].ready).toBe(false);
    expect(periods[0].reason).toBeTruthy();
    const keys = periods.map((p: { periodKey: string }) => p.periodKey);
    expect([...keys].sort().reverse()).toEqual(keys);
  });

  it('runs bills through the run engine: refused for an open period, started (and audited) for a closed one', async () => {
    const open = await t.call(`${B}runBills`, { periodKey: dayPlus(today, 40).slice(0, 7) }, { token: admin });
    expect(open.body.errorCode).toBe(ErrorCode.BillPeriodNotReady);
    const run = await callOk(t, `${B}runBills`, { periodKey: '2025-01' }, admin);
    expect(run).toMatchObject({ periodKey: '2025-01', custId: null, startedBy: 'admin' });
    const [{ n }] = await q<{ n: string }>(`select count(*) as n from audit_log where entity = 'billRun' and entity_id = $1`, [String(run.runId)]);
    expect(Number(n)).toBe(1);
    const runs = await callOk(t, `${B}getBillRuns`, { periodKey: '2025-01' }, admin);
    expect(runs).toMatchObject({ total: 1, list: [{ runId: run.runId }] });
    expect((await t.call(`${B}runBills`, { periodKey: '2025-01' }, { token: admin })).body.errorCode).toBe(ErrorCode.BillRunRunning);
  });

  it('a real run\'s bills: listed, their lines paged to the stored count, published, written off', async () => {
    const run = await callOk(t, `${B}runBills`, { periodKey: '2026-09' }, admin);
    await continueBillRuns(t.deps, run.runId);
    expect((await callOk(t, `${B}getBillRuns`, { periodKey: '2026-09' }, admin)).list[0]).toMatchObject({ runId: run.runId, state: 2 });
    const bills = (await callOk(t, `${B}getBillListPage`, { periodKey: '2026-09', pageSize: 500 }, admin)).list as { billId: number; custId: number; amountDue: string; cardCount: number }[];
    expect(bills.length).toBeGreaterThan(0);
    const big = [...bills].sort((a, b) => b.cardCount - a.cardCount)[0];
    const lines = await callOk(t, `${B}getBillCardLines`, { billId: big.billId, pageSize: 500 }, admin);
    const [{ n }] = await q<{ n: string }>(`select count(*) as n from bill_lines where period_key = '2026-09' and bill_id = $1`, [big.billId]);
    expect(lines.total).toBe(Number(n));
    const published = await callOk(t, `${B}publishBill`, { billId: big.billId }, admin);
    expect(published.published).toBe(1);
    if (moneyToFen(published.arrears)! > 0n) {
      const name = Object.keys(ids).find((k) => ids[k] === big.custId)!;
      await setMoney(name, published.arrears, '0.00');
      const paid = await callOk(t, `${W}writeOffBill`, { billId: big.billId, amount: published.arrears }, admin);
      expect(paid.bill.status).toBe(BillStatus.WrittenOff);
    }
  });

});
