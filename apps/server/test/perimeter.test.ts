import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ErrorCode } from '@lynx/contract';
import { loadConfig, parseTrustedProxies } from '../src/config.ts';
import { backends, multipart, startTestApp, type TestApp } from './harness.ts';

const CSP =
  "default-src 'self';base-uri 'self';connect-src 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';" +
  "img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline'";
const FILE_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200)]);

type Headers = Record<string, string | string[] | number | undefined>;

/** The headers every answer carries, whatever answered it. */
function expectSecurityHeaders(h: Headers, csp = CSP) {
  expect(h['content-security-policy']).toBe(csp);
  expect(h['x-frame-options']).toBe('DENY');
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('no-referrer');
  expect(h['cross-origin-opener-policy']).toBe('same-origin');
  expect(h['cross-origin-resource-policy']).toBe('same-origin');
  // plain HTTP here: HSTS belongs to the TLS-terminating proxy
  expect(h['strict-transport-security']).toBeUndefined();
  expect(h['cross-origin-embedder-policy']).toBeUndefined();
}

describe('CMP_TRUSTED_PROXIES', () => {
  it('takes addresses, CIDR ranges and proxy-addr range names, and nothing by default', () => {
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies('')).toEqual([]);
    expect(parseTrustedProxies(' 10.0.0.5, 172.16.0.0/12,::1,fd00::/8 ,loopback')).toEqual(['10.0.0.5', '172.16.0.0/12', '::1', 'fd00::/8', 'loopback']);
    expect(loadConfig({}).trustedProxies).toEqual([]);
  });

  it.each(['proxy.local', '10.0.0.300', '10.0.0.0/33', '10.0.0.0/8/1', '10.0.0.0/x', '::1/129', '*'])('refuses %s at start-up, naming it', (bad) => {
    expect(() => loadConfig({ CMP_TRUSTED_PROXIES: `10.0.0.1,${bad}` })).toThrow(`CMP_TRUSTED_PROXIES: "${bad}" is not an IP address`);
  });
});

