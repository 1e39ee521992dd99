import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { CardState, ErrorCode, WebhookAttemptOutcome, WebhookDeliveryState, WebhookEventType, businessDay, webhook } from '@lynx/contract';
import { backends, startTestApp, ZX, ZX_EAST, HD, type TestApp } from '../../../../test/harness.ts';
import { secretBoxFor } from '../../network/opconfig/secrets.ts';
import { enqueueEvent, enqueueEvents } from './outbox.ts';
import { WebhookWorker } from './worker.ts';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from './settings.ts';
import { TestReceiver } from './test-receiver.ts';

// Signed webhook delivery against a real local HTTP receiver (docs/webhooks.md): signature checked by the receiver's
// own HMAC, outbox semantics, the retry schedule on an injected clock, dead letter, replay, two workers, a worker that
// dies mid-attempt, and tenancy of the routes.

const D = 'core/alarm/webhook';

const cardEvent = (custId: number, n = 1) => ({
  custId,
  type: WebhookEventType.CardStateChanged,
  payload: {
    iccid: `898600000000000${String(n).padStart(5, '0')}`, msisdn: null, custId, fromState: CardState.Inventory, toState: CardState.Activated,
    source: 'user' as const, reason: null, changedAt: new Date().toISOString(),
  },
});

describe.each(backends)('webhook delivery (%s)', (backend) => {
  let t: TestApp;
  let rx: TestReceiver;
  let admin: string;
  let ent: string;
  let sub: string;
  let chan: string;
  const cust: Record<string, number> = {};
  // the workers' clock: never behind the real one (events are enqueued at real time), moved ahead by the tests
  let clock = Date.now();
  const workers: WebhookWorker[] = [];
  const workerWith = (s: Partial<WebhookSettings> = {}, random: () => number = () => 0.5) => {
    const w = new WebhookWorker(t.database.db, secretBoxFor(t.config), { ...DEFAULT_WEBHOOK_SETTINGS, timeoutMs: 2000, ...s }, { now: () => new Date(Math.max(clock, Date.now())), random });
    workers.push(w);
    return w;
  };
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.sql.query<T>(text, params);
  // the address and its subscription to every event type (the open API's ability subscription); null clears the address
  const setCallback = async (token: string, url: string | null, custId?: number) => {
    const r = url
      ? await t.call('openapi/subscribe/save', { callbackUrl: url, eventTypes: [...WebhookEventType.values], ...(custId ? { custId } : {}) }, { token })
      : await t.call('openapi/config/save', { callbackUrl: null, ...(custId ? { custId } : {}) }, { token });
    expect(r.body.success, r.body.msg).toBe(true);
  };
  const rotate = async (token: string, custId?: number) => {
    const r = await t.call<{ keyId: string; secret: string }>('openapi/webhook/secret/rotate', custId ? { custId } : {}, { token });
    expect(r.body.success, r.body.msg).toBe(true);
    rx.secrets.set(r.body.data.keyId, r.body.data.secret);
    return r.body.data;
  };
  const enqueueOne = (custId: number, n = 1) => t.database.db.transaction((tx) => enqueueEvent(tx, cardEvent(custId, n)));

  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    rx = await new TestReceiver().start();
    [admin, ent, sub, chan] = await Promise.all(['admin', 'enterprise', 'subcustomer', 'channel'].map((n) => t.login(n)));
    for (const name of [ZX, ZX_EAST, HD]) {
      const [c] = await q<{ cust_id: number }>('select cust_id from customers where cust_name = $1', [name]);
      cust[name] = c.cust_id;
    }
    await setCallback(ent, rx.url);
    await rotate(ent);
    await setCallback(admin, rx.url, cust[ZX_EAST]);
    await rotate(admin, cust[ZX_EAST]);
  });
  afterAll(async () => {
    for (const w of workers) await w.stop();
    await rx.stop();
    await t.stop();
  });
  beforeEach(async () => {
    rx.behave = () => ({ status: 200, body: 'ok' });
    clock = Date.now();
    // every test starts with nothing due
    await q(`update webhook_deliveries set state = 3 where state in (1, 2)`);
  });

  it('POSTs the event signed with HMAC-SHA256 over timestamp + body; the receiver verifies it with its own HMAC', async () => {
    const before = rx.requests.length;
    const e = await enqueueOne(cust[ZX], 1);
    expect(e).toMatchObject({ eventId: expect.stringMatching(/^[0-9a-f-]{36}$/), deliveryId: expect.any(Number) });
    const done = await workerWith().drain();
    expect(done.map((d) => d.state)).toEqual([WebhookDeliveryState.Delivered]);
    const got = rx.requests.slice(before);
    expect(got).toHaveLength(1);
    const r = got[0];
    expect(r.signatureOk).toBe(true);
    expect(r.headers['x-lynx-event-id']).toBe(e!.eventId);
    expect(r.headers['x-lynx-event-type']).toBe('card.state_changed');
    expect(r.headers['x-lynx-attempt']).toBe('1');
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    const ts = Number(r.headers['x-lynx-timestamp']);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(webhook.WEBHOOK_REPLAY_WINDOW_SECONDS);
    // the reference: hex HMAC-SHA256(secret, `${timestamp}.${raw body}`)
    const secret = rx.secrets.get(String(r.headers['x-lynx-key-id']))!;
    expect(r.headers['x-lynx-signature']).toBe(crypto.createHmac('sha256', secret).update(`${r.headers['x-lynx-timestamp']}.${r.body}`).digest('hex'));
    // a tampered body or another timestamp does not verify
    expect(crypto.createHmac('sha256', secret).update(`${ts + 1}.${r.body}`).digest('hex')).not.toBe(r.headers['x-lynx-signature']);
    const body = JSON.parse(r.body);
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'data', 'id', 'type', 'version']);
    expect(body).toMatchObject({ id: e!.eventId, type: 'card.state_changed', version: 1, data: { custId: cust[ZX], toState: CardState.Activated } });
    expect(Value.Check(webhook.webhookEnvelope(WebhookEventType.CardStateChanged), body)).toBe(true);
    // the secret is sealed at rest
    const [row] = await q<{ secret_sealed: string }>('select secret_sealed from webhook_secrets where cust_id = $1', [cust[ZX]]);
    expect(row.secret_sealed).not.toContain(secret);
    expect(row.secret_sealed.startsWith('v1:')).toBe(true);
    // the attempt is logged with its status and latency
    const d = await t.call(`${D}/getWebhookDeliveryDetail`, { deliveryId: e!.deliveryId }, { token: ent });
    expect(d.body.data.delivery).toMatchObject({ state: WebhookDeliveryState.Delivered, attempts: 1, lastHttpStatus: 200, eventName: 'card.state_changed' });
    expect(d.body.data.attempts).toHaveLength(1);
    expect(d.body.data.attempts[0]).toMatchObject({ outcome: WebhookAttemptOutcome.Success, httpStatus: 200, responseExcerpt: 'ok', latencyMs: expect.any(Number) });
    expect(d.body.data.event).toEqual(body);
  });

  it('rotating the secret changes the key id and the signatures follow; only the hint is shown afterwards', async () => {
    const old = await t.call('openapi/webhook/secret/query', {}, { token: ent });
    const { keyId, secret } = await rotate(ent);
    expect(keyId).not.toBe(old.body.data.keyId);
    const now = await t.call('openapi/webhook/secret/query', {}, { token: ent });
    expect(now.body.data).toMatchObject({ keyId, secretHint: `****${secret.slice(-4)}`, rotatedAt: expect.any(String) });
    expect(JSON.stringify(now.body.data)).not.toContain(secret);
    const [a] = await q<{ after: unknown }>(`select after from audit_log where entity = 'webhookSecret' order by id desc limit 1`);
    expect(JSON.stringify(a.after)).not.toContain(secret);
    const before = rx.requests.length;
    await enqueueOne(cust[ZX], 2);
    // signing keys are cached for a few seconds: a new worker reads the new one
    await workerWith().drain();
    const r = rx.requests.slice(before)[0];
    expect(r.headers['x-lynx-key-id']).toBe(keyId);
    expect(r.signatureOk).toBe(true);
  });

  it('a rolled-back transaction sends nothing; a customer without a callback address gets nothing written', async () => {
    const before = rx.requests.length;
    const [{ n: n0 }] = await q<{ n: string }>('select count(*) n from webhook_events');
    await expect(t.database.db.transaction(async (tx) => {
      expect(await enqueueEvent(tx, cardEvent(cust[ZX], 3))).not.toBeNull();
      throw new Error('the producer fails after enqueueing');
    })).rejects.toThrow('the producer fails');
    expect(await t.database.db.transaction((tx) => enqueueEvent(tx, cardEvent(cust[HD], 4)))).toBeNull();
    const [{ n: n1 }] = await q<{ n: string }>('select count(*) n from webhook_events');
    expect(n1).toBe(n0);
    expect(await workerWith().drain()).toEqual([]);
    expect(rx.requests.length).toBe(before);
    // a payload that breaks its schema is the producer's bug: refused, and the transaction with it
    await expect(t.database.db.transaction((tx) => enqueueEvent(tx, { ...cardEvent(cust[ZX]), payload: { iccid: 'x' } as never })))
      .rejects.toThrow(/does not match its schema/);
  });

  it('retries with exponential backoff and jitter on the injected clock, logs every attempt, then dead-letters', async () => {
    const draws = [0, 0.5, 0.999];
    const w = workerWith({ retryDelaysSeconds: [30, 120, 600], timeoutMs: 400 }, () => draws.shift() ?? 0.5);
    const plan: ReturnType<TestReceiver['behave']>[] = [{ status: 503, body: 'busy' }, 'drop', 'hang', { status: 500, body: 'x'.repeat(2000) }];
    rx.behave = () => plan.shift() ?? { status: 500 };
    const e = await enqueueOne(cust[ZX], 5);
    const state = async () => (await q<{ state: number; attempts: number; next_at: Date; last_attempt_at: Date }>(
      'select state, attempts, next_at, last_attempt_at from webhook_deliveries where delivery_id = $1', [e!.deliveryId]))[0];
    const expected = [30_000 * 0.8, 120_000 * 1.0, Math.round(600_000 * (0.8 + 0.4 * 0.999))];
    for (let i = 0; i < 3; i++) {
      const done = await w.drain();
      expect(done).toHaveLength(1);
      const s = await state();
      expect(s.state).toBe(WebhookDeliveryState.Retrying);
      expect(s.attempts).toBe(i + 1);
      expect(new Date(s.next_at).getTime() - new Date(s.last_attempt_at).getTime()).toBe(expected[i]);
      // not due a moment before its time
      clock = new Date(s.next_at).getTime() - 1;
      expect(await w.drain()).toEqual([]);
      clock += 1;
    }
    const last = await w.drain();
    expect(last).toHaveLength(1);
    const s = await state();
    expect(s.state).toBe(WebhookDeliveryState.Dead);
    clock += 7 * 86_400_000;
    expect(await w.drain()).toEqual([]);
    const d = await t.call(`${D}/getWebhookDeliveryDetail`, { deliveryId: e!.deliveryId }, { token: ent, lang: 'zh' });
    expect(d.body.data.delivery).toMatchObject({ state: WebhookDeliveryState.Dead, attempts: 4, totalAttempts: 4, deadAt: expect.any(String), nextAt: null });
    const attempts = [...d.body.data.attempts].reverse();
    expect(attempts.map((a: { outcome: number }) => a.outcome)).toEqual([
      WebhookAttemptOutcome.HttpError, WebhookAttemptOutcome.NetworkError, WebhookAttemptOutcome.Timeout, WebhookAttemptOutcome.HttpError,
    ]);
    expect(attempts.map((a: { attemptNo: number }) => a.attemptNo)).toEqual([1, 2, 3, 4]);
    // the failure in the reader's language
    expect(attempts[0]).toMatchObject({ httpStatus: 503, responseExcerpt: 'busy', error: '接收方返回 HTTP 503' });
    expect(['连接被接收方重置或关闭', '连接被接收方关闭']).toContain(attempts[1].error);
    expect(attempts[2]).toMatchObject({ httpStatus: null, error: '0.4 秒内无应答' });
    const en = await t.call(`${D}/getWebhookDeliveryDetail`, { deliveryId: e!.deliveryId }, { token: ent, lang: 'en' });
    expect(en.body.data.delivery.lastError).toBe('The receiver answered HTTP 500');
    expect(en.body.data.attempts.map((a: { error: string }) => a.error).slice(1)).toEqual([
      'No answer within 0.4 s', expect.stringMatching(/^Connection (reset or )?closed by the receiver$/), 'The receiver answered HTTP 503',
    ]);
    expect(attempts[2].latencyMs).toBeGreaterThanOrEqual(390);
    expect(attempts[3].responseExcerpt).toHaveLength(500);
    for (const a of attempts) expect(a.latencyMs).toEqual(expect.any(Number));
  });

  it('replays a dead or failed delivery by hand: a new attempt series, the same event id; refuses what cannot be replayed', async () => {
    rx.behave = () => ({ status: 500 });
    const w = workerWith({ retryDelaysSeconds: [30] });
    const e = await enqueueOne(cust[ZX_EAST], 6);
    await w.drain();
    clock += 60_000;
    await w.drain();
    const dead = await t.call(`${D}/getWebhookDeliveryDetail`, { deliveryId: e!.deliveryId }, { token: sub });
    expect(dead.body.data.delivery.state).toBe(WebhookDeliveryState.Dead);

    rx.behave = () => ({ status: 204 });
    const before = rx.requests.length;
    const r = await t.call(`${D}/replayWebhookDelivery`, { deliveryId: e!.deliveryId }, { token: sub });
    expect(r.body.success, r.body.msg).toBe(true);
    expect(r.body.data).toMatchObject({ state: WebhookDeliveryState.Pending, series: 2, attempts: 0, totalAttempts: 2, eventId: e!.eventId });
    const [a] = await q<{ before: { state: number }; after: { state: number; replayed: boolean } }>(
      `select before, after from audit_log where entity = 'webhookDelivery' and entity_id = $1`, [String(e!.deliveryId)]);
    expect(a.before.state).toBe(WebhookDeliveryState.Dead);
    expect(a.after).toMatchObject({ state: WebhookDeliveryState.Pending, replayed: true });
    clock = Date.now();
    const done = await w.drain();
    expect(done.map((x) => x.state)).toEqual([WebhookDeliveryState.Delivered]);
    const got = rx.requests.slice(before);
    expect(got.map((x) => x.eventId)).toEqual([e!.eventId]);
    expect(got[0].headers['x-lynx-attempt']).toBe('1');
    const d = await t.call(`${D}/getWebhookDeliveryDetail`, { deliveryId: e!.deliveryId }, { token: ent });
    expect(d.body.data.attempts.map((x: { series: number; attemptNo: number; outcome: number }) => [x.series, x.attemptNo, x.outcome])).toEqual([
      [2, 1, WebhookAttemptOutcome.Success], [1, 2, WebhookAttemptOutcome.HttpError], [1, 1, WebhookAttemptOutcome.HttpError],
    ]);

    // delivered: nothing to replay, in the reader's language
    const again = await t.call(`${D}/replayWebhookDelivery`, { deliveryId: e!.deliveryId }, { token: ent, lang: 'zh' });
    expect(again.body).toMatchObject({ success: false, errorCode: ErrorCode.WebhookNotReplayable });
    expect(again.body.msg).toContain('已送达');
    const againEn = await t.call(`${D}/replayWebhookDelivery`, { deliveryId: e!.deliveryId }, { token: ent });
    expect(againEn.body.msg).toBe('This delivery is "Delivered": only a retrying or dead-letter delivery can be replayed');

    // a failed one whose customer has removed its address since: nowhere to send
    rx.behave = () => ({ status: 500 });
    const f = await enqueueOne(cust[ZX], 7);
    await w.drain();
    await setCallback(ent, null);
    try {
      const no = await t.call(`${D}/replayWebhookDelivery`, { deliveryId: f!.deliveryId }, { token: ent });
      expect(no.body).toMatchObject({ success: false, errorCode: ErrorCode.WebhookNoCallback });
      // the retry due meanwhile ends in the dead letter: no address, no point retrying
      clock += 3_600_000;
      const [x] = await w.drain();
      expect(x).toMatchObject({ state: WebhookDeliveryState.Dead, result: { outcome: WebhookAttemptOutcome.NoAddress } });
    } finally {
      await setCallback(ent, rx.url);
    }
  });

  it('two workers never send the same delivery at once; each event arrives exactly once', async () => {
    rx.behave = () => ({ status: 200, delayMs: 100 });
    const before = rx.requests.length;
    const evs = await t.database.db.transaction((tx) => enqueueEvents(tx, Array.from({ length: 24 }, (_, i) => cardEvent(cust[ZX], 100 + i))));
    expect(evs).toHaveLength(24);
    const a = workerWith({ concurrency: 5 });
    const b = workerWith({ concurrency: 5 });
    rx.maxConcurrentPerEvent = 0;
    const [da, db] = await Promise.all([a.drain(), b.drain()]);
    expect(da.length + db.length).toBe(24);
    if (backend === 'postgres') expect(Math.min(da.length, db.length)).toBeGreaterThan(0);
    const got = rx.requests.slice(before);
    expect(got).toHaveLength(24);
    expect(new Set(got.map((r) => r.eventId)).size).toBe(24);
    expect(rx.maxConcurrentPerEvent).toBe(1);
    const [{ n }] = await q<{ n: string }>(`select count(*) n from webhook_attempts where delivery_id = any($1::bigint[])`, [evs.map((e) => e.deliveryId)]);
    expect(Number(n)).toBe(24);
  });

  it('a worker that dies after claiming loses nothing: its lease runs out, the next worker closes the attempt as interrupted and sends', async () => {
    const e = await enqueueOne(cust[ZX], 8);
    const dying = workerWith();
    const claimed = await dying.claim(10);
    expect(claimed.map((c) => Number(c.delivery_id))).toEqual([e!.deliveryId]);
    // killed here: no answer recorded. Another worker leaves it alone while the lease lives …
    const next = workerWith();
    expect(await next.drain()).toEqual([]);
    // … and takes it over once the lease has run out
    clock = Date.now() + next.leaseMs + 1000;
    const before = rx.requests.length;
    const done = await next.drain();
    expect(done).toMatchObject([{ deliveryId: e!.deliveryId, attemptNo: 2, state: WebhookDeliveryState.Delivered }]);
    expect(rx.requests.slice(before).map((r) => r.eventId)).toEqual([e!.eventId]);
    const d = await t.call(`${D}/getWebhookDeliveryDetail`, { deliveryId: e!.deliveryId }, { token: ent });
    expect(d.body.data.attempts.map((x: { attemptNo: number; outcome: number }) => [x.attemptNo, x.outcome])).toEqual([
      [2, WebhookAttemptOutcome.Success], [1, WebhookAttemptOutcome.Interrupted],
    ]);
  });

  it('the running worker delivers on its own (the loop), and stops cleanly', async () => {
    const w = new WebhookWorker(t.database.db, secretBoxFor(t.config), { ...DEFAULT_WEBHOOK_SETTINGS, pollMs: 50 });
    w.start();
    try {
      const e = await enqueueOne(cust[ZX], 9);
      const until = Date.now() + 10_000;
      while (!rx.delivered.has(e!.eventId) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(rx.delivered.has(e!.eventId)).toBe(true);
    } finally {
      await w.stop();
    }
  });

  it('routes: scoped to the caller\'s tenant (staff see all), filtered by state, type, event id and days', async () => {
    await setCallback(chan, rx.url);
    const mark = await q<{ m: string }>('select coalesce(max(delivery_id), 0) m from webhook_deliveries');
    const zx = await enqueueOne(cust[ZX], 10);
    const east = await enqueueOne(cust[ZX_EAST], 11);
    const hd = await enqueueOne(cust[HD], 12);
    expect(hd).not.toBeNull();
    const ids = async (token: string, filters: object = {}) => {
      const r = await t.call(`${D}/getWebhookDeliveryListPage`, { pageSize: 500, ...filters }, { token });
      expect(r.body.success, r.body.msg).toBe(true);
      return (r.body.data.list as { deliveryId: number }[]).map((x) => x.deliveryId).filter((id) => id > Number(mark[0].m)).sort((a, b) => a - b);
    };
    const all = [zx!.deliveryId, east!.deliveryId, hd!.deliveryId];
    expect(await ids(admin)).toEqual(all);
    expect(await ids(ent)).toEqual([zx!.deliveryId, east!.deliveryId]);
    expect(await ids(sub)).toEqual([east!.deliveryId]);
    expect(await ids(chan)).toEqual([hd!.deliveryId]);
    // another tenant's delivery does not exist for the caller, whether read or replayed
    for (const [token, id] of [[ent, hd!.deliveryId], [sub, zx!.deliveryId], [chan, east!.deliveryId]] as const) {
      const d = await t.call(`${D}/getWebhookDeliveryDetail`, { deliveryId: id }, { token });
      expect(d.body.errorCode).toBe(ErrorCode.NotFound);
      const r = await t.call(`${D}/replayWebhookDelivery`, { deliveryId: id }, { token });
      expect(r.body.errorCode).toBe(ErrorCode.NotFound);
    }
    expect(await ids(admin, { state: WebhookDeliveryState.Pending })).toEqual(all);
    expect(await ids(admin, { state: WebhookDeliveryState.Dead })).toEqual([]);
    expect(await ids(admin, { eventType: WebhookEventType.SmsReceived })).toEqual([]);
    expect(await ids(admin, { eventType: WebhookEventType.CardStateChanged, custId: cust[HD] })).toEqual([hd!.deliveryId]);
    expect(await ids(ent, { eventId: east!.eventId })).toEqual([east!.deliveryId]);
    expect(await ids(ent, { custId: cust[HD] })).toEqual([]);
    const today = businessDay(Date.now());
    expect(await ids(admin, { createdFrom: today, createdTo: today })).toEqual(all);
    expect(await ids(admin, { createdFrom: '2020-01-01', createdTo: '2020-01-31' })).toEqual([]);
    const bad = await t.call(`${D}/getWebhookDeliveryListPage`, { createdFrom: '2026-02-01', createdTo: '2026-01-01' }, { token: admin });
    expect(bad.body.errorCode).toBe(ErrorCode.WebhookDateRange);
    // the signing secret of a customer outside the caller's tree is not found either
    const s = await t.call('openapi/webhook/secret/query', { custId: cust[HD] }, { token: ent });
    expect(s.body.errorCode).toBe(ErrorCode.NotFound);
    const rr = await t.call('openapi/webhook/secret/rotate', { custId: cust[ZX] }, { token: chan });
    expect(rr.body.errorCode).toBe(ErrorCode.NotFound);
    // without a session: refused
    const anon = await t.call(`${D}/getWebhookDeliveryListPage`, {});
    expect(anon.body.errorCode).toBe(ErrorCode.SessionInvalid);
    await setCallback(chan, null);
  });

  it('publishes every event type\'s versioned payload schema in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    const doc = res.json();
    for (const name of Object.values(webhook.WEBHOOK_EVENT_NAME)) expect(doc.webhooks[name].post.requestBody).toBeTruthy();
    expect(Object.keys(doc.webhooks).sort()).toEqual(['automation.alarm', 'batch.finished', 'bill.published', 'card.state_changed', 'sms.delivery_report', 'sms.received']);
    expect(doc.components.schemas.CardStateChangedV1.properties.toState).toBeTruthy();
    expect(doc.components.schemas.BillPublishedV1Event.properties.data.$ref).toBe('#/components/schemas/BillPublishedV1');
    expect(doc.paths['/api/cmp/core/alarm/webhook/replayWebhookDelivery'].post['x-permissions']).toEqual([5020000]);
  });
});

