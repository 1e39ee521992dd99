import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { sql } from 'drizzle-orm';
import { BillAutoActionResult, CardState, ErrorCode, Operator, WebhookEventType, batch, businessDayStart, sms, webhook } from '@lynx/contract';
import {
  backends, callOk, iccidsOf, insertCards, ownerOf, startTestApp, waitFor, ZX, ZX_EAST, HD, type Owner, type TestApp,
} from '../../../../test/harness.ts';
import { simulatorSecretFor } from '../../../operators/simulator.ts';
import { applyCardAction } from '../../card/lifecycle/card-service.ts';
import { pollSmsReports, applyReports } from '../../sms/reports.ts';
import { runMoFeed } from '../../sms/mo-feed.ts';
import { executeDueRules } from '../../billing/automate/automate-run.ts';
import { TestReceiver } from './test-receiver.ts';

// The producers of the signed webhook events (docs/webhooks.md "Producers"): each event type is written by the change
// that causes it, in its transaction, to the customer that owns the card, message, batch or bill. Per type: a subscribed
// customer's callback receives it (signed, valid against the published schema), a customer with no address or not
// subscribed to the type gets nothing written, and a refused change enqueues nothing. The app runs with its background
// jobs, so its own delivery worker sends to the local receiver.

const { BatchType, BatchState } = batch;
const { SmsStatus, SmsDirection } = sms;
const B = 'core/finance/bill/';
const A = 'core/finance/billAutomate/';

interface Got {
  type: string;
  version: number;
  id: string;
  createdAt: string;
  data: Record<string, any>;
  signatureOk: boolean | null;
  raw: unknown;
}

