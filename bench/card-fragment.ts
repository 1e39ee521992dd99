/**
 * Card fragment search at fleet scale (issue 12 target: over 1,000,000 cards on PostgreSQL, p95 < 100 ms), measured
 * as users get it: through the HTTP API of the production server started as `npm start` starts it
 * (`node --import tsx apps/server/src/main.ts`, background jobs on: the usage feed, the lifecycle scheduler, pools).
 *
 *   CARD_FRAGMENT_DATABASE_URL=postgres://postgres@127.0.0.1:5432/fleet1m_copy npm run bench:card-fragment
 *
 * The database (loopback PostgreSQL; CARD_FRAGMENT_DATABASE_URL, else BENCH_DATABASE_URL / DATABASE_URL) must hold the
 * fleet (`npm run seed -- --cards 1000000`); the server applies its migrations to it first (0018 builds the trigram
 * index: about a minute at 1M cards). Use a copy: the server's background jobs write to it.
 *
 * Fragments are drawn from across the fleet, for each kind of user from the cards it may see: an early, a middle and
 * a late card in ICCID order (1 %, 50 %, 99 % of the way), and from each its ICCID's last 6, 7 and 8 digits, 6 digits
 * from the middle of its ICCID's serial number, the last 6 digits of its MSISDN, 7 digits from the middle of its IMSI,
 * and one fragment held by no card. Each is searched with the card list's "contains" filter (on the field it comes
 * from; first page, 20 rows, with the total) and with the header search, as operator staff, the enterprise customer
 * (role 3000, its tree) and its second-level customer (role 5000). Every call runs BENCH_REQUESTS / 3 times per
 * fragment (sequentially, from a child process, after 5 warm-up calls); p50 / p95 per case and over all calls of
 * each endpoint. Exits 0 when every p95 is under 100 ms, 2 otherwise, 1 on an error. CARD_FRAGMENT_ONLY runs the
 * cases whose name contains it. Then, outside the target and printed apart, fragments made of the issuer code, of zeros
 * or of two repeated pieces (docs/performance.md "Card fragment search": what they cost and the 20701 guard).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { SessionStore } from '../apps/server/src/platform/sessions.ts';
import { FLEET_ICCID_LIKE } from '../apps/server/src/seed/fleet.ts';
import { HOST, assertLoopbackDb, gitInfo, machineInfo, posInt, redact, runBench, sleep, startSeqClient, writeResults } from './common.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REQUESTS = posInt('BENCH_REQUESTS', 60);
const ONLY = process.env.CARD_FRAGMENT_ONLY ?? '';
const WARMUP = 5;
const TARGET_P95_MS = 100;
const LIST = '/api/cmp/core/sim/simQuery/getSimListPage?ts=1&lang=en';
const SEARCH = '/api/cmp/core/search/globalSearch?ts=1&lang=en';

const round = (v: number) => Math.round(v * 100) / 100;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: round(pct(s, 50)), p95: round(pct(s, 95)), max: round(s[s.length - 1]) };
};
const load = () => os.loadavg().map((v) => v.toFixed(1)).join(' / ');

async function freePort(): Promise<number> {
  const srv = net.createServer();
  srv.listen(0, HOST);
  await once(srv, 'listening');
  const port = (srv.address() as net.AddressInfo).port;
  srv.close();
  return port;
}

/** The production server on the database, as `npm start` runs it (jobs on), with limits a benchmark never reaches. */
async function startServer(url: string, cleanup: { add(fn: () => Promise<void>): void }) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-bench-fragment-'));
  cleanup.add(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const logFile = path.join(dataDir, 'server.log');
  const log = fs.openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    ...process.env, PORT: String(port), HOST, DATA_DIR: dataDir, DATABASE_URL: url, REDIS_URL: '', LOG_LEVEL: 'warn',
    CMP_RATE_LIMIT: '1000000000', CMP_RATE_LIMIT_IP: '1000000000',
  };
  if (env.NODE_ENV === 'test') delete env.NODE_ENV;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'apps/server/src/main.ts')], { cwd: ROOT, env, stdio: ['ignore', log, log] });
  cleanup.add(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([once(child, 'exit'), sleep(15_000)]);
    }
    fs.closeSync(log);
  });
  const origin = `http://${HOST}:${port}`;
  const t0 = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break;
    } catch {
      /* not listening yet (migrations run first) */
    }
    if (performance.now() - t0 > 900_000) throw new Error('the server did not answer /api/health within 15 minutes');
    await sleep(500);
  }
  return { origin, startMs: Math.round(performance.now() - t0), logFile };
}

