import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { JournalKind, PayState, moneyToFen } from '@lynx/contract';
import { backends, seededInstallation, ZX, type Backend, type TestApp } from './harness.ts';
import { paymentsOf } from '../src/modules/money/recharge/recharge-routes.ts';
import { cashierUrl } from '../src/modules/money/recharge/recharge-cashier.ts';
import { runLedgerCheck } from '../src/modules/money/ledger-check.ts';
import { PaymentSimulator, simulatorKey } from '../src/payments/simulator.ts';

/**
 * The payment simulator keeps its side (orders, paid / failed / closed, trade numbers, refunds) in its own tables
 * (0033_payment_simulator.sql), as a real channel keeps its state across our restarts: an order opened before a
 * restart is paid at the cashier after it, reconciled by the expiry job, and refunded. Two payments or two refunds
 * at once act once.
 */
const R = 'core/finance/refund';

describe.each(backends)('payment simulator state on %s', (backend: Backend) => {
  let t: TestApp;
  let installation: Awaited<ReturnType<typeof seededInstallation>> | undefined;
  let admin: string;
  let enterprise: string;
  let zx: number;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const pre = async (custId: number) => moneyToFen((await q<{ p: string }>('select pre_deposit::text as p from customer_balances where cust_id = $1', [custId]))[0]?.p ?? '0')!;
  const ok = async (endpoint: string, body: object, token: string) => {
    const r = await t.call(`${R}/${endpoint}`, body, { token });
    if (!r.body.success) throw new Error(`${endpoint}: ${r.body.msg}`);
    return r.body.data;
  };
  const start = async () => {
    t = await installation!.open({ rateLimitPerToken: 1_000_000, rateLimitPerIp: 1_000_000 }, { jobs: false });
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
  };
  /** A new simulator on the same tables, as the next process would build it (not the app's instance). */
  const freshSimulator = () => new PaymentSimulator(t.deps.db, simulatorKey(t.config.paymentSimKey, t.config.dataDir), cashierUrl);

  beforeAll(async () => {
    // on disk (PGlite) or a database of its own (PostgreSQL), so that the app can be stopped and started again on it
    // (from the seeded image: the test pays for its restarts, not for a first start's migrations and seed)
    installation = await seededInstallation(backend);
    await start();
    zx = (await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [ZX]))[0].cust_id;
  });
  afterAll(async () => {
    await t?.stop();
    await installation?.remove();
  });

  it('an order opened before a restart is paid at the cashier, credited, queried and refunded after it', async () => {
    const order = await ok('saveRecharge', { amount: '88.00' }, enterprise);
    const quiet = await ok('saveRecharge', { amount: '9.00' }, enterprise);
    await paymentsOf(t.app).simulator.pay(quiet.payOrderNo, { notify: false });
    const before = await pre(zx);

    // the restart: a new process, a new simulator, the same database
    await t.stop();
    await start();
    const sim = paymentsOf(t.app).simulator;
    expect(sim.order(order.payOrderNo)).toBeNull(); // nothing in this instance's memory …
    expect(await sim.find(order.payOrderNo)).toMatchObject({ state: 'unpaid', amountFen: 8800n }); // … the channel still knows it

    const page = await t.app.inject({ method: 'GET', url: order.cashierUrl });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('88.00');
    const paid = await t.app.inject({ method: 'POST', url: order.cashierUrl, payload: 'action=pay', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(paid.statusCode).toBe(200);
    expect(paid.body).toContain('id="sim-result"');
    const d = (await t.call('core/order/select/getRechargeDetail', { rechargeId: order.rechargeId }, { token: admin })).body.data;
    expect(d.payState).toBe(PayState.Confirmed);
    expect(d.tradeNo).toMatch(/^SIM/);
    expect(await pre(zx)).toBe(before + 8800n);
    // paying again at the cashier is refused: the channel remembers it is paid
    const again = await t.app.inject({ method: 'POST', url: order.cashierUrl, payload: 'action=pay', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(again.statusCode).toBe(409);

    // the order paid before the restart without a notification: the expiry reconciliation still finds it paid
    expect((await sim.query(quiet.payOrderNo))).toEqual({ ok: true, data: { state: 'paid', tradeNo: expect.stringMatching(/^SIM/), amount: '9.00' } });
    await q("update recharge_orders set expires_at = now() - interval '1 second' where recharge_id = $1", [quiet.rechargeId]);
    await paymentsOf(t.app).service.closeExpired();
    expect((await t.call('core/order/select/getRechargeDetail', { rechargeId: quiet.rechargeId }, { token: admin })).body.data.payState).toBe(PayState.Confirmed);
    expect(await pre(zx)).toBe(before + 8800n + 900n);

    // refunded through a simulator that has never seen the order
    const refund = await ok('rebate', { rechargeId: order.rechargeId, amount: '8.00', reason: 'restart test' }, admin);
    expect(refund.refundable).toBe('80.00');
    const other = freshSimulator();
    expect(await other.queryRefund(order.payOrderNo, refund.refundNo)).toEqual({ ok: true, data: { state: 'refunded', channelRefundNo: `SIMR${refund.refundNo}`, amount: '8.00' } });
    expect(await other.find(order.payOrderNo)).toMatchObject({ state: 'paid', refundedFen: 800n });
    expect(await pre(zx)).toBe(before + 8800n + 900n - 800n);
    expect((await runLedgerCheck(t.deps.db)).ok).toBe(true);
  });

  it('a new simulator instance pays, queries, closes and refunds what another one opened', async () => {
    const a = freshSimulator();
    const no = `PTEST${backend}${Date.now()}`;
    const opened = await a.createPayment({ payOrderNo: no, amount: '50.00', subject: 'test', expiresAt: new Date(Date.now() + 60_000), lang: 'en' });
    expect(opened.ok).toBe(true);
    // opening it again answers the same order; the same number with another amount is refused
    expect((await a.createPayment({ payOrderNo: no, amount: '50.00', subject: 'test', expiresAt: new Date(), lang: 'en' })).ok).toBe(true);
    expect(await a.createPayment({ payOrderNo: no, amount: '51.00', subject: 'test', expiresAt: new Date(), lang: 'en' })).toMatchObject({ ok: false, code: 'DUPLICATE' });

    const b = freshSimulator();
    expect(await b.query(no)).toEqual({ ok: true, data: { state: 'unpaid', tradeNo: null, amount: null } });
    expect(await b.refund({ payOrderNo: no, refundNo: 'F-T-0', amount: '1.00' })).toMatchObject({ ok: false, code: 'NOT_PAID' });
    await b.pay(no, { notify: false });
    const c = freshSimulator();
    const q1 = await c.query(no);
    expect(q1).toMatchObject({ ok: true, data: { state: 'paid', amount: '50.00' } });
    // a paid order cannot be closed: the channel answers its state
    expect(await c.close(no)).toEqual(q1);
    expect(await c.refund({ payOrderNo: no, refundNo: 'F-T-1', amount: '20.00' })).toEqual({ ok: true, data: { channelRefundNo: 'SIMRF-T-1' } });
    // the same refund number again is the same refund (idempotent), another amount under it is refused
    expect(await freshSimulator().refund({ payOrderNo: no, refundNo: 'F-T-1', amount: '20.00' })).toEqual({ ok: true, data: { channelRefundNo: 'SIMRF-T-1' } });
    expect(await freshSimulator().refund({ payOrderNo: no, refundNo: 'F-T-1', amount: '21.00' })).toMatchObject({ ok: false, code: 'DUPLICATE' });
    expect(await freshSimulator().refund({ payOrderNo: no, refundNo: 'F-T-2', amount: '30.01' })).toMatchObject({ ok: false, code: 'AMOUNT' });
    expect((await freshSimulator().find(no))?.refundedFen).toBe(2000n);
    expect(await freshSimulator().queryRefund(no, 'F-T-9')).toEqual({ ok: true, data: { state: 'unknown', channelRefundNo: null, amount: null } });

    // an unpaid order closes, and stays closed for every instance
    const no2 = `${no}X`;
    await a.createPayment({ payOrderNo: no2, amount: '3.00', subject: 'test', expiresAt: new Date(), lang: 'en' });
    expect(await freshSimulator().close(no2)).toEqual({ ok: true, data: { state: 'closed', tradeNo: null, amount: null } });
    expect((await freshSimulator().find(no2))?.state).toBe('closed');
  });

  it('two payments at once give one trade number; concurrent refunds never exceed what was paid', async () => {
    const no = `PCONC${backend}${Date.now()}`;
    await freshSimulator().createPayment({ payOrderNo: no, amount: '10.00', subject: 'test', expiresAt: new Date(Date.now() + 60_000), lang: 'en' });
    await Promise.all([freshSimulator().pay(no, { notify: false }), freshSimulator().pay(no, { notify: false }), freshSimulator().pay(no, { notify: false })]);
    const trades = await q<{ trade_no: string }>('select trade_no from payment_sim_orders where pay_order_no = $1', [no]);
    expect(trades).toHaveLength(1);
    expect(trades[0].trade_no).toMatch(/^SIM/);
    // 15 refunds of 1.00 at once, through different instances: exactly 10 are accepted
    const results = await Promise.all(Array.from({ length: 15 }, (_, i) => freshSimulator().refund({ payOrderNo: no, refundNo: `FC${backend}${i}`, amount: '1.00' })));
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.code === 'AMOUNT')).toBe(true);
    const [row] = await q<{ refunded: string; n: string }>(`select o.refunded::text as refunded, (select count(*)::text from payment_sim_refunds f where f.pay_order_no = o.pay_order_no) as n
      from payment_sim_orders o where o.pay_order_no = $1`, [no]);
    expect(row).toEqual({ refunded: '10.00', n: '10' });
  });

  it('pay and fail pressed at once at the cashier: the platform credits only what the channel really took', async () => {
    for (let i = 0; i < 8; i++) {
      const order = await ok('saveRecharge', { amount: '1.00' }, enterprise);
      const [x, y] = [freshSimulator(), freshSimulator()];
      x.deliver = paymentsOf(t.app).simulator.deliver;
      y.deliver = paymentsOf(t.app).simulator.deliver;
      // the failure first, then the payment (the interleaving that credited a failed payment), and both at once
      if (i === 0) {
        await x.fail(order.payOrderNo);
        expect(await y.pay(order.payOrderNo)).toBeNull();
      } else {
        await Promise.all([x.fail(order.payOrderNo), y.pay(order.payOrderNo)]);
      }
      const [channel] = await q<{ state: string }>('select state from payment_sim_orders where pay_order_no = $1', [order.payOrderNo]);
      const [{ n }] = await q<{ n: string }>('select count(*)::text as n from ledger_journals where idempotency_key = $1', [`pay:${order.payOrderNo}`]);
      expect(n, `order ${i}: channel ${channel.state}`).toBe(channel.state === 'paid' ? '1' : '0');
    }
  });

  it('two notifications of one payment at once, from two instances after a restart, credit once', async () => {
    const order = await ok('saveRecharge', { amount: '12.34' }, enterprise);
    const before = await pre(zx);
    const [x, y] = [freshSimulator(), freshSimulator()];
    x.deliver = paymentsOf(t.app).simulator.deliver;
    y.deliver = paymentsOf(t.app).simulator.deliver;
    const sent = await Promise.all([x.pay(order.payOrderNo), y.pay(order.payOrderNo)]);
    const outcomes = sent.map((r) => (r!.body as { data: { outcome: string } }).data.outcome).sort();
    expect(outcomes).toEqual(['credited', 'duplicate']);
    expect(await pre(zx)).toBe(before + 1234n);
    const [{ n }] = await q<{ n: string }>('select count(*)::text as n from ledger_journals where kind = $1 and idempotency_key = $2', [JournalKind.Recharge, `pay:${order.payOrderNo}`]);
    expect(n).toBe('1');
  });
});
