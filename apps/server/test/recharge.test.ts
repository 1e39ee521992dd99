import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ErrorCode, JournalKind, LedgerAccount, PayChannel, PayState, RechargeAuditState, RoleType, businessDay, moneyToFen } from '@lynx/contract';
import { backends, multipart, ownerOf, startTestApp, HD, ZX, ZX_EAST, type TestApp } from './harness.ts';
import { paymentsOf } from '../src/modules/money/recharge/recharge-routes.ts';
import { runLedgerCheck } from '../src/modules/money/ledger-check.ts';
import { addWorkingDays } from '../src/modules/money/workdays.ts';
import { signWith } from '../src/payments/simulator.ts';
import type { Actor } from '../src/platform/context.ts';

/**
 * Issue 13, top-ups (docs/payments.md): online top-ups through the payment simulator (cashier page, signed
 * notifications: forged, duplicate, late, out of order, concurrent), expiry with reconciliation, public transfers
 * with their certificate and review, refunds, every rule at its boundary, and tenant isolation of every call.
 */
const R = 'core/finance/refund';
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size: number) => Buffer.concat([PNG_HEAD, Buffer.alloc(size - PNG_HEAD.length)]);
const TWO_MB = 2 * 1024 * 1024;

describe.each(backends)('top-ups on %s', (backend) => {
  let t: TestApp;
  let zx: number;
  let hd: number;
  let zxEast: number;
  let admin: string;
  let enterprise: string;
  let channel: string;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  const pre = async (custId: number) => moneyToFen((await q<{ p: string }>('select coalesce((select pre_deposit::text from customer_balances where cust_id = $1), \'0\') as p', [custId]))[0].p)!;
  const ok = async (endpoint: string, body: object, token: string) => {
    const r = await t.call(`${R}/${endpoint}`, body, { token });
    if (!r.body.success) throw new Error(`${endpoint}: ${r.body.msg}`);
    return r.body.data;
  };
  const detail = async (rechargeId: number, token = admin) => (await t.call('core/order/select/getRechargeDetail', { rechargeId }, { token })).body;
  const sim = () => paymentsOf(t.app).simulator;
  const online = (amount: string, token = enterprise) => ok('saveRecharge', { amount }, token);
  const upload = async (token: string, file: { name: string; type: string; data: Buffer }) => {
    const m = multipart([{ name: 'proofFile', filename: file.name, type: file.type, data: file.data }]);
    const res = await t.app.inject({ method: 'POST', url: `/api/cmp/${R}/upload?lang=en`, payload: m.payload, headers: { ...m.headers, authorization: token } });
    return res.json();
  };
  const proof = async (token = enterprise) => (await upload(token, { name: 'receipt.png', type: 'image/png', data: png(1000) })).data.fileId as string;
  let serial = 0;
  const publicTopUp = async (token: string, over: Record<string, unknown> = {}) => {
    serial += 1;
    return t.call(`${R}/offlinePay`, {
      amount: '300.00', serialNo: `SN-${backend}-${serial}`, transferDate: businessDay(Date.now()), proofFileId: await proof(token), ...over,
    }, { token });
  };

  beforeAll(async () => {
    t = await startTestApp(backend, { rateLimitPerToken: 1_000_000, rateLimitPerIp: 1_000_000 }, { jobs: false });
    const id = async (name: string) => (await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [name]))[0].cust_id;
    [zx, hd, zxEast] = [await id(ZX), await id(HD), await id(ZX_EAST)];
    admin = await t.login('admin');
    enterprise = await t.login('enterprise');
    channel = await t.login('channel');
    expect((await ownerOf(t, 'enterprise')).cust_id).toBe(zx);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('an online top-up: cashier page under the security headers, pay, credited once, balance shown', async () => {
    const before = await pre(zx);
    const order = await online('100.00');
    expect(order.cashierUrl).toBe(`/api/sim/pay/cashier/${order.payOrderNo}?lang=en`);
    expect((await detail(order.rechargeId, enterprise)).data).toMatchObject({ payState: PayState.Unpaid, channel: PayChannel.Online, amount: '100.00', auditState: null });

    const page = await t.app.inject({ method: 'GET', url: order.cashierUrl });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(String(page.headers['content-security-policy'])).toMatch(/form-action 'self'/);
    expect(page.body).toContain('id="sim-pay"');
    expect(page.body).toContain('100.00');
    expect(page.body).not.toMatch(/<script/i);
    const zh = await t.app.inject({ method: 'GET', url: `/api/sim/pay/cashier/${order.payOrderNo}?lang=zh` });
    expect(zh.body).toContain('支付模拟器');

    const paid = await t.app.inject({ method: 'POST', url: order.cashierUrl, payload: 'action=pay', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(paid.statusCode).toBe(200);
    expect(paid.body).toContain('id="sim-result"');
    expect(await pre(zx)).toBe(before + 10000n);
    const d = (await detail(order.rechargeId)).data;
    expect(d).toMatchObject({ payState: PayState.Confirmed, refundable: '100.00' });
    expect(d.paidAt).not.toBeNull();
    expect(d.notifications).toMatchObject([{ gateway: 'simulator', state: 'paid', outcome: 'credited' }]);
    // the customer sees its top-up but not the channel's raw notifications
    expect((await detail(order.rechargeId, enterprise)).data.notifications).toEqual([]);
    const capital = (await t.call('core/finance/capital/getCapitalDetail', {}, { token: enterprise })).body.data;
    expect(moneyToFen(capital.preDeposit)).toBe(before + 10000n);
    // the journal: pre-deposit in, payment clearing out, posted by the channel
    const [j] = await q<{ n: string; by: string }>("select count(*) as n, max(created_by) as by from ledger_journals where idempotency_key = $1", [`pay:${order.payOrderNo}`]);
    expect({ n: Number(j.n), by: j.by }).toEqual({ n: 1, by: 'payment:simulator' });
    const accounts = await q<{ account: number; amount: string }>('select p.account, p.amount::text from ledger_postings p join ledger_journals j using (journal_id) where j.idempotency_key = $1 order by p.account', [`pay:${order.payOrderNo}`]);
    expect(accounts).toEqual([{ account: LedgerAccount.PreDeposit, amount: '100.00' }, { account: LedgerAccount.PaymentClearing, amount: '-100.00' }]);
    // paying again at the cashier is refused by the channel; the page says it is paid
    const again = await t.app.inject({ method: 'POST', url: order.cashierUrl, payload: 'action=pay', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(again.statusCode).toBe(409);
    expect(await pre(zx)).toBe(before + 10000n);
  });

  it('a forged notification is refused and recorded; nothing else changes', async () => {
    const order = await online('50.00');
    const before = await pre(zx);
    const good = sim().notification(order.payOrderNo, 'paid');
    const forged = [
      { ...good, sign: 'f'.repeat(64) },
      { ...good, amount: '5000.00' },
      { ...good, sign: signWith(Buffer.from('not the key'), good) },
      { ...good, sign: 'short' },
    ];
    for (const body of forged) {
      const r = await sim().send(body);
      expect(r.status).toBe(400);
      expect((r.body as { errorCode: number }).errorCode).toBe(ErrorCode.PaymentSignatureInvalid);
    }
    const zh = await t.call(`${R}/notify/simulator`, forged[0], { lang: 'zh' });
    expect(zh.body.msg).toBe('支付通知签名校验失败');
    expect(await pre(zx)).toBe(before);
    expect((await detail(order.rechargeId)).data.payState).toBe(PayState.Unpaid);
    const rows = await q<{ verified: boolean; outcome: string }>('select verified, outcome from payment_notifications where pay_order_no = $1', [order.payOrderNo]);
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => !r.verified && r.outcome === 'forged')).toBe(true);
  });

  it('duplicate, out-of-order and late notifications: credited exactly once, every one recorded', async () => {
    // duplicate: the same notification twice, then a fresh one of the same payment
    const a = await online('10.00');
    const before = await pre(zx);
    await sim().pay(a.payOrderNo, { notify: false });
    const n = sim().notification(a.payOrderNo, 'paid');
    expect((await sim().send(n)).body).toMatchObject({ success: true, data: { outcome: 'credited' } });
    expect((await sim().send(n)).body).toMatchObject({ success: true, data: { outcome: 'duplicate' } });
    expect((await sim().send(sim().notification(a.payOrderNo, 'paid'))).body).toMatchObject({ data: { outcome: 'duplicate' } });
    // out of order: "failed" arriving after "paid" is ignored
    expect((await sim().send(sim().notification(a.payOrderNo, 'failed'))).body).toMatchObject({ data: { outcome: 'ignored' } });
    expect((await detail(a.rechargeId)).data.payState).toBe(PayState.Confirmed);
    expect(await pre(zx)).toBe(before + 1000n);

    // out of order the other way: "failed" first, then the channel reports it paid after all → credited
    const b = await online('20.00');
    expect((await sim().send(sim().notification(b.payOrderNo, 'failed'))).body).toMatchObject({ data: { outcome: 'failed' } });
    expect((await detail(b.rechargeId)).data.payState).toBe(PayState.Failed);
    expect((await sim().send(sim().notification(b.payOrderNo, 'paid', { tradeNo: 'T-LATE-1' }))).body).toMatchObject({ data: { outcome: 'late-credited' } });
    expect((await detail(b.rechargeId)).data).toMatchObject({ payState: PayState.Confirmed, tradeNo: 'T-LATE-1' });

    // late: the order closed at expiry; a paid notification still credits it once (the channel has the money)
    const c = await online('30.00');
    const svc = paymentsOf(t.app).service;
    await q("update recharge_orders set expires_at = now() - interval '1 minute' where recharge_id = $1", [c.rechargeId]);
    expect(await svc.closeExpired()).toBeGreaterThanOrEqual(1);
    expect((await detail(c.rechargeId)).data.payState).toBe(PayState.Closed);
    const late = sim().notification(c.payOrderNo, 'paid', { amount: '30.00', tradeNo: 'T-LATE-2' });
    expect((await sim().send(late)).body).toMatchObject({ data: { outcome: 'late-credited' } });
    expect((await sim().send(late)).body).toMatchObject({ data: { outcome: 'duplicate' } });
    expect(await pre(zx)).toBe(before + 1000n + 2000n + 3000n);

    // a paid notification of another amount credits nothing
    const d = await online('40.00');
    const wrong = await sim().send(sim().notification(d.payOrderNo, 'paid', { amount: '4.00' }));
    expect((wrong.body as { errorCode: number }).errorCode).toBe(ErrorCode.PaymentAmountMismatch);
    expect((await detail(d.rechargeId)).data.payState).toBe(PayState.Unpaid);
    // an order the platform does not know
    const unknown = await sim().send(sim().notification('P-NOPE', 'paid', { amount: '1.00' }));
    expect((unknown.body as { errorCode: number }).errorCode).toBe(ErrorCode.NotFound);

    const outcomes = (await detail(b.rechargeId)).data.notifications.map((x: { outcome: string }) => x.outcome);
    expect(outcomes).toEqual(['failed', 'late-credited']);
    expect((await q<{ outcome: string }>('select outcome from payment_notifications where pay_order_no = $1', ['P-NOPE']))[0].outcome).toBe('unknown-order');
    expect((await runLedgerCheck(t.deps.db)).ok).toBe(true);
  });

  it('60 concurrent notifications for 5 orders: each credited exactly once, the ledger check passes', async () => {
    const orders = await Promise.all(['1.01', '2.02', '3.03', '4.04', '5.05'].map((a) => online(a)));
    const before = await pre(zx);
    for (const o of orders) await sim().pay(o.payOrderNo, { notify: false });
    const sends = [];
    for (let i = 0; i < 60; i++) {
      const o = orders[i % orders.length];
      // half are resends of one notification, half fresh notifications of the same payment
      sends.push(i % 2 ? sim().notification(o.payOrderNo, 'paid') : sim().notification(o.payOrderNo, 'paid', { notifyId: `same-${o.payOrderNo}` }));
    }
    const results = await Promise.all(sends.map((n) => sim().send(n)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const outcomes = results.map((r) => (r.body as { data: { outcome: string } }).data.outcome);
    expect(outcomes.filter((o) => o === 'credited')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(55);
    expect(await pre(zx)).toBe(before + 101n + 202n + 303n + 404n + 505n);
    for (const o of orders) {
      const [{ n }] = await q<{ n: string }>('select count(*) as n from ledger_journals where idempotency_key = $1', [`pay:${o.payOrderNo}`]);
      expect(Number(n)).toBe(1);
      expect(Number((await q<{ n: string }>('select count(*) as n from payment_notifications where pay_order_no = $1', [o.payOrderNo]))[0].n)).toBe(12);
    }
    expect((await runLedgerCheck(t.deps.db)).ok).toBe(true);
  });

  it('expiry: unpaid orders close (at the channel too); a paid one without its notification is reconciled and credited', async () => {
    const svc = paymentsOf(t.app).service;
    const open = await online('7.00');
    const paidQuietly = await online('8.00');
    const fresh = await online('9.00');
    await sim().pay(paidQuietly.payOrderNo, { notify: false });
    const before = await pre(zx);
    // nothing is due yet
    await svc.closeExpired();
    expect((await detail(open.rechargeId)).data.payState).toBe(PayState.Unpaid);
    // 30 minutes later (the order's life), both are due; the fresh one still is not, at its exact expiry it is
    await q("update recharge_orders set expires_at = now() - interval '1 second' where recharge_id in ($1, $2)", [open.rechargeId, paidQuietly.rechargeId]);
    await svc.closeExpired();
    expect((await detail(open.rechargeId)).data.payState).toBe(PayState.Closed);
    expect(sim().order(open.payOrderNo)?.state).toBe('closed');
    expect((await detail(paidQuietly.rechargeId)).data.payState).toBe(PayState.Confirmed);
    expect(await pre(zx)).toBe(before + 800n);
    expect((await detail(fresh.rechargeId)).data.payState).toBe(PayState.Unpaid);
    const exp = new Date((await detail(fresh.rechargeId)).data.expiresAt);
    await svc.closeExpired(new Date(exp.getTime() - 1));
    expect((await detail(fresh.rechargeId)).data.payState).toBe(PayState.Unpaid);
    await svc.closeExpired(exp);
    expect((await detail(fresh.rechargeId)).data.payState).toBe(PayState.Closed);
    // the cashier of a closed order no longer takes payment
    const page = await t.app.inject({ method: 'POST', url: open.cashierUrl, payload: 'action=pay', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(page.statusCode).toBe(409);
    // a customer closes its own unpaid order; a closed one cannot be closed again
    const mine = await online('6.00');
    expect(await ok('closeRecharge', { rechargeId: mine.rechargeId }, enterprise)).toEqual({ payState: PayState.Closed });
    expect((await t.call(`${R}/closeRecharge`, { rechargeId: mine.rechargeId }, { token: enterprise })).body.errorCode).toBe(ErrorCode.RechargeNotClosable);
    // an expired order the channel forgot (a restart of the simulator) is closed
    const forgotten = await online('5.00');
    sim().forget();
    await q("update recharge_orders set expires_at = now() - interval '1 second' where recharge_id = $1", [forgotten.rechargeId]);
    await svc.closeExpired();
    expect((await detail(forgotten.rechargeId)).data.payState).toBe(PayState.Closed);
    expect((await runLedgerCheck(t.deps.db)).ok).toBe(true);
  });

  it('online top-up rules: amount bounds, note length, channels not installed', async () => {
    const bad = async (body: object, code: number) => expect((await t.call(`${R}/saveRecharge`, body, { token: enterprise })).body.errorCode).toBe(code);
    await bad({ amount: '0' }, ErrorCode.MoneyAmountInvalid);
    await bad({ amount: '0.00' }, ErrorCode.MoneyAmountInvalid);
    await bad({ amount: '10000000.01' }, ErrorCode.MoneyAmountInvalid);
    await bad({ amount: '1.001' }, ErrorCode.Validation);
    await bad({ amount: '-1' }, ErrorCode.Validation);
    await bad({ amount: '1', note: 'x'.repeat(501) }, ErrorCode.Validation);
    expect((await online('0.01')).rechargeNo).toMatch(/^R\d{8}[0-9A-F]{10}$/);
    expect((await ok('saveRecharge', { amount: '10000000.00', note: '字'.repeat(500) }, enterprise)).payOrderNo).toMatch(/^P/);
    const alipay = await t.call(`${R}/saveRecharge`, { amount: '1', gateway: 'alipay' }, { token: enterprise, lang: 'zh' });
    expect(alipay.body.errorCode).toBe(ErrorCode.PaymentChannelNotInstalled);
    expect(alipay.body.msg).toContain('支付宝');
    const channels = await ok('getPayChannels', {}, enterprise);
    expect(channels).toEqual([
      { code: 'simulator', channel: PayChannel.Online, installed: true, name: 'Payment simulator' },
      { code: 'alipay', channel: PayChannel.Alipay, installed: false, name: 'Alipay' },
      { code: 'wechat', channel: PayChannel.WeChat, installed: false, name: 'WeChat Pay' },
    ]);
  });

  it('the certificate: jpg/png/gif strictly under 2 MB, real image content', async () => {
    expect((await upload(enterprise, { name: 'a.png', type: 'image/png', data: png(TWO_MB - 1) })).success).toBe(true);
    const big = await upload(enterprise, { name: 'a.png', type: 'image/png', data: png(TWO_MB) });
    expect(big.errorCode).toBe(ErrorCode.FileTooBig);
    expect((await upload(enterprise, { name: 'a.gif', type: 'image/gif', data: Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(100)]) })).success).toBe(true);
    expect((await upload(enterprise, { name: 'a.pdf', type: 'application/pdf', data: png(100) })).errorCode).toBe(ErrorCode.FileType);
    expect((await upload(enterprise, { name: 'a.png', type: 'image/png', data: Buffer.from('<svg/>') })).errorCode).toBe(ErrorCode.FileType);
    const files = Number((await q<{ n: string }>("select count(*) as n from files where use = 'paymentProof' and size = $1", [TWO_MB]))[0].n);
    expect(files).toBe(0);
  });

  it('a public transfer: entered with serial number and certificate, due in two working days, approved by finance', async () => {
    const before = await pre(zx);
    const r = await publicTopUp(enterprise, { amount: '300.00', note: 'n'.repeat(500) });
    expect(r.body.success).toBe(true);
    const d = (await detail(r.body.data.rechargeId, enterprise)).data;
    expect(d).toMatchObject({ channel: PayChannel.Public, payState: PayState.Paid, auditState: RechargeAuditState.Submitted, hasProof: true, overdue: false });
    const [{ created_at }] = await q<{ created_at: Date }>('select created_at from recharge_orders where recharge_id = $1', [d.rechargeId]);
    const due = await addWorkingDays(t.deps.db, new Date(created_at), 2);
    expect(Math.abs(new Date(d.dueAt).getTime() - due.getTime())).toBeLessThan(1000);
    expect(new Date(d.dueAt).getTime() - new Date(created_at).getTime()).toBeGreaterThanOrEqual(2 * 86_400_000 - 1000);
    // not credited until approved
    expect(await pre(zx)).toBe(before);
    // the customer cannot review it (8040001 is finance's); finance approves
    expect((await t.call(`${R}/check`, { rechargeId: d.rechargeId, approve: true }, { token: enterprise })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect(await ok('check', { rechargeId: d.rechargeId, approve: true }, admin)).toEqual({ payState: PayState.Confirmed, auditState: RechargeAuditState.Passed });
    expect(await pre(zx)).toBe(before + 30000n);
    const [{ account }] = await q<{ account: number }>("select p.account from ledger_postings p join ledger_journals j using (journal_id) where j.idempotency_key = $1 and p.cust_id is null", [`public:${d.rechargeId}`]);
    expect(account).toBe(LedgerAccount.Bank);
    // reviewed once only
    expect((await t.call(`${R}/check`, { rechargeId: d.rechargeId, approve: true }, { token: admin })).body.errorCode).toBe(ErrorCode.RechargeNotPending);
    expect(await pre(zx)).toBe(before + 30000n);
    expect((await detail(d.rechargeId)).data).toMatchObject({ reviewedBy: 'admin', paidAt: expect.any(String) });
  });

  it('public transfer rules: serial number once, transfer date, certificate, note and reason lengths, rejection', async () => {
    const first = await publicTopUp(enterprise, { serialNo: 'BANK-0001' });
    expect(first.body.success).toBe(true);
    expect(await ok('checkSerialNumber', { serialNo: 'bank-0001' }, enterprise)).toEqual({ used: true });
    expect(await ok('checkSerialNumber', { serialNo: 'BANK-0002' }, enterprise)).toEqual({ used: false });
    expect((await publicTopUp(enterprise, { serialNo: 'bank-0001' })).body.errorCode).toBe(ErrorCode.RechargeSerialUsed);
    expect((await publicTopUp(enterprise, { serialNo: 'BANK 0001' })).body.errorCode).toBe(ErrorCode.Validation);
    expect((await publicTopUp(enterprise, { serialNo: 'S'.repeat(41) })).body.errorCode).toBe(ErrorCode.Validation);
    expect((await publicTopUp(enterprise, { serialNo: 'S'.repeat(40) })).body.success).toBe(true);
    // the transfer date: today is fine, tomorrow is not
    const tomorrow = businessDay(Date.now() + 86_400_000);
    expect((await publicTopUp(enterprise, { transferDate: tomorrow })).body.errorCode).toBe(ErrorCode.RechargeTransferDateInvalid);
    // the note: 500 characters (an emoji is one), not 501
    expect((await publicTopUp(enterprise, { note: '😀'.repeat(500) })).body.success).toBe(true);
    expect((await publicTopUp(enterprise, { note: 'x'.repeat(501) })).body.errorCode).toBe(ErrorCode.Validation);
    // a certificate of another account, an unknown one, or one used already
    const used = (await q<{ proof_file_id: string }>('select proof_file_id from recharge_orders where recharge_id = $1', [first.body.data.rechargeId]))[0].proof_file_id;
    expect((await publicTopUp(enterprise, { proofFileId: used })).body.errorCode).toBe(ErrorCode.RechargeProofInvalid);
    expect((await publicTopUp(enterprise, { proofFileId: await proof(channel) })).body.errorCode).toBe(ErrorCode.RechargeProofInvalid);
    expect((await publicTopUp(enterprise, { proofFileId: '00000000-0000-4000-8000-000000000000' })).body.errorCode).toBe(ErrorCode.RechargeProofInvalid);

    // rejection needs a reason of at most 40 characters; it frees the serial number
    const id = first.body.data.rechargeId;
    expect((await t.call(`${R}/check`, { rechargeId: id, approve: false }, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
    expect((await t.call(`${R}/check`, { rechargeId: id, approve: false, reason: 'r'.repeat(41) }, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
    const before = await pre(zx);
    expect(await ok('check', { rechargeId: id, approve: false, reason: '流'.repeat(40) }, admin)).toEqual({ payState: PayState.Closed, auditState: RechargeAuditState.Rejected });
    expect(await pre(zx)).toBe(before);
    expect((await detail(id, enterprise)).data.reviewReason).toBe('流'.repeat(40));
    expect((await publicTopUp(enterprise, { serialNo: 'BANK-0001' })).body.success).toBe(true);
  });

  it('overdue reviews are flagged and counted for finance', async () => {
    const r = await publicTopUp(enterprise);
    const id = r.body.data.rechargeId;
    const summary0 = await ok('getReviewSummary', {}, admin);
    await q("update recharge_orders set due_at = now() - interval '1 second' where recharge_id = $1", [id]);
    const summary = await ok('getReviewSummary', {}, admin);
    expect(summary.overdue).toBe(summary0.overdue + 1);
    expect(summary.pending).toBe(summary0.pending);
    const list = await ok('getRechargePage', { overdue: true, pageSize: 100 }, admin);
    expect(list.list.map((x: { rechargeId: number }) => x.rechargeId)).toContain(id);
    expect(list.list.every((x: { overdue: boolean }) => x.overdue)).toBe(true);
    // the channel customer counts only its own tree's
    expect((await ok('getReviewSummary', {}, channel)).pending).toBe(0);
  });

  it('the review summary counts only what the caller may see; its next due time is the earliest still ahead', async () => {
    // waiting transfers in three places: the enterprise's own (one overdue), its sub-customer's, and the other tree's
    const own = (await publicTopUp(enterprise)).body.data.rechargeId;
    await q("update recharge_orders set due_at = now() - interval '1 hour' where recharge_id = $1", [own]);
    expect((await publicTopUp(enterprise, { custId: zxEast })).body.success).toBe(true);
    expect((await publicTopUp(admin, { custId: hd })).body.success).toBe(true);
    const expected = async (scope: string, param: number | null) => {
      const [r] = await q<{ pending: string; overdue: string; next_due: Date | string | null }>(`select count(*) as pending,
        count(*) filter (where due_at < now()) as overdue, min(due_at) filter (where due_at >= now()) as next_due
        from recharge_orders where audit_state = 0 and ${scope}`, param === null ? [] : [param]);
      return { pending: Number(r.pending), overdue: Number(r.overdue), nextDueAt: r.next_due === null ? null : new Date(r.next_due).toISOString() };
    };
    const [zxRoot, hdRoot] = [(await ownerOf(t, 'enterprise')).root_cust_id, (await ownerOf(t, 'channel')).root_cust_id];

    const all = await ok('getReviewSummary', {}, admin);
    expect(all).toEqual(await expected('true', null));
    const zxTree = await ok('getReviewSummary', {}, enterprise);
    expect(zxTree).toEqual(await expected('root_cust_id = $1', zxRoot));
    const hdTree = await ok('getReviewSummary', {}, channel);
    expect(hdTree).toEqual(await expected('root_cust_id = $1', hdRoot));
    // each tenant's counts are its own: together they are the staff's
    expect(zxTree.pending).toBeGreaterThanOrEqual(2);
    expect(hdTree.pending).toBeGreaterThanOrEqual(1);
    expect(zxTree.overdue).toBeGreaterThanOrEqual(1);
    expect(hdTree.overdue).toBe(0);
    expect(all.pending).toBe(zxTree.pending + hdTree.pending);
    // a second-level customer counts only its own
    const subActor: Actor = {
      accountId: 0, loginName: 'sub', userName: 'sub', roleId: RoleType.SubCustomer, roleName: '', roleType: RoleType.SubCustomer,
      custId: zxEast, rootCustId: zx, permissions: new Set(), mustResetPassword: false,
    };
    const sub = await paymentsOf(t.app).service.reviewSummary(subActor);
    expect(sub).toEqual(await expected('cust_id = $1', zxEast));
    expect(sub.pending).toBeLessThan(zxTree.pending);
    // the demo's sub-customer account has no recharge screen: refused, no counts
    const subToken = await t.login('subcustomer');
    const refused = (await t.call(`${R}/getReviewSummary`, {}, { token: subToken })).body;
    expect(refused.errorCode).toBe(ErrorCode.PermissionDenied);
    expect(refused.data).toBeNull();
    // the next due time is ahead even with one overdue (not the overdue one's), and none when all are overdue
    expect(new Date(zxTree.nextDueAt).getTime()).toBeGreaterThan(Date.now());
    await q("update recharge_orders set due_at = now() - interval '1 minute' where audit_state = 0 and root_cust_id = $1", [hdRoot]);
    expect(await ok('getReviewSummary', {}, channel)).toEqual({ pending: hdTree.pending, overdue: hdTree.pending, nextDueAt: null });
  });

  it('refunds: only of a confirmed top-up, up to what is left of it and the withdrawable pre-deposit; finance only', async () => {
    const order = await online('100.00');
    await sim().pay(order.payOrderNo);
    const before = await pre(zx);
    // the customer cannot refund its own top-up
    expect((await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '1', reason: 'x' }, { token: enterprise })).body.errorCode).toBe(ErrorCode.MoneySelfReview);
    expect((await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '1', reason: '' }, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
    expect((await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '1', reason: 'r'.repeat(41) }, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
    const part = await ok('rebate', { rechargeId: order.rechargeId, amount: '40.00', reason: '客户申请退款' }, admin);
    expect(part.refundable).toBe('60.00');
    expect(sim().refunds.at(-1)).toMatchObject({ payOrderNo: order.payOrderNo, amount: '40.00' });
    expect(await pre(zx)).toBe(before - 4000n);
    // at the boundary: 60.01 is refused, 60.00 goes
    const tooMuch = await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '60.01', reason: 'x' }, { token: admin, lang: 'zh' });
    expect(tooMuch.body.errorCode).toBe(ErrorCode.RechargeRefundTooMuch);
    expect(tooMuch.body.msg).toContain('60.00');
    // a channel refusal changes nothing
    sim().refuseRefunds = true;
    expect((await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '1.00', reason: 'x' }, { token: admin })).body.errorCode).toBe(ErrorCode.PaymentChannelFailed);
    sim().refuseRefunds = false;
    expect(await pre(zx)).toBe(before - 4000n);
    expect(await ok('rebate', { rechargeId: order.rechargeId, amount: '60.00', reason: 'rest' }, admin)).toMatchObject({ refundable: '0.00' });
    expect((await t.call(`${R}/rebate`, { rechargeId: order.rechargeId, amount: '0.01', reason: 'x' }, { token: admin })).body.errorCode).toBe(ErrorCode.RechargeRefundTooMuch);
    const d = (await detail(order.rechargeId)).data;
    expect(d).toMatchObject({ refunded: '100.00', refundable: '0.00' });
    expect(d.refunds.map((r: { amount: string }) => r.amount)).toEqual(['40.00', '60.00']);
    // an unpaid one cannot be refunded
    const unpaid = await online('5.00');
    expect((await t.call(`${R}/rebate`, { rechargeId: unpaid.rechargeId, amount: '1', reason: 'x' }, { token: admin })).body.errorCode).toBe(ErrorCode.RechargeNotRefundable);

    // not more than the withdrawable pre-deposit (a refund never spends credit): HD tops up, then spends
    const hdOrder = await online('500.00', channel);
    await sim().pay(hdOrder.payOrderNo);
    const hdPre = await pre(hd);
    const spend = hdPre - 20000n;
    if (spend > 0n) {
      const { postJournal } = await import('../src/modules/money/ledger.ts');
      await t.deps.db.transaction((tx) => postJournal(tx, { kind: JournalKind.Spend, custId: hd, by: { accountId: null, loginName: 'test' }, lines: [{ account: LedgerAccount.PreDeposit, fen: -spend }, { account: LedgerAccount.Revenue, fen: spend }] }));
    }
    expect(await pre(hd)).toBe(20000n);
    const over = await t.call(`${R}/rebate`, { rechargeId: hdOrder.rechargeId, amount: '200.01', reason: 'x' }, { token: admin });
    expect(over.body.errorCode).toBe(ErrorCode.BalanceInsufficient);
    expect(await ok('rebate', { rechargeId: hdOrder.rechargeId, amount: '200.00', reason: 'x' }, admin)).toMatchObject({ refundable: '300.00' });
    expect(await pre(hd)).toBe(0n);
    // a refund of a public transfer goes back to the bank account
    const pub = await publicTopUp(enterprise, { amount: '20.00' });
    await ok('check', { rechargeId: pub.body.data.rechargeId, approve: true }, admin);
    const pr = await ok('rebate', { rechargeId: pub.body.data.rechargeId, amount: '20.00', reason: 'x' }, admin);
    const [{ account }] = await q<{ account: number }>("select p.account from ledger_postings p join ledger_journals j using (journal_id) where j.idempotency_key = $1 and p.cust_id is null", [`refund:${pr.refundNo}`]);
    expect(account).toBe(LedgerAccount.Bank);
    expect((await runLedgerCheck(t.deps.db)).ok).toBe(true);
  });

  it('tenancy: every call keeps a customer to its own tree; another tenant\'s top-up is "not found"', async () => {
    const zxOrder = await online('11.00');
    const zxPublic = (await publicTopUp(enterprise)).body.data;
    // the channel customer (HD) sees none of ZX's top-ups
    const hdList = await ok('getRechargePage', { pageSize: 500 }, channel);
    expect(hdList.list.every((r: { custId: number }) => r.custId !== zx && r.custId !== zxEast)).toBe(true);
    for (const [endpoint, body] of [
      ['core/order/select/getRechargeDetail', { rechargeId: zxOrder.rechargeId }],
      [`${R}/closeRecharge`, { rechargeId: zxOrder.rechargeId }],
      [`${R}/rebate`, { rechargeId: zxOrder.rechargeId, amount: '1', reason: 'x' }],
      [`${R}/rebate`, { rechargeId: 999_999, amount: '1', reason: 'x' }],
    ] as const) {
      expect((await t.call(endpoint, body, { token: channel })).body.errorCode).toBe(ErrorCode.NotFound);
    }
    const dl = await t.app.inject({ method: 'GET', url: `/api/cmp/${R}/downloadProof?rechargeId=${zxPublic.rechargeId}&lang=en`, headers: { authorization: channel } });
    expect(dl.json().errorCode).toBe(ErrorCode.NotFound);
    // ...while its owner downloads it, as a file answer
    const own = await t.app.inject({ method: 'GET', url: `/api/cmp/${R}/downloadProof?rechargeId=${zxPublic.rechargeId}&lang=en`, headers: { authorization: enterprise } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(String(own.headers['content-disposition'])).toMatch(/^attachment/);
    // an online top-up or a transfer for a customer of another tenant: not found
    expect((await t.call(`${R}/saveRecharge`, { amount: '1', custId: zx }, { token: channel })).body.errorCode).toBe(ErrorCode.NotFound);
    expect((await publicTopUp(channel, { custId: zx })).body.errorCode).toBe(ErrorCode.NotFound);
    // the first-level customer sees its tree (its sub-customer's top-up too); a second-level one only its own
    const sub = await online('3.00', enterprise).then(async () => ok('saveRecharge', { amount: '4.00', custId: zxEast }, enterprise));
    const tree = await ok('getRechargePage', { pageSize: 500 }, enterprise);
    expect(tree.list.map((r: { rechargeId: number }) => r.rechargeId)).toContain(sub.rechargeId);
    const subActor: Actor = {
      accountId: 0, loginName: 'sub', userName: 'sub', roleId: RoleType.SubCustomer, roleName: '', roleType: RoleType.SubCustomer,
      custId: zxEast, rootCustId: zx, permissions: new Set(), mustResetPassword: false,
    };
    const subList = await paymentsOf(t.app).service.list({ pageSize: 500 }, subActor);
    expect(subList.list.length).toBeGreaterThan(0);
    expect(subList.list.every((r) => r.custId === zxEast)).toBe(true);
    // the sub-customer account of the demo has no recharge screen at all
    const subToken = await t.login('subcustomer');
    expect((await t.call(`${R}/getRechargePage`, {}, { token: subToken })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    // staff see every customer's
    const all = await ok('getRechargePage', { pageSize: 500 }, admin);
    expect(new Set(all.list.map((r: { custId: number }) => r.custId))).toEqual(new Set([zx, hd, zxEast]));
    // filters
    const pub = await ok('getRechargePage', { channel: PayChannel.Public, auditState: RechargeAuditState.Submitted, pageSize: 500 }, admin);
    expect(pub.list.every((r: { channel: number; auditState: number }) => r.channel === PayChannel.Public && r.auditState === 0)).toBe(true);
    const today = businessDay(Date.now());
    expect((await ok('getRechargePage', { startDate: today, endDate: today }, admin)).total).toBe(all.total);
    expect((await ok('getRechargePage', { serialNo: 'BANK-0001' }, admin)).total).toBeGreaterThan(0);
  });

  it('exports the list with the screen\'s filters (8040005)', async () => {
    const r = await t.call(`${R}/exportRecharge`, { channel: PayChannel.Online }, { token: admin });
    expect(r.body.success).toBe(true);
    expect(r.body.data.taskId).toBeTruthy();
  });
});