interface Fragment {
  /** e.g. "ICCID last 6 (late)" */
  name: string;
  kind: string;
  field: 'iccid' | 'msisdn' | 'imsi';
  value: string;
}

runBench(90 * 60_000, async (cleanup) => {
  const url = process.env.CARD_FRAGMENT_DATABASE_URL || process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) throw new Error('set CARD_FRAGMENT_DATABASE_URL to a copy of the 1M-card PostgreSQL database on loopback');
  assertLoopbackDb(url);
  console.log(`starting the production server on ${redact(url)} (migrations first; load ${load()})`);
  const server = await startServer(url, cleanup);
  console.log(`server up in ${(server.startMs / 1000).toFixed(1)} s at ${server.origin}`);

  const database = await openDatabase({ databaseUrl: url, dataDir: os.tmpdir() });
  cleanup.add(() => database.close());
  const q = database.sql.query.bind(database.sql);
  const [{ n: fleet }] = await q<{ n: string }>('select count(*) n from cards where iccid like $1', [FLEET_ICCID_LIKE]);
  if (Number(fleet) === 0) throw new Error('no fleet cards: seed the database first (npm run seed -- --cards 1000000)');
  const [{ n: total }] = await q<{ n: string }>('select count(*) n from cards');
  const [{ v: version }] = await q<{ v: string }>(`select current_setting('server_version') v`);

  // sessions made directly (the server reads them from the database)
  const store = new SessionStore(database.db, 12);
  const viewers = [
    { who: 'staff', login: 'admin', tenant: 'true' },
    { who: 'enterprise', login: 'enterprise', tenant: 'root_cust_id = (select root_cust_id from accounts where login_name = \'enterprise\')' },
    { who: 'second-level customer', login: 'subcustomer', tenant: 'cust_id = (select cust_id from accounts where login_name = \'subcustomer\')' },
  ];
  const tokens: Record<string, string> = {};
  for (const v of viewers) {
    const [a] = await q<{ account_id: number }>('select account_id from accounts where login_name = $1', [v.login]);
    if (!a) throw new Error(`no ${v.login} account: the database needs the demo data`);
    tokens[v.who] = (await store.create(database.db, a.account_id, HOST)).token;
  }

  // fragments from across the fleet, for each viewer from its own cards
  const fragmentsOf = async (tenant: string): Promise<Fragment[]> => {
    const [{ n }] = await q<{ n: string }>(`select count(*) n from cards where iccid like $1 and ${tenant}`, [FLEET_ICCID_LIKE]);
    const at = async (share: number) => (await q<{ iccid: string; msisdn: string; imsi: string }>(
      `select iccid, msisdn, imsi from cards where iccid like $1 and ${tenant} order by iccid offset $2 limit 1`,
      [FLEET_ICCID_LIKE, Math.floor(Number(n) * share)]))[0];
    const out: Fragment[] = [];
    for (const [pos, share] of [['early', 0.01], ['middle', 0.5], ['late', 0.99]] as const) {
      const c = await at(share);
      out.push(
        { name: `ICCID last 6 (${pos})`, kind: 'ICCID last 6', field: 'iccid', value: c.iccid.slice(-6) },
        { name: `ICCID last 7 (${pos})`, kind: 'ICCID last 7', field: 'iccid', value: c.iccid.slice(-7) },
        { name: `ICCID last 8 (${pos})`, kind: 'ICCID last 8', field: 'iccid', value: c.iccid.slice(-8) },
        // 6 digits inside the serial number, ending 2 digits before the last (the "middle" of what is printed)
        { name: `ICCID middle 6 (${pos})`, kind: 'ICCID middle 6', field: 'iccid', value: c.iccid.slice(-8, -2) },
        { name: `MSISDN last 6 (${pos})`, kind: 'MSISDN last 6', field: 'msisdn', value: c.msisdn.slice(-6) },
        { name: `IMSI middle 7 (${pos})`, kind: 'IMSI middle 7', field: 'imsi', value: c.imsi.slice(-9, -2) },
      );
    }
    return out;
  };
  // a fragment no card holds in any number (checked, not assumed)
  let none = '';
  for (let k = 0; !none; k++) {
    const cand = String(97_531_864 + k * 7_919).padStart(8, '0');
    const [{ n }] = await q<{ n: string }>(
      `select count(*) n from (select 1 from cards where iccid like $1 or msisdn like $1 or imsi like $1 or imei like $1 limit 1) x`, [`%${cand}%`]);
    if (Number(n) === 0) none = cand;
  }

  const seq = await startSeqClient(cleanup);
  const calls = async (pathAndQuery: string, token: string, body: string, n: number) => (await seq(`${server.origin}${pathAndQuery}`, token, body, n)).ms;
  const once_ = async (pathAndQuery: string, token: string, body: string) => {
    const res = await fetch(`${server.origin}${pathAndQuery}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body });
    const json = (await res.json()) as { success: boolean; msg: string; data: any };
    if (!json.success) throw new Error(`${pathAndQuery} ${body}: ${json.msg}`);
    return json.data;
  };

  const perFragment = Math.max(1, Math.round(REQUESTS / 3));
  console.log(`card fragment search on PostgreSQL ${version}: ${Number(total).toLocaleString('en')} cards, ${perFragment} calls per fragment, load ${load()} on ${os.cpus().length} cores`);
  console.log('case'.padEnd(58) + 'matches'.padStart(16) + '  p50 / p95 ms'.padStart(20) + '  load');
  const rows: Record<string, unknown>[] = [];
  const all: Record<'list' | 'search', number[]> = { list: [], search: [] };
  const byViewer: Record<string, number[]> = {};
  let allMet = true;
  for (const v of viewers) {
    const token = tokens[v.who];
    const fragments = [...(await fragmentsOf(v.tenant)), { name: 'held by no card', kind: 'no match', field: 'iccid' as const, value: none }];
    const kinds = [...new Set(fragments.map((f) => f.kind))];
    for (const endpoint of ['list', 'search'] as const) {
      for (const kind of kinds) {
        const label = `${v.who}: ${endpoint === 'list' ? 'card list contains' : 'header search'}, ${kind}`;
        if (ONLY && !label.includes(ONLY)) continue;
        const ms: number[] = [];
        const matches: string[] = [];
        for (const f of fragments.filter((x) => x.kind === kind)) {
          const body = JSON.stringify(endpoint === 'list'
            ? { current: 1, pageSize: 20, [f.field]: f.value, [`${f.field}Match`]: 'contains' }
            : { keyword: f.value });
          const pathAndQuery = endpoint === 'list' ? LIST : SEARCH;
          const first = await once_(pathAndQuery, token, body);
          matches.push(endpoint === 'list' ? `${first.total}${first.totalCapped ? '+' : ''}` : `${first.cards.items.length}${first.cards.more ? '+' : ''}`);
          await calls(pathAndQuery, token, body, WARMUP);
          ms.push(...(await calls(pathAndQuery, token, body, perFragment)));
        }
        const s = stats(ms);
        const met = s.p95 < TARGET_P95_MS;
        allMet &&= met;
        all[endpoint].push(...ms);
        (byViewer[v.who] ??= []).push(...ms);
        console.log(label.padEnd(58) + matches.join(',').padStart(16) + `${s.p50} / ${s.p95}`.padStart(20) + `  ${load()}${met ? '' : '  MISSED'}`);
        rows.push({ viewer: v.who, endpoint, kind, fragments: fragments.filter((x) => x.kind === kind).map((x) => x.value), matches, ...s, met, loadAverage1m: round(os.loadavg()[0]) });
      }
    }
  }
  // Outside the target, for the record: fragments no one types to find a SIM but anyone can, made of the issuer code
  // (in every card of one operator), of zeros (in every serial number) or of two repeated pieces ('600000': the index
  // can only check its pieces '600' and '000', held by 40 % and all cards). Timed from here, a few calls each.
  const stress: Record<string, unknown>[] = [];
  if (!ONLY) {
    console.log('outside the target (issuer code, zeros, two repeated pieces):');
    const [{ code }] = await q<{ code: string }>(`select substr(iccid, 3, 6) code from cards where iccid like $1 order by iccid desc limit 1`, [FLEET_ICCID_LIKE]);
    for (const v of viewers) {
      for (const value of [code, '000000', '600000']) {
        for (const endpoint of ['list', 'search'] as const) {
          const body = JSON.stringify(endpoint === 'list' ? { current: 1, pageSize: 20, iccid: value, iccidMatch: 'contains' } : { keyword: value });
          const ms: number[] = [];
          let outcome = '';
          for (let i = 0; i < 4; i++) {
            const t0 = performance.now();
            const res = await fetch(`${server.origin}${endpoint === 'list' ? LIST : SEARCH}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: tokens[v.who] }, body });
            const json = (await res.json()) as { success: boolean; errorCode: number | null; data: any };
            if (i > 0) ms.push(performance.now() - t0);
            outcome = !json.success ? `error ${json.errorCode}` : endpoint === 'list' ? `${json.data.total}${json.data.totalCapped ? '+' : ''}` : `${json.data.cards.items.length}${json.data.cards.more ? '+' : ''}`;
          }
          const s = stats(ms);
          const label = `${v.who}: ${endpoint === 'list' ? 'card list contains' : 'header search'}, ${value}`;
          console.log(label.padEnd(58) + outcome.padStart(16) + `${s.p50} / ${s.max}`.padStart(20) + `  ${load()}  (p50 / max)`);
          stress.push({ viewer: v.who, endpoint, value, outcome, ...s });
        }
      }
    }
  }
  const summary = {
    list: stats(all.list), search: stats(all.search),
    byViewer: Object.fromEntries(Object.entries(byViewer).map(([k, ms]) => [k, stats(ms)])),
  };
  console.log(`all card list "contains" calls: p50 ${summary.list.p50} ms, p95 ${summary.list.p95} ms (${summary.list.n} calls)`);
  console.log(`all header search calls: p50 ${summary.search.p50} ms, p95 ${summary.search.p95} ms (${summary.search.n} calls)`);
  for (const [k, s] of Object.entries(summary.byViewer)) console.log(`  ${k}: p50 ${s.p50} ms, p95 ${s.p95} ms`);
  const file = writeResults('card-fragment-postgres', {
    at: new Date().toISOString(), database: `PostgreSQL ${version}`, cards: Number(total), target: { p95Ms: TARGET_P95_MS }, callsPerFragment: perFragment,
    server: { startMs: server.startMs, jobs: 'on (npm start defaults)' }, machine: machineInfo(), loadAverage: os.loadavg(), git: gitInfo(), summary, cases: rows, outsideTarget: stress,
  });
  console.log(`results: ${file} (load average ${load()} on ${os.cpus().length} cores)`);
  return allMet && summary.list.p95 < TARGET_P95_MS && summary.search.p95 < TARGET_P95_MS ? 0 : 2;
});
