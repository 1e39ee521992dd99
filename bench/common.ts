/**
 * Shared pieces of the benchmarks: a fresh database (PGlite in a temp dir, or a throwaway database on a
 * loopback PostgreSQL server), the real server on 127.0.0.1, the load generator child process, and the
 * cleanup stack. Nothing here listens on or connects to anything but loopback.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Options, Result } from 'autocannon';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { buildApp, type BuiltApp } from '../apps/server/src/app.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import type { Actor, SessionContext } from '../apps/server/src/platform/context.ts';
import type { LoadReply, PreciseLatency } from './loadgen.ts';
import type { SeqReply, SeqRequest } from './seq-client.ts';

export const HOST = '127.0.0.1';
export const DEMO_PASSWORD = 'Bench@2026pass';
export const LIST_PATH = '/api/cmp/core/account/customer/getCustomerListPage';
export const QUERY = '?ts=1&lang=en';
export const LIST_BODY = JSON.stringify({ current: 1, pageSize: 20 });

export const posInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer (got ${raw})`);
  return n;
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;
export const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

/** BENCH_DATABASE_URL, else DATABASE_URL, else null (PGlite). */
export const baseDatabaseUrl = (): string | null => process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || null;

/** The benchmarks create and drop a database: only ever on this machine. */
export function assertLoopbackDb(url: string): void {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (host !== '' && host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
    throw new Error(`the benchmark only runs against a PostgreSQL server on loopback (got host ${host})`);
  }
}

export async function freshPostgres(base: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  assertLoopbackDb(base);
  return createScratchDatabase(base, 'lynx_bench', template);
}

/**
 * BENCH_FLEET_TEMPLATE: a database on the loopback server holding the fleet (`npm run seed -- --cards 1000000`,
 * nobody connected to it). The benchmarks that take it run on a throwaway copy, so the targets are measured at the
 * data size they name and the fleet itself never changes.
 */
export const fleetTemplate = (): string | null => process.env.BENCH_FLEET_TEMPLATE || null;

/**
 * The fleet's secrets (operator access configurations) are sealed with the key of the installation that seeded it:
 * BENCH_FLEET_DATA_DIR names that DATA_DIR (its secret.key is copied), unless CMP_SECRET_KEY gives the key.
 * Without it a batch cannot open the operator's credentials and never gets past its first card.
 */
function copyFleetKey(dataDir: string): void {
  if (process.env.CMP_SECRET_KEY) return;
  const from = process.env.BENCH_FLEET_DATA_DIR;
  if (!from) throw new Error('set BENCH_FLEET_DATA_DIR to the DATA_DIR the fleet was seeded with (its secret.key opens the fleet\'s operator credentials), or CMP_SECRET_KEY');
  fs.copyFileSync(path.join(from, 'secret.key'), path.join(dataDir, 'secret.key'));
  fs.chmodSync(path.join(dataDir, 'secret.key'), 0o600);
}

/** Cleanup steps run once, last registered first; a failing step does not stop the others. */
export class Cleanup {
  private steps: (() => Promise<void>)[] = [];
  private done = false;
  add(fn: () => Promise<void>): void {
    this.steps.push(fn);
  }
  async run(): Promise<void> {
    if (this.done) return;
    this.done = true;
    for (const fn of this.steps.reverse()) {
      try {
        await fn();
      } catch (e) {
        console.error('cleanup step failed:', e instanceof Error ? e.message : e);
      }
    }
  }
}

/**
 * Runs main with SIGINT/SIGTERM handling and a watchdog, always cleans up, and exits with main's code
 * (1 when it throws, 3 when the time budget runs out).
 */
