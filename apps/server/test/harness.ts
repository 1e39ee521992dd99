import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { buildApp, type BuiltApp } from '../src/app.ts';
import { createScratchDatabase } from '../src/db/scratch-database.ts';
import { SecretBox } from '../src/modules/network/opconfig/secrets.ts';
import { simulatorSecretFor } from '../src/operators/simulator.ts';
import { pgliteImage, postgresTemplate } from './seeded-image.ts';

export const DEMO_PASSWORD = 'Demo@2026pass';

/** The demo customers by name (seed/demo.ts): 智行物流 with two second-level customers, 华电 with one. */
export const ZX = '智行物流科技有限公司';
export const ZX_EAST = '智行物流华东分公司';
export const ZX_COLD = '智行冷链配送中心';
export const HD = '华电智能表计有限公司';
export const HD_SZ = '华电深圳运维中心';
export type Backend = 'pglite' | 'postgres';

/** Server tests run on PGlite always and on PostgreSQL too when TEST_DATABASE_URL is set. */
export const backends: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** A fresh, empty PostgreSQL database on the test server; dropped by the returned function. */
export const freshPostgres = () => createScratchDatabase(process.env.TEST_DATABASE_URL!, 'lynx_t');

export interface TestApp extends BuiltApp {
  database: Database;
  config: Config;
  backend: Backend;
  call<T = any>(endpoint: string, body?: unknown, opts?: { token?: string | null; lang?: 'zh' | 'en'; ip?: string }): Promise<{ status: number; body: Envelope<T> }>;
  login(loginName: string, password?: string): Promise<string>;
  stop(): Promise<void>;
}

export interface Envelope<T> {
  success: boolean;
  msg: string;
  errorCode: number | null;
  data: T;
}

/** Config that changes what the first start seeds: a test app with one of these overridden seeds its own database. */
const SEED_CONFIG: (keyof Config)[] = ['seedDemo', 'demoPassword', 'demoSimulator', 'demoMoney', 'secretKey', 'timeZone'];

/**
 * A test app on a fresh database. Unless `opts.fresh` (or a data directory, a database URL or a seed-changing override
 * is given), the database is a copy of a migrated and seeded image made once (seeded-image.ts): the same data a first
 * start makes, without its time; the app's `seed` is then null (the logins are the demo's, DEMO_PASSWORD).
 */
export async function startTestApp(
  backend: Backend, overrides: Partial<Config> = {},
  opts: {
    jobs?: boolean; databaseUrl?: string; dataDir?: string; fresh?: boolean;
    /** PGlite with a data directory: a new directory starts from the seeded image (a restart test's first start) */
    fromImage?: boolean;
  } = {},
): Promise<TestApp> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-test-'));
  let drop = async () => {};
  let databaseUrl: string | null = opts.databaseUrl ?? null;
  const config = loadConfig({ ...process.env, NODE_ENV: 'test' }, {
    dataDir, databaseUrl, demoPassword: DEMO_PASSWORD, logLevel: 'silent', redisUrl: null, ...overrides,
  });
  const defaults = loadConfig({ ...process.env, NODE_ENV: 'test' }, { dataDir, databaseUrl, demoPassword: DEMO_PASSWORD });
  const image = !opts.fresh && !opts.dataDir && !opts.databaseUrl && config.seedDemo && !config.demoSimulator && !config.demoMoney
    && SEED_CONFIG.every((k) => !(k in overrides)) && config.timeZone === defaults.timeZone;
  if (backend === 'postgres' && !databaseUrl) {
    const fresh = image
      ? await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'lynx_t', await postgresTemplate(process.env.TEST_DATABASE_URL!, DEMO_PASSWORD))
      : await freshPostgres();
    databaseUrl = fresh.url;
    drop = fresh.drop;
    config.databaseUrl = databaseUrl;
  }
  const database = await openDatabase({
    databaseUrl, dataDir, memory: backend === 'pglite' && !opts.dataDir,
    ...(backend === 'pglite' && (image || (opts.fromImage && opts.dataDir)) ? { loadDataDir: await pgliteImage(DEMO_PASSWORD) } : {}),
  });
  const built = await buildApp(config, database, { jobs: false });
  if (opts.jobs !== false) await built.startJobs(0.5);
  const t: TestApp = {
    ...built, database, config, backend,
    async call(endpoint, body = {}, o = {}) {
      const headers: Record<string, string> = {};
      if (o.token) headers.authorization = o.token;
      const res = await built.app.inject({
        method: 'POST', url: `/api/cmp/${endpoint}?ts=${Date.now()}&lang=${o.lang ?? 'en'}`, payload: body as object, headers,
        remoteAddress: o.ip ?? '127.0.0.1',
      });
      return { status: res.statusCode, body: res.json() };
    },
    async login(loginName, password = DEMO_PASSWORD) {
      const r = await t.call('base/oauth/user/login', { loginName, password });
      if (!r.body.success) throw new Error(`login ${loginName} failed: ${r.body.msg}`);
      return r.body.data.accessToken;
    },
    async stop() {
      await built.close();
      await database.close();
      await drop();
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}

/**
 * One installation that several server starts in a row open (a restart test), starting from the seeded image: a new
 * PGlite data directory loaded from it, or a PostgreSQL copy of the template. The test pays for the restarts only, not
 * for a first start's migrations and demo seed. `open` starts a server on it; `remove` drops it. `freshPostgres`: a
 * new empty PostgreSQL database instead (the first start migrates and seeds it).
 */
export async function seededInstallation(backend: Backend, o: { freshPostgres?: boolean } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-inst-'));
  const url = process.env.TEST_DATABASE_URL!;
  const pg = backend !== 'postgres' ? null
    : o.freshPostgres ? await freshPostgres() : await createScratchDatabase(url, 'lynx_t', await postgresTemplate(url, DEMO_PASSWORD));
  return {
    dataDir,
    databaseUrl: pg?.url,
    open: (overrides: Partial<Config> = {}, start: { jobs?: boolean } = {}) =>
      startTestApp(backend, overrides, { ...start, dataDir, databaseUrl: pg?.url, fromImage: true }),
    async remove() {
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Calls an endpoint that must succeed and returns its data (a failure names the endpoint and its message). */
export async function callOk<T = any>(t: TestApp, endpoint: string, body: object, token: string): Promise<T> {
  const r = await t.call<T>(endpoint, body, { token });
  if (!r.body.success || r.body.errorCode !== null) throw new Error(`${endpoint} failed: ${r.body.msg}`);
  return r.body.data;
}

/** Polls until fn returns a truthy value or the time runs out. */
export async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, ms = 20_000, step = 200): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, step));
  }
}

