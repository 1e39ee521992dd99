/**
 * The card list at fleet scale (issue 5 target: with 1,000,000 cards, the card list with the common filters
 * answers with p95 at most 2× the same SQL run directly, and under 50 ms).
 *
 *   CARD_LIST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_1m npm run bench:card-list
 *
 * The database (loopback PostgreSQL; CARD_LIST_DATABASE_URL, else BENCH_DATABASE_URL / DATABASE_URL) should hold
 * the fleet (`npm run seed -- --cards 1000000`); when it holds no fleet cards the benchmark seeds BENCH_CARDS
 * (default 1,000,000) first. It is kept afterwards (seeding takes minutes); drop it yourself when done.
 *
 * The real server (buildApp: limiter, session, schemas, permission, tenant scope, the list service, envelope,
 * API log, and every background job as in production unless CARD_LIST_JOBS=off) listens on 127.0.0.1. For each filter, as operator staff and as the enterprise customer (role 3000,
 * tenant-scoped): BENCH_REQUESTS (200) sequential calls from a client child process (bench/seq-client.ts) after 20
 * warm-up calls; then the statements the server
 * sent for that call (captured from its pool), replayed with node-postgres on their own connections with the
 * same concurrency (statements the server ran side by side run side by side), as many times. Prints p50 / p95
 * of both and their ratio, and the server's CPU time per call. CARD_LIST_ONLY runs only the cases whose name contains
 * it. Exits 0 when every case meets both targets, 2 otherwise, 1 on an error.
 */
import os from 'node:os';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { FLEET_ICCID_LIKE, seedFleet } from '../apps/server/src/seed/fleet.ts';
import { HOST, assertLoopbackDb, gitInfo, machineInfo, portOf, posInt, redact, runBench, startSeqClient, writeResults } from './common.ts';

const REQUESTS = posInt('BENCH_REQUESTS', 200);
/** only the cases whose name contains this (e.g. "staff: plan") */
const ONLY = process.env.CARD_LIST_ONLY ?? '';
const WARMUP = 20;
const JOBS_OFF = process.env.CARD_LIST_JOBS === 'off';
const TARGET_RATIO = 2;
const TARGET_P95_MS = 50;
const PATH = '/api/cmp/core/sim/simQuery/getSimListPage?ts=1&lang=en';

interface Captured {
  text: string;
  values: unknown[];
  start: number;
  end: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: round(pct(s, 50)), p95: round(pct(s, 95)), mean: round(s.reduce((a, b) => a + b, 0) / s.length), max: round(s[s.length - 1]) };
};
const round = (v: number) => Math.round(v * 100) / 100;
const businessDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);

/** Statements that overlapped in time ran side by side; the replay keeps those groups. */
function groupsOf(captured: Captured[]): Captured[][] {
  const out: Captured[][] = [];
  let end = -Infinity;
  for (const q of [...captured].sort((a, b) => a.start - b.start)) {
    if (q.start >= end || out.length === 0) out.push([q]);
    else out[out.length - 1].push(q);
    end = Math.max(end, q.end);
  }
  return out;
}

