/**
 * Physical stock at scale (issue 16 targets, on PostgreSQL with 1,000,000 stock items):
 *   - the stock list, p95 < 50 ms over filters drawn from across the data;
 *   - the three-code export of every item (CSV through the download task) with the server's memory growing < 200 MB;
 *   - a 10,000-item stock operation (validate + confirm + the job until done) < 10 s (stock in, then match).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/stock.ts
 *
 * Creates its own database on the loopback server (lynx_bench_*; dropped at the end), starts the real server as a
 * child process in production mode (apps/server/src/main.ts: migrations, demo data, job workers; the mem-probe preload
 * reports its memory), seeds BENCH_STOCK (1,000,000) items set-based with generate_series (60 % not matched, 30 %
 * matched in the three out states, 10 % scrapped; 200 locations, 3 operators, 2 balance types, an SN on every 50th),
 * then measures through HTTP. Prints the load average. Exits 0 when every target is met, 2 otherwise.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { ExportFormat, ExportState, StockBatchState, StockOpType } from '@lynx/contract';
import { assertLoopbackDb, baseDatabaseUrl, freshPostgres, gitInfo, machineInfo, posInt, runBench, sleep, startServerChild, writeResults } from './common.ts';

const ITEMS = posInt('BENCH_STOCK', 1_000_000);
const REQUESTS = posInt('BENCH_REQUESTS', 300);
const PORT = posInt('BENCH_PORT', 8096);
const MB = 1024 * 1024;
const TARGET = { listP95Ms: 50, exportGrowthMb: 200, batchSeconds: 10 };

interface Mem { rss: number; heapUsed: number; at: number }
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const r2 = (v: number) => Math.round(v * 100) / 100;
const load = () => os.loadavg().map((x) => r2(x));

runBench(60 * 60_000, async (cleanup) => {
  const base = baseDatabaseUrl();
  if (!base) throw new Error('set BENCH_DATABASE_URL to a PostgreSQL server on loopback');
  assertLoopbackDb(base);
  const db = await freshPostgres(base);
  cleanup.add(db.drop);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-bench-stock-'));
  cleanup.add(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const { child, origin, samples } = await startServerChild<Mem>(cleanup, {
    port: PORT, startSeconds: 180, memProbe: true,
    env: { DATABASE_URL: db.url, DATA_DIR: dataDir, CMP_RATE_LIMIT: '1000000', CMP_RATE_LIMIT_IP: '1000000', CMP_DEMO_PASSWORD: 'Bench@2026pass' },
  });
  const sqlc = new pg.Client({ connectionString: db.url });
  await sqlc.connect();
  cleanup.add(() => sqlc.end());

  // 1,000,000 items, set-based
  let t0 = performance.now();
  await sqlc.query(`
    insert into stock_items (iccid, imsi, msisdn, sn, operator_id, location, balance_type, match_state, out_state, received_at)
    select '8986' || lpad(g::text, 16, '0'), '460' || lpad(g::text, 12, '0'), '1064' || lpad(g::text, 9, '0'),
      case when g % 50 = 0 then 'SN' || lpad((g / 100)::text, 8, '0') end, 1 + g % 3, 'L-' || lpad((g % 200)::text, 3, '0'), 1 + (g % 7 = 0)::int,
      case when g % 10 < 6 then 1 when g % 10 < 9 then 3 else 4 end,
      case when g % 10 < 6 then 1 when g % 10 = 6 then 1 when g % 10 = 7 then 2 when g % 10 = 8 then 3 else 4 end,
      now() - (g % 365) * interval '1 day'
    from generate_series(1, $1::int) g`, [ITEMS]);
  // as autovacuum would soon after a bulk load: statistics and the visibility map (index-only counts)
  await sqlc.query('vacuum (analyze) stock_items');
  const seedSeconds = r2((performance.now() - t0) / 1000);
  console.log(`seeded ${ITEMS.toLocaleString('en')} stock items in ${seedSeconds} s`);

  const login = await (await fetch(`${origin}/api/cmp/base/oauth/user/login?ts=1&lang=en`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ loginName: 'admin', password: 'Bench@2026pass' }),
  })).json() as { data: { accessToken: string } };
  const token = login.data.accessToken;
  const post = async <T,>(name: string, body: unknown): Promise<T> => {
    const res = await fetch(`${origin}/api/cmp/${name}?ts=1&lang=en`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: JSON.stringify(body) });
    const json = (await res.json()) as { success: boolean; msg: string; data: T };
    if (!json.success) throw new Error(`${name}: ${json.msg}`);
    return json.data;
  };

  // --- the list: filters drawn from across the data (seeded random, so runs compare) ---
  let seed = 42;
  const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
  const g = () => 1 + rnd(ITEMS);
  const iccidOf = (n: number) => `8986${String(n).padStart(16, '0')}`;
  const filters: [string, () => Record<string, unknown>][] = [
    ['no filter', () => ({})],
    ['match state', () => ({ matchState: 1 + rnd(4) })],
    ['out state', () => ({ outState: 1 + rnd(4) })],
    ['location', () => ({ location: `L-${String(rnd(200)).padStart(3, '0')}` })],
    ['operator + balance type', () => ({ operatorId: 1 + rnd(3), balanceType: 1 + rnd(2) })],
    ['match state + location', () => ({ matchState: [1, 3, 4][rnd(3)], location: `L-${String(rnd(200)).padStart(3, '0')}` })],
    ['ICCID prefix', () => ({ iccid: iccidOf(g()).slice(0, 14) })],
    ['exact ICCID', () => ({ iccid: iccidOf(g()) })],
    ['IMSI', () => ({ imsi: `460${String(g()).padStart(12, '0')}` })],
    ['MSISDN', () => ({ msisdn: `1064${String(g()).padStart(9, '0')}` })],
    ['SN', () => ({ sn: `SN${String(Math.floor(g() / 100)).padStart(8, '0')}` })],
    ['keyset page deep in the data', () => ({ afterIccid: iccidOf(g()), matchState: 1 })],
    ['page 50 of a state', () => ({ outState: 1 + rnd(4), current: 50 })],
  ];
  for (let i = 0; i < 30; i++) await post('core/stock/stock/getStockPage', filters[i % filters.length][1]());
  const ms: number[] = [];
  const perCase = new Map<string, number[]>();
  for (let i = 0; i < REQUESTS; i++) {
    const [name, f] = filters[rnd(filters.length)];
    const s = performance.now();
    await post('core/stock/stock/getStockPage', { pageSize: 20, ...f() });
    const d = performance.now() - s;
    ms.push(d);
    perCase.set(name, [...(perCase.get(name) ?? []), d]);
  }
  const sorted = [...ms].sort((a, b) => a - b);
  const list = { requests: REQUESTS, p50: r2(pct(sorted, 50)), p95: r2(pct(sorted, 95)), max: r2(sorted[sorted.length - 1]), loadAvg: load(),
    byFilter: Object.fromEntries([...perCase].map(([k, v]) => { const s = [...v].sort((a, b) => a - b); return [k, { n: v.length, p50: r2(pct(s, 50)), p95: r2(pct(s, 95)) }]; })) };
  console.log(`list: ${REQUESTS} calls, p50 ${list.p50} ms, p95 ${list.p95} ms, max ${list.max} ms (target p95 < ${TARGET.listP95Ms}); load ${list.loadAvg.join(' ')}`);
  for (const [k, v] of Object.entries(list.byFilter)) console.log(`  ${k}: n ${v.n}, p50 ${v.p50} ms, p95 ${v.p95} ms`);

  // --- the three-code export of every item, with the server's memory ---
  const exportAll = async (f: Record<string, unknown>) => {
    const { taskId } = await post<{ taskId: string }>('core/stock/stock/exportThreeCodes', { ...f, format: ExportFormat.Csv });
    const s = performance.now();
    for (;;) {
      const page = await post<{ list: { taskId: string; state: number; rowCount: number | null; error: string | null }[] }>('core/downloadTask/getListPage', { current: 1, pageSize: 10 });
      const task = page.list.find((x) => x.taskId === taskId);
      if (task && task.state !== ExportState.InProcess) {
        if (task.state !== ExportState.Succeeded) throw new Error(`export failed: ${task.error}`);
        return { taskId, seconds: r2((performance.now() - s) / 1000), rows: task.rowCount ?? 0 };
      }
      await sleep(250);
    }
  };
  await exportAll({ iccid: '89860000000000001' });
  child.send({ gc: true });
  await sleep(3000);
  const idle = samples.filter((s) => s.at > Date.now() - 2500);
  const baseRss = Math.max(...idle.map((s) => s.rss));
  const from = samples.length;
  const big = await exportAll({});
  await sleep(300);
  const peakRss = Math.max(...samples.slice(from).map((s) => s.rss));
  const file = path.join(dataDir, 'files', 'exports', `${big.taskId}.csv`);
  let lines = 0;
  for await (const _ of readline.createInterface({ input: fs.createReadStream(file) })) lines++;
  const [{ n: total }] = (await sqlc.query<{ n: string }>('select count(*) n from stock_items')).rows;
  if (lines !== Number(total) + 1) throw new Error(`expected ${total} rows in the file, found ${lines - 1}`);
  const exp = { rows: big.rows, seconds: big.seconds, rssMb: { baseline: Math.round(baseRss / MB), peak: Math.round(peakRss / MB), growth: r2((peakRss - baseRss) / MB) }, loadAvg: load() };
  console.log(`export: ${big.rows.toLocaleString('en')} rows in ${big.seconds} s; RSS ${exp.rssMb.baseline} → ${exp.rssMb.peak} MB, growth ${exp.rssMb.growth} MB (target < ${TARGET.exportGrowthMb}); load ${exp.loadAvg.join(' ')}`);

  // --- 10,000-item operations: stock in, then match (cards inserted) ---
  const runOp = async (body: Record<string, unknown>) => {
    const s = performance.now();
    const v = await post<{ batchId: string; valid: number }>('core/stock/operation/validate', body);
    const validated = performance.now() - s;
    await post('core/stock/operation/confirm', { batchId: v.batchId });
    for (;;) {
      const d = await post<{ state: number; succeeded: number; failed: number }>('core/stock/operation/getDetail', { batchId: v.batchId });
      if (d.state === StockBatchState.Done) {
        return { valid: v.valid, succeeded: d.succeeded, failed: d.failed, validateSeconds: r2(validated / 1000), seconds: r2((performance.now() - s) / 1000) };
      }
      await sleep(100);
    }
  };
  const fresh = Array.from({ length: 10_000 }, (_, i) => `8987${String(i + 1).padStart(16, '0')}`);
  t0 = performance.now();
  const stockIn = await runOp({ type: StockOpType.In, operatorId: 1, location: 'BENCH', rows: fresh.map((iccid, i) => ({ iccid, imsi: `460990${String(i).padStart(9, '0')}`, msisdn: `1064990${String(i).padStart(6, '0')}` })) });
  const match = await runOp({ type: StockOpType.Match, iccids: fresh });
  const batch = { stockIn, match, loadAvg: load() };
  console.log(`stock in 10,000: ${stockIn.seconds} s (validate ${stockIn.validateSeconds} s), ${stockIn.succeeded} succeeded; match 10,000: ${match.seconds} s (validate ${match.validateSeconds} s), ${match.succeeded} succeeded (target < ${TARGET.batchSeconds} s); load ${batch.loadAvg.join(' ')}`);
  if (stockIn.succeeded !== 10_000 || match.succeeded !== 10_000) throw new Error('a batch item failed');

  const met = list.p95 < TARGET.listP95Ms && exp.rssMb.growth < TARGET.exportGrowthMb && stockIn.seconds < TARGET.batchSeconds && match.seconds < TARGET.batchSeconds;
  const result = { at: new Date().toISOString(), items: ITEMS, seedSeconds, list, export: exp, batch, target: TARGET, met, machine: machineInfo(), git: gitInfo() };
  console.log(`results: ${writeResults('stock-postgres', result)}; ${met ? 'all targets met' : 'a target MISSED'}`);
  return met ? 0 : 2;
});