export function runBench(budgetMs: number, main: (cleanup: Cleanup) => Promise<number>): void {
  const cleanup = new Cleanup();
  const onSignal = (sig: NodeJS.Signals) => {
    console.error(`\n${sig}: shutting down`);
    void cleanup.run().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const watchdog = setTimeout(() => {
    console.error(`benchmark exceeded its time budget (${Math.round(budgetMs / 1000)} s): aborting`);
    void Promise.race([cleanup.run(), sleep(15_000)]).finally(() => process.exit(3));
  }, budgetMs);
  watchdog.unref();
  main(cleanup)
    .then(
      (code) => code,
      (err: unknown) => {
        console.error('benchmark failed:', err instanceof Error ? (err.stack ?? err.message) : err);
        return 1;
      },
    )
    .then(async (code) => {
      await cleanup.run();
      clearTimeout(watchdog);
      process.exit(code);
    });
}

export interface Platform {
  backend: 'pglite' | 'postgres';
  database: Database;
  built: BuiltApp;
  /** http://127.0.0.1:port */
  origin: string;
  /** enterprise's access token */
  token: string;
  dbDescribe: string;
  dbVersion: string;
}

export interface PlatformOptions {
  /**
   * The server as `npm start` runs it: every background job on (the usage feed every 5 minutes, the lifecycle
   * scheduler, batches, exports, maintenance), not just the ones a benchmark needs.
   */
  production?: boolean;
  /** Run on a copy of the fleet database (BENCH_FLEET_TEMPLATE), not an empty one. */
  fleet?: boolean;
}

/**
 * A fresh database (empty with demo data, or a copy of the fleet) and the real server (buildApp, limiter on with
 * limits it never reaches, silent logs; jobs off unless `production`) listening on 127.0.0.1, with a session of the
 * tenant-scoped enterprise account.
 */
export async function startPlatform(cleanup: Cleanup, opts: PlatformOptions = {}): Promise<Platform> {
  const template = opts.fleet ? fleetTemplate() : null;
  if (opts.fleet && !template) throw new Error('set BENCH_FLEET_TEMPLATE to the name of a database holding the 1,000,000-card fleet (npm run seed -- --cards 1000000)');
  const base = baseDatabaseUrl();
  if (template && !base) throw new Error('BENCH_FLEET_TEMPLATE needs BENCH_DATABASE_URL: the PostgreSQL server holding it');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-bench-'));
  cleanup.add(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  if (template) copyFleetKey(dataDir);

  let databaseUrl: string | null = null;
  if (base) {
    if (template) console.log(`copying the fleet database ${template} (a minute or two)`);
    const fresh = await freshPostgres(base, template ?? undefined);
    cleanup.add(fresh.drop);
    databaseUrl = fresh.url;
  }
  const database = await openDatabase({ databaseUrl, dataDir, memory: false });
  cleanup.add(() => database.close());
  const [v] = await database.sql.query<{ v: string }>(
    database.kind === 'postgres' ? `select current_setting('server_version') as v` : 'select version() as v',
  );
  const dbVersion = database.kind === 'postgres' ? `PostgreSQL ${v.v}` : `PGlite (${v.v.split(' on ')[0]})`;

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
    runWorkers: opts.production === true,
  });
  const built = await buildApp(config, database, { jobs: opts.production === true });
  cleanup.add(() => built.close());
  await built.app.listen({ host: HOST, port: 0 });
  const origin = `http://${HOST}:${portOf(built.app)}`;

  return {
    backend: database.kind,
    database,
    built,
    origin,
    token: await sessionOf(built, database, 'enterprise'),
    dbDescribe: database.kind === 'postgres' ? `PostgreSQL at ${redact(databaseUrl!)}` : database.describe,
    dbVersion,
  };
}

export interface ServerChild<M> {
  child: ChildProcess;
  /** http://127.0.0.1:port */
  origin: string;
  /** what the mem-probe preload reported, oldest first (with `memProbe`) */
  samples: M[];
  /** SIGTERM, SIGKILL after 15 s; waits for the exit (also a cleanup step) */
  stop: () => Promise<void>;
}

/**
 * The real server as a child process (apps/server/src/main.ts under tsx: migrations, demo data, job workers) in
 * production mode on 127.0.0.1:`port`, warnings only, workers on, the caller's `env` over that. With `memProbe`, the
 * mem-probe preload reports process.memoryUsage() every 100 ms into `samples` (and --expose-gc lets it collect on
 * request). Resolves once /api/health answers; throws if the server exits or does not answer within `startSeconds`.
 */