describe.each(backends)('the perimeter on %s', (backend) => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-web-'));
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><script type="module" src="/assets/app-1.js"></script>');
    fs.writeFileSync(path.join(webDist, 'assets/app-1.js'), 'console.log(1)');
    t = await startTestApp(backend, { webDist }, { jobs: false });
  });
  afterAll(async () => {
    await t?.stop();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  const ipsLogged = async (app: TestApp, pathPart: string) => {
    await app.deps.apiLog.flush();
    const rows = await app.database.sql.query<{ ip: string }>('select ip from api_log where path like $1', [`%${pathPart}%`]);
    return rows.map((r) => r.ip);
  };

  it('without trusted proxies, X-Forwarded-For names nobody: the rate limit, the API log and the session see the peer', async () => {
    const direct = await startTestApp(backend, { rateLimitPerIp: 5 }, { jobs: false });
    try {
      await notBehindProxy(direct);
    } finally {
      await direct.stop();
    }
  });

  const notBehindProxy = async (t: TestApp) => {
    const ask = (forwarded: string) =>
      t.app.inject({
        method: 'POST', url: '/api/cmp/base/oauth/user/captchaRequired?lang=en', payload: { loginName: 'x' },
        remoteAddress: '10.20.0.1', headers: { 'x-forwarded-for': forwarded },
      });
    const answers = [];
    for (let i = 1; i <= 6; i++) answers.push(await ask(`1.2.3.${i}`));
    expect(answers.slice(0, 5).map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[5].statusCode).toBe(429);
    expect(answers[5].json().errorCode).toBe(ErrorCode.CallLimitExceeded);
    expect(new Set(await ipsLogged(t, 'captchaRequired'))).toEqual(new Set(['10.20.0.1']));

    const login = await t.app.inject({
      method: 'POST', url: '/api/cmp/base/oauth/user/login?lang=en', payload: { loginName: 'admin', password: 'Demo@2026pass' },
      remoteAddress: '10.20.0.2', headers: { 'x-forwarded-for': '1.2.3.4' },
    });
    expect(login.json().success).toBe(true);
    const [session] = await t.database.sql.query<{ ip: string }>('select ip from sessions order by created_at desc limit 1');
    expect(session.ip).toBe('10.20.0.2');
    // the refusal carries the security headers like every other answer
    expectSecurityHeaders(answers[5].headers);
  };

  it('with a trusted proxy, its X-Forwarded-For names the client; another peer still cannot', async () => {
    const behind = await startTestApp(backend, { trustedProxies: ['127.0.0.1', '10.30.0.0/16'], rateLimitPerIp: 5 }, { jobs: false });
    try {
      const ask = (remoteAddress: string, forwarded: string) =>
        behind.app.inject({
          method: 'POST', url: '/api/cmp/base/oauth/user/captchaRequired?lang=en', payload: { loginName: 'x' },
          remoteAddress, headers: { 'x-forwarded-for': forwarded },
        });
      expect((await ask('127.0.0.1', '1.2.3.4')).statusCode).toBe(200);
      expect((await ask('10.30.4.5', '5.6.7.8, 1.2.3.5')).statusCode).toBe(200);
      expect((await ask('10.20.0.1', '1.2.3.6')).statusCode).toBe(200);
      expect((await ipsLogged(behind, 'captchaRequired')).sort()).toEqual(['1.2.3.4', '1.2.3.5', '10.20.0.1']);
      // clients behind the proxy are limited one by one, not as one proxy address
      const many = [];
      for (let i = 0; i < 6; i++) many.push((await ask('127.0.0.1', `1.2.4.${i}`)).statusCode);
      expect(many).toEqual([200, 200, 200, 200, 200, 200]);
    } finally {
      await behind.stop();
    }
  });

  it('puts the security headers on API answers, error answers, 404s, the console and its static files', async () => {
    const answers = {
      api: await t.app.inject({ method: 'GET', url: '/api/health' }),
      sessionError: await t.app.inject({ method: 'POST', url: '/api/cmp/core/account/account/getAccountListPage', payload: {}, remoteAddress: '10.40.0.1' }),
      apiNotFound: await t.app.inject({ method: 'POST', url: '/api/cmp/no/such/thing', remoteAddress: '10.40.0.2' }),
      fileNotFound: await t.app.inject({ method: 'GET', url: '/assets/gone-123.js' }),
      index: await t.app.inject({ method: 'GET', url: '/' }),
      consoleRoute: await t.app.inject({ method: 'GET', url: '/card/list' }),
      asset: await t.app.inject({ method: 'GET', url: '/assets/app-1.js' }),
      docs: await t.app.inject({ method: 'GET', url: '/api/docs' }),
    };
    expect(answers.sessionError.json().errorCode).toBe(ErrorCode.SessionInvalid);
    expect([answers.apiNotFound.statusCode, answers.fileNotFound.statusCode]).toEqual([404, 404]);
    expect([answers.index.statusCode, answers.consoleRoute.statusCode, answers.asset.statusCode]).toEqual([200, 200, 200]);
    expect(answers.asset.body).toBe('console.log(1)');
    for (const [name, r] of Object.entries(answers)) {
      expect.soft(r.headers['content-security-policy'], name).toBe(CSP);
      expectSecurityHeaders(r.headers);
    }
  });

  it('the API reference page runs under the policy: no inline script, no outside validator', async () => {
    const page = (await t.app.inject({ method: 'GET', url: '/api/docs' })).body;
    expect(page).not.toMatch(/<script>/);
    const init = await t.app.inject({ method: 'GET', url: '/api/docs/assets/init.js' });
    expect(init.statusCode).toBe(200);
    expect(init.headers['content-type']).toMatch(/^application\/javascript/);
    expect(init.body).toContain('SwaggerUIBundle(');
    expect(init.body).toContain('validatorUrl: null');
  });

  it('serves an uploaded file as an attachment under its original name, with nosniff and a sandboxing policy', async () => {
    const token = await t.login('enterprise');
    const form = multipart([
      { name: 'use', value: 'paymentProof' },
      { name: 'file', filename: "回单 (1)'.png", type: 'image/png', data: PNG },
    ]);
    const up = await t.app.inject({ method: 'POST', url: '/api/cmp/base/file/upload?lang=en', payload: form.payload, headers: { ...form.headers, authorization: token } });
    expect(up.json().success).toBe(true);
    const file = await t.app.inject({ method: 'GET', url: up.json().data.url, headers: { authorization: token } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="_1_.png"; filename*=UTF-8''%E5%9B%9E%E5%8D%95%20%281%29%27.png`);
    expectSecurityHeaders(file.headers, FILE_CSP);
    expect(file.rawPayload.equals(PNG)).toBe(true);
  });

  it.each([
    ['core/sim/simEnter/template', 'admin', '卡导入模板', 'card-import-template'],
    ['core/sim/batchOperate/template', 'enterprise', '批量操作模板', 'batch-template'],
    ['network/operatorsGoods/template', 'admin', '运营商套餐导入模板', 'operator-plan-import-template'],
  ])('sends the %s template as an attachment with nosniff and the sandboxing policy of files', async (name, login, zh, en) => {
    const token = await t.login(login);
    for (const [format, lang, base] of [['xlsx', 'zh', zh], ['csv', 'en', en]] as const) {
      const r = await t.app.inject({ method: 'GET', url: `/api/cmp/${name}?lang=${lang}&format=${format}`, headers: { authorization: token } });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const ascii = lang === 'zh' ? `download.${format}` : `${base}.${format}`;
      expect(r.headers['content-disposition']).toBe(`attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}.${format}`);
      expectSecurityHeaders(r.headers, FILE_CSP);
    }
  });

  it('serves a logo inline (an <img> shows it) as the sniffed image type, with nosniff and a sandboxing policy', async () => {
    const token = await t.login('enterprise');
    const form = multipart([{ name: 'logoFile', filename: 'logo.png', type: 'image/png', data: PNG }]);
    const up = await t.app.inject({ method: 'POST', url: '/api/cmp/core/account/account/uploadLogo?lang=en', payload: form.payload, headers: { ...form.headers, authorization: token } });
    expect(up.json().success).toBe(true);
    const logo = await t.app.inject({ method: 'GET', url: up.json().data.logoUrl });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['content-disposition']).toBe(`inline; filename="logo.png"; filename*=UTF-8''logo.png`);
    expectSecurityHeaders(logo.headers, FILE_CSP);
  });
});
