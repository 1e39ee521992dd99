import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CardState, ErrorCode, WebhookEventType, businessDay } from '@lynx/contract';
import { backends, callOk, ownerOf, startTestApp, waitFor, type TestApp } from '../../../test/harness.ts';
import { subscribedCallback } from './subscriptions.ts';

/*
 * The open API enforced (issue 15, docs/open-api.md): calls signed with a customer's AppKey, the IP whitelist, replay
 * protection, usage per key and day, and the ability subscription. Signatures are computed here by hand from the
 * documented recipe with node:crypto, independently of the server's code.
 */

const LIST = 'core/sim/simQuery/getSimListPage';
const DETAIL = 'core/sim/simDetails/getParamsByIccid';
const CHANGE = 'core/sim/singleCard/changeStatus';

/** The reference signer: exactly the recipe of docs/open-api.md. */
function sign(secret: string, method: string, target: string, timestamp: string, nonce: string, body: string): string {
  const bodyHash = crypto.createHash('sha256').update(body, 'utf8').digest('hex');
  const text = `${method}\n${target}\n${timestamp}\n${nonce}\n${bodyHash}`;
  return crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(text, 'utf8')).digest('hex');
}

interface SignedOpts {
  ip?: string;
  lang?: 'zh' | 'en';
  timestamp?: number;
  nonce?: string;
  /** sign this body but send `body` */
  signedBody?: string;
  secret?: string;
  headers?: Record<string, string>;
}

