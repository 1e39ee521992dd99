/**
 * Platform overhead benchmark: the real customer list endpoint (session, rate limiter, schema validation,
 * permission check, two SQL queries, envelope, response schema serialization, API log) against a bare
 * Fastify 5 route that answers the same bytes. Loopback only.
 *
 *   npm run bench                                                          # embedded PGlite in a temp dir
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench  # a fresh database on that server
 *
 * BENCH_SECONDS (10), BENCH_CONNECTIONS (10), BENCH_WARMUP_SECONDS (3), BENCH_BARE (auto | object | string).
 * Runs bare, platform, bare, platform and keeps the better run of each. Exits 0 whatever the ratio (it is a
 * measurement), non-zero when any request failed, timed out, was not 2xx or did not return the expected body.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import type { Options, Result } from 'autocannon';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { buildApp, type BuiltApp } from '../apps/server/src/app.ts';
import type { LoadReply, PreciseLatency } from './loadgen.ts';

const HOST = '127.0.0.1';
const DEMO_PASSWORD = 'Bench@2026pass';
const LIST_PATH = '/api/cmp/core/account/customer/getCustomerListPage';
const QUERY = '?ts=1&lang=en';
const LIST_BODY = JSON.stringify({ current: 1, pageSize: 20 });
const TARGET_RATIO = 0.6;
const SETTLE_MS = 1500;

const posInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer (got ${raw})`);
  return n;
};

const SECONDS = posInt('BENCH_SECONDS', 10);
const CONNECTIONS = posInt('BENCH_CONNECTIONS', 10);
const WARMUP_SECONDS = posInt('BENCH_WARMUP_SECONDS', 3);
const BARE_MODE = (process.env.BENCH_BARE || 'auto') as 'auto' | 'object' | 'string';
if (!['auto', 'object', 'string'].includes(BARE_MODE)) throw new Error(`BENCH_BARE must be auto, object or string (got ${BARE_MODE})`);

const baseDbUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || null;
const backend: 'pglite' | 'postgres' = baseDbUrl ? 'postgres' : 'pglite';

/** The benchmark creates and drops a database: only ever on this machine. */
function assertLoopbackDb(url: string): void {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (host !== '' && host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
    throw new Error(`the benchmark only runs against a PostgreSQL server on loopback (got host ${host})`);
  }
}

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

