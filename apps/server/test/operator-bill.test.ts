import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ErrorCode, Operator, businessDay, operatebill } from '@lynx/contract';
import { accessConfigThatNoLongerOpens, backends, callOk, insertCards, iccidsOf, ownerOf, type TestApp } from './harness.ts';
import { openBillWorld, type BillWorld } from './bill-fixtures.ts';
import { ensureUsagePartitions } from '../src/modules/usage/usage-partitions.ts';
import { runUsageWindow } from '../src/modules/usage/usage-feed.ts';
import { periodByKey, periodOfDay, shiftPeriodKey } from '../src/modules/billing/rating/periods.ts';
import { continueBillRun, startBillRun } from '../src/modules/billing/run/bill-run.ts';
import {
  discoverOperatorBills, dueOperatorBills, fetchOperatorBill, type OperatorBillDeps,
} from '../src/modules/billing/operator/operator-bill-fetch.ts';
import { createSimulatorGateway } from '../src/operators/simulator.ts';
import { builtInSimulatorAccount } from '../src/modules/usage/usage-feed.ts';
import type { OperatorGateway } from '../src/operators/gateway.ts';

/**
 * Issue 14, operator bills (Financial › Operating bills, 9030000): the carriers' bills fetched per operator account and
 * closed period through the gateway (here the built-in network simulator of each operator), consistent with the usage
 * its feed delivered; the fetch idempotent, resumable after a crash and retried after a failure; revenue attributed
 * from the period's bills; staff only; bad input refused.
 */
const { OperatorBillState: S } = operatebill;
const O = 'core/finance/operateBill/';
const DAY = 86_400_000;