runBench(60 * 60_000, async (cleanup) => {
  const url = process.env.CARD_LIST_DATABASE_URL || process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) throw new Error('set CARD_LIST_DATABASE_URL to a PostgreSQL database on loopback (e.g. postgres://postgres@127.0.0.1:5432/bench_1m)');
  assertLoopbackDb(url);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/tmp' });
  cleanup.add(() => database.close());
  const config = loadConfig(process.env, {
    host: HOST, port: 0, dataDir: '/tmp/lynx-bench-card-list', databaseUrl: url, redisUrl: null, seedDemo: true, logLevel: 'silent',
    rateLimitPerToken: 1e9, rateLimitPerIp: 1e9, runWorkers: !JOBS_OFF,
  });
  // every background job on, as in production (the usage feed writing the cards' cycle usage, the lifecycle tick
  // rolling cycles over, exports, maintenance); CARD_LIST_JOBS=off measures the list alone
  const built = await buildApp(config, database, { jobs: !JOBS_OFF });
  cleanup.add(() => built.close());

  const fleet = Number((await database.sql.query<{ n: string }>(`select count(*) n from cards where iccid like $1`, [FLEET_ICCID_LIKE]))[0].n);
  if (fleet === 0) {
    const cards = posInt('BENCH_CARDS', 1_000_000);
    console.log(`no fleet cards in ${redact(url)}: seeding ${cards.toLocaleString('en')} (this takes minutes)`);
    await seedFleet(database.sql, { cards, log: (l) => console.log(l) });
  }
  const [{ n: total }] = await database.sql.query<{ n: string }>('select count(*) n from cards');
  const [{ v: version }] = await database.sql.query<{ v: string }>(`select current_setting('server_version') v`);
  await built.app.listen({ host: HOST, port: 0 });
  const origin = `http://${HOST}:${portOf(built.app)}`;

  // sessions for operator staff and the enterprise customer, made directly (no passwords needed)
  const tokenOf = async (login: string) => {
    const [a] = await database.sql.query<{ account_id: number }>('select account_id from accounts where login_name = $1', [login]);
    if (!a) throw new Error(`no ${login} account: the database needs the demo data`);
    return (await built.deps.sessions.create(database.db, a.account_id, '127.0.0.1')).token;
  };
  const actors = { staff: await tokenOf('admin'), enterprise: await tokenOf('enterprise') };
  const [ent] = await database.sql.query<{ root_cust_id: number }>(`select root_cust_id from accounts where login_name = 'enterprise'`);
  const [plan] = await database.sql.query<{ id: number }>(
    `select goods_release_id id from cards where root_cust_id = $1 and goods_release_id is not null group by 1 order by count(*) desc limit 1`, [ent.root_cust_id]);
  // ICCID prefixes from across the fleet (issue 12): one near the start of the ICCID order hid a plan that walked the
  // primary key from the first card (fast early, ~0.5 s late); each is the first 15 digits of one of the enterprise's
  // cards (~40k matches at 1M cards)
  const [{ n: entFleet }] = await database.sql.query<{ n: string }>(
    `select count(*) n from cards where iccid like $1 and root_cust_id = $2`, [FLEET_ICCID_LIKE, ent.root_cust_id]);
  const prefixAt = async (offset: number) => (await database.sql.query<{ p: string }>(
    `select left(iccid, 15) p from cards where iccid like $1 and root_cust_id = $2 order by iccid offset $3 limit 1`,
    [FLEET_ICCID_LIKE, ent.root_cust_id, Math.max(0, offset)]))[0].p;
  const entCards = Number(entFleet);
  const prefix = {
    early: await prefixAt(Math.min(1000, entCards - 1)),
    middle: await prefixAt(Math.floor(entCards / 2)),
    late: await prefixAt(entCards - 1000),
  };
  const today = Date.now();
  const filters: Record<string, Record<string, unknown>> = {
    'tenant + state': { states: [64] },
    'ICCID prefix (early)': { iccid: prefix.early, iccidMatch: 'prefix' },
    'ICCID prefix (middle)': { iccid: prefix.middle, iccidMatch: 'prefix' },
    'ICCID prefix (late)': { iccid: prefix.late, iccidMatch: 'prefix' },
    'activation date range': { activatedFrom: businessDay(today - 30 * 86_400_000), activatedTo: businessDay(today) },
    plan: { goodsReleaseId: plan?.id ?? 1 },
    online: { online: true },
    // issue 12: sorted by this cycle's usage or % of the quota used (maintained columns, migration 0019), several pages
    // deep and with the other filters; the fleet's usage spreads the order over every customer and plan
    'sort usage ↓': { sortField: 'cycleUsedKb', sortOrder: 'descend' },
    'sort usage ↓ page 25': { sortField: 'cycleUsedKb', sortOrder: 'descend', current: 25 },
    'sort usage ↑ page 5': { sortField: 'cycleUsedKb', sortOrder: 'ascend', current: 5 },
    'sort usage % ↓': { sortField: 'cycleUsedPercent', sortOrder: 'descend' },
    'sort usage % ↓ page 10': { sortField: 'cycleUsedPercent', sortOrder: 'descend', current: 10 },
    'sort usage % ↑ page 3': { sortField: 'cycleUsedPercent', sortOrder: 'ascend', current: 3 },
    'sort usage ↓ + state': { sortField: 'cycleUsedKb', sortOrder: 'descend', states: [64] },
    'sort usage ↓ + plan page 3': { sortField: 'cycleUsedKb', sortOrder: 'descend', goodsReleaseId: plan?.id ?? 1, current: 3 },
    'sort usage ↓ + ICCID prefix (late)': { sortField: 'cycleUsedKb', sortOrder: 'descend', iccid: prefix.late, iccidMatch: 'prefix' },
    'sort usage % ↓ + near quota': { sortField: 'cycleUsedPercent', sortOrder: 'descend', quotaLevel: 'near' },
    'sort usage ↓ + online page 2': { sortField: 'cycleUsedKb', sortOrder: 'descend', online: true, current: 2 },
  };

  // capture what the server's pool runs
  const pool = (database.db as unknown as { $client: { query: (...args: any[]) => Promise<any> } }).$client;
  const originalQuery = pool.query.bind(pool);
  let capturing: Captured[] | null = null;
  pool.query = async (...args: any[]) => {
    const text = typeof args[0] === 'string' ? args[0] : (args[0]?.text as string);
    const values = ((typeof args[0] === 'string' ? args[1] : (args[1] ?? args[0]?.values)) ?? []) as unknown[];
    const rec: Captured = { text, values, start: performance.now(), end: 0 };
    try {
      return await originalQuery(...args);
    } finally {
      rec.end = performance.now();
      if (capturing && !/api_log|sessions|accounts|roles/.test(text)) capturing.push(rec);
    }
  };

  const direct = new pg.Pool({ connectionString: url, max: 4 });
  cleanup.add(() => direct.end());
  const conns = await Promise.all([0, 1, 2, 3].map(() => direct.connect()));
  conns.forEach((c) => cleanup.add(async () => c.release()));

  // the API calls come from a child process, so the client's work is not on the server's event loop
  const seq = await startSeqClient(cleanup);
  const calls = (token: string, body: string, n: number) => seq(`${origin}${PATH}`, token, body, n);

  const rows: Record<string, unknown>[] = [];
  let allMet = true;
  console.log(`card list on PostgreSQL ${version}: ${Number(total).toLocaleString('en')} cards, ${REQUESTS} sequential calls per case`);
  console.log('case'.padEnd(40) + 'matches'.padStart(10) + '  API p50/p95 ms'.padStart(18) + '  SQL p50/p95 ms'.padStart(18) + '  ratio p95'.padStart(11) + 'server CPU'.padStart(12) + '  target');
  // the server warmed up on every case first (JIT, pool, plan caches), so the first case is not measured cold
  for (const token of Object.values(actors)) {
    for (const [name, f] of Object.entries(filters)) {
      if (!ONLY || name.includes(ONLY)) await calls(token, JSON.stringify({ current: 1, pageSize: 20, ...f }), WARMUP);
    }
  }
  for (const [who, token] of Object.entries(actors)) {
    for (const [name, f] of Object.entries(filters)) {
      if (ONLY && !`${who}: ${name}`.includes(ONLY)) continue;
      const body = JSON.stringify({ current: 1, pageSize: 20, ...f });
      await calls(token, body, WARMUP);
      capturing = [];
      const first = await calls(token, body, 1);
      const statements = capturing;
      capturing = null;
      const cpu0 = process.cpuUsage();
      const api = (await calls(token, body, REQUESTS)).ms;
      const cpu = process.cpuUsage(cpu0);
      // this process only serves during the calls (the client is a child): its CPU time per call is the server's own work
      const serverCpuMs = round((cpu.user + cpu.system) / 1000 / REQUESTS);

      const groups = groupsOf(statements);
      const replay = async () => {
        const t0 = performance.now();
        for (const g of groups) await Promise.all(g.map((q, k) => conns[k % conns.length].query(q.text, q.values)));
        return performance.now() - t0;
      };
      for (let i = 0; i < WARMUP; i++) await replay();
      const sqlMs: number[] = [];
      for (let i = 0; i < REQUESTS; i++) sqlMs.push(await replay());
      // each statement alone, to show where the SQL time goes
      const each = [];
      for (const q of statements) {
        const ms: number[] = [];
        for (let i = 0; i < 30; i++) {
          const t0 = performance.now();
          await conns[0].query(q.text, q.values);
          ms.push(performance.now() - t0);
        }
        each.push({ sql: q.text.replace(/\s+/g, ' ').slice(0, 140), p50: stats(ms).p50 });
      }
      const a = stats(api);
      const s = stats(sqlMs);
      const ratio = round(a.p95 / s.p95);
      const met = ratio <= TARGET_RATIO && a.p95 < TARGET_P95_MS;
      allMet &&= met;
      const label = `${who}: ${name}`;
      console.log(label.padEnd(40) + String(first.total).padStart(10) + `${a.p50} / ${a.p95}`.padStart(18) + `${s.p50} / ${s.p95}`.padStart(18)
        + String(ratio).padStart(11) + String(serverCpuMs).padStart(12) + `  ${met ? 'met' : 'MISSED'}`);
      rows.push({ actor: who, filter: name, body: f, total: first.total, api: a, sql: s, ratioP95: ratio, serverCpuMsPerCall: serverCpuMs, loadAverage1m: round(os.loadavg()[0]), met, statements: each, groups: groups.map((g) => g.length) });
    }
  }
  const file = writeResults('card-list-postgres', {
    at: new Date().toISOString(), database: `PostgreSQL ${version}`, cards: Number(total), requests: REQUESTS, targets: { ratioP95: TARGET_RATIO, p95Ms: TARGET_P95_MS },
    machine: machineInfo(), git: gitInfo(), cases: rows,
  });
  console.log(`results: ${file} (machine load average ${os.loadavg().map((v) => v.toFixed(1)).join(' / ')} on ${os.cpus().length} cores)`);
  return allMet ? 0 : 2;
});
