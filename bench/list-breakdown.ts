/**
 * Where the list endpoint's time goes: the same load against a ladder of variants, from a bare route to
 * the real endpoint, plus a CPU profile of the real endpoint under load and the database's cost per query.
 * A diagnostic for bench/list-vs-bare.ts; it changes nothing in the server, only wraps the database
 * client's query method in this process to count and time queries. Loopback only.
 *
 *   node --import tsx bench/list-breakdown.ts                                   # PGlite
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/list-breakdown.ts
 *
 * BENCH_SECONDS (5 per variant), BENCH_CONNECTIONS (10), BENCH_WARMUP_SECONDS (2).
 * Variants (all on 127.0.0.1, same body and headers):
 *   bare-list      bare Fastify route returning the captured list JSON (what list-vs-bare compares against)
 *   bare-small     bare Fastify route returning the captured getIsResetPassword JSON
 *   platform-noop  the real getIsResetPassword endpoint: limiter, session (cached), schemas, hooks, API log; no query
 *   bare+sql       bare route running the list's two SQL statements through the driver, no drizzle, then the captured JSON
 *   bare+service   bare route calling the real CustomerService.list (drizzle, two queries, mapping), JSON.stringify
 *   platform-list  the real list endpoint
 */
import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import Fastify from 'fastify';
import { and, count, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { successMessages } from '@lynx/contract';
import { hashToken } from '../apps/server/src/platform/sessions.ts';
import { CustomerService } from '../apps/server/src/modules/account/customers.ts';
import { customers } from '../apps/server/src/modules/account/tables.ts';
import { tenantFilter } from '../apps/server/src/platform/context.ts';
import {
  HOST, LIST_BODY, LIST_PATH, QUERY, LoadGen, capture, failures, gitInfo, machineBusyOver, machineInfo, measure, portOf, posInt, runBench, sleep,
  startPlatform, writeResults, type Summary,
} from './common.ts';

const SECONDS = posInt('BENCH_SECONDS', 5);
const CONNECTIONS = posInt('BENCH_CONNECTIONS', 10);
const WARMUP_SECONDS = posInt('BENCH_WARMUP_SECONDS', 2);
const NOOP_PATH = '/api/cmp/core/account/account/getIsResetPassword';
const VARIANTS = ['bare-list', 'bare-small', 'platform-noop', 'bare+sql', 'bare+service', 'platform-list'] as const;
type Variant = (typeof VARIANTS)[number];

interface QueryStat {
  sql: string;
  count: number;
  totalMs: number;
}

const budgetMs = (VARIANTS.length + 1) * (SECONDS + WARMUP_SECONDS + 3) * 1000 + 240_000;

runBench(budgetMs, async (cleanup) => {
  const platform = await startPlatform(cleanup);
  const { database, built } = platform;
  const headers = { 'content-type': 'application/json', authorization: platform.token };

  // count and time every statement the server sends (wall time from call to answer, queueing included)
  const client = (database.db as unknown as { $client: { query: (...args: any[]) => Promise<any> } }).$client;
  const originalQuery = client.query.bind(client);
  const stats = new Map<string, QueryStat>();
  let recording = false;
  let lastSql: { text: string; params: unknown[]; args: any[] }[] = [];
  client.query = async (...args: any[]) => {
    const text = typeof args[0] === 'string' ? args[0] : (args[0]?.text as string);
    const params = (typeof args[0] === 'string' ? args[1] : (args[1] ?? args[0]?.values)) as unknown[];
    lastSql.push({ text, params, args });
    if (!recording) return originalQuery(...args);
    const t0 = performance.now();
    try {
      return await originalQuery(...args);
    } finally {
      const key = text.replace(/\s+/g, ' ').slice(0, 160);
      const s = stats.get(key) ?? { sql: key, count: 0, totalMs: 0 };
      s.count++;
      s.totalMs += performance.now() - t0;
      stats.set(key, s);
    }
  };

  const listUrl = `${platform.origin}${LIST_PATH}${QUERY}`;
  const noopUrl = `${platform.origin}${NOOP_PATH}${QUERY}`;
  const list = await capture(listUrl, headers, LIST_BODY);
  const noop = await capture(noopUrl, headers, '{}');

  // the list's own statements, as the service sends them
  const actor = await built.deps.sessions.lookup(hashToken(platform.token));
  if (!actor) throw new Error('no session for the enterprise token');
  const service = new CustomerService(database.db);
  lastSql = [];
  await service.list({ current: 1, pageSize: 20 }, actor);
  const listSql = lastSql.slice();
  if (listSql.length !== 2) throw new Error(`expected two list statements, saw ${listSql.length}`);

  const lab = Fastify({ logger: false });
  lab.post('/lab/bare-list', async () => list.parsed);
  lab.post('/lab/bare-small', async () => noop.parsed);
  lab.post('/lab/sql', async () => {
    await Promise.all(listSql.map((q) => originalQuery(q.text, q.params)));
    return list.parsed;
  });
  lab.post('/lab/service', async (req) => {
    const data = await service.list(req.body as { current: number; pageSize: number }, actor);
    return { success: true, msg: successMessages.ok.en, errorCode: null, data };
  });
  cleanup.add(() => lab.close());
  await lab.listen({ host: HOST, port: 0 });
  const labOrigin = `http://${HOST}:${portOf(lab)}`;
  const serviceBody = (await capture(`${labOrigin}/lab/service`, headers, LIST_BODY)).text;

  const targets: Record<Variant, { url: string; body: string; expect?: string }> = {
    'bare-list': { url: `${labOrigin}/lab/bare-list`, body: LIST_BODY, expect: list.text },
    'bare-small': { url: `${labOrigin}/lab/bare-small`, body: '{}', expect: noop.text },
    'platform-noop': { url: noopUrl, body: '{}', expect: noop.text },
    'bare+sql': { url: `${labOrigin}/lab/sql`, body: LIST_BODY, expect: list.text },
    'bare+service': { url: `${labOrigin}/lab/service`, body: LIST_BODY, expect: serviceBody },
    'platform-list': { url: listUrl, body: LIST_BODY, expect: list.text },
  };

  const loadgen = new LoadGen(cleanup);
  const load = (v: Variant, duration: number) =>
    measure(loadgen, v, {
      url: targets[v].url, method: 'POST', headers, body: targets[v].body, connections: CONNECTIONS, pipelining: 1,
      duration, timeout: 10, expectBody: targets[v].expect,
    });

  const machine = machineInfo();
  const git = gitInfo();
  const idleBusy = await machineBusyOver(2000);
  console.log(`Lynx CMP list endpoint breakdown (${platform.backend}): ${platform.dbVersion}`);
  console.log(`  ${machine.cpus} CPUs, Node ${machine.node}, commit ${git.commit ?? '?'}${git.dirty ? ' + local changes' : ''}; ${CONNECTIONS} connections, ${SECONDS} s per variant after ${WARMUP_SECONDS} s warm-up`);
  console.log(`  machine ${Math.round(idleBusy * 100)} % busy over 2 s before the runs (other work on the machine)`);
  console.log(`  list response ${Buffer.byteLength(list.text)} bytes; bare+service answers ${serviceBody === list.text ? 'the same bytes' : 'other bytes'} as the endpoint\n`);
  console.log('  CPU µs/req: server = this process, loadgen = autocannon child, other = the rest of the machine (PostgreSQL, other processes)');
  console.log(`  ${'variant'.padEnd(15)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'server'.padStart(9)}${'loadgen'.padStart(9)}${'other'.padStart(8)}${'loop busy'.padStart(11)}${'machine'.padStart(9)}${'failed'.padStart(8)}`);

  const results: Summary[] = [];
  let queryStats: QueryStat[] = [];
  for (const v of VARIANTS) {
    await load(v, WARMUP_SECONDS);
    await sleep(1000);
    if (v === 'platform-list') {
      stats.clear();
      recording = true;
    }
    const s = await load(v, SECONDS);
    if (v === 'platform-list') {
      recording = false;
      queryStats = [...stats.values()].sort((a, b) => b.totalMs - a.totalMs);
      for (const q of queryStats) q.totalMs = Math.round(q.totalMs);
    }
    results.push(s);
    console.log(
      `  ${v.padEnd(15)}${s.requestsPerSec.toFixed(0).padStart(9)}${s.latencyMs.p50.toFixed(2).padStart(9)}${s.latencyMs.p99.toFixed(2).padStart(9)}` +
        `${String(s.serverCpuUsPerRequest).padStart(9)}${String(s.loadgenCpuUsPerRequest).padStart(9)}` +
        `${String(Math.max(0, s.machineCpuUsPerRequest - s.serverCpuUsPerRequest - s.loadgenCpuUsPerRequest)).padStart(8)}` +
        `${`${Math.round(s.serverEventLoopUtilization * 100)} %`.padStart(11)}${`${Math.round(s.machineBusy * 100)} %`.padStart(9)}${String(failures(s)).padStart(8)}`,
    );
    await sleep(1000);
  }
  const platformList = results.find((r) => r.target === 'platform-list')!;
  console.log(`\n  statements during the platform-list run (${platformList.requestsTotal} requests; wall ms incl. queueing):`);
  for (const q of queryStats.slice(0, 6)) {
    console.log(`    ${String(q.count).padStart(7)} × ${(q.totalMs / Math.max(1, q.count)).toFixed(2).padStart(7)} ms  ${q.sql.slice(0, 110)}`);
  }

  // one at a time, no concurrency, no HTTP: each statement plain, each exactly as drizzle sends it, the whole service call
  // the fastest of five rounds of 300 calls, after 50 warm-up calls
  const timeIt = async (fn: () => Promise<unknown>, n = 300) => {
    for (let i = 0; i < 50; i++) await fn();
    let best = Infinity;
    for (let round = 0; round < 5; round++) {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await fn();
      best = Math.min(best, (performance.now() - t0) / n);
    }
    return Math.round(best * 1000);
  };
  const engine: { what: string; usPerCall: number }[] = [];
  for (const q of listSql) {
    const name = q.text.replace(/\s+/g, ' ').slice(0, 60);
    engine.push({ what: `plain query(text, params): ${name}…`, usPerCall: await timeIt(() => originalQuery(q.text, q.params)) });
    engine.push({ what: `as drizzle sends it:       ${name}…`, usPerCall: await timeIt(() => originalQuery(...q.args)) });
  }
  // the same two statements as CustomerService.list builds them (a copy of its query code), built but not run
  const parent = alias(customers, 'parent');
  const buildBoth = async (check = false) => {
    const cond = and(tenantFilter(actor, { custId: customers.custId, rootCustId: customers.rootCustId }));
    const a = database.db
      .select({ c: customers, parentName: parent.custName })
      .from(customers)
      .leftJoin(parent, eq(parent.custId, customers.parentCustId))
      .where(cond)
      .orderBy(desc(customers.custId))
      .limit(20)
      .offset(0)
      .toSQL();
    const b = database.db.select({ n: count() }).from(customers).where(cond).toSQL();
    if (check) return a.sql === listSql[0].text && b.sql === listSql[1].text;
    return a.sql.length + b.sql.length;
  };
  const sameSql = await buildBoth(true);
  engine.push({
    what: `drizzle builds both statements (toSQL), nothing run${sameSql ? '' : ' (NOTE: not the same SQL as the service sends)'}`,
    usPerCall: await timeIt(() => buildBoth()),
  });
  engine.push({ what: 'CustomerService.list() (drizzle: build both, run both, map rows)', usPerCall: await timeIt(() => service.list({ current: 1, pageSize: 20 }, actor)) });
  console.log('\n  one call at a time, in process (µs per call, fastest of 5 rounds of 300):');
  for (const e of engine) console.log(`    ${String(e.usPerCall).padStart(7)} µs  ${e.what}`);

  // CPU profiles of this process while the real endpoints are under load
  const profiles: { variant: Variant; whileProfiling: Summary; byArea: Share[]; topSelf: Share[]; inclusive: Share[]; profile: CpuProfile }[] = [];
  for (const v of ['platform-noop', 'platform-list'] as const) {
    await sleep(1000);
    const { profile, summary } = await profileRun(() => load(v, SECONDS));
    const c = categorize(profile, summary.requestsTotal);
    profiles.push({ variant: v, whileProfiling: summary, ...c, profile });
    console.log(`\n  CPU profile of the server process, ${v} (${summary.requestsPerSec.toFixed(0)} req/s while profiling), main-thread time by area:`);
    for (const a of c.byArea.filter((x) => x.share >= 0.5)) console.log(`    ${a.share.toFixed(1).padStart(5)} %  ${String(a.usPerRequest).padStart(6)} µs/req  ${a.name}`);
    console.log('  heaviest functions (self time; native calls named with their caller):');
    for (const f of c.topSelf.slice(0, 12)) console.log(`    ${f.share.toFixed(1).padStart(5)} %  ${String(f.usPerRequest).padStart(6)} µs/req  ${f.name}`);
    console.log('  inclusive time (a sample counts when the piece is anywhere on the stack; synchronous parts only):');
    for (const f of c.inclusive) console.log(`    ${f.share.toFixed(1).padStart(5)} %  ${String(f.usPerRequest).padStart(6)} µs/req  ${f.name}`);
  }

  const resultsDir = path.dirname(writeResults(`list-breakdown-${platform.backend}`, {
    benchmark: 'list-breakdown',
    date: new Date().toISOString(),
    backend: platform.backend,
    database: { describe: platform.dbDescribe, version: platform.dbVersion },
    machine: { ...machine, busyBeforeRuns: idleBusy },
    git,
    settings: { seconds: SECONDS, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS },
    variants: results,
    queriesDuringPlatformList: queryStats,
    oneAtATime: engine,
    profiles: profiles.map(({ profile: _p, topSelf, ...rest }) => ({ ...rest, topSelf: topSelf.slice(0, 40) })),
  }));
  for (const p of profiles) fs.writeFileSync(path.join(resultsDir, `list-breakdown-${platform.backend}-${p.variant}.cpuprofile`), JSON.stringify(p.profile));
  console.log(`\n  results written to ${resultsDir}/list-breakdown-${platform.backend}.json and *.cpuprofile (open in Chrome DevTools)`);
  return [...results, ...profiles.map((p) => p.whileProfiling)].some((r) => failures(r) > 0) ? 1 : 0;
});

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

async function profileRun(fn: () => Promise<Summary>): Promise<{ profile: CpuProfile; summary: Summary }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const summary = await fn();
    const { profile } = await session.post('Profiler.stop');
    return { profile: profile as unknown as CpuProfile, summary };
  } finally {
    session.disconnect();
  }
}