describe.each(backends)('operator bills on %s', (backend) => {
  let w: BillWorld;
  let t: TestApp;
  let admin: string;
  let deps: OperatorBillDeps;
  // a closed period two months back: China Mobile its natural month, China Unicom 26th to 25th
  const KEY = shiftPeriodKey(periodOfDay(businessDay(Date.now()), 1).key, -2);
  const cm = periodByKey(KEY, 1);
  const cu = periodByKey(KEY, 26);
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => w.q<T>(text, params);
  const billId = async (operatorId: number, operAccountId = 0, periodKey = KEY) =>
    Number((await q<{ id: string }>(`select operator_bill_id as id from operator_bills where period_key = $1 and operator_id = $2 and oper_account_id = $3`,
      [periodKey, operatorId, operAccountId]))[0]?.id);
  const bill = (id: number) => q<Record<string, any>>(`select * from operator_bills where operator_bill_id = $1`, [id]).then((r) => r[0]);
  const lines = (id: number) => q<{ iccid: string; amount: string; data_bytes: string }>(
    `select iccid, amount::text, data_bytes::text from operator_bill_cards where operator_bill_id = $1 order by iccid`, [id]);

  beforeAll(async () => {
    w = await openBillWorld(backend);
    ({ t, admin } = w);
    deps = { db: t.deps.db, config: t.config };
    await ensureUsagePartitions(t.deps.db, cm.start.getTime());
    const zx = await ownerOf(t, 'enterprise');
    const [{ g1 }] = await q<{ g1: number }>(`select goods_release_id as g1 from cards where operator_id = 1 and root_cust_id = $1 and goods_release_id is not null limit 1`, [zx.root_cust_id]);
    const [{ g2 }] = await q<{ g2: number }>(`select goods_release_id as g2 from cards where operator_id = 2 and root_cust_id = $1 and goods_release_id is not null limit 1`, [zx.root_cust_id]);
    const cmCards = await insertCards(t, iccidsOf('8986009901', 1, 5), { state: 64, owner: zx, operatorId: Operator.ChinaMobile, plan: g1 });
    const cuCards = await insertCards(t, iccidsOf('8986019901', 1, 3), { state: 64, owner: zx, operatorId: Operator.ChinaUnicom, plan: g2 });
    const hist = (iccid: string, from: number, to: number, at: Date) =>
      q(`insert into card_history (iccid, from_state, to_state, source, actor, at) values ($1, $2, $3, 1, 'test', $4)`, [iccid, from, to, at.toISOString()]);
    for (const i of cmCards) await hist(i, 60, 64, new Date(cm.start.getTime() - 40 * DAY));
    for (const i of cuCards) await hist(i, 60, 64, new Date(cu.start.getTime() - 40 * DAY));
    // one China Mobile card deactivated on the 10th
    await hist(cmCards[4], 64, 65, new Date(cm.start.getTime() + 9 * DAY + 8 * 3_600_000));
    await q(`update cards set state = 65 where iccid = $1`, [cmCards[4]]);
    // the usage feed delivered the periods (and up to now)
    await runUsageWindow(deps, Operator.ChinaMobile, cm.start, cm.end);
    await runUsageWindow(deps, Operator.ChinaUnicom, cu.start, cu.end);
    await q(`insert into usage_feeds (operator_id, watermark) select operator_id, now() from operators
      on conflict (operator_id) do update set watermark = now()`);
  });
  afterAll(async () => {
    await w?.t.stop();
  });

  it('makes the bills of ready periods and fetches them: each card\'s data and SMS are the usage the feed delivered', async () => {
    expect(await discoverOperatorBills(t.deps.db)).toBeGreaterThanOrEqual(6);
    expect(await discoverOperatorBills(t.deps.db)).toBe(0);
    // the open period is never made
    const open = periodOfDay(businessDay(Date.now()), 1).key;
    expect(await q(`select 1 from operator_bills where period_key = $1 and operator_id = 1`, [open])).toHaveLength(0);
    for (const [op, period] of [[Operator.ChinaMobile, cm], [Operator.ChinaUnicom, cu]] as const) {
      const id = await billId(op);
      expect(await fetchOperatorBill(deps, id, 'w1')).toMatchObject({ claimed: true, state: S.Fetched });
      const b = await bill(id);
      expect(Number(b.state)).toBe(S.Fetched);
      expect(b.bill_ref).toMatch(/^SIMBILL-/);
      // per card: the bill against card_usage_daily over the carrier's period days
      const usage = await q<{ iccid: string; bytes: string; sms: string }>(`
        select d.iccid, sum(d.bytes)::text as bytes, sum(d.sms)::text as sms from card_usage_daily d join cards c on c.iccid = d.iccid
        where c.operator_id = $1 and d.day between $2::date and $3::date group by d.iccid having sum(d.bytes) > 0 or sum(d.sms) > 0`,
      [op, period.firstDay, period.lastDay]);
      expect(usage.length).toBeGreaterThan(0);
      const billed = new Map((await q<{ iccid: string; data_bytes: string; sms: number }>(
        `select iccid, data_bytes::text, sms from operator_bill_cards where operator_bill_id = $1`, [id])).map((r) => [r.iccid, r]));
      for (const u of usage) {
        expect(billed.get(u.iccid), u.iccid).toMatchObject({ data_bytes: u.bytes, sms: Number(u.sms) });
      }
      const totals = usage.reduce((n, u) => n + BigInt(u.bytes), 0n);
      expect(BigInt(b.data_bytes)).toBe(totals);
      // totals and the plan breakdown are the sums of the lines
      const [sums] = await q<{ amount: string; cards: number }>(`select sum(amount)::numeric(16, 2)::text as amount, count(*)::int as cards
        from operator_bill_cards where operator_bill_id = $1`, [id]);
      const [plans] = await q<{ amount: string; cards: number }>(`select sum(amount)::numeric(16, 2)::text as amount, sum(cards)::int as cards
        from operator_bill_plans where operator_bill_id = $1`, [id]);
      expect(b.amount).toBe(sums.amount);
      expect(plans).toEqual(sums);
      expect(Number(b.cards)).toBe(sums.cards);
      // the period is not billed yet: no revenue to set the cost against
      const listed = (await callOk(t, `${O}getOperatorBillListPage`, { periodFrom: KEY, periodTo: KEY, operatorId: op }, admin)).list[0];
      expect(listed).toMatchObject({ operatorBillId: id, state: S.Fetched, cost: b.amount, periodBilled: false, margin: null, marginPct: null });
    }
  });

  it('fetching again is idempotent; a fetch killed in the middle resumes at its cursor and stores every card once', async () => {
    const id = await billId(Operator.ChinaMobile);
    const before = { bill: await bill(id), lines: await lines(id) };
    // fetched: the job does not take it again
    expect(await fetchOperatorBill(deps, id, 'w2')).toMatchObject({ claimed: false, state: S.Fetched });
    expect(await dueOperatorBills(t.deps.db)).not.toContain(id);

    expect((await callOk(t, `${O}refetchOperatorBill`, { operatorId: 1, operAccountId: 0, periodKey: KEY }, admin)).state).toBe(S.Pending);
    // a worker takes two pages and dies (its lease stays)
    expect(await fetchOperatorBill(deps, id, 'crashed', { chunk: 20, maxChunks: 2 })).toMatchObject({ claimed: true, state: S.Fetching });
    expect(Number((await bill(id)).state)).toBe(S.Fetching);
    // while the lease lasts nobody else works it, and staff cannot re-fetch it
    expect(await fetchOperatorBill(deps, id, 'w3')).toMatchObject({ claimed: false });
    expect((await t.call(`${O}refetchOperatorBill`, { operatorId: 1, operAccountId: 0, periodKey: KEY }, { token: admin })).body.errorCode)
      .toBe(ErrorCode.OperatorBillFetching);
    await q(`update operator_bills set lease_until = now() - interval '1 second' where operator_bill_id = $1`, [id]);
    expect(await dueOperatorBills(t.deps.db)).toContain(id);
    expect(await fetchOperatorBill(deps, id, 'w3', { chunk: 20 })).toMatchObject({ claimed: true, state: S.Fetched });
    const after = await bill(id);
    expect(await lines(id)).toEqual(before.lines);
    for (const k of ['cards', 'data_bytes', 'sms', 'card_fee', 'data_fee', 'sms_fee', 'amount', 'tax', 'bill_ref']) expect(after[k], k).toEqual(before.bill[k]);
    const audit = await q(`select 1 from audit_log where entity = 'operatorBill' and entity_id = $1`, [String(id)]);
    expect(audit).toHaveLength(1);
  });

  it('a carrier failure leaves the bill failed with the reason, retried later; a refused account fails with its reason', async () => {
    const id = await billId(Operator.ChinaUnicom);
    const expected = await lines(id);
    await callOk(t, `${O}refetchOperatorBill`, { operatorId: 2, operAccountId: 0, periodKey: KEY }, admin);
    let calls = 0;
    const flaky: OperatorBillDeps = {
      ...deps,
      gatewayOf: (a) => {
        const real = createSimulatorGateway(builtInSimulatorAccount(a.operatorId));
        const g: OperatorGateway = {
          ...real,
          queryBill: async (req) => (++calls === 1
            ? { ok: false, code: 'OPERATOR_BUSY', message: 'the billing platform is busy', latencyMs: 1, retryable: true }
            : real.queryBill(req)),
        };
        return g;
      },
    };
    expect(await fetchOperatorBill(flaky, id, 'w4')).toMatchObject({ claimed: true, state: S.Failed });
    const failed = await bill(id);
    expect(failed.last_error).toBe('OPERATOR_BUSY: the billing platform is busy');
    expect(Number(failed.attempts)).toBe(1);
    expect(new Date(failed.next_attempt_at).getTime()).toBeGreaterThan(Date.now() + 60_000);
    expect(await dueOperatorBills(t.deps.db)).not.toContain(id);
    const row = (await callOk(t, `${O}getOperatorBillListPage`, { periodFrom: KEY, periodTo: KEY, operatorId: 2, state: S.Failed }, admin)).list[0];
    expect(row).toMatchObject({ operatorBillId: id, state: S.Failed, lastError: 'OPERATOR_BUSY: the billing platform is busy', margin: null });
    // its time comes: retried, fetched, the same lines
    await q(`update operator_bills set next_attempt_at = now() where operator_bill_id = $1`, [id]);
    expect(await fetchOperatorBill(flaky, id, 'w4')).toMatchObject({ state: S.Fetched });
    expect(Number((await bill(id)).attempts)).toBe(2);
    expect(await lines(id)).toEqual(expected);

    // an access configuration whose credentials no longer open becomes China Telecom's card account: its fetch fails
    const acc = await accessConfigThatNoLongerOpens(t, admin, Operator.ChinaTelecom);
    const made = await callOk(t, `${O}refetchOperatorBill`, { operatorId: 3, operAccountId: acc, periodKey: KEY }, admin);
    expect(await fetchOperatorBill(deps, made.operatorBillId, 'w5')).toMatchObject({ state: S.Failed });
    expect((await bill(made.operatorBillId)).last_error).toMatch(/^CREDENTIALS: /);
    await q(`delete from operator_accounts where oper_account_id = $1`, [acc]);
  });

  it('attributes the period\'s bills to the accounts serving the operators\' cards: revenues sum to the bills, margin = revenue − cost', async () => {
    const runId = await startBillRun(t.deps.db, { periodKey: KEY, by: 'test' });
    expect((await continueBillRun(t.deps.db, runId, 'test')).state).toBe(2);
    const list = (await callOk(t, `${O}getOperatorBillListPage`, { periodFrom: KEY, periodTo: KEY, pageSize: 100 }, admin)).list as Record<string, any>[];
    const [bills] = await q<{ revenue: string; unattributed: string }>(`
      select (select coalesce(sum(total - tax), 0) from bills where period_key = $1)::numeric(16, 2)::text as revenue,
        (select coalesce(sum(amount - tax), 0) from bill_lines where period_key = $1 and operator_id is null)::numeric(16, 2)::text as unattributed`, [KEY]);
    const fen = (s: string) => BigInt(s.replace('.', ''));
    const sum = list.reduce((n, r) => n + fen(r.revenue), 0n);
    expect(sum).toBe(fen(bills.revenue) - fen(bills.unattributed));
    expect(sum).toBeGreaterThan(0n);
    for (const op of [Operator.ChinaMobile, Operator.ChinaUnicom]) {
      const r = list.find((x) => x.operatorId === op && x.operAccountId === 0)!;
      const [byLines] = await q<{ revenue: string }>(`select coalesce(sum(amount - tax), 0)::numeric(16, 2)::text as revenue
        from bill_lines where period_key = $1 and operator_id = $2`, [KEY, op]);
      expect(r.revenue).toBe(byLines.revenue);
      expect(r.periodBilled).toBe(true);
      expect(fen(r.margin)).toBe(fen(r.revenue) - fen(r.cost));
      expect(r.revenueBills).toBeGreaterThan(0);
      const detail = await callOk(t, `${O}getOperatorBillDetail`, { operatorBillId: r.operatorBillId }, admin);
      expect(detail.plans.reduce((n: bigint, p: any) => n + fen(p.cost), 0n)).toBe(fen(r.cost));
      expect(detail.revenue.reduce((n: bigint, p: any) => n + fen(p.revenue), 0n)).toBe(fen(r.revenue));
    }

    // a customer bill's cards on the carriers' bills: the per-card charges summed over the bill's cards
    const [zxBill] = await q<{ bill_id: string }>(`select bill_id from bills where period_key = $1 and cust_id = $2`, [KEY, w.ids['智行物流科技有限公司']]);
    const cost = await callOk(t, `${O}getBillOperatorCost`, { billId: Number(zxBill.bill_id) }, admin) as Record<string, any>[];
    const cmCost = cost.find((c) => c.operatorId === Operator.ChinaMobile)!;
    const [expectCost] = await q<{ cost: string; cards: number }>(`
      select coalesce(sum(oc.amount), 0)::numeric(16, 2)::text as cost, count(oc.iccid)::int as cards
      from (select distinct iccid from bill_lines where period_key = $1 and bill_id = $2 and operator_id = 1) bl
      join operator_bill_cards oc on oc.period_key = $1 and oc.iccid = bl.iccid`, [KEY, zxBill.bill_id]);
    expect(cmCost).toMatchObject({ cost: expectCost.cost, costCards: expectCost.cards });
    expect(cmCost.costCards).toBeGreaterThanOrEqual(4);
    expect(fen(cmCost.margin)).toBe(fen(cmCost.revenue) - fen(cmCost.cost));
  });

  it('confirms a fetched bill, which is never fetched again', async () => {
    const id = await billId(Operator.ChinaMobile);
    const pending = await billId(Operator.ChinaTelecom);
    await q(`update operator_bills set state = 1 where operator_bill_id = $1`, [pending]);
    expect((await t.call(`${O}confirmOperatorBill`, { operatorBillId: pending }, { token: admin })).body.errorCode).toBe(ErrorCode.OperatorBillNotFetched);
    expect(await callOk(t, `${O}confirmOperatorBill`, { operatorBillId: id }, admin)).toMatchObject({ state: S.Confirmed, confirmedBy: 'admin' });
    const r = await t.call(`${O}refetchOperatorBill`, { operatorId: 1, operAccountId: 0, periodKey: KEY }, { token: admin, lang: 'zh' });
    expect(r.body.errorCode).toBe(ErrorCode.OperatorBillConfirmed);
    expect(r.body.msg).toContain(KEY);
  });

  it('is for platform staff only: customers are refused, even with the code in their role', async () => {
    const billIdOfZx = Number((await q<{ bill_id: string }>(`select bill_id from bills where period_key = $1 limit 1`, [KEY]))[0].bill_id);
    const calls: [string, object][] = [
      ['getOperatorBillListPage', {}], ['getOperatorBillDetail', { operatorBillId: await billId(1) }], ['getOperatorBillAccounts', {}],
      ['refetchOperatorBill', { operatorId: 1, operAccountId: 0, periodKey: KEY }], ['confirmOperatorBill', { operatorBillId: await billId(1) }],
      ['exportOperatorBills', {}], ['getBillOperatorCost', { billId: billIdOfZx }],
    ];
    for (const token of [w.enterprise, w.channel, w.sub]) {
      for (const [name, body] of calls) expect((await t.call(`${O}${name}`, body, { token })).body.errorCode, name).toBe(ErrorCode.PermissionDenied);
    }
    // a customer role given the codes (a role edit) still sees nothing of the platform's costs
    await q(`update roles set permissions = permissions || array[9030000, 9030001, 9030002, 9030003] where role_type = 3000`);
    const enterprise = await t.login('enterprise');
    for (const [name, body] of calls) expect((await t.call(`${O}${name}`, body, { token: enterprise })).body.errorCode, name).toBe(ErrorCode.PermissionDenied);
    await q(`update roles set permissions = array(select p from unnest(permissions) p where p not between 9030000 and 9039999) where role_type = 3000`);
    // the built-in customer roles do not hold the page
    const held = await q(`select role_type from roles where role_type in (3000, 4000, 5000) and 9030000 = any (permissions)`);
    expect(held).toHaveLength(0);
  });

  it('refuses bad input, unknown accounts and periods not ready', async () => {
    const bad: [string, object][] = [
      ['getOperatorBillListPage', { periodFrom: '2026-13' }], ['getOperatorBillListPage', { state: 9 }], ['getOperatorBillListPage', { pageSize: 501 }],
      ['getOperatorBillListPage', { extra: 1 }], ['getOperatorBillDetail', { operatorBillId: 0 }], ['getOperatorBillDetail', {}],
      ['refetchOperatorBill', { operatorId: 1, operAccountId: 0, periodKey: '26-09' }], ['refetchOperatorBill', { operatorId: 1, operAccountId: -1, periodKey: KEY }],
      ['confirmOperatorBill', { operatorBillId: 'x' }], ['getBillOperatorCost', { billId: -3 }],
    ];
    for (const [name, body] of bad) {
      const r = await t.call(`${O}${name}`, body, { token: admin });
      expect(r.body.success, `${name} ${JSON.stringify(body)}`).toBe(false);
      expect(r.body.errorCode).not.toBeNull();
    }
    expect((await t.call(`${O}getOperatorBillDetail`, { operatorBillId: 99_999_999 }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await t.call(`${O}refetchOperatorBill`, { operatorId: 1, operAccountId: 424242, periodKey: KEY }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
    const open = periodOfDay(businessDay(Date.now()), 1).key;
    const r = await t.call(`${O}refetchOperatorBill`, { operatorId: 1, operAccountId: 0, periodKey: open }, { token: admin });
    expect(r.body.errorCode).toBe(ErrorCode.OperatorBillPeriodOpen);
    expect(r.body.msg).toContain(open);
    expect(await q(`select 1 from operator_bills where period_key = $1 and operator_id = 1`, [open])).toHaveLength(0);
  });
});
