import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { endpoints, pathOf, ErrorCode, isPermissionCode } from '@lynx/contract';
import * as schema from '../src/db/schema.ts';
import { backends, startTestApp, waitFor, type TestApp } from './harness.ts';

describe.each(backends)('platform on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(backend, {}, { jobs: false });
  });
  afterAll(() => t?.stop());

  it('binds every endpoint of the contract, each with a permission code or an explicit public/session rule', () => {
    for (const e of endpoints) {
      expect(t.app.hasRoute({ method: e.method, url: pathOf(e) }), e.name).toBe(true);
      expect(e.summary.zh.length && e.summary.en.length, e.name).toBeTruthy();
      for (const p of e.perm ?? []) expect(isPermissionCode(p), `${e.name} perm ${p}`).toBe(true);
    }
  });

  it('the SQL migrations create every column the Drizzle tables declare', async () => {
    const rows = await t.database.sql.query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns where table_schema = 'public'`,
    );
    const have = new Set(rows.map((r) => `${r.table_name}.${r.column_name}`));
    const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => typeof v === 'object' && v !== null && Symbol.for('drizzle:IsDrizzleTable') in v);
    expect(tables.length).toBeGreaterThan(10);
    for (const table of tables) {
      const cfg = getTableConfig(table);
      for (const col of cfg.columns) expect(have.has(`${cfg.name}.${col.name}`), `${cfg.name}.${col.name}`).toBe(true);
    }
  });

  it('answers unknown API paths with a 404 envelope in the caller language', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/cmp/no/such/thing?lang=zh' });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ success: false, errorCode: ErrorCode.NotFound, msg: '记录不存在' });
  });

  it('refuses a call whose permission code the role lacks (20002)', async () => {
    const sub = await t.login('subcustomer');
    const r = await t.call('system/apiLog/getListPage', {}, { token: sub, lang: 'zh' });
    expect(r.body).toMatchObject({ success: false, errorCode: ErrorCode.PermissionDenied, msg: '没有权限执行此操作' });
  });

  it('checks the session before validating the body', async () => {
    const r = await t.call('core/account/account/getAccountListPage', { bogus: 1 });
    expect(r.body.errorCode).toBe(ErrorCode.SessionInvalid);
  });

  it('names the field in schema errors, in both languages, and refuses unknown fields', async () => {
    const admin = await t.login('admin');
    const zh = await t.call('core/account/account/getAccountListPage', { pageSize: 501 }, { token: admin, lang: 'zh' });
    expect(zh.status).toBe(400);
    expect(zh.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
    expect(zh.body.msg).toBe('字段 pageSize：不能大于 500');
    const en = await t.call('core/account/account/getAccountListPage', { pageSize: 501 }, { token: admin, lang: 'en' });
    expect(en.body.msg).toBe('Field pageSize: must not be greater than 500');
    const unknown = await t.call('core/account/account/getAccountListPage', { pageSize: 10, hacker: true }, { token: admin });
    expect(unknown.body).toMatchObject({ errorCode: ErrorCode.UnknownField, msg: 'Unknown field: hacker' });
    const missing = await t.call('core/account/customer/saveCustomer', { adminName: 'a', adminEmail: 'a@b.cn', adminPhone: '13800000000' }, { token: admin });
    expect(missing.body.msg).toBe('Field custName: is required');
    const wrongType = await t.call('core/account/account/getAccountListPage', { current: '2' }, { token: admin });
    expect(wrongType.body.msg).toBe('Field current: must be of type integer');
  });

  it('refuses NUL characters as bad input naming the field (PostgreSQL text cannot hold them)', async () => {
    const admin = await t.login('admin');
    const r = await t.call('core/account/account/getAccountListPage', { loginName: 'a\u0000b' }, { token: admin });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ errorCode: ErrorCode.Validation, msg: 'Field loginName: must not contain NUL characters' });
    const nested = await t.call('core/downloadTask/createExport', { source: 'core/account/account/getAccountListPage', filters: { loginName: 'x\u0000' } }, { token: admin });
    expect(nested.body.msg).toBe('Field filters.loginName: must not contain NUL characters');
  });

  it('treats % and _ in text filters literally', async () => {
    const admin = await t.login('admin');
    const all = await t.call('core/account/account/getAccountListPage', { loginName: '_' }, { token: admin });
    expect(all.body.data.total).toBe(0);
    const pct = await t.call('core/account/customer/getCustomerListPage', { custName: '%' }, { token: admin });
    expect(pct.body.data.total).toBe(0);
    const some = await t.call('core/account/account/getAccountListPage', { loginName: 'ADM' }, { token: admin });
    expect(some.body.data.list.map((a: any) => a.loginName)).toEqual(['admin']);
  });

  it('keeps an API request log of who, path, status and duration', async () => {
    const admin = await t.login('admin');
    await t.call('core/account/account/getAccountListPage', {}, { token: admin });
    const r = await t.call('system/apiLog/getListPage', { path: 'getAccountListPage' }, { token: admin });
    expect(r.body.success).toBe(true);
    const row = r.body.data.list.find((x: any) => x.loginName === 'admin');
    expect(row).toMatchObject({ method: 'POST', path: '/api/cmp/core/account/account/getAccountListPage', status: 200 });
    expect(row.durationMs).toBeGreaterThan(0);
  });

  it('serves the OpenAPI document of every endpoint and its reference page', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const e of endpoints) expect(doc.paths[pathOf(e)]?.[e.method.toLowerCase()], e.name).toBeTruthy();
    const login = doc.paths['/api/cmp/base/oauth/user/login'].post;
    expect(login.requestBody.content['application/json'].schema.properties.loginName).toBeTruthy();
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui-bundle.js');
    const js = await t.app.inject({ method: 'GET', url: '/api/docs/assets/swagger-ui-bundle.js' });
    expect(js.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/assets/..%2Fpackage.json' })).statusCode).toBe(404);
  });

  it('writes the user behaviour log for login and logout', async () => {
    const token = await t.login('manager');
    await t.call('base/oauth/user/logout', {}, { token });
    const admin = await t.login('admin');
    const r = await t.call('core/account/operationLog/getListPage', { loginName: 'manager' }, { token: admin, lang: 'zh' });
    const actions = r.body.data.list.map((x: any) => x.action);
    expect(actions).toEqual(expect.arrayContaining([1, 2]));
  });

  it('rejects a mutation that forgets its audit record (the audit rule is enforced, not hoped for)', async () => {
    const { bind } = await import('../src/platform/http.ts');
    const { Type } = await import('@sinclair/typebox');
    const Fastify = (await import('fastify')).default;
    const { installHttpPlatform } = await import('../src/platform/http.ts');
    const app = Fastify();
    installHttpPlatform(app, t.deps);
    const e = { name: 'test/forgetful', method: 'POST', auth: 'public', perm: null, kind: 'mutation', tag: 't', summary: { zh: 'x', en: 'x' }, body: Type.Object({}), response: Type.Null() } as const;
    bind(app, t.deps, e, async () => null);
    const r = await app.inject({ method: 'POST', url: '/api/cmp/test/forgetful', payload: {} });
    expect(r.statusCode).toBe(500);
    await app.close();
  });

  it('refuses bursts with HTTP 429, errorCode 20006 and the retry time, per token and per IP', async () => {
    const t2 = await startTestApp(backend, { rateLimitPerToken: 5, rateLimitPerIp: 12 }, { jobs: false });
    try {
      const token = await t2.login('admin'); // 1 IP call
      const results = [];
      for (let i = 0; i < 6; i++) results.push(await t2.call('core/account/account/getIsResetPassword', {}, { token, ip: '10.9.9.9' }));
      expect(results.slice(0, 5).every((r) => r.body.success)).toBe(true);
      const limited = results[5];
      expect(limited.status).toBe(429);
      expect(limited.body.errorCode).toBe(ErrorCode.CallLimitExceeded);
      expect(limited.body.data.retryAfter).toBeGreaterThan(0);
      expect(limited.body.data.retryAfter).toBeLessThanOrEqual(60);
      expect(limited.body.msg).toMatch(/retry after \d+ seconds/);
      const zh = await t2.call('core/account/account/getIsResetPassword', {}, { token, lang: 'zh', ip: '10.9.9.8' });
      expect(zh.body.msg).toMatch(/请在 \d+ 秒后重试/);
      // per IP: anonymous calls from one address
      let last;
      for (let i = 0; i < 13; i++) last = await t2.call('base/oauth/user/captchaRequired', { loginName: 'x' }, { ip: '10.1.1.1' });
      expect(last!.status).toBe(429);
      const other = await t2.call('base/oauth/user/captchaRequired', { loginName: 'x' }, { ip: '10.1.1.2' });
      expect(other.status).toBe(200);
    } finally {
      await t2.stop();
    }
  });

  it('keeps rate-limit counters in Redis when REDIS_URL is set, shared by two server instances', async () => {
    const redisUrl = process.env.TEST_REDIS_URL;
    if (!redisUrl) return; // no Redis on this machine: the in-memory store is tested above
    const { Redis } = await import('ioredis');
    const { RedisCounterStore, checkRate } = await import('../src/platform/ratelimit.ts');
    const a = new RedisCounterStore(new Redis(redisUrl));
    const b = new RedisCounterStore(new Redis(redisUrl));
    const key = `test-${Math.random()}`;
    const limits = { perToken: 3, perIp: 1000, windowMs: 60_000 };
    expect(await checkRate(a, limits, '1.1.1.1', key)).toBeNull();
    expect(await checkRate(b, limits, '1.1.1.1', key)).toBeNull();
    expect(await checkRate(a, limits, '1.1.1.1', key)).toBeNull();
    const wait = await checkRate(b, limits, '1.1.1.1', key);
    expect(wait).toBeGreaterThan(0);
    await a.close();
    await b.close();
  });

  it('nightly maintenance drops old API log rows and dead sessions, keeps live ones', async () => {
    const { runMaintenance } = await import('../src/platform/maintenance.ts');
    const { apiLog } = await import('../src/platform/tables.ts');
    const { sessions } = await import('../src/modules/auth/tables.ts');
    const { eq } = await import('drizzle-orm');
    const live = await t.login('admin');
    const dead = await t.login('manager');
    await t.call('base/oauth/user/logout', {}, { token: dead });
    await t.deps.apiLog.flush();
    const old = new Date(Date.now() - 91 * 86_400_000);
    await t.deps.db.insert(apiLog).values({ method: 'POST', path: '/old', status: 200, durationMs: 1, createdAt: old });
    await runMaintenance(t.deps.db, 90);
    expect(await t.deps.db.select().from(apiLog).where(eq(apiLog.path, '/old'))).toHaveLength(0);
    expect((await t.deps.db.select().from(apiLog)).length).toBeGreaterThan(0);
    expect(await t.deps.db.select().from(sessions).where(eq(sessions.revokedAt, sessions.revokedAt))).toHaveLength(0);
    expect((await t.call('core/account/account/getIsResetPassword', {}, { token: live })).body.success).toBe(true);
  });

  it('waitFor helper sanity', async () => {
    expect(await waitFor(async () => 1)).toBe(1);
  });
});
