import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { JournalKind, PayState, RefundState, moneyToFen } from '@lynx/contract';
import { backends, startTestApp, ZX, type TestApp } from './harness.ts';
import { paymentsOf } from '../src/modules/money/recharge/recharge-routes.ts';
import { REFUND_RECONCILE_AFTER_MINUTES } from '../src/modules/money/recharge/recharge-service.ts';
import { runLedgerCheck } from '../src/modules/money/ledger-check.ts';

/**
 * Refund reconciliation (docs/payments.md "Refunds"): a refund the channel accepted whose local commit then failed
 * (a crash between the channel's answer and our transaction) stays pending; the reconciliation job asks the channel
 * and completes it exactly once, or marks it failed and reverses its journal when the channel never took it.
 */
const R = 'core/finance/refund';

describe.each(backends)('refund reconciliation on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let zx: number;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const pre = async () => moneyToFen((await q<{ p: string }>('select pre_deposit::text as p from customer_balances where cust_id = $1', [zx]))[0].p)!;
  const sim = () => paymentsOf(t.app).simulator;
  const svc = () => paymentsOf(t.app).service;
  const later = () => new Date(Date.now() + (REFUND_RECONCILE_AFTER_MINUTES + 1) * 60_000);
  const journals = async (key: string) => Number((await q<{ n: string }>('select count(*)::text as n from ledger_journals where idempotency_key = $1', [key]))[0].n);
  const refundsOf = (rechargeId: number) => q<{ refund_no: string; state: number; amount: string; channel_refund_no: string | null; failure: string | null }>(
    'select refund_no, state, amount::text as amount, channel_refund_no, failure from recharge_refunds where recharge_id = $1 order by refund_id', [rechargeId]);
  const refunded = async (rechargeId: number) => (await q<{ r: string }>('select refunded::text as r from recharge_orders where recharge_id = $1', [rechargeId]))[0].r;
  const paidTopUp = async (amount: string) => {
    const r = await t.call(`${R}/saveRecharge`, { amount }, { token: enterprise });
    await sim().pay(r.body.data.payOrderNo);
    return r.body.data as { rechargeId: number; payOrderNo: string };
  };
  /** Our record of the channel's answer fails: the database refuses to move a refund out of pending. */
  const crashOnSettle = () => q(`create or replace function test_refund_crash() returns trigger language plpgsql as $$
      begin if old.state = ${RefundState.Pending} and new.state <> ${RefundState.Pending} then raise exception 'simulated crash after the channel answered'; end if; return new; end $$`)
    .then(() => q('create trigger test_refund_crash before update on recharge_refunds for each row execute function test_refund_crash()'));
  const recover = async () => {
    await q('drop trigger if exists test_refund_crash on recharge_refunds');
    await q('drop function if exists test_refund_crash()');
  };

  beforeAll(async () => {
    t = await startTestApp(backend, { rateLimitPerToken: 1_000_000, rateLimitPerIp: 1_000_000 }, { jobs: false });
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
    zx = (await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [ZX]))[0].cust_id;
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('a refund normally completes at once: done, one journal, nothing left to reconcile', async () => {
    const order = await paidTopUp('20.00');
    const before = await pre();
    const r = await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '5.00', reason: 'normal' }, { token: admin });
    expect(r.body.success).toBe(true);
    expect(await refundsOf(order.rechargeId)).toMatchObject([{ state: RefundState.Done, amount: '5.00', channel_refund_no: `SIMR${r.body.data.refundNo}` }]);
    expect(await journals(`refund:${r.body.data.refundNo}`)).toBe(1);
    expect(await pre()).toBe(before - 500n);
    expect(await svc().reconcileRefunds(later())).toBe(0);
  });

  it('accepted by the channel, our commit failed: pending; reconciled once to done with one journal; idempotent', async () => {
    const order = await paidTopUp('100.00');
    const before = await pre();
    await crashOnSettle();
    try {
      const r = await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '30.00', reason: 'crash test' }, { token: admin });
      expect(r.body.success).toBe(false);
    } finally {
      await recover();
    }
    const [f] = await refundsOf(order.rechargeId);
    expect(f).toMatchObject({ state: RefundState.Pending, amount: '30.00', channel_refund_no: null });
    // the channel has it; our journal was posted when the refund was recorded (the money could not be spent meanwhile)
    expect(await sim().queryRefund(order.payOrderNo, f.refund_no)).toMatchObject({ ok: true, data: { state: 'refunded', amount: '30.00' } });
    expect(await journals(`refund:${f.refund_no}`)).toBe(1);
    expect(await pre()).toBe(before - 3000n);
    expect(await refunded(order.rechargeId)).toBe('30.00');

    // too young to reconcile (its request may still be waiting for the channel)
    expect(await svc().reconcileRefunds()).toBe(0);
    expect((await refundsOf(order.rechargeId))[0].state).toBe(RefundState.Pending);
    // the job, minutes later: done, exactly once
    expect(await svc().reconcilePending(later())).toMatchObject({ refunds: 1 });
    expect(await svc().reconcileRefunds(later())).toBe(0);
    expect(await refundsOf(order.rechargeId)).toMatchObject([{ state: RefundState.Done, channel_refund_no: `SIMR${f.refund_no}` }]);
    expect(await journals(`refund:${f.refund_no}`)).toBe(1);
    expect(await journals(`refund:${f.refund_no}:reversal`)).toBe(0);
    expect(await pre()).toBe(before - 3000n);
    const d = (await t.call('core/order/select/getRechargeDetail', { rechargeId: order.rechargeId }, { token: admin })).body.data;
    expect(d).toMatchObject({ payState: PayState.Confirmed, refunded: '30.00', refundable: '70.00' });
    expect(d.refunds.map((x: { refundNo: string }) => x.refundNo)).toEqual([f.refund_no]);
    const audits = await q<{ n: string }>(`select count(*)::text as n from audit_log where entity = 'recharge' and entity_id = $1 and endpoint = 'job:recharge-expire'`, [String(order.rechargeId)]);
    expect(audits[0].n).toBe('1');
    expect((await runLedgerCheck(t.deps.db)).ok).toBe(true);
  });

  it('the top-up detail shows each refund with its state: pending until reconciled, done ones done', async () => {
    const order = await paidTopUp('50.00');
    const done = await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '10.00', reason: 'done one' }, { token: admin });
    expect(done.body.success).toBe(true);
    await crashOnSettle();
    try {
      expect((await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '15.00', reason: 'pending one' }, { token: admin })).body.success).toBe(false);
    } finally {
      await recover();
    }
    const [, pending] = await refundsOf(order.rechargeId);
    const detail = async (token: string) => {
      const r = await t.call('core/order/select/getRechargeDetail', { rechargeId: order.rechargeId }, { token });
      expect(r.body.success).toBe(true);
      return r.body.data.refunds.map((x: { refundNo: string; amount: string; state: number }) => ({ refundNo: x.refundNo, amount: x.amount, state: x.state }));
    };
    const expected = [
      { refundNo: done.body.data.refundNo, amount: '10.00', state: RefundState.Done },
      { refundNo: pending.refund_no, amount: '15.00', state: RefundState.Pending },
    ];
    // staff and the customer who owns the top-up see the same states
    expect(await detail(admin)).toEqual(expected);
    expect(await detail(enterprise)).toEqual(expected);
    expect(await svc().reconcileRefunds(later())).toBe(1);
    expect(await detail(admin)).toEqual(expected.map((x) => ({ ...x, state: RefundState.Done })));
  });

  it('refused by the channel, our record of the refusal failed: asked again, refused again, reconciled to failed and reversed once', async () => {
    const order = await paidTopUp('40.00');
    const before = await pre();
    await crashOnSettle();
    sim().refuseRefunds = true;
    try {
      expect((await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '40.00', reason: 'refused' }, { token: admin })).body.success).toBe(false);
    } finally {
      sim().refuseRefunds = false;
      await recover();
    }
    const [f] = await refundsOf(order.rechargeId);
    expect(f.state).toBe(RefundState.Pending);
    expect(await pre()).toBe(before - 4000n);
    expect(await sim().queryRefund(order.payOrderNo, f.refund_no)).toMatchObject({ ok: true, data: { state: 'unknown' } });

    // a silence never reverses a refund: the channel is asked for it again under its number, and refuses again
    sim().refuseRefunds = true;
    try {
      expect(await svc().reconcileRefunds(later())).toBe(1);
      expect(await svc().reconcileRefunds(later())).toBe(0);
    } finally {
      sim().refuseRefunds = false;
    }
    expect(await refundsOf(order.rechargeId)).toMatchObject([{ state: RefundState.Failed, failure: expect.stringMatching(/REFUSED/) }]);
    expect(await journals(`refund:${f.refund_no}`)).toBe(1);
    expect(await journals(`refund:${f.refund_no}:reversal`)).toBe(1);
    const [rev] = await q<{ kind: number }>('select kind from ledger_journals where idempotency_key = $1', [`refund:${f.refund_no}:reversal`]);
    expect(rev.kind).toBe(JournalKind.RefundReversal);
    expect(await pre()).toBe(before);
    expect(await refunded(order.rechargeId)).toBe('0.00');
    // the whole top-up can be refunded again, and this time it goes through
    const again = await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '40.00', reason: 'again' }, { token: admin });
    expect(again.body.data).toMatchObject({ refundable: '0.00' });
    expect(await pre()).toBe(before - 4000n);
    expect((await runLedgerCheck(t.deps.db)).ok).toBe(true);
  });

  it('no answer from the channel: pending; the reconciliation asks for it again under its number and it is made once, also when the first call arrives late', async () => {
    const order = await paidTopUp('25.00');
    const before = await pre();
    const s = sim();
    const real = s.refund.bind(s);
    s.refund = async () => {
      throw new Error('no answer within 60 s');
    };
    try {
      const r = await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '25.00', reason: 'silence' }, { token: admin });
      expect(r.body.success).toBe(false);
    } finally {
      s.refund = real;
    }
    const [f] = await refundsOf(order.rechargeId);
    expect(f.state).toBe(RefundState.Pending);
    expect(await pre()).toBe(before - 2500n);
    expect(await svc().reconcileRefunds(later())).toBe(1);
    expect(await refundsOf(order.rechargeId)).toMatchObject([{ state: RefundState.Done }]);
    // the first call reaching the channel only now: the channel answers the same refund, nothing is paid twice
    const late = await real({ payOrderNo: order.payOrderNo, refundNo: f.refund_no, amount: '25.00' });
    expect(late.ok).toBe(true);
    const [{ n }] = await q<{ n: string }>('select count(*)::text as n from payment_sim_refunds where pay_order_no = $1', [order.payOrderNo]);
    expect(n).toBe('1');
    expect(await journals(`refund:${f.refund_no}`)).toBe(1);
    expect(await journals(`refund:${f.refund_no}:reversal`)).toBe(0);
    expect(await pre()).toBe(before - 2500n);
    expect((await runLedgerCheck(t.deps.db)).ok).toBe(true);
  });

  it('a channel refusal answered at once: failed and reversed, nothing left pending, the balance unchanged', async () => {
    const order = await paidTopUp('10.00');
    const before = await pre();
    sim().refuseRefunds = true;
    const r = await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '10.00', reason: 'refused' }, { token: admin, lang: 'zh' });
    sim().refuseRefunds = false;
    expect(r.body.success).toBe(false);
    expect(await refundsOf(order.rechargeId)).toMatchObject([{ state: RefundState.Failed }]);
    expect(await pre()).toBe(before);
    expect(await refunded(order.rechargeId)).toBe('0.00');
    expect(await svc().reconcileRefunds(later())).toBe(0);
    expect((await runLedgerCheck(t.deps.db)).ok).toBe(true);
  });
});
