import { afterAll, beforeAll, expect } from 'vitest';
import { multipart, ownerOf, startTestApp, type Backend, type Envelope, type Owner, type TestApp } from './harness.ts';

/** A csv file as a user saves it from a spreadsheet: a byte order mark, CRLF lines. */
export const csvFile = (lines: string[]) => Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`);

export interface ModuleSuite {
  /** the app, once the suite's beforeAll has run */
  readonly t: TestApp;
  /** session tokens by demo login */
  tok: Record<string, string>;
  /** tenant columns by demo login (customers only) */
  own: Record<string, Owner>;
  q<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  call(path: string, body: object, who: string, lang?: 'zh' | 'en'): Promise<{ status: number; body: Envelope<any> }>;
  /** calls and expects success (the message shows when it is not); answers `data` */
  ok(path: string, body: object, who: string): Promise<any>;
  /** a multipart upload (`file` plus text fields) to `path`, as `who`; answers the parsed envelope */
  upload(path: string, who: string, file: Buffer, o?: { lang?: 'zh' | 'en'; name?: string; fields?: Record<string, string> }): Promise<any>;
}

/**
 * The common frame of a module's endpoint tests (channel cards, super SIMs, resale sync, …): a test app on `backend`
 * without jobs and without the per-token rate limit, the demo logins signed in, the customers' tenant columns, and the
 * small call helpers every such test writes. Registers its own beforeAll / afterAll; call it inside the describe.
 */
export function moduleSuite(backend: Backend, logins = ['admin', 'enterprise', 'channel', 'subcustomer']): ModuleSuite {
  let app: TestApp | undefined;
  const tok: Record<string, string> = {};
  const own: Record<string, Owner> = {};
  const t = () => {
    if (!app) throw new Error('the module suite has not started (use it inside the tests)');
    return app;
  };
  beforeAll(async () => {
    app = await startTestApp(backend, { rateLimitPerToken: 1_000_000, rateLimitPerIp: 1_000_000 }, { jobs: false });
    for (const who of logins) tok[who] = await app.login(who);
    for (const who of logins.filter((l) => l !== 'admin' && l !== 'manager')) own[who] = await ownerOf(app, who);
  });
  afterAll(async () => { await app?.stop(); });
  const call = (path: string, body: object, who: string, lang: 'zh' | 'en' = 'en') => t().call(path, body, { token: tok[who], lang });
  return {
    get t() { return t(); },
    tok,
    own,
    q: <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t().database.sql.query<T>(text, params) as Promise<T[]>,
    call,
    async ok(path, body, who) {
      const r = await call(path, body, who);
      expect(r.body.errorCode, r.body.msg).toBeNull();
      return r.body.data;
    },
    async upload(path, who, file, o = {}) {
      const m = multipart([
        ...Object.entries(o.fields ?? {}).map(([name, value]) => ({ name, value })),
        { name: 'file', filename: o.name ?? 'upload.csv', type: 'text/csv', data: file },
      ]);
      const res = await t().app.inject({ method: 'POST', url: `/api/cmp/${path}?ts=1&lang=${o.lang ?? 'en'}`, payload: m.payload, headers: { ...m.headers, authorization: tok[who] } });
      return res.json();
    },
  };
}