describe.each(backends)('open API enforced (%s)', (backend) => {
  let t: TestApp;
  let ent: string;
  let sub: string;
  let channel: string;
  let admin: string;
  let entCust: number;
  let appKey: string;
  let appSecret: string;

  const signed = async (appKeyUsed: string, endpoint: string, payload: object, o: SignedOpts = {}) => {
    const target = `/api/cmp/${endpoint}?lang=${o.lang ?? 'en'}`;
    const body = JSON.stringify(payload);
    const timestamp = String(o.timestamp ?? Date.now());
    const nonce = o.nonce ?? crypto.randomBytes(16).toString('hex');
    const signature = sign(o.secret ?? appSecret, 'POST', target, timestamp, nonce, o.signedBody ?? body);
    const res = await t.app.inject({
      method: 'POST', url: target, payload: body, remoteAddress: o.ip ?? '203.0.113.7',
      headers: { 'content-type': 'application/json', 'x-app-key': appKeyUsed, 'x-timestamp': timestamp, 'x-nonce': nonce, 'x-signature': signature, ...o.headers },
    });
    return { status: res.statusCode, body: res.json(), nonce, timestamp };
  };
  const usageToday = async (token: string, custId?: number) => {
    const today = businessDay(Date.now());
    const data = await callOk(t, 'openapi/usage/list', { startDay: today, endDay: today, ...(custId && { custId }) }, token);
    return data.list.find((r: any) => r.appKey === appKey) ?? { calls: 0, errors: 0, refused: 0 };
  };

  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
    [ent, sub, channel, admin] = await Promise.all(['enterprise', 'subcustomer', 'channel', 'admin'].map((n) => t.login(n)));
    entCust = (await ownerOf(t, 'enterprise')).cust_id;
    const key = await callOk(t, 'openapi/key/rotate', {}, ent);
    appKey = key.appKey;
    appSecret = key.appSecret;
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('a new key keeps its secret sealed and can sign; the secret is never stored in clear', async () => {
    const shown = await callOk(t, 'openapi/key/query', {}, ent);
    expect(shown).toMatchObject({ appKey, canSign: true });
    const [row] = await t.database.sql.query<{ secret_sealed: string; secret_hash: string }>('select secret_sealed, secret_hash from api_keys where app_key = $1', [appKey]);
    expect(row.secret_sealed).toMatch(/^v1:/);
    expect(row.secret_sealed).not.toContain(appSecret);
    expect(row.secret_hash).toBe(crypto.createHash('sha256').update(appSecret).digest('hex'));
  });

  it("a correctly signed call succeeds and sees exactly the customer's scope", async () => {
    const viaSession = await callOk(t, LIST, { pageSize: 500 }, ent);
    const r = await signed(appKey, LIST, { pageSize: 500 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, errorCode: null });
    expect(r.body.data.total).toBe(viaSession.total);
    expect(r.body.data.total).toBeGreaterThan(0);
    const own = r.body.data.list[0].iccid as string;
    expect((await signed(appKey, DETAIL, { iccid: own })).body.success).toBe(true);
    // a card of another first-level customer is not found, as for the customer's own accounts
    const [other] = await t.database.sql.query<{ iccid: string }>(
      'select iccid from cards where root_cust_id is not null and root_cust_id <> $1 limit 1', [(await ownerOf(t, 'enterprise')).root_cust_id]);
    expect(other).toBeTruthy();
    expect((await signed(appKey, DETAIL, { iccid: other.iccid })).body.errorCode).toBe(ErrorCode.NotFound);
    // the API log says who called
    await t.deps.apiLog.flush();
    const [log] = await t.database.sql.query<{ login_name: string; cust_id: number }>(
      "select login_name, cust_id from api_log where path = $1 and login_name like 'api:%' order by created_at desc limit 1", [`/api/cmp/${LIST}`]);
    expect(log).toMatchObject({ login_name: `api:${appKey}`, cust_id: entCust });
  });

  it('refuses a wrong signature, a changed body, a stale or future timestamp, a replayed nonce and an unknown key', async () => {
    const wrong = await signed(appKey, LIST, {}, { secret: `${appSecret}x` });
    expect(wrong).toMatchObject({ status: 401, body: { success: false, errorCode: ErrorCode.OpenApiSignatureInvalid } });
    const tampered = await signed(appKey, LIST, { pageSize: 500 }, { signedBody: JSON.stringify({ pageSize: 1 }) });
    expect(tampered.body.errorCode).toBe(ErrorCode.OpenApiSignatureInvalid);
    const stale = await signed(appKey, LIST, {}, { timestamp: Date.now() - 5 * 60_000 - 2_000, lang: 'zh' });
    expect(stale.body.errorCode).toBe(ErrorCode.OpenApiTimestampStale);
    expect(stale.body.msg).toContain('5 分钟');
    expect((await signed(appKey, LIST, {}, { timestamp: Date.now() + 6 * 60_000 })).body.errorCode).toBe(ErrorCode.OpenApiTimestampStale);
    // inside the window it passes
    expect((await signed(appKey, LIST, {}, { timestamp: Date.now() - 4 * 60_000 })).body.success).toBe(true);

    const first = await signed(appKey, LIST, {});
    expect(first.body.success).toBe(true);
    const replay = await signed(appKey, LIST, {}, { nonce: first.nonce, timestamp: Number(first.timestamp) });
    expect(replay).toMatchObject({ status: 401, body: { errorCode: ErrorCode.OpenApiNonceReused } });
    // a refused call does not use its nonce up
    const nonce = crypto.randomBytes(16).toString('hex');
    expect((await signed(appKey, LIST, {}, { nonce, secret: 'nope' })).body.errorCode).toBe(ErrorCode.OpenApiSignatureInvalid);
    expect((await signed(appKey, LIST, {}, { nonce })).body.success).toBe(true);

    expect((await signed('lx0000000000000000', LIST, {})).body).toMatchObject({ success: false, errorCode: ErrorCode.OpenApiKeyUnknown });
    const noNonce = await signed(appKey, LIST, {}, { nonce: 'short' });
    expect(noNonce.body).toMatchObject({ errorCode: ErrorCode.OpenApiSignedHeaders });
    expect(noNonce.body.msg).toContain('X-Nonce');
    // without a token and without a signature the call is a session-less call as before
    expect((await t.call(LIST, {})).body.errorCode).toBe(ErrorCode.SessionInvalid);
  });

  it('a signed state change goes through the card lifecycle and is audited as the key', async () => {
    const { root_cust_id: root } = await ownerOf(t, 'enterprise');
    const [card] = await t.database.sql.query<{ iccid: string }>(
      'select iccid from cards where root_cust_id = $1 and state = $2 and goods_release_id is not null order by iccid limit 1', [root, CardState.Activated]);
    expect(card).toBeTruthy();
    const r = await signed(appKey, CHANGE, { iccid: card.iccid, action: 'deactivate', reason: 'open API test' });
    expect(r.body, r.body.msg).toMatchObject({ success: true, data: { iccid: card.iccid, fromState: CardState.Activated } });
    const [row] = await t.database.sql.query<{ login_name: string; cust_id: number }>(
      "select login_name, cust_id from audit_log where entity = 'card' and entity_id = $1 order by created_at desc limit 1", [card.iccid]);
    expect(row.login_name).toBe(`api:${appKey}`);
    // the lifecycle rules hold: the same change again is refused by the card service, not by the gate
    const again = await signed(appKey, CHANGE, { iccid: card.iccid, action: 'deactivate' });
    expect(again.body.success).toBe(false);
    expect([ErrorCode.OpenApiSignatureInvalid, ErrorCode.OpenApiNonceReused, ErrorCode.SessionInvalid]).not.toContain(again.body.errorCode);
  });

  it('exposes only the open API endpoints, each with its permission code', async () => {
    const closed = await signed(appKey, 'openapi/key/query', {});
    expect(closed).toMatchObject({ status: 403, body: { errorCode: ErrorCode.OpenApiEndpointClosed } });
    expect(closed.body.msg).toContain('openapi/key/query');
  });

  it('the OpenAPI document marks the open endpoints and names the signature headers', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
    const op = doc.paths[`/api/cmp/${LIST}`].post;
    expect(op['x-open-api']).toBe(true);
    expect(op.security).toEqual([{ token: [] }, { signedAppKey: [], signedTimestamp: [], signedNonce: [], signedSignature: [] }]);
    expect(doc.paths['/api/cmp/openapi/key/query'].post['x-open-api']).toBeUndefined();
    expect(Object.values(doc.components.securitySchemes).map((x: any) => x.name)).toEqual(expect.arrayContaining(['X-App-Key', 'X-Timestamp', 'X-Nonce', 'X-Signature']));
    expect(doc.info.description).toContain('HMAC-SHA256');
  });

  it('a key made before signed calls (hash only) cannot sign and says to rotate it', async () => {
    const chDemo = await callOk(t, 'openapi/key/rotate', {}, channel);
    await t.database.sql.query('update api_keys set secret_sealed = null where app_key = $1', [chDemo.appKey]);
    expect((await callOk(t, 'openapi/key/query', {}, channel)).canSign).toBe(false);
    const old = await signed(chDemo.appKey, LIST, {}, { secret: chDemo.appSecret, lang: 'zh' });
    expect(old).toMatchObject({ status: 401, body: { errorCode: ErrorCode.OpenApiKeyCannotSign } });
    expect(old.body.msg).toContain('轮换');
    const rotated = await callOk(t, 'openapi/key/rotate', {}, channel);
    expect((await signed(rotated.appKey, LIST, {}, { secret: rotated.appSecret })).body.success).toBe(true);
  });

  it('IP whitelist: refused outside every open range when enabled, accepted inside; disabled accepts all', async () => {
    const range = await callOk(t, 'openapi/userIp/save', { startIp: '10.1.0.1', endIp: '10.1.0.9' }, ent);
    await callOk(t, 'openapi/userIp/save', { startIp: '192.0.2.44' }, ent);
    // disabled: any address
    expect((await signed(appKey, LIST, {}, { ip: '198.51.100.1' })).body.success).toBe(true);
    await t.call('openapi/config/save', { ipWhitelistEnabled: true }, { token: ent });
    const outside = await signed(appKey, LIST, {}, { ip: '10.1.0.10', lang: 'zh' });
    expect(outside).toMatchObject({ status: 403, body: { success: false, errorCode: ErrorCode.OpenApiIpRefused } });
    expect(outside.body.msg).toContain('10.1.0.10');
    expect(outside.body.msg).toContain('白名单');
    expect((await signed(appKey, LIST, {}, { ip: '10.1.0.10' })).body.msg).toContain('outside');
    expect((await signed(appKey, LIST, {}, { ip: '10.1.0.1' })).body.success).toBe(true);
    expect((await signed(appKey, LIST, {}, { ip: '10.1.0.9' })).body.success).toBe(true);
    expect((await signed(appKey, LIST, {}, { ip: '::ffff:10.1.0.5' })).body.success).toBe(true);
    expect((await signed(appKey, LIST, {}, { ip: '192.0.2.44' })).body.success).toBe(true);
    expect((await signed(appKey, LIST, {}, { ip: '192.0.2.45' })).body.errorCode).toBe(ErrorCode.OpenApiIpRefused);
    expect((await signed(appKey, LIST, {}, { ip: '2001:db8::1' })).body.errorCode).toBe(ErrorCode.OpenApiIpRefused);
    // IPv6: an address, a CIDR block of each family (stored in canonical form); an IPv4-mapped caller matches IPv4 blocks
    const v6 = await callOk(t, 'openapi/userIp/save', { startIp: '2001:DB8:0:0:0:0:0:7' }, ent);
    await callOk(t, 'openapi/userIp/save', { startIp: '2001:db8:aa::/48' }, ent);
    await callOk(t, 'openapi/userIp/save', { startIp: '203.0.113.0/24' }, ent);
    await callOk(t, 'openapi/userIp/save', { startIp: 'fd00::10', endIp: 'fd00::1f' }, ent);
    const [stored] = await t.database.sql.query<{ start_ip: string }>('select start_ip from user_ips where id = $1', [v6.id]);
    expect(stored.start_ip).toBe('2001:db8::7');
    expect((await signed(appKey, LIST, {}, { ip: '2001:db8::1' })).body.errorCode).toBe(ErrorCode.OpenApiIpRefused);
    expect((await signed(appKey, LIST, {}, { ip: '2001:db8::7' })).body.success).toBe(true);
    expect((await signed(appKey, LIST, {}, { ip: '2001:db8:aa:ffff::1' })).body.success).toBe(true);
    expect((await signed(appKey, LIST, {}, { ip: '2001:db8:ab::1' })).body.errorCode).toBe(ErrorCode.OpenApiIpRefused);
    expect((await signed(appKey, LIST, {}, { ip: 'fd00::1a' })).body.success).toBe(true);
    expect((await signed(appKey, LIST, {}, { ip: 'fd00::20' })).body.errorCode).toBe(ErrorCode.OpenApiIpRefused);
    expect((await signed(appKey, LIST, {}, { ip: '203.0.113.200' })).body.success).toBe(true);
    expect((await signed(appKey, LIST, {}, { ip: '::ffff:203.0.113.9' })).body.success).toBe(true);
    expect((await signed(appKey, LIST, {}, { ip: '::ffff:203.0.114.9' })).body.errorCode).toBe(ErrorCode.OpenApiIpRefused);
    // bad entries: a clear message in both languages, nothing stored
    const before = (await t.database.sql.query<{ n: string }>('select count(*) n from user_ips'))[0].n;
    const bad: [Record<string, unknown>, string, string][] = [
      [{ startIp: '2001:db8::g' }, 'IP 地址或网段格式错误：2001:db8::g', 'Invalid IP address or CIDR block: 2001:db8::g'],
      [{ startIp: '10.0.0.0/33' }, 'IP 地址或网段格式错误：10.0.0.0/33', 'Invalid IP address or CIDR block: 10.0.0.0/33'],
      [{ startIp: '10.0.0.1/24' }, '网络地址应为 10.0.0.0/24', 'Network address should be 10.0.0.0/24'],
      [{ startIp: '2001:db8::1/32' }, '网络地址应为 2001:db8::/32', 'Network address should be 2001:db8::/32'],
      [{ startIp: '10.0.0.0/24', endIp: '10.0.0.9' }, '网段（CIDR）本身即是范围', 'A CIDR block is a range already'],
      [{ startIp: '10.0.0.1', endIp: '2001:db8::1' }, '起始 IP 与结束 IP 须同为 IPv4 或同为 IPv6', 'The start and end IP must both be IPv4 or both IPv6'],
      [{ startIp: 'fd00::9', endIp: 'fd00::1' }, '结束 IP 必须大于起始 IP', 'End IP must be after start IP'],
    ];
    for (const [body, zh, en] of bad) {
      const z = await t.call('openapi/userIp/save', body, { token: ent, lang: 'zh' });
      expect(z.body.errorCode, JSON.stringify(body)).toBe(ErrorCode.Validation);
      expect(z.body.msg).toContain(zh);
      expect((await t.call('openapi/userIp/save', body, { token: ent, lang: 'en' })).body.msg).toContain(en);
    }
    expect((await t.database.sql.query<{ n: string }>('select count(*) n from user_ips'))[0].n).toBe(before);
    // a stopped range no longer opens
    await callOk(t, 'openapi/userIp/stop', { id: range.id }, ent);
    expect((await signed(appKey, LIST, {}, { ip: '10.1.0.5' })).body.errorCode).toBe(ErrorCode.OpenApiIpRefused);
    // the refusal is in the API log with the caller's address
    await t.deps.apiLog.flush();
    const [log] = await t.database.sql.query<{ error_code: number; ip: string; status: number }>(
      'select error_code, ip, status from api_log where error_code = $1 order by created_at desc limit 1', [ErrorCode.OpenApiIpRefused]);
    expect(log).toMatchObject({ error_code: ErrorCode.OpenApiIpRefused, ip: '10.1.0.5', status: 403 });
    await t.call('openapi/config/save', { ipWhitelistEnabled: false }, { token: ent });
    expect((await signed(appKey, LIST, {}, { ip: '10.1.0.5' })).body.success).toBe(true);
  });

  it('usage per key and day counts calls, errors and refusals', async () => {
    // the earlier calls' counts land when they are answered: let them settle before taking the baseline
    await new Promise((r) => setTimeout(r, 300));
    const before = await usageToday(ent);
    await signed(appKey, LIST, {}); // ok
    await signed(appKey, LIST, {}); // ok
    await signed(appKey, DETAIL, { iccid: '89860000000000000001' }); // runs, answers "not found": an error
    await signed(appKey, LIST, {}, { secret: 'wrong' }); // refused
    await signed('lx0000000000000000', LIST, {}); // unknown key: no one's usage
    const after = await waitFor(async () => {
      const u = await usageToday(ent);
      return u.calls - before.calls >= 4 ? u : null;
    }, 10_000);
    expect({ calls: after.calls - before.calls, errors: after.errors - before.errors, refused: after.refused - before.refused }).toEqual({ calls: 4, errors: 1, refused: 1 });
    // staff see it for the customer they name; exported as a file
    expect((await usageToday(admin, entCust)).calls).toBe(after.calls);
    const task = await callOk(t, 'core/downloadTask/createExport', { source: 'openapi/usage/list', filters: { custId: entCust } }, admin);
    expect(task.direct).toBe(true);
    // a range is validated
    const bad = await t.call('openapi/usage/list', { startDay: '2026-03-01', endDay: '2026-02-01' }, { token: ent, lang: 'zh' });
    expect(bad.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
    expect(bad.body.msg).toContain('结束日期不能早于开始日期');
    expect((await t.call('openapi/usage/list', { startDay: '2024-01-01', endDay: '2026-01-01' }, { token: ent })).body.errorCode).toBe(ErrorCode.Validation);
  });

  it("a second-level customer or another customer cannot see a customer's keys or usage", async () => {
    for (const token of [sub, channel]) {
      expect((await t.call('openapi/usage/list', { custId: entCust }, { token })).body.errorCode).toBe(ErrorCode.NotFound);
      expect((await t.call('openapi/key/query', { custId: entCust }, { token })).body.errorCode).toBe(ErrorCode.NotFound);
      expect((await t.call('openapi/subscribe/query', { custId: entCust }, { token })).body.errorCode).toBe(ErrorCode.NotFound);
    }
    // the second-level customer's own usage list holds none of its parent's keys
    const own = await callOk(t, 'openapi/usage/list', {}, sub);
    expect(own.list.some((r: any) => r.appKey === appKey)).toBe(false);
  });

  it('a second-level customer key sees only its own cards', async () => {
    const key = await callOk(t, 'openapi/key/rotate', {}, sub);
    const viaSession = await callOk(t, LIST, { pageSize: 500 }, sub);
    const r = await signed(key.appKey, LIST, { pageSize: 500 }, { secret: key.appSecret });
    expect(r.body.success).toBe(true);
    expect(r.body.data.total).toBe(viaSession.total);
    const subCust = (await ownerOf(t, 'subcustomer')).cust_id;
    expect(r.body.data.list.length).toBeGreaterThan(0);
    expect(r.body.data.list.every((c: any) => c.custId === subCust)).toBe(true);
  });

  it('ability subscription: one callback address, known event types, an address before events', async () => {
    await t.call('openapi/config/save', { callbackUrl: null }, { token: ent });
    const noAddress = await t.call('openapi/subscribe/save', { eventTypes: [WebhookEventType.CardStateChanged] }, { token: ent, lang: 'en' });
    expect(noAddress.body).toMatchObject({ success: false, errorCode: ErrorCode.OpenApiSubscribeNoAddress });
    expect(noAddress.body.msg).toBe('Enter the callback address before subscribing to events');
    const list = await t.call('openapi/subscribe/save', { callbackUrl: 'https://a.example.com/hook;https://b.example.com/hook', eventTypes: [1] }, { token: ent, lang: 'en' });
    expect(list.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
    expect(list.body.msg).toContain('Enter one callback address only');
    const unknown = await t.call('openapi/subscribe/save', { callbackUrl: 'https://a.example.com/hook', eventTypes: [42] }, { token: ent });
    expect(unknown.body.errorCode).toBe(ErrorCode.Validation);

    await callOk(t, 'openapi/subscribe/save', {
      callbackUrl: 'https://hooks.example.com/lynx', eventTypes: [WebhookEventType.SmsReceived, WebhookEventType.CardStateChanged, WebhookEventType.SmsReceived],
    }, ent);
    expect(await callOk(t, 'openapi/subscribe/query', {}, ent)).toMatchObject({
      custId: entCust, callbackUrl: 'https://hooks.example.com/lynx', eventTypes: [WebhookEventType.CardStateChanged, WebhookEventType.SmsReceived],
    });
    expect(await subscribedCallback(t.deps.db, entCust, WebhookEventType.CardStateChanged)).toEqual({ url: 'https://hooks.example.com/lynx', keyId: appKey });
    expect(await subscribedCallback(t.deps.db, entCust, WebhookEventType.BillPublished)).toBeNull();
    // staff act for a named customer; the change is audited
    await callOk(t, 'openapi/subscribe/save', { custId: entCust, eventTypes: [WebhookEventType.BillPublished] }, admin);
    expect(await subscribedCallback(t.deps.db, entCust, WebhookEventType.BillPublished)).toEqual({ url: 'https://hooks.example.com/lynx', keyId: appKey });
    expect(await subscribedCallback(t.deps.db, entCust, WebhookEventType.CardStateChanged)).toBeNull();
    const [audit] = await t.database.sql.query<{ n: number }>("select count(*)::int as n from audit_log where entity = 'apiSubscription'");
    expect(audit.n).toBe(2);
    // no address: nothing goes anywhere
    await t.call('openapi/config/save', { callbackUrl: null }, { token: ent });
    expect(await subscribedCallback(t.deps.db, entCust, WebhookEventType.BillPublished)).toBeNull();
  });
});