// generous timeouts: PGlite runs every query of the app, its jobs and its delivery worker on one connection, and CI
// machines run several suites at once
describe.each(backends)('webhook event producers (%s)', { timeout: 240_000 }, (backend) => {
  let t: TestApp;
  let rx: TestReceiver;
  let admin: string;
  let enterprise: string;
  let zx: Owner;
  let east: Owner;
  let hd: Owner;
  let n = 0;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  /**
   * Fresh cards of an owner: China Mobile (no access configuration here: changes are not sent to the operator, and no
   * MO feed runs for them) unless told; the SMS tests use China Telecom, which has one.
   */
  const cardsOf = (owner: Owner | null, count: number, state: number = CardState.Inventory, prefix = '8986150', operatorId: number = Operator.ChinaMobile) => {
    const ids = iccidsOf(prefix, n, count);
    n += count;
    return insertCards(t, ids, { state, owner, operatorId, plan: 1 });
  };
  /** what the receiver got so far, parsed */
  const got = (): Got[] => rx.requests.map((r) => {
    const body = JSON.parse(r.body);
    return { ...body, signatureOk: r.signatureOk, raw: body } as Got;
  });
  /** waits until the receiver has `count` events that match (each event once: deliveries are at least once) */
  const receive = async (type: string, match: (d: Record<string, any>) => boolean, count = 1, ms = 60_000): Promise<Got[]> => waitFor(async () => {
    const seen = new Map<string, Got>();
    for (const g of got()) if (g.type === type && match(g.data)) seen.set(g.id, g);
    return seen.size >= count ? [...seen.values()] : null;
  }, ms, 100);
  /** events written to the outbox for a customer and type, with a filter on the payload */
  const written = async (custId: number, type: number, where = 'true', params: unknown[] = []) =>
    (await q<{ payload: Record<string, any> }>(`select payload from webhook_events where cust_id = $1 and event_type = $2 and (${where})`, [custId, type, ...params]))
      .map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload));
  const subscribe = async (token: string, path: string, eventTypes: number[], custId?: number) => {
    await callOk(t, 'openapi/subscribe/save', { callbackUrl: `${rx.url}/${path}`, eventTypes, ...(custId ? { custId } : {}) }, token);
    const r = await callOk<{ keyId: string; secret: string }>(t, 'openapi/webhook/secret/rotate', custId ? { custId } : {}, token);
    rx.secrets.set(r.keyId, r.secret);
  };
  const checkEvent = (g: Got, type: WebhookEventType) => {
    expect(g.signatureOk).toBe(true);
    expect(Value.Check(webhook.webhookEnvelope(type), g.raw), JSON.stringify(g.raw)).toBe(true);
  };

  beforeAll(async () => {
    t = await startTestApp(backend);
    rx = await new TestReceiver().start();
    [admin, enterprise] = await Promise.all(['admin', 'enterprise'].map((l) => t.login(l)));
    [zx, east] = await Promise.all([ownerOf(t, 'enterprise'), ownerOf(t, 'subcustomer')]);
    const [h] = await q<Owner>('select cust_id, root_cust_id from customers where cust_name = $1', [HD]);
    hd = { cust_id: Number(h.cust_id), root_cust_id: Number(h.root_cust_id) };
    expect((await q<{ cust_name: string }>('select cust_name from customers where cust_id = $1', [zx.cust_id]))[0].cust_name).toBe(ZX);
    expect((await q<{ cust_name: string }>('select cust_name from customers where cust_id = $1', [east.cust_id]))[0].cust_name).toBe(ZX_EAST);
    // 智行 (first level) listens to every type; its second-level customer 华东 only to card state changes, at its own
    // address; 华电 has no callback address at all
    await subscribe(enterprise, 'zx', [...WebhookEventType.values]);
    await subscribe(admin, 'east', [WebhookEventType.CardStateChanged], east.cust_id);
    await q(`update api_configs set callback_url = null where cust_id = $1`, [hd.cust_id]);
    const appKey = 'LYNXKEYHOOKS00CT';
    await callOk(t, 'network/operatorsAccount/save', {
      operatorId: Operator.ChinaTelecom, accountName: 'webhook producers', endpointUrl: 'https://api.operator.example.com/openapi', apiVersion: 'v2',
      adapter: 'simulator', appKey, appSecret: simulatorSecretFor(appKey), password: 'Plain-Password-Hook-2026',
    }, admin);
  });
  afterAll(async () => {
    await t?.stop();
    await rx?.stop();
  });

  it('card.state_changed: a person\'s change reaches the card owner\'s callback; a refused or rolled-back change enqueues nothing', async () => {
    const [mine] = await cardsOf(zx, 1);
    const r = await t.call('core/sim/singleCard/changeStatus', { iccid: mine, action: 'activate', reason: '现场安装' }, { token: enterprise });
    expect(r.body.success, r.body.msg).toBe(true);
    const [ev] = await receive('card.state_changed', (d) => d.iccid === mine);
    checkEvent(ev, WebhookEventType.CardStateChanged);
    expect(ev.data).toEqual({
      iccid: mine, msisdn: `1064${mine.slice(-9)}`, custId: zx.cust_id, fromState: CardState.Inventory, toState: CardState.Activated,
      source: 'user', reason: '现场安装', changedAt: expect.any(String),
    });
    expect(ev.version).toBe(1);

    // refused by the lifecycle rules (already activated; illegal transition): nothing written
    expect((await t.call('core/sim/singleCard/changeStatus', { iccid: mine, action: 'activate' }, { token: enterprise })).body.errorCode).not.toBeNull();
    expect((await t.call('core/sim/singleCard/changeStatus', { iccid: mine, action: 'toInventory' }, { token: enterprise })).body.errorCode).not.toBeNull();
    expect(await written(zx.cust_id, WebhookEventType.CardStateChanged, `payload->>'iccid' = $3`, [mine])).toHaveLength(1);
    // another customer's card: "not found", nothing written for anybody
    const [theirs] = await cardsOf(hd, 1);
    expect((await t.call('core/sim/singleCard/changeStatus', { iccid: theirs, action: 'activate' }, { token: enterprise })).body.errorCode).toBe(ErrorCode.NotFound);
    expect(Number((await q<{ n: string }>(`select count(*) n from webhook_events where payload->>'iccid' = $1`, [theirs]))[0].n)).toBe(0);

    // the change and its event commit together: a transaction that rolls back after the change sends nothing
    const [rolled] = await cardsOf(zx, 1);
    const ctx = { actor: (await t.deps.sessions.actorOf(Number((await q<{ account_id: number }>(`select account_id from accounts where login_name = 'enterprise'`))[0].account_id)))!, lang: 'en' as const, ip: '-', endpoint: 'test', tokenHash: null, audited: false };
    await expect(t.database.db.transaction(async (tx) => {
      await applyCardAction(t.deps, { kind: 'user', ctx }, rolled, { type: 'activate' }, { tx });
      // written inside the transaction (read through it; PGlite has one connection, so nothing outside may wait on it)
      const inside = await tx.execute(sql`select count(*)::int as n from webhook_events where payload->>'iccid' = ${rolled}`);
      expect(Number(((inside as unknown as { rows?: { n: number }[] }).rows ?? (inside as unknown as { n: number }[]))[0].n)).toBe(1);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect((await q<{ state: number }>('select state from cards where iccid = $1', [rolled]))[0].state).toBe(CardState.Inventory);
    expect(Number((await q<{ n: string }>(`select count(*) n from webhook_events where payload->>'iccid' = $1`, [rolled]))[0].n)).toBe(0);

    // a customer without a callback address: the change happens, nothing is written
    const hdToken = await t.login('channel');
    expect((await t.call('core/sim/singleCard/changeStatus', { iccid: theirs, action: 'activate' }, { token: hdToken })).body.success).toBe(true);
    expect(Number((await q<{ n: string }>(`select count(*) n from webhook_events where payload->>'iccid' = $1`, [theirs]))[0].n)).toBe(0);
  });

  it('card.state_changed of a second-level customer\'s card goes to that customer only, not also to its first-level customer', async () => {
    const [eastCard] = await cardsOf(east, 1);
    expect((await t.call('core/sim/singleCard/changeStatus', { iccid: eastCard, action: 'activate' }, { token: enterprise })).body.success).toBe(true);
    const [ev] = await receive('card.state_changed', (d) => d.iccid === eastCard);
    checkEvent(ev, WebhookEventType.CardStateChanged);
    expect(ev.data).toMatchObject({ custId: east.cust_id, source: 'user', toState: CardState.Activated });
    expect(await written(zx.cust_id, WebhookEventType.CardStateChanged, `payload->>'iccid' = $3`, [eastCard])).toHaveLength(0);
    const [d] = await q<{ url: string }>(`select d.url from webhook_deliveries d join webhook_events e using (event_id) where e.payload->>'iccid' = $1`, [eastCard]);
    expect(d.url).toBe(`${rx.url}/east`);
  });

  it('a batch: one card.state_changed per changed card (source batch, the batch id) and one batch.finished with the totals', async () => {
    // more than one chunk of the runner (200 cards)
    const good = await cardsOf(zx, 250);
    const [gone] = await cardsOf(zx, 1);
    const v = await callOk(t, 'core/sim/batchOperate/validate', {
      params: { type: BatchType.StatusChange, action: 'activate', reason: '批量开通' }, sourceKind: 'selection', iccids: [...good, gone],
    }, enterprise);
    expect(v.validCount).toBe(251);
    // one card changes after validation: its item fails in the batch, and it gets only its own event
    await callOk(t, 'core/sim/singleCard/changeStatus', { iccid: gone, action: 'invalidate' }, enterprise);
    const started = Date.now();
    await callOk(t, 'core/sim/batchOperate/process', { batchId: v.batchId }, enterprise);
    await waitFor(async () => (await callOk(t, 'core/sim/batchOperate/getBatchDetail', { batchId: v.batchId }, enterprise)).state === BatchState.Done, 180_000, 50);
    const batchMs = Date.now() - started;
    const [fin] = await receive('batch.finished', (d) => d.batchId === v.batchId, 1, 180_000);
    const deliveredMs = Date.now() - started;
    checkEvent(fin, WebhookEventType.BatchFinished);
    expect(fin.data).toEqual({
      batchId: v.batchId, batchType: BatchType.StatusChange, state: BatchState.Done, custId: zx.cust_id, totalCount: 251,
      succeededCount: 250, failedCount: 1, createdBy: 'enterprise', finishedAt: expect.any(String),
    });
    const evs = await receive('card.state_changed', (d) => d.batchId === v.batchId, 250, 180_000);
    expect(evs).toHaveLength(250);
    expect(new Set(evs.map((e) => e.data.iccid))).toEqual(new Set(good));
    for (const e of evs) expect(e.data).toMatchObject({ source: 'batch', reason: '批量开通', fromState: CardState.Inventory, toState: CardState.Activated });
    checkEvent(evs[0], WebhookEventType.CardStateChanged);
    const ofGone = await written(zx.cust_id, WebhookEventType.CardStateChanged, `payload->>'iccid' = $3`, [gone]);
    expect(ofGone.map((p) => [p.source, p.toState])).toEqual([['user', CardState.Invalidated]]);
    console.log(`[${backend}] batch of 251 cards with their events: confirm → done ${batchMs} ms; all 251 events received ${deliveredMs} ms`);
  }, 300_000);

  it('batch.finished: a cancelled batch says so; a refused cancel and another customer\'s batch enqueue nothing', async () => {
    const cards = await cardsOf(zx, 2);
    const v = await callOk(t, 'core/sim/batchOperate/validate', { params: { type: BatchType.StatusChange, action: 'activate' }, sourceKind: 'selection', iccids: cards }, enterprise);
    await callOk(t, 'core/sim/batchOperate/cancel', { batchId: v.batchId }, enterprise);
    const [ev] = await receive('batch.finished', (d) => d.batchId === v.batchId);
    checkEvent(ev, WebhookEventType.BatchFinished);
    expect(ev.data).toMatchObject({ state: BatchState.Cancelled, totalCount: 2, succeededCount: 0, failedCount: 0, custId: zx.cust_id });
    // cancelling again is refused: no second event
    expect((await t.call('core/sim/batchOperate/cancel', { batchId: v.batchId }, { token: enterprise })).body.errorCode).toBe(ErrorCode.BatchNotCancellable);
    expect(await written(zx.cust_id, WebhookEventType.BatchFinished, `payload->>'batchId' = $3`, [v.batchId])).toHaveLength(1);
    // 华电 has no address: its batch finishes, nothing is written
    const hdToken = await t.login('channel');
    const theirs = await cardsOf(hd, 1);
    const hv = await callOk(t, 'core/sim/batchOperate/validate', { params: { type: BatchType.StatusChange, action: 'activate' }, sourceKind: 'selection', iccids: theirs }, hdToken);
    await callOk(t, 'core/sim/batchOperate/cancel', { batchId: hv.batchId }, hdToken);
    expect(Number((await q<{ n: string }>(`select count(*) n from webhook_events where payload->>'batchId' = $1`, [hv.batchId]))[0].n)).toBe(0);
  });

  it('sms.delivery_report: the report of a message to a subscribed customer\'s card is sent once; a second report of it enqueues nothing', async () => {
    const [card] = await cardsOf(zx, 1, CardState.Activated, '8986152', Operator.ChinaTelecom);
    const [eastCard] = await cardsOf(east, 1, CardState.Activated, '8986152', Operator.ChinaTelecom);
    const sent = await callOk(t, 'core/sms/cmpp/single', { iccid: card, content: 'report position' }, enterprise);
    const sentEast = await callOk(t, 'core/sms/cmpp/single', { iccid: eastCard, content: 'report position' }, enterprise);
    const [ev] = await waitFor(async () => {
      await pollSmsReports(t.deps);
      const mine = got().filter((g) => g.type === 'sms.delivery_report' && g.data.smsId === sent.smsId);
      return mine.length > 0 && mine;
    }, 30_000, 500);
    checkEvent(ev, WebhookEventType.SmsDeliveryReport);
    expect(ev.data).toEqual({
      smsId: sent.smsId, iccid: card, msisdn: `1064${card.slice(-9)}`, custId: zx.cust_id, state: SmsStatus.Sent, reportCode: 'DELIVRD',
      reportedAt: expect.any(String),
    });
    // the second-level customer is not subscribed to SMS reports: its message is reported, nothing is written
    await waitFor(async () => {
      await pollSmsReports(t.deps);
      return Number((await q<{ status: number }>('select status from card_sms where sms_id = $1', [sentEast.smsId]))[0].status) !== SmsStatus.Submitted;
    }, 30_000, 500);
    expect(await written(east.cust_id, WebhookEventType.SmsDeliveryReport)).toHaveLength(0);
    expect(Number((await q<{ n: string }>(`select count(*) n from webhook_events where payload->>'smsId' = $1`, [sentEast.smsId]))[0].n)).toBe(0);
    // a report on a message that already has one moves nothing and enqueues nothing
    await applyReports(t.deps, [{ iccid: card, smsId: sent.smsId, status: SmsStatus.SendFailed, code: 'UNDELIV', at: new Date(), reason: 'late' }]);
    expect(await written(zx.cust_id, WebhookEventType.SmsDeliveryReport, `payload->>'smsId' = $3`, [sent.smsId])).toHaveLength(1);
    expect(Number((await q<{ status: number }>('select status from card_sms where sms_id = $1', [sent.smsId]))[0].status)).toBe(SmsStatus.Sent);
  });

  it('sms.received: each message a subscribed customer\'s device sends is sent once; the same window again enqueues nothing', { timeout: 180_000 }, async () => {
    const mine = await cardsOf(zx, 20, CardState.Activated, '8986151', Operator.ChinaTelecom);
    const theirs = await cardsOf(hd, 10, CardState.Activated, '8986151', Operator.ChinaTelecom);
    const eastCards = await cardsOf(east, 10, CardState.Activated, '8986151', Operator.ChinaTelecom);
    const now = new Date();
    await runMoFeed(t.deps, Operator.ChinaTelecom, now);
    const from = new Date(Math.floor((now.getTime() - 86_400_000) / 60_000) * 60_000);
    await q('update sms_mo_feeds set watermark = $2, window_to = null, cursor_iccid = null, lease_until = null where operator_id = $1', [Operator.ChinaTelecom, from]);
    const run = await runMoFeed(t.deps, Operator.ChinaTelecom, now);
    expect(run).toMatchObject({ ran: true, error: null });
    const stored = await q<{ sms_id: string; iccid: string; content: string }>(
      'select sms_id, iccid, content from card_sms where iccid = any($1) and direction = $2', [mine, SmsDirection.FromDevice]);
    expect(stored.length).toBeGreaterThan(0);
    // every stored message of the subscribed customer's cards has its event in the outbox, and the receiver gets them
    expect((await written(zx.cust_id, WebhookEventType.SmsReceived, `payload->>'iccid' = any($3)`, [mine])).map((p) => p.smsId).sort())
      .toEqual(stored.map((s) => s.sms_id).sort());
    const evs = await receive('sms.received', (d) => mine.includes(d.iccid), stored.length, 120_000);
    expect(evs.map((e) => e.data.smsId).sort()).toEqual(stored.map((s) => s.sms_id).sort());
    checkEvent(evs[0], WebhookEventType.SmsReceived);
    const one = stored[0];
    expect(evs.find((e) => e.data.smsId === one.sms_id)!.data).toEqual({
      smsId: one.sms_id, iccid: one.iccid, msisdn: `1064${one.iccid.slice(-9)}`, custId: zx.cust_id, content: one.content, receivedAt: expect.any(String),
    });
    // 华电 (no address) and 华东 (not subscribed to it): their devices' messages are stored, nothing written
    const others = await q<{ n: string }>('select count(*) n from card_sms where iccid = any($1) and direction = $2', [[...theirs, ...eastCards], SmsDirection.FromDevice]);
    expect(Number(others[0].n)).toBeGreaterThan(0);
    expect(Number((await q<{ n: string }>(`select count(*) n from webhook_events where event_type = $1 and payload->>'iccid' = any($2)`,
      [WebhookEventType.SmsReceived, [...theirs, ...eastCards]]))[0].n)).toBe(0);
    // the same window again stores nothing twice and writes no event twice
    await q('update sms_mo_feeds set watermark = $2, window_to = null, cursor_iccid = null, lease_until = null where operator_id = $1', [Operator.ChinaTelecom, from]);
    await runMoFeed(t.deps, Operator.ChinaTelecom, now);
    expect(Number((await q<{ n: string }>(`select count(*) n from webhook_events where event_type = $1 and payload->>'iccid' = any($2)`,
      [WebhookEventType.SmsReceived, mine]))[0].n)).toBe(stored.length);
  });

  /** an unpublished bill of a customer, written straight into the table (the run engine has its own tests) */
  let period = 0;
  const billOf = async (custId: number, o: { rated?: boolean; periodKey?: string } = {}) => {
    period++;
    const periodKey = o.periodKey ?? `2040-${String(period).padStart(2, '0')}`;
    const [r] = await q<{ bill_id: string }>(`insert into bills (bill_no, period_key, cust_id, root_cust_id, period_from, period_to, published,
        card_count, line_count, total, tax, plan_fee, amount_due, rated_at, unbilled_over_bytes)
      select $1, $2, c.cust_id, c.root_cust_id, ($2 || '-01')::date, ($2 || '-28')::date, false, 3, 0, 123.45, 0.57, 123.45, 123.45,
        case when $3 then now() end, 0
      from customers c where c.cust_id = $4 returning bill_id`, [`WH${periodKey.replace('-', '')}${custId}`, periodKey, o.rated ?? true, custId]);
    return Number(r.bill_id);
  };

  it('bill.published: publishing by hand sends it once; refused publications enqueue nothing', async () => {
    const billId = await billOf(zx.cust_id);
    const unrated = await billOf(zx.cust_id, { rated: false });
    expect((await t.call(`${B}publishBill`, { billId: unrated }, { token: admin })).body.errorCode).toBe(ErrorCode.BillNotRated);
    expect((await t.call(`${B}publishBill`, { billId }, { token: enterprise })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    expect(await written(zx.cust_id, WebhookEventType.BillPublished)).toHaveLength(0);
    const published = await callOk(t, `${B}publishBill`, { billId }, admin);
    const [ev] = await receive('bill.published', (d) => d.billId === billId);
    checkEvent(ev, WebhookEventType.BillPublished);
    expect(ev.data).toEqual({
      billId, billNo: published.billNo, custId: zx.cust_id, periodKey: published.periodKey, amountDue: '123.45', currency: 'CNY', publishedAt: published.publishedAt,
    });
    // publishing a published bill changes nothing and sends nothing again
    await callOk(t, `${B}publishBill`, { billId }, admin);
    expect(await written(zx.cust_id, WebhookEventType.BillPublished, `payload->>'billId' = $3`, [String(billId)])).toHaveLength(1);
    // 华东 is not subscribed to bills, 华电 has no address: published, nothing written
    for (const custId of [east.cust_id, hd.cust_id]) {
      const other = await billOf(custId);
      await callOk(t, `${B}publishBill`, { billId: other }, admin);
      expect(Number((await q<{ n: string }>(`select count(*) n from webhook_events where payload->>'billId' = $1`, [String(other)]))[0].n)).toBe(0);
    }
  });

  it('bill.published: the automated ledger publishes through the same path and the event follows', async () => {
    const billId = await billOf(zx.cust_id, { periodKey: '2041-02' });
    const rule = await callOk(t, `${A}addBillAutomateRule`, { custId: zx.cust_id, dayOfMonth: 5, publish: 1, writeOff: 0, writeOffMode: 1 }, admin);
    try {
      const noon = new Date(businessDayStart('2041-03-05').getTime() + 12 * 3600_000);
      const done = await executeDueRules(t.deps.db, noon);
      expect(done.find((d) => d.ruleId === rule.ruleId)).toMatchObject({ periodKey: '2041-02', publishResult: BillAutoActionResult.Done });
      const [ev] = await receive('bill.published', (d) => d.billId === billId);
      checkEvent(ev, WebhookEventType.BillPublished);
      expect(ev.data).toMatchObject({ custId: zx.cust_id, periodKey: '2041-02', amountDue: '123.45', publishedAt: noon.toISOString() });
    } finally {
      await callOk(t, `${A}deleteBillAutomateRule`, { ruleId: rule.ruleId }, admin);
    }
  });
});