export async function startServerChild<M = unknown>(
  cleanup: Cleanup, o: { port: number; env: Record<string, string>; startSeconds: number; memProbe?: boolean; nodeFlags?: string[] },
): Promise<ServerChild<M>> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const flags = [...(o.nodeFlags ?? []), '--import', 'tsx'];
  const child = fork(path.join(root, 'apps/server/src/main.ts'), [], {
    cwd: root,
    execArgv: o.memProbe ? ['--expose-gc', ...flags, '--import', fileURLToPath(new URL('./mem-probe.ts', import.meta.url))] : flags,
    env: { ...process.env, PORT: String(o.port), HOST, LOG_LEVEL: 'warn', CMP_WORKERS: 'on', NODE_ENV: 'production', ...o.env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    // a server still stopping its jobs when the bench exits would lose its channel mid-report: wait for it, or kill it
    if (await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)])) return;
    child.kill('SIGKILL');
    await exited;
  };
  cleanup.add(stop);
  const samples: M[] = [];
  if (o.memProbe) child.on('message', (m: { mem?: M }) => m.mem && samples.push(m.mem));
  const origin = `http://${HOST}:${o.port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (i > o.startSeconds * 10) throw new Error(`the server did not start within ${o.startSeconds} s`);
    await sleep(100);
  }
  return { child, origin, samples, stop };
}

/**
 * A session of a demo account, made as a sign-in makes it: the password of a copied fleet database is the one it
 * was seeded with, which the benchmark does not know.
 */
export async function sessionOf(built: BuiltApp, database: Database, loginName: string): Promise<string> {
  const [a] = await database.sql.query<{ account_id: number }>('select account_id from accounts where login_name = $1', [loginName]);
  if (!a) throw new Error(`no ${loginName} account: the database needs the demo data`);
  return (await built.deps.sessions.create(database.db, a.account_id, HOST)).token;
}

/** Calls an endpoint once and returns the exact body; throws unless it is 200 with success:true. */
export async function capture(url: string, headers: Record<string, string>, body: string) {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  const parsed = JSON.parse(text) as { success?: boolean };
  if (res.status !== 200 || parsed.success !== true) throw new Error(`${url} failed (${res.status}): ${text}`);
  return { text, parsed, contentType: res.headers.get('content-type') ?? 'application/json; charset=utf-8' };
}

export interface LoadResult {
  result: Result;
  latency: PreciseLatency;
  /** CPU time the load generator used, microseconds */
  loadgenCpuUs: number;
}

/** Runs autocannon in a child process so the load generator never shares the servers' event loop. */
export class LoadGen {
  private child: ChildProcess;
  private nextId = 1;
  private pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();
  private ready: Promise<void>;

  constructor(cleanup: Cleanup) {
    this.child = fork(fileURLToPath(new URL('./loadgen.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    cleanup.add(() => this.close());
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
      if (msg.ok) p.resolve({ result: msg.result, latency: msg.latency, loadgenCpuUs: msg.cpuUs });
      else p.reject(new Error(`autocannon: ${msg.error}`));
    });
    this.child.on('exit', (code, signal) => {
      for (const p of this.pending.values()) p.reject(new Error(`load generator exited (${code ?? signal})`));
      this.pending.clear();
    });
  }

  async run(opts: Options): Promise<LoadResult> {
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

/** Share of the machine's CPU capacity busy over the next ms milliseconds (0..1): other work on the machine. */
export async function machineBusyOver(ms: number): Promise<number> {
  const a = machineCpu();
  await sleep(ms);
  const b = machineCpu();
  return Math.round(((b.busy - a.busy) / Math.max(1, b.total - a.total)) * 1000) / 1000;
}

export interface Summary {
  target: string;
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
  /** CPU time of this (server) process per completed request, microseconds */
  serverCpuUsPerRequest: number;
  /** share of the run the server's event loop was busy (0..1) */
  serverEventLoopUtilization: number;
  /** CPU time of the load generator per completed request, microseconds */
  loadgenCpuUsPerRequest: number;
  /** CPU time of the whole machine (all cores, all processes) per completed request, microseconds */
  machineCpuUsPerRequest: number;
  /** share of the machine's CPU capacity that was busy during the run (0..1) */
  machineBusy: number;
  /** 1-minute load average when the run ended */
  loadAverage1m: number;
}

/** busy and total CPU time of the machine so far, microseconds (os.cpus() counts milliseconds) */
function machineCpu(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const c of os.cpus()) {
    const t = c.times;
    busy += t.user + t.nice + t.sys + t.irq;
    total += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return { busy: busy * 1000, total: total * 1000 };
}

/** Runs one load and measures this process's CPU and event-loop use while it ran. */
export async function measure(loadgen: LoadGen, target: string, opts: Options): Promise<Summary> {
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const m0 = machineCpu();
  const r = await loadgen.run(opts);
  const m1 = machineCpu();
  const cpu = process.cpuUsage(cpu0);
  const elu = performance.eventLoopUtilization(elu0);
  const n = Math.max(1, r.result.requests.total);
  return {
    ...summarize(target, r),
    serverCpuUsPerRequest: Math.round((cpu.user + cpu.system) / n),
    serverEventLoopUtilization: Math.round(elu.utilization * 1000) / 1000,
    loadgenCpuUsPerRequest: Math.round(r.loadgenCpuUs / n),
    machineCpuUsPerRequest: Math.round((m1.busy - m0.busy) / n),
    machineBusy: Math.round(((m1.busy - m0.busy) / Math.max(1, m1.total - m0.total)) * 1000) / 1000,
    loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
  };
}

type Measured = 'serverCpuUsPerRequest' | 'serverEventLoopUtilization' | 'loadgenCpuUsPerRequest' | 'machineCpuUsPerRequest' | 'machineBusy' | 'loadAverage1m';
const summarize = (target: string, { result: r, latency }: LoadResult): Omit<Summary, Measured> => ({
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

export const failures = (s: Summary) => s.errors + s.timeouts + s.non2xx + s.mismatches;

export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}

/** The commit measured, and whether the working tree had changes. */
export function gitInfo(): { commit: string | null; dirty: boolean | null } {
  try {
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'apps', 'packages'], { cwd, encoding: 'utf8' });
    return { commit, dirty: status.trim() !== '' };
  } catch {
    return { commit: null, dirty: null };
  }
}

export function writeResults(name: string, data: unknown): string {
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return path.relative(process.cwd(), file);
}

/** Sends `n` POSTs one after another from the client child; answers each response time and the first answer's total. */
export type SeqCalls = (url: string, token: string, body: string, n: number) => Promise<{ ms: number[]; total: number | null }>;

/**
 * Starts the sequential client child (bench/seq-client.ts), so the API calls' client work is not on the measured
 * server's event loop, and waits until it is ready.
 */
export async function startSeqClient(cleanup: Cleanup): Promise<SeqCalls> {
  const client = fork(fileURLToPath(new URL('./seq-client.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  cleanup.add(async () => {
    if (client.connected) client.disconnect();
  });
  await new Promise<void>((resolve, reject) => {
    client.once('message', () => resolve());
    client.once('exit', (code) => reject(new Error(`the client exited (${code})`)));
  });
  let nextId = 1;
  return (url, token, body, n) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const onMessage = (m: SeqReply) => {
        if (!('id' in m) || m.id !== id) return;
        client.off('message', onMessage);
        if (m.ok) resolve({ ms: m.ms, total: m.total });
        else reject(new Error(`${new URL(url).pathname} ${body} failed: ${m.error}`));
      };
      client.on('message', onMessage);
      client.send({ id, url, headers: { 'content-type': 'application/json', authorization: token }, body, n } satisfies SeqRequest);
    });
}

/**
 * A migrated throwaway database on the loopback PostgreSQL of BENCH_DATABASE_URL, without the app or demo data: for the
 * benches that fill their own tables at scale and time service calls directly (channel cards, super SIMs).
 */
export async function migratedPostgres(cleanup: Cleanup): Promise<{ database: Database; q: <T = Record<string, string>>(text: string, params?: unknown[]) => Promise<T[]> }> {
  const base = baseDatabaseUrl();
  if (!base) throw new Error('set BENCH_DATABASE_URL (loopback PostgreSQL)');
  const fresh = await freshPostgres(base);
  cleanup.add(fresh.drop);
  const database = await openDatabase({ databaseUrl: fresh.url, dataDir: '/tmp', memory: false });
  cleanup.add(() => database.close());
  await migrate(database.sql);
  const q = <T = Record<string, string>>(text: string, params: unknown[] = []) => database.sql.query<T>(text, params) as Promise<T[]>;
  return { database, q };
}

/** Milliseconds since `t` (a performance.now()), as printed. */
export const msSince = (t: number) => `${(performance.now() - t).toFixed(1)} ms`;
/** The machine's load averages (1 and 5 minutes), printed beside every timing: a busy machine explains a slow one. */
export const loadNow = () => `load ${os.loadavg().slice(0, 2).map((l) => l.toFixed(1)).join('/')}`;

/** Runs `f` `runs` times and prints the median and the maximum, with the row count of the last answer (list or array). */
export async function timedRuns(label: string, f: () => Promise<unknown>, runs = 5): Promise<void> {
  const times: number[] = [];
  let n: number | null = null;
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    const r = await f();
    times.push(performance.now() - s);
    n = Array.isArray(r) ? r.length : Array.isArray((r as { list?: unknown[] } | null)?.list) ? (r as { list: unknown[] }).list.length : null;
  }
  times.sort((a, b) => a - b);
  const rows = n == null ? '' : `${n} rows; `;
  console.log(`${label}: median ${times[Math.floor(runs / 2)].toFixed(1)} ms, max ${times[runs - 1].toFixed(1)} ms (${rows}${loadNow()})`);
}

/** A signed-in user for service calls without HTTP: `roleType` with `custId` as its own and root customer. */
export function benchActor(roleType: number, custId: number | null, permissions: number[]): Actor {
  return {
    accountId: 1, loginName: 'bench', userName: 'bench', roleId: roleType, roleName: 'bench', roleType, custId, rootCustId: custId,
    permissions: new Set(permissions), mustResetPassword: false,
  };
}

/** The request context of a mutation made by `actor` (audited like a console call). */
export const benchContext = (actor: Actor) =>
  ({ actor, lang: 'en', ip: '-', endpoint: 'bench', tokenHash: null, audited: false }) as SessionContext;