export type Part = { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };

/** A hand-built multipart body (no global FormData). */
export function multipart(parts: Part[]) {
  const boundary = `----lynx${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('filename' in p) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`), p.data);
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}`));
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A card's tenant columns: its customer and that customer's first-level customer. */
export type Owner = { cust_id: number; root_cust_id: number };

/** The tenant of a demo login (accounts carry their customer's columns; staff have nulls). */
export async function ownerOf(t: TestApp, loginName: string): Promise<Owner> {
  const [row] = await t.database.sql.query<Owner>('select cust_id, root_cust_id from accounts where login_name = $1', [loginName]);
  if (!row) throw new Error(`no account ${loginName}`);
  return row;
}

/** `n` twenty-digit ICCIDs: the prefix, then `from`, `from + 1`, … zero-padded. */
export const iccidsOf = (prefix: string, from: number, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(from + i).padStart(20 - prefix.length, '0')}`);

export interface TestCards {
  state: number;
  /** null: the platform stock */
  owner: Owner | null;
  operatorId: number;
  plan?: number | null;
  /** PlanOperationMode (standard 1 unless told) */
  mode?: number;
  online?: boolean;
}

/** Cards straight in the table, many at once, MSISDN and IMSI made from the ICCID (the import path has its own tests). */
export async function insertCards(t: TestApp, iccids: string[], o: TestCards): Promise<string[]> {
  await t.database.sql.query(
    `insert into cards (iccid, msisdn, imsi, state, operator_id, cust_id, root_cust_id, goods_release_id, operation_mode, online)
     select i, '1064' || right(i, 9), '46011' || right(i, 10), $2, $3, $4, $5, $6, $7, $8 from unnest($1::text[]) i`,
    [iccids, o.state, o.operatorId, o.owner?.cust_id ?? null, o.owner?.root_cust_id ?? null, o.plan ?? null, o.mode ?? 1, o.online ?? false],
  );
  return iccids;
}

/**
 * A simulator access configuration for the operator whose credentials no longer open: sealed with another
 * installation's key, as after the key was replaced. Answers its id.
 */
export async function accessConfigThatNoLongerOpens(t: TestApp, adminToken: string, operatorId: number): Promise<number> {
  const appKey = 'LYNXKEY0000SEALD';
  const saved = await t.call('network/operatorsAccount/save', {
    operatorId, accountName: '密钥更换', endpointUrl: 'https://api.operator.example.com/openapi', apiVersion: 'v1',
    adapter: 'simulator', appKey, appSecret: simulatorSecretFor(appKey), password: 'Plain-Password-Sealed-2026',
  }, { token: adminToken });
  if (!saved.body.success) throw new Error(`access configuration not saved: ${saved.body.msg}`);
  const id: number = saved.body.data.operAccountId;
  await t.database.sql.query('update operator_accounts set credentials_sealed = $2 where oper_account_id = $1',
    [id, new SecretBox(Buffer.alloc(32, 7)).sealJson({ appKey }, `operator_accounts.credentials:${id}`)]);
  return id;
}