async function freshPostgres(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `lynx_bench_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Runs autocannon in a child process so the load generator never shares the servers' event loop. */
class LoadGen {
  private child: ChildProcess;
  private nextId = 1;
  private pending = new Map<number, { resolve: (r: { result: Result; latency: PreciseLatency }) => void; reject: (e: Error) => void }>();
  private ready: Promise<void>;

  constructor() {
    this.child = fork(fileURLToPath(new URL('./loadgen.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.ready = new Promise((resolve, reject) => {
      const onReady = (msg: LoadReply) => {
        if ('ready' in msg) {
          this.child.off('message', onReady);
          resolve();
        }
      };
      this.child.on('message', onReady);
      this.child.once('error', reject);
      this.child.once('exit', (code) => reject(new Error(`load generator exited before it was ready (${code})`)));
    });
    this.child.on('message', (msg: LoadReply) => {
      if ('ready' in msg) return;
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve({ result: msg.result, latency: msg.latency });
      else p.reject(new Error(`autocannon: ${msg.error}`));
    });
    this.child.on('exit', (code, signal) => {
      for (const p of this.pending.values()) p.reject(new Error(`load generator exited (${code ?? signal})`));
      this.pending.clear();
    });
  }

  async run(opts: Options): Promise<{ result: Result; latency: PreciseLatency }> {
    await this.ready;
    const id = this.nextId++;
    const limitMs = ((opts.duration ?? 10) + 30) * 1000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`load run did not finish within ${limitMs / 1000} s`));
      }, limitMs);
      this.pending.set(id, {
        resolve: (r) => (clearTimeout(timer), resolve(r)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.child.send({ id, opts });
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    if (this.child.connected) this.child.disconnect();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

interface Summary {
  target: 'bare' | 'platform';
  requestsPerSec: number;
  requestsTotal: number;
  /** from every response time (float ms), not autocannon's whole-millisecond histogram */
  latencyMs: PreciseLatency;
  /** autocannon's own latency histogram (whole milliseconds) */
  autocannonLatencyMs: { mean: number; p50: number; p97_5: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
  status2xx: number;
}

const summarize = (target: Summary['target'], r: Result, latency: PreciseLatency): Summary => ({
  target,
  requestsPerSec: r.requests.mean,
  requestsTotal: r.requests.total,
  latencyMs: latency,
  autocannonLatencyMs: { mean: r.latency.mean, p50: r.latency.p50, p97_5: r.latency.p97_5, p99: r.latency.p99, max: r.latency.max },
  errors: r.errors,
  timeouts: r.timeouts,
  non2xx: r.non2xx,
  mismatches: r.mismatches,
  status2xx: r['2xx'],
});

const failures = (s: Summary) => s.errors + s.timeouts + s.non2xx + s.mismatches;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;

async function main(): Promise<number> {
  const cleanups: (() => Promise<void>)[] = [];
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (e) {
        console.error('cleanup step failed:', e instanceof Error ? e.message : e);
      }
    }
  };
  const onSignal = (sig: NodeJS.Signals) => {
    console.error(`\n${sig}: shutting down`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  // the whole run is bounded: warm-ups, four measured runs, settling, start and stop
  const budgetMs = (2 * WARMUP_SECONDS + 4 * SECONDS) * 1000 + 6 * SETTLE_MS + 180_000;
  const watchdog = setTimeout(() => {
    console.error(`benchmark exceeded its time budget (${Math.round(budgetMs / 1000)} s): aborting`);
    void Promise.race([cleanup(), sleep(15_000)]).finally(() => process.exit(3));
  }, budgetMs);
  watchdog.unref();

  try {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-bench-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));

    let databaseUrl: string | null = null;
    let serverVersion: string | null = null;
    if (baseDbUrl) {
      assertLoopbackDb(baseDbUrl);
      const fresh = await freshPostgres(baseDbUrl);
      cleanups.push(fresh.drop);
      databaseUrl = fresh.url;
    }
    const database: Database = await openDatabase({ databaseUrl, dataDir, memory: false });
    cleanups.push(() => database.close());
    if (database.kind === 'postgres') {
      const [v] = await database.sql.query<{ v: string }>('show server_version');
      serverVersion = `PostgreSQL ${v.v}`;
    } else {
      const [v] = await database.sql.query<{ v: string }>('select version() as v');
      serverVersion = `PGlite (${v.v.split(' on ')[0]})`;
    }

    const config = loadConfig(process.env, {
      host: HOST,
      port: 0,
      dataDir,
      databaseUrl,
      redisUrl: null,
      demoPassword: DEMO_PASSWORD,
      seedDemo: true,
      logLevel: 'silent',
      rateLimitPerToken: 1e9,
      rateLimitPerIp: 1e9,
      runWorkers: false,
    });
    const built: BuiltApp = await buildApp(config, database, { jobs: false });
    cleanups.push(() => built.close());
    await built.app.listen({ host: HOST, port: 0 });
    const platformUrl = `http://${HOST}:${portOf(built.app)}${LIST_PATH}${QUERY}`;

    // log in as the tenant-scoped enterprise account and capture one list answer
    const loginRes = await fetch(`http://${HOST}:${portOf(built.app)}/api/cmp/base/oauth/user/login?ts=1&lang=en`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ loginName: 'enterprise', password: DEMO_PASSWORD }),
    });
    const login = (await loginRes.json()) as { success: boolean; msg: string; data: { accessToken: string } };
    if (!login.success) throw new Error(`login as enterprise failed: ${login.msg}`);
    const token = login.data.accessToken;
    const headers = { 'content-type': 'application/json', authorization: token };

    const listRes = await fetch(platformUrl, { method: 'POST', headers, body: LIST_BODY });
    const captured = await listRes.text();
    const capturedType = listRes.headers.get('content-type') ?? 'application/json; charset=utf-8';
    const parsed = JSON.parse(captured) as { success: boolean; msg: string; data: { list: unknown[]; total: number } };
    if (listRes.status !== 200 || parsed.success !== true) throw new Error(`list call failed (${listRes.status}): ${captured}`);

    // the bare app: no hooks, no plugins, no schema, logger off; the same path, answering the same bytes
    const roundTrips = JSON.stringify(parsed) === captured;
    const bareMode: 'object' | 'string' = BARE_MODE === 'string' || (BARE_MODE === 'auto' && !roundTrips) ? 'string' : 'object';
    if (bareMode === 'object' && !roundTrips) throw new Error('BENCH_BARE=object: JSON.stringify would not give the captured bytes');
    const bare = Fastify({ logger: false });
    if (bareMode === 'object') bare.post(LIST_PATH, async () => parsed);
    else bare.post(LIST_PATH, async (_req, reply) => reply.type(capturedType).send(captured));
    cleanups.push(() => bare.close());
    await bare.listen({ host: HOST, port: 0 });
    const bareUrl = `http://${HOST}:${portOf(bare)}${LIST_PATH}${QUERY}`;

    const check = await fetch(bareUrl, { method: 'POST', headers, body: LIST_BODY });
    const bareBody = await check.text();
    if (check.status !== 200 || bareBody !== captured) throw new Error('the bare route does not answer the captured bytes');

    const loadgen = new LoadGen();
    cleanups.push(() => loadgen.close());
    const urls = { bare: bareUrl, platform: platformUrl };
    // expectBody: every response must be byte-identical to the captured one (so success:true on the platform)
    const load = (target: Summary['target'], duration: number) =>
      loadgen.run({
        url: urls[target], method: 'POST', headers, body: LIST_BODY, connections: CONNECTIONS, pipelining: 1,
        duration, timeout: 10, expectBody: captured,
      }).then(({ result, latency }) => summarize(target, result, latency));

    const machine = {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      node: process.version,
    };
    console.log(`Lynx CMP: list endpoint vs bare Fastify route (${backend})`);
    console.log(`  database   ${database.kind === 'postgres' ? redact(databaseUrl!) : database.describe} — ${serverVersion}`);
    console.log(`  machine    ${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}`);
    console.log(`  endpoint   POST ${LIST_PATH}${QUERY} as enterprise, body ${LIST_BODY}`);
    console.log(`  response   ${Buffer.byteLength(captured)} bytes, ${parsed.data.list.length} of ${parsed.data.total} customers; bare route returns it as ${bareMode === 'object' ? 'the parsed object (JSON.stringify)' : 'the captured string'}`);
    console.log(`  load       ${CONNECTIONS} connections, ${SECONDS} s per run, warm-up ${WARMUP_SECONDS} s each, runs bare/platform/bare/platform\n`);

    const warmups: Summary[] = [];
    for (const target of ['bare', 'platform'] as const) {
      process.stdout.write(`  warm-up   ${target.padEnd(8)} `);
      const s = await load(target, WARMUP_SECONDS);
      warmups.push(s);
      console.log(`${s.requestsPerSec.toFixed(0)} req/s`);
      await sleep(SETTLE_MS);
    }

    const runs: Summary[] = [];
    const order = ['bare', 'platform', 'bare', 'platform'] as const;
    for (let i = 0; i < order.length; i++) {
      process.stdout.write(`  run ${i + 1}/4   ${order[i].padEnd(8)} `);
      const s = await load(order[i], SECONDS);
      runs.push(s);
      console.log(`${s.requestsPerSec.toFixed(0)} req/s, p50 ${s.latencyMs.p50} ms, p99 ${s.latencyMs.p99} ms${failures(s) ? `, ${failures(s)} failed` : ''}`);
      await sleep(SETTLE_MS);
    }

    const best = (t: Summary['target']) => runs.filter((r) => r.target === t).sort((a, b) => b.requestsPerSec - a.requestsPerSec)[0];
    const b = best('bare');
    const p = best('platform');
    const ratio = p.requestsPerSec / b.requestsPerSec;
    const pass = ratio >= TARGET_RATIO;
    const all = [...warmups, ...runs];
    const sum = (t: Summary['target'], f: (s: Summary) => number) => all.filter((s) => s.target === t).reduce((n, s) => n + f(s), 0);
    const problems = {
      bare: { errors: sum('bare', (s) => s.errors), timeouts: sum('bare', (s) => s.timeouts), non2xx: sum('bare', (s) => s.non2xx), mismatches: sum('bare', (s) => s.mismatches) },
      platform: {
        errors: sum('platform', (s) => s.errors), timeouts: sum('platform', (s) => s.timeouts), non2xx: sum('platform', (s) => s.non2xx),
        mismatches: sum('platform', (s) => s.mismatches),
      },
    };
    const failed = sum('bare', failures) + sum('platform', failures);

    const row = (name: string, s: Summary) =>
      `  ${name.padEnd(10)}${s.requestsPerSec.toFixed(1).padStart(12)}${s.latencyMs.p50.toFixed(2).padStart(10)}${s.latencyMs.p97_5.toFixed(2).padStart(11)}${s.latencyMs.p99.toFixed(2).padStart(10)}${`${s.errors + s.timeouts}/${s.non2xx}/${s.mismatches}`.padStart(18)}`;
    console.log(`\n  best run of two each (${CONNECTIONS} connections, ${SECONDS} s):`);
    console.log(`  ${''.padEnd(10)}${'req/s mean'.padStart(12)}${'p50 ms'.padStart(10)}${'p97.5 ms'.padStart(11)}${'p99 ms'.padStart(10)}${'err/non2xx/body'.padStart(18)}`);
    console.log(row('bare', b));
    console.log(row('platform', p));
    console.log(`\n  ratio platform ÷ bare requests/s: ${ratio.toFixed(3)}   target ≥ ${TARGET_RATIO.toFixed(2)}   ${pass ? 'PASS' : 'FAIL'}`);
    console.log(
      `  platform responses: ${sum('platform', (s) => s.status2xx)} 2xx with the expected body (success:true), ` +
        `${problems.platform.non2xx} non-2xx, ${problems.platform.mismatches} other bodies, ${problems.platform.errors + problems.platform.timeouts} errors/timeouts`,
    );

    const out = {
      benchmark: 'list-vs-bare',
      date: new Date().toISOString(),
      backend,
      database: { describe: database.kind === 'postgres' ? `PostgreSQL at ${redact(databaseUrl!)}` : database.describe, version: serverVersion },
      machine,
      settings: { seconds: SECONDS, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, pipelining: 1, order, bareMode },
      request: { method: 'POST', path: `${LIST_PATH}${QUERY}`, body: JSON.parse(LIST_BODY), login: 'enterprise', responseBytes: Buffer.byteLength(captured) },
      best: { bare: b, platform: p },
      ratio,
      target: TARGET_RATIO,
      pass,
      problems,
      warmups,
      runs,
    };
    const dir = fileURLToPath(new URL('./results/', import.meta.url));
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `list-vs-bare-${backend}.json`);
    fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
    console.log(`  results written to ${path.relative(process.cwd(), file)}`);

    if (failed) console.error(`\n  ${failed} requests failed (errors, timeouts, non-2xx or unexpected body): exit 1`);
    return failed ? 1 : 0;
  } finally {
    await cleanup();
    clearTimeout(watchdog);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('benchmark failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
