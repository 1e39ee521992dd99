/**
 * Financial › Accounting reports at scale (issue 14): the daily build over the ledger bench data (bench/ledger-seed.ts:
 * 10,000 customers, 10,000,000 postings over 400 days on PostgreSQL), then the report pages read through the real
 * server.
 *
 *   LEDGER_DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger10m npm run bench:accounting-report
 *   BENCH_JOURNALS=500000 LEDGER_DATABASE_URL=postgres://…/ledger1m …   (a smaller ledger, its own database)
 *
 * The reports are built from nothing each run (the report tables are emptied first; the job and its schedule are off,
 * so only this build runs): every day from the first posting to yesterday, one transaction each, timed. Then, as
 * finance staff and as a first-level customer: the daily and monthly list pages, a day's and a month's customer
 * statements (20 rows, default order and sorted by an amount). Target: pages p95 < 50 ms. Prints build time per day
 * (p50 / p95 / max) and the pages' p50 / p95 / max; writes bench/results/accounting-report.json.
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { buildAccountingReports } from '../apps/server/src/modules/money/reports/report-builder.ts';
import { pathOf, report, ReportPeriod } from '@lynx/contract';
import { seedLedger } from './ledger-seed.ts';
import { DEMO_PASSWORD, HOST, assertLoopbackDb, machineInfo, portOf, posInt, redact, runBench, sessionOf, startSeqClient, writeResults } from './common.ts';

const CUSTOMERS = posInt('BENCH_CUSTOMERS', 10_000);
const JOURNALS = posInt('BENCH_JOURNALS', 5_000_000);
const SAMPLES = posInt('BENCH_SAMPLES', 200);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (v: number) => Math.round(v * 100) / 100;
const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: round(pct(s, 50)), p95: round(pct(s, 95)), max: round(s[s.length - 1]) };
};
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

runBench(90 * 60_000, async (cleanup) => {
  const url = process.env.LEDGER_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/ledger10m';
  assertLoopbackDb(url);
  await ensureDatabase(url);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-bench-reports-'));
  cleanup.add(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const database = await openDatabase({ databaseUrl: url, dataDir });
  cleanup.add(() => database.close());
  const config = loadConfig(process.env, {
    host: HOST, port: 0, dataDir, databaseUrl: url, redisUrl: null, demoPassword: DEMO_PASSWORD, seedDemo: true, logLevel: 'silent',
    rateLimitPerToken: 1e9, rateLimitPerIp: 1e9, runWorkers: false,
  });
  const built = await buildApp(config, database, { jobs: false });
  cleanup.add(() => built.close());
  await built.app.listen({ host: HOST, port: 0 });
  const origin = `http://${HOST}:${portOf(built.app)}`;
  const q = database.sql.query.bind(database.sql);
  await seedLedger(url, q, CUSTOMERS, JOURNALS);
  const [{ n: postings }] = await q<{ n: string }>('select count(*) as n from ledger_postings');
  console.log(`${Number(postings).toLocaleString('en')} postings in ${redact(url)}; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  // from nothing: every day from the first posting to yesterday (BENCH_REBUILD=0: only the days not built yet)
  if (process.env.BENCH_REBUILD !== '0') await q('truncate accounting_month_customers, accounting_day_customers, accounting_days');
  const t0 = Date.now();
  const days = await buildAccountingReports(database.db);
  const buildMs = Date.now() - t0;
  const perDay = days.length ? stats(days.map((d) => d.ms)) : null;
  const [{ rows: dayRows }] = await q<{ rows: string }>('select count(*) as rows from accounting_day_customers');
  const busiest = days.length ? days.reduce((m, d) => (d.postings > m.postings ? d : m), days[0]) : null;
  if (perDay && busiest) {
    console.log(`built ${days.length} days in ${(buildMs / 1000).toFixed(1)} s: per day p50 ${perDay.p50} ms, p95 ${perDay.p95} ms, max ${perDay.max} ms; `
      + `${Number(dayRows).toLocaleString('en')} customer rows; busiest day ${busiest.day}: ${busiest.postings.toLocaleString('en')} postings, ${busiest.customers.toLocaleString('en')} customers, ${busiest.ms} ms`);
  }
  await q('vacuum (analyze) accounting_day_customers');
  await q('vacuum (analyze) accounting_days');
  await q('vacuum (analyze) accounting_month_customers');

  const call = await startSeqClient(cleanup);
  const staff = await sessionOf(built, database, 'admin');
  const ent = await sessionOf(built, database, 'enterprise');
  const pick = picker(17);
  const results: Record<string, ReturnType<typeof stats>> = {};
  const run = async (name: string, endpoint: { name: string }, bodies: { token: string; body: object }[]) => {
    const ms: number[] = [];
    for (const b of bodies.slice(0, 5)) await call(origin + pathOf(endpoint) + '?ts=1&lang=en', b.token, JSON.stringify(b.body), 1);
    for (const b of bodies) ms.push(...(await call(origin + pathOf(endpoint) + '?ts=1&lang=en', b.token, JSON.stringify(b.body), 1)).ms);
    results[name] = stats(ms);
    console.log(`${name.padEnd(46)} p50 ${results[name].p50} ms  p95 ${results[name].p95} ms  max ${results[name].max} ms  (${ms.length} calls)`);
  };
  const dayIds = (await q<{ day: string }>('select day::text as day from accounting_days order by day')).map((r) => r.day);
  const monthIds = [...new Set(dayIds.map((d) => d.slice(0, 7)))];
  const sorts = [undefined, undefined, 'closing', 'spend', 'recharge', 'custName'];
  const pages = Math.ceil(CUSTOMERS / 20);

  await run('daily list page (staff)', report.getAccountingReportListPage, Array.from({ length: SAMPLES }, () => ({
    token: staff, body: { type: ReportPeriod.Daily, current: 1 + pick(Math.ceil(dayIds.length / 20)), pageSize: 20 },
  })));
  await run('monthly list page (staff)', report.getAccountingReportListPage, Array.from({ length: SAMPLES }, () => ({
    token: staff, body: { type: ReportPeriod.Monthly, pageSize: 20 },
  })));
  const custIds = (await q<{ cust_id: number }>(`select cust_id from customers where cust_name like 'Bench customer %' order by cust_id`)).map((r) => r.cust_id);
  await run('daily list page (one customer, staff)', report.getAccountingReportListPage, Array.from({ length: SAMPLES }, () => ({
    token: staff, body: { type: ReportPeriod.Daily, pageSize: 20, custId: custIds[pick(custIds.length)] },
  })));
  await run('daily list page (enterprise, its tree)', report.getAccountingReportListPage, Array.from({ length: Math.round(SAMPLES / 2) }, () => ({
    token: ent, body: { type: ReportPeriod.Daily, pageSize: 20 },
  })));
  await run('a day\'s statements page (staff)', report.getAccountingReportDetail, Array.from({ length: SAMPLES }, () => {
    const sortField = sorts[pick(sorts.length)];
    return { token: staff, body: { id: dayIds[pick(dayIds.length)], type: ReportPeriod.Daily, current: 1 + pick(pages), pageSize: 20, ...(sortField ? { sortField, sortOrder: 'descend' } : {}) } };
  }));
  await run('a month\'s statements page (staff)', report.getAccountingReportDetail, Array.from({ length: Math.round(SAMPLES / 4) }, () => {
    const sortField = sorts[pick(sorts.length)];
    return { token: staff, body: { id: monthIds[pick(monthIds.length)], type: ReportPeriod.Monthly, current: 1 + pick(pages), pageSize: 20, ...(sortField ? { sortField, sortOrder: 'descend' } : {}) } };
  }));

  const pagesMet = Object.values(results).every((r) => r.p95 < 50);
  const file = writeResults('accounting-report', {
    machine: machineInfo(), postings: Number(postings), customers: CUSTOMERS, days: days.length, customerRows: Number(dayRows),
    buildMs, perDay, busiest, results, pagesMet,
  });
  console.log(`target (pages p95 < 50 ms): ${pagesMet ? 'met' : 'NOT met'}; written to ${file}`);
  return 0;
});
