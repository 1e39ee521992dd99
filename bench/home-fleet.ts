/**
 * Home and exports at fleet scale (issue 12): on a PostgreSQL database holding the 1,000,000-card fleet
 * (`npm run seed -- --cards 1000000` on top of the demo data),
 *
 *   HOME_DATABASE_URL=postgres://postgres@127.0.0.1:5432/fleet1m_copy node --import tsx bench/home-fleet.ts
 *
 * measures, through the real server (buildApp, app.inject: session, schema, permission, tenant scope, envelope):
 * - the fleet health call as operator staff, the enterprise customer and its second-level customer;
 * - the card list behind each health number (states, online, quotaLevel, alertsFrom, batchFailedFrom);
 * - an export of exactly 10,000 cards (written during the call) and one of 10,001 (queued as a task);
 * HOME_REQUESTS (20) calls each after 3 warm-up calls; prints p50 / p95 and the machine's load. It changes nothing but
 * the download tasks it creates (deleted at the end). Exits 1 on an error.
 */
import os from 'node:os';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { recentSince } from '../apps/server/src/modules/home/fleet-health.ts';
import { assertLoopbackDb, posInt, runBench } from './common.ts';

const REQUESTS = posInt('HOME_REQUESTS', 20);
const WARMUP = 3;
const pct = (s: number[], p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
const round = (v: number) => Math.round(v * 10) / 10;
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' / ');

runBench(60 * 60_000, async (cleanup) => {
  const url = process.env.HOME_DATABASE_URL || process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('set HOME_DATABASE_URL to a copy of the 1,000,000-card database on loopback');
  assertLoopbackDb(url);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/tmp' });
  cleanup.add(() => database.close());
  const config = loadConfig(process.env, {
    port: 0, dataDir: '/tmp/lynx-bench-home', databaseUrl: url, redisUrl: null, seedDemo: false, logLevel: 'silent',
    rateLimitPerToken: 1e9, rateLimitPerIp: 1e9, runWorkers: false, usageFeedMinutes: 0,
  });
  const built = await buildApp(config, database, { jobs: false });
  cleanup.add(() => built.close());
  // the queue, without workers: a big export is queued and left there
  await built.startJobs(5);
  const q = <T>(text: string, params: unknown[] = []) => database.sql.query<T>(text, params);
  const [{ n: cards }] = await q<{ n: string }>('select count(*) n from cards');
  console.log(`cards: ${Number(cards).toLocaleString('en')}; ${os.cpus().length} cores; load ${load()}`);

  const tokenOf = async (login: string) => {
    const [a] = await q<{ account_id: number }>('select account_id from accounts where login_name = $1', [login]);
    if (!a) throw new Error(`no ${login} account: the database needs the demo data`);
    return (await built.deps.sessions.create(database.db, a.account_id, '127.0.0.1')).token;
  };
  const actors = { staff: await tokenOf('admin'), enterprise: await tokenOf('enterprise'), subcustomer: await tokenOf('subcustomer') };
  const call = async (token: string, endpoint: string, body: object) => {
    const t0 = performance.now();
    const res = await built.app.inject({ method: 'POST', url: `/api/cmp/${endpoint}?ts=1&lang=en`, payload: body, headers: { authorization: token } });
    const ms = performance.now() - t0;
    const json = res.json();
    if (!json.success) throw new Error(`${endpoint}: ${json.msg}`);
    return { ms, data: json.data };
  };
  const measure = async (name: string, token: string, endpoint: string, body: object, n = REQUESTS) => {
    for (let i = 0; i < WARMUP; i++) await call(token, endpoint, body);
    const ms: number[] = [];
    let data: any;
    for (let i = 0; i < n; i++) ({ ms: ms[i], data } = await call(token, endpoint, body));
    ms.sort((a, b) => a - b);
    console.log(`${name.padEnd(44)} p50 ${String(round(pct(ms, 50))).padStart(8)} ms  p95 ${String(round(pct(ms, 95))).padStart(8)} ms  load ${load()}`);
    return data;
  };

  const since = recentSince(Date.now());
  for (const [who, token] of Object.entries(actors)) {
    const h = await measure(`fleet health (${who})`, token, 'edge/homepage/fleetHealth', {});
    console.log(`  active ${h.activeCards}, online ${h.onlineNow}, near ${h.nearQuota}, over ${h.overQuota}, alerted ${h.alerts.cards}, batch-failed ${h.batchFailures.cards}`);
  }
  for (const [who, token] of Object.entries(actors)) {
    for (const [filter, body] of Object.entries({
      active: { states: [64] }, online: { online: true }, near: { quotaLevel: 'near' }, over: { quotaLevel: 'over' },
      alerts: { alertsFrom: since }, batchFailures: { batchFailedFrom: since },
    })) {
      await measure(`card list ${filter} (${who})`, token, 'core/sim/simQuery/getSimListPage', { ...body, pageSize: 20 });
    }
  }

  // exports: an ICCID range of exactly 10,000 cards is written during the call; 10,001 become a task
  const [start] = await q<{ iccid: string }>('select iccid from cards order by iccid offset 500000 limit 1');
  const ends = await q<{ iccid: string }>('select iccid from cards where iccid >= $1 and length(iccid) = length($1) order by iccid offset 9999 limit 2', [start.iccid]);
  const created: string[] = [];
  for (const [rows, end] of [[10_000, ends[0].iccid], [10_001, ends[1].iccid]] as const) {
    for (const format of [2, 1]) {
      const r = await call(actors.staff, 'core/sim/simQuery/exportSimList', { iccidStart: start.iccid, iccidEnd: end, format });
      created.push(r.data.taskId);
      console.log(`export of ${rows.toLocaleString('en')} cards (${format === 1 ? 'xlsx' : 'csv'}): direct ${r.data.direct}, ${round(r.ms)} ms  load ${load()}`);
    }
  }
  await q('delete from download_tasks where task_id = any($1::uuid[])', [created]);
  return 0;
});
