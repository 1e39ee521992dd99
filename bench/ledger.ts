/**
 * The money core at scale (issue 13): a ledger of 10,000,000 postings over 10,000 customers on PostgreSQL, read by
 * the real server as it runs in production (background jobs on: the workers and their schedules).
 *
 *   LEDGER_DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger10m npm run bench:ledger
 *
 * The first run creates the database (migrations, demo data) and seeds 10,000 customers and 5,000,000 journals of
 * two postings each (top-ups and charges, running balances, the projection) in SQL: a few minutes. Later runs reuse
 * it. Then, as finance staff and as the enterprise customer:
 * - capital list pages (20 rows): pages drawn across the 10,000 customers, sorted by each balance column or not,
 *   filtered by a name fragment or not;
 * - one customer's ledger page (20 rows): customers drawn across the 10,000, pages across their ledgers, with and
 *   without a kind or a date filter;
 * - the nightly balance check over every posting.
 * Targets: both pages p95 < 50 ms; the check < 60 s. Prints p50 / p95 / max; writes bench/results/ledger.json.
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { runLedgerCheck } from '../apps/server/src/modules/money/ledger-check.ts';
import { capital, JournalKind, pathOf } from '@lynx/contract';
import { seedLedger } from './ledger-seed.ts';
import { DEMO_PASSWORD, HOST, assertLoopbackDb, machineInfo, portOf, posInt, redact, runBench, sessionOf, startSeqClient, writeResults } from './common.ts';

const CUSTOMERS = 10_000;
const JOURNALS = 5_000_000;
const SAMPLES = posInt('BENCH_SAMPLES', 300);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (v: number) => Math.round(v * 100) / 100;
const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: round(pct(s, 50)), p95: round(pct(s, 95)), max: round(s[s.length - 1]) };
};
/** a deterministic spread of picks (a linear congruential generator): the same inputs on every run */
function picker(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
}

async function ensureDatabase(url: string) {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: u.toString() });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount;
  if (!exists) await admin.query(`create database "${name.replace(/"/g, '')}"`);
  await admin.end();
}

runBench(60 * 60_000, async (cleanup) => {
  const url = process.env.LEDGER_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/ledger10m';
  assertLoopbackDb(url);
  await ensureDatabase(url);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-bench-ledger-'));
  cleanup.add(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const database = await openDatabase({ databaseUrl: url, dataDir });
  cleanup.add(() => database.close());
  const config = loadConfig(process.env, {
    host: HOST, port: 0, dataDir, databaseUrl: url, redisUrl: null, demoPassword: DEMO_PASSWORD, seedDemo: true, logLevel: 'silent',
    rateLimitPerToken: 1e9, rateLimitPerIp: 1e9, runWorkers: true,
  });
  // production: the job workers and their schedules run while the pages are read
  const built = await buildApp(config, database, { jobs: true });
  cleanup.add(() => built.close());
  await built.startJobs();
  await built.app.listen({ host: HOST, port: 0 });
  const origin = `http://${HOST}:${portOf(built.app)}`;
  const q = database.sql.query.bind(database.sql);

  await seedLedger(url, q, CUSTOMERS, JOURNALS);
  const [{ n: postings }] = await q<{ n: string }>('select count(*) as n from ledger_postings');
  const custs = (await q<{ cust_id: number; n: string }>(
    `select c.cust_id, (select count(*) from ledger_postings p where p.cust_id = c.cust_id) as n
     from customers c where c.cust_name like 'Bench customer %' order by c.cust_id`)).map((r) => ({ id: r.cust_id, n: Number(r.n) }));
  console.log(`${Number(postings).toLocaleString('en')} postings, ${custs.length.toLocaleString('en')} bench customers in ${redact(url)}; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  const call = await startSeqClient(cleanup);
  const staff = await sessionOf(built, database, 'admin');
  const ent = await sessionOf(built, database, 'enterprise');
  const pick = picker(13);
  const results: Record<string, ReturnType<typeof stats>> = {};

  const run = async (name: string, endpoint: { name: string }, bodies: { token: string; body: object }[]) => {
    const ms: number[] = [];
    // warm-up
    for (const b of bodies.slice(0, 10)) await call(origin + pathOf(endpoint) + '?ts=1&lang=en', b.token, JSON.stringify(b.body), 1);
    for (const b of bodies) ms.push(...(await call(origin + pathOf(endpoint) + '?ts=1&lang=en', b.token, JSON.stringify(b.body), 1)).ms);
    results[name] = stats(ms);
    console.log(`${name.padEnd(44)} p50 ${results[name].p50} ms  p95 ${results[name].p95} ms  max ${results[name].max} ms  (${ms.length} calls)`);
  };

  const sorts = [undefined, 'preDeposit', 'available', 'grants', 'credit', 'withdrawHold', 'custName', 'updatedAt'];
  const pages = Math.ceil((custs.length + 10) / 20);
  await run('capital list page (staff)', capital.getCapitalListPage, Array.from({ length: SAMPLES }, (_, i) => {
    const sortField = sorts[pick(sorts.length)];
    const body: Record<string, unknown> = { current: 1 + pick(pages), pageSize: 20 };
    if (sortField) Object.assign(body, { sortField, sortOrder: pick(2) ? 'ascend' : 'descend' });
    // a tenth of the calls search a name fragment (its matches' first page)
    if (i % 10 === 0) Object.assign(body, { custName: `customer ${String(pick(1000)).padStart(3, '0')}`, current: 1 });
    return { token: staff, body };
  }));
  await run('capital list page (enterprise, its tree)', capital.getCapitalListPage, Array.from({ length: Math.round(SAMPLES / 3) }, () => ({ token: ent, body: { current: 1, pageSize: 20 } })));

  const kinds = [undefined, undefined, JournalKind.Recharge, JournalKind.Spend];
  await run('one customer\'s ledger page (staff)', capital.getCapitalLedgerPage, Array.from({ length: SAMPLES }, (_, i) => {
    const c = custs[pick(custs.length)];
    const body: Record<string, unknown> = { custId: c.id, pageSize: 20, current: 1 + pick(Math.max(1, Math.floor(c.n / 20))) };
    const kind = kinds[pick(kinds.length)];
    if (kind) body.kind = kind;
    // a fifth of the calls ask for a month of the year, from its first page
    if (i % 5 === 0) {
      const month = 1 + pick(11);
      Object.assign(body, { startDate: `2026-${String(month).padStart(2, '0')}-01`, endDate: `2026-${String(month).padStart(2, '0')}-28`, current: 1 });
    }
    return { token: staff, body };
  }));
  await run('own ledger page (enterprise)', capital.getCapitalLedgerPage, Array.from({ length: Math.round(SAMPLES / 3) }, () => ({ token: ent, body: { pageSize: 20, current: 1 } })));

  const t0 = Date.now();
  const check = await runLedgerCheck(database.db);
  const checkMs = Date.now() - t0;
  console.log(`nightly balance check: ${(checkMs / 1000).toFixed(2)} s over ${check.postings.toLocaleString('en')} postings, ${check.ok ? 'balanced' : `${check.mismatches.length} mismatches`}`);

  const met = results['capital list page (staff)'].p95 < 50 && results['one customer\'s ledger page (staff)'].p95 < 50 && checkMs < 60_000;
  const file = writeResults('ledger', { machine: machineInfo(), postings: Number(postings), customers: custs.length, results, checkMs, checkOk: check.ok, met });
  console.log(`targets (pages p95 < 50 ms, check < 60 s): ${met ? 'met' : 'NOT met'}; written to ${file}`);
  return check.ok ? 0 : 1;
});