interface Share {
  name: string;
  /** percent of the sampled main-thread time */
  share: number;
  /** main-thread microseconds per completed request */
  usPerRequest: number;
}

const AREAS: [string, (url: string, fn: string) => boolean][] = [
  ['(idle: event loop waiting)', (_u, f) => f === '(idle)'],
  ['(garbage collector)', (_u, f) => f === '(garbage collector)'],
  ['(program: native, not attributed)', (_u, f) => f === '(program)'],
  ['(profiler itself)', (u) => u === 'node:inspector'],
  ['PGlite: WASM engine (PostgreSQL compiled to WASM)', (u) => u.startsWith('wasm://')],
  ['PGlite: JS glue (protocol, parsing, file system)', (u) => u.includes('@electric-sql/pglite')],
  ['pg driver (pg, pg-protocol, pg-types, pg-pool)', (u) => /node_modules\/(pg|pg-protocol|pg-types|pg-pool|postgres-[a-z]+|pgpass)\//.test(u)],
  ['drizzle-orm (query building, result mapping)', (u) => u.includes('drizzle-orm')],
  ['lynx: platform/http.ts (hooks, bind, envelope)', (u) => u.includes('apps/server/src/platform/http.ts')],
  ['lynx: sessions / ratelimit / apilog', (u) => /apps\/server\/src\/platform\/(sessions|ratelimit|apilog)\.ts/.test(u)],
  ['lynx: modules + other platform code', (u) => u.includes('apps/server/src/')],
  ['@lynx/contract', (u) => u.includes('packages/contract/')],
  ['fast-json-stringify (response schema)', (u) => u.includes('fast-json-stringify')],
  ['ajv (request schema)', (u) => /node_modules\/(ajv|@fastify\/ajv-compiler)/.test(u)],
  [
    'fastify + router + body parsing + pino',
    (u) => /node_modules\/(fastify|find-my-way|avvio|@fastify|fast-querystring|secure-json-parse|light-my-request|proxy-addr|forwarded|toad-cache|abstract-logging|pino)/.test(u),
  ],
  ['node core (http, net, streams, crypto, timers)', (u) => u.startsWith('node:')],
];

/**
 * Main-thread time per area and per function, and inclusive time of a few pieces, from a CPU profile.
 * Frames without a script (native bindings such as writev or fstat, code compiled at run time) count
 * for the nearest caller that has one.
 */
function categorize(p: CpuProfile, requests: number) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
  const total = [...self.values()].reduce((a, b) => a + b, 0) || 1;
  const share = (name: string, us: number): Share => ({ name, share: Math.round((us / total) * 1000) / 10, usPerRequest: Math.round(us / Math.max(1, requests)) });
  const short = (url: string) => url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(/^.*\/work\/main\//, '');
  const frameName = (cf: CpuProfile['nodes'][number]['callFrame']) => `${cf.functionName || '(anonymous)'} ${short(cf.url)}:${cf.lineNumber + 1}`;

  const areas = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, us] of self) {
    const cf = byId.get(id)!.callFrame;
    let owner = cf;
    if (!cf.url && !cf.functionName.startsWith('(')) {
      for (let cur = parent.get(id); cur !== undefined; cur = parent.get(cur)) {
        const c = byId.get(cur)!.callFrame;
        if (c.url) {
          owner = c;
          break;
        }
      }
    }
    const area = AREAS.find(([, test]) => test(owner.url, owner.functionName))?.[0] ?? 'other JS';
    areas.set(area, (areas.get(area) ?? 0) + us);
    const fn = owner === cf ? frameName(cf) : `${cf.functionName || '(native)'} (native, from ${frameName(owner)})`;
    fns.set(fn, (fns.get(fn) ?? 0) + us);
  }

  const pieces: [string, (url: string, fn: string) => boolean][] = [
    ['checkRate (rate limiter)', (_u, f) => f === 'checkRate'],
    ['hashToken (sha256 of the token)', (_u, f) => f === 'hashToken'],
    ['SessionStore.lookup', (u, f) => f === 'lookup' && u.includes('sessions.ts')],
    ['API log (apilog.ts on the stack: push, flush, building the batch insert)', (u) => u.includes('platform/apilog.ts')],
    ['CustomerService.list (builds queries, maps rows)', (u, f) => f === 'list' && u.includes('customers.ts')],
    ['toCustomer (row → API object)', (_u, f) => f === 'toCustomer'],
    ['drizzle-orm: any frame', (u) => u.includes('drizzle-orm')],
    ['drizzle-orm: building SQL text (_prepare, toQuery, build*Query)', (u, f) => u.includes('drizzle-orm') && /^(_prepare|toQuery|sqlToQuery|build\w*Query)$/.test(f)],
    ['drizzle-orm: mapping result rows (mapResultRow)', (u, f) => u.includes('drizzle-orm') && f === 'mapResultRow'],
    ['PGlite: any frame (engine + glue)', (u) => u.includes('@electric-sql/pglite') || u.startsWith('wasm://')],
    ['pg driver: any frame', (u) => /node_modules\/(pg|pg-protocol|pg-types|pg-pool)\//.test(u)],
    ['ajv request validation (validate*)', (u, f) => u.includes('ajv') || /^validate\d*$/.test(f)],
    ['fast-json-stringify serializer', (u) => u.includes('fast-json-stringify')],
    ['node:http response write (writeHead/end)', (u, f) => u.startsWith('node:_http') && (f === 'end' || f === 'writeHead' || f === '_writeRaw')],
  ];
  const inclusive = pieces.map(([name, test]) => {
    let us = 0;
    for (const [id, t] of self) {
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const cf = byId.get(cur)!.callFrame;
        if (test(cf.url, cf.functionName)) {
          us += t;
          break;
        }
      }
    }
    return share(name, us);
  });

  const sorted = (m: Map<string, number>) => [...m].map(([name, us]) => share(name, us)).sort((a, b) => b.share - a.share);
  return { byArea: sorted(areas), topSelf: sorted(fns), inclusive };
}
