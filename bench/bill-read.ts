/**
 * Reading bills at scale (issue 14 targets, PostgreSQL): the bill list and a 1,000,000-line bill's card-lines page
 * p95 < 50 ms; the export of that bill with the server's memory growing by less than 200 MB.
 *
 *   BILL_READ_DATABASE_URL=postgres://postgres@127.0.0.1:5432/billread npm run bench:bill-read
 *
 * The database (loopback PostgreSQL; default postgres://postgres@127.0.0.1:5432/billread) is made on the first run as a
 * copy of BILL_READ_TEMPLATE (default billfleet1m: the 1,000,000-card fleet, `npm run seed -- --cards 1000000`) and
 * kept afterwards; drop it yourself when done. The first run then seeds in SQL (set-based, seconds):
 * - 195 more customers, so with the fleet's 5 there are 2,000 bills over 200 customers × 10 periods (2026-01 … 2026-10),
 *   every status (unpublished, to be written off, written off, overdue written off, overdue unpaid);
 * - the enterprise customer's (the fleet's biggest, ~257k cards) bill of 2026-10 with 1,000,000 card lines of its real
 *   cards (plan fee for each card, out-of-plan usage for 4 in 5, 1–4 supplementary packs, downtime and test fees for a
 *   few, a few one-off fees), published and unpaid; its totals, line and card counts and breakdowns as the run's totals
 *   step writes them (bill-run-sql.ts totalsSql);
 * - a second bill of 12,000 lines for the warm-up export.
 *
 * The real server runs as a child process as in production (apps/server/src/main.ts, NODE_ENV=production, every job
 * worker on, its own DATA_DIR, on 127.0.0.1:BENCH_PORT, default 8096) with bench/mem-probe.ts reporting its
 * process.memoryUsage() every 100 ms. Calls come one after another from a client child (bench/seq-client.ts) with real
 * sessions of operator staff (admin) and the enterprise customer:
 * - bill list pages: no filter (pages across the list), by period, by status (computed in SQL), published + period,
 *   a customer-name fragment; the enterprise's own list;
 * - card-lines pages of the 1M-line bill: the first page, pages whose `after` is the key of a line drawn uniformly from
 *   the whole bill, a category filter from such positions, a card's ICCID, ICCID prefixes (15 and 10 digits);
 * each BILL_READ_SAMPLES (300) calls after a warm-up, p50 / p95 / max. Then the card-lines export (xlsx, the export
 * button's default, then csv) through the download task: a 12,000-line export first so every code path is loaded,
 * the baseline after a full garbage collection over 2.5 s of idle, then the 1M-line export: duration, peak RSS and
 * heap, the file downloaded over HTTP as sent (size, rows checked against the bill's line count). Each export runs on a
 * server started for it (the pages' calls would have grown its heap beforehand and hidden growth); the growth is also
 * given from that server's idle RSS before the warm-up.
 * BILL_READ_EXPORT=off measures the pages only, BILL_READ_PAGES=off the exports only (a target not measured counts as not met);
 * BILL_READ_FORMATS=csv (or xlsx) exports in that format only; BILL_READ_SERVER_FLAGS adds node/V8 flags to the server's
 * command line (experiments; the server's own V8 settings are in apps/server/src/platform/v8-flags.ts).
 * Exits 0 when every target is met, 2 otherwise, 1 on an error. Writes bench/results/bill-read-postgres.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { BillLineCategory, BillStatus, ExportFormat, ExportState, bill, businessDay, pathOf, system } from '@lynx/contract';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { SessionStore } from '../apps/server/src/platform/sessions.ts';
import { billStatusSql, rowsOf } from '../apps/server/src/modules/billing/bills/bill-sql.ts';
import { HOST, assertLoopbackDb, gitInfo, machineInfo, posInt, redact, runBench, sleep, startSeqClient, startServerChild, writeResults } from './common.ts';

const TARGET_P95_MS = 50;
const TARGET_RSS_MB = 200;
const SAMPLES = posInt('BILL_READ_SAMPLES', 300);
const PORT = posInt('BENCH_PORT', 8096);
const MB = 1024 * 1024;
const BIG_PERIOD = '2026-10';
const BIG_LINES = 1_000_000;
const WARM_LINES = 12_000;
const PERIODS = Array.from({ length: 10 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`);
const BENCH_CUSTOMERS = 195;
const EXPORT_OFF = process.env.BILL_READ_EXPORT === 'off';
const PAGES_OFF = process.env.BILL_READ_PAGES === 'off';

interface Mem { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number; at: number }

/** busy and total CPU time of the whole machine so far (all cores, all processes), milliseconds */
const machineCpu = () => os.cpus().reduce((a, { times: t }) => {
  const busy = t.user + t.nice + t.sys + t.irq;
  return { busy: a.busy + busy, total: a.total + busy + t.idle };
}, { busy: 0, total: 0 });
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

/** Creates the database as a copy of the fleet template when it does not exist yet. */
async function ensureDatabase(url: string, template: string) {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  if (name === template) throw new Error(`the benchmark writes to its database: give it a name of its own, not the template ${template}`);
  u.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: u.toString() });
  await admin.connect();
  try {
    if ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount) return;
    if (!(await admin.query('select 1 from pg_database where datname = $1', [template])).rowCount) {
      throw new Error(`no database ${name}, and no template ${template} to copy it from (a 1,000,000-card fleet: npm run seed -- --cards 1000000)`);
    }
    console.log(`copying ${template} to ${name} (a minute or two)`);
    await admin.query(`create database "${name.replace(/"/g, '')}" template "${template.replace(/"/g, '')}" strategy file_copy`);
  } finally {
    await admin.end();
  }
}

/** The bills of the benchmark, in SQL: a few seconds for the list, a minute for the million lines. */
async function seedBills(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const q = async (label: string, text: string, values: unknown[] = []) => {
      const t0 = Date.now();
      const r = await c.query(text, values);
      console.log(`  ${label}: ${r.rowCount ?? 0} rows, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      return r;
    };
    const [ent] = (await c.query<{ cust_id: number }>(`select cust_id from accounts where login_name = 'enterprise'`)).rows;
    if (!ent?.cust_id) throw new Error('no enterprise account with a customer: the database needs the demo data');
    const [{ n: entCards }] = (await c.query<{ n: string }>('select count(*) n from cards where cust_id = $1', [ent.cust_id])).rows;
    if (Number(entCards) < 230_000) throw new Error(`the enterprise customer has ${entCards} cards: the 1M-line bill needs the 1,000,000-card fleet`);
    await c.query('begin');
    await q('bench customers', `insert into customers (cust_name, root_cust_id, level, status, admin_name, admin_email, admin_phone, payment_model)
      select 'Bench bill customer ' || lpad(g::text, 3, '0'), 0, 1, 2, 'Bench', 'bench@example.com', '13800138000', 2
      from generate_series(1, ${BENCH_CUSTOMERS}) g`);
    await c.query(`update customers set root_cust_id = cust_id where cust_name like 'Bench bill customer %'`);
    // 200 customers × 10 periods; h spreads the statuses: periods before 2026-10 are past their due dates
    await q('bills', `with p as (
        select k, to_date(k, 'YYYY-MM') f, (to_date(k, 'YYYY-MM') + interval '1 month' - interval '1 day')::date t from unnest($1::text[]) k),
      x as (
        select c.cust_id, c.root_cust_id, p.k, p.f, p.t, abs(hashtext(c.cust_id || p.k)) % 100 h, 40 + abs(hashtext(p.k || c.cust_id)) % 4000 cards
        from customers c cross join p),
      y as (
        select *, round(cards * 11.37, 2) total,
          case when k = '${BIG_PERIOD}' then h >= 30 else true end published,
          -- published on the 3rd of the next month; 2026-10 (late) on 2026-11-20, due 2026-12-05
          case when k = '${BIG_PERIOD}' then timestamptz '2026-11-20 10:00+08' else f + interval '1 month 2 days' end published_at from x)
      insert into bills (bill_no, period_key, cust_id, root_cust_id, period_from, period_to, published, published_at, published_by, due_date,
        card_count, line_count, total, tax, plan_fee, overage_fee, pack_fee, downtime_fee, withheld, amount_due, written_off, written_off_at, rated_at)
      select 'B' || replace(k, '-', '') || lpad(cust_id::text, 8, '0'), k, cust_id, root_cust_id, f, t, published,
        case when published then published_at end, case when published then 'admin' end,
        case when published then (published_at + interval '15 days')::date end,
        cards, cards * 4, total, round(total * 6 / 106, 2), round(total * 0.6, 2), round(total * 0.25, 2), round(total * 0.13, 2),
        total - round(total * 0.6, 2) - round(total * 0.25, 2) - round(total * 0.13, 2),
        -- 3 %: all withheld at the events, nothing due
        case when h < 3 then total else 0 end, case when h < 3 then 0 else total end,
        -- before 2026-10: 70 % written off in time, 10 % late, 17 % overdue unpaid; 2026-10 (due 2026-12): 40 % written off
        case when not published or h < 3 then 0 when k < '${BIG_PERIOD}' and h < 73 then total when k < '${BIG_PERIOD}' and h < 83 then total
          when k = '${BIG_PERIOD}' and h >= 60 then total else 0 end,
        case when not published or h < 3 then null when k < '${BIG_PERIOD}' and h < 73 then published_at + interval '5 days'
          when k < '${BIG_PERIOD}' and h < 83 then published_at + interval '25 days' when k = '${BIG_PERIOD}' and h >= 60 then published_at + interval '3 days' end,
        published_at - interval '1 day'
      from y`, [PERIODS]);
    await c.query(`select bill_lines_ensure_partition($1)`, [BIG_PERIOD]);
    const bigNo = `B${BIG_PERIOD.replace('-', '')}${String(ent.cust_id).padStart(8, '0')}`;
    // the big bill: published 2026-11-20, due 2026-12-05, unpaid (status 2 until then)
    await c.query(`update bills set published = true, published_at = '2026-11-20T02:00:00Z', published_by = 'admin', due_date = '2026-12-05',
      written_off = 0, written_off_at = null where bill_no = $1`, [bigNo]);
    const [{ bill_id: bigId }] = (await c.query<{ bill_id: number }>('select bill_id from bills where bill_no = $1', [bigNo])).rows;
    // the enterprise's cards in ICCID order, their lines as a run writes them: the fleet in chunks of 20,000 cards in
    // ICCID order, each chunk's lines by category then ICCID (bill-run-sql.ts chunkSql); the first 1,000,000 of those
    await q('1M card lines', `with c as (
        select iccid, goods_release_id, operator_id, card_type_id, quota, row_number() over (order by iccid) i, ck
        from (select iccid, cust_id, goods_release_id, operator_id, card_type_id, coalesce(cycle_quota_bytes, 104857600) quota,
          (row_number() over (order by iccid) - 1) / 20000 ck from cards) f
        where cust_id = $2),
      l as (
        select c.*, 1 category, date '2026-10-01' from_day, date '2026-10-31' to_day, 0::bigint ref_id, 1::bigint quantity,
          (10 + (i % 5) * 5)::numeric unit_price, null::bigint used_bytes from c
        union all
        select c.*, 3, date '2026-10-01', date '2026-10-31', 0, 1 + i % 97, 0.29, quota + (1 + i % 97) * 1048576 from c where i % 5 <> 0
        union all
        select c.*, 6, date '2026-10-01' + ((i * 7 + k * 9) % 31)::int, date '2026-10-01' + ((i * 7 + k * 9) % 31)::int, 0, 1, 20, null
        from c cross join lateral generate_series(1, 1 + (i % 4)::int) k
        union all
        select c.*, 5, date '2026-10-01', date '2026-10-31', 0, 1, 5, null from c where i % 20 = 7
        union all
        select c.*, 4, date '2026-10-01', date '2026-10-14', 0, 1, 1, null from c where i % 33 = 4
        union all
        select c.*, 7, date '2026-10-12', date '2026-10-12', 900000 + i, 1, 50, null from c where i % 50000 = 123)
      insert into bill_lines (period_key, bill_id, iccid, category, from_day, to_day, ref_id, goods_release_id, operator_id, card_type_id,
        quantity, unit_price, amount, tax, used_bytes, quota_bytes, withheld)
      select $3, $1, iccid, category, from_day, to_day, ref_id, goods_release_id, operator_id, card_type_id, quantity, unit_price,
        round(quantity * unit_price, 2), round(quantity * unit_price * 6 / 106, 2), used_bytes, case when category = 3 then quota end, false
      from l order by ck, category, iccid, from_day, ref_id limit ${BIG_LINES}`, [bigId, ent.cust_id, BIG_PERIOD]);
    // the warm-up bill: the plan fees of another customer's first 12,000 cards
    const [warm] = (await c.query<{ bill_id: number; cust_id: number }>(`select b.bill_id, b.cust_id from bills b
      where b.period_key = $1 and b.cust_id <> $2 and exists (select 1 from cards c where c.cust_id = b.cust_id) order by b.cust_id limit 1`,
    [BIG_PERIOD, ent.cust_id])).rows;
    await q('warm-up bill lines', `insert into bill_lines (period_key, bill_id, iccid, category, from_day, to_day, ref_id, goods_release_id, operator_id,
        card_type_id, quantity, unit_price, amount, tax, withheld)
      select $1, $2, iccid, 1, date '2026-10-01', date '2026-10-31', 0, goods_release_id, operator_id, card_type_id, 1, 10, 10, 0.57, false
      from cards where cust_id = $3 order by iccid limit ${WARM_LINES}`, [BIG_PERIOD, warm.bill_id, warm.cust_id]);
    // totals, counts and breakdowns of the two bills with lines, as the run's totals step writes them
    const amount = (cat: number) => `coalesce(sum(amount) filter (where category = ${cat}), 0)`;
    const C = BillLineCategory;
    await q('totals', `with agg as (
        select bill_id, sum(amount) total, sum(tax) tax, ${amount(C.PlanFee)} plan_fee, ${amount(C.PrepaidPlanFee)} prepaid_fee,
          ${amount(C.OutOfPlanUsage)} overage_fee, ${amount(C.TestFee)} test_fee, ${amount(C.DowntimeFee)} downtime_fee,
          ${amount(C.PackFee)} pack_fee, ${amount(C.OneOffFee)} one_off_fee, coalesce(sum(amount) filter (where withheld), 0) withheld, count(*) lines,
          count(distinct nullif(iccid, '')) cards
        from bill_lines where period_key = $1 and bill_id = any($2::bigint[]) group by bill_id)
      update bills b set total = g.total, tax = g.tax, plan_fee = g.plan_fee, prepaid_fee = g.prepaid_fee, overage_fee = g.overage_fee,
        test_fee = g.test_fee, downtime_fee = g.downtime_fee, pack_fee = g.pack_fee, one_off_fee = g.one_off_fee, withheld = g.withheld,
        amount_due = g.total - g.withheld, line_count = g.lines, card_count = g.cards, rated_at = now(), updated_at = now()
      from agg g where b.bill_id = g.bill_id`, [BIG_PERIOD, [bigId, warm.bill_id]]);
    await q('breakdowns', `insert into bill_summaries (bill_id, dim, dim_key, category, cards, quantity, amount, tax, used_bytes)
      select bill_id,
        case when grouping(goods_release_id) = 0 then 1 when grouping(operator_id) = 0 then 2 else 3 end,
        case when grouping(goods_release_id) = 0 then coalesce(goods_release_id, 0) when grouping(operator_id) = 0 then coalesce(operator_id, 0)
          else coalesce(card_type_id, 0) end,
        category, count(distinct nullif(iccid, '')), sum(quantity), sum(amount), sum(tax), coalesce(sum(used_bytes), 0)
      from bill_lines where period_key = $1 and bill_id = any($2::bigint[])
      group by grouping sets ((bill_id, category, goods_release_id), (bill_id, category, operator_id), (bill_id, category, card_type_id))`,
    [BIG_PERIOD, [bigId, warm.bill_id]]);
    await c.query('commit');
    for (const t of ['bills', 'customers', 'bill_summaries', `bill_lines_p${BIG_PERIOD.replace('-', '_')}`]) await q(`vacuum analyze ${t}`, `vacuum (analyze) ${t}`);
  } catch (e) {
    await c.query('rollback').catch(() => null);
    throw e;
  } finally {
    await c.end();
  }
}

runBench(90 * 60_000, async (cleanup) => {
  const url = process.env.BILL_READ_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/billread';
  const template = process.env.BILL_READ_TEMPLATE || 'billfleet1m';
  assertLoopbackDb(url);
  await ensureDatabase(url, template);
  const database = await openDatabase({ databaseUrl: url, dataDir: os.tmpdir() });
  cleanup.add(() => database.close());
  const q = database.sql.query.bind(database.sql);
  await migrate(database.sql);
  const big = async () => (await q<{ bill_id: number; cust_id: number; line_count: string; card_count: number; bill_no: string }>(
    `select b.bill_id, b.cust_id, b.line_count, b.card_count, b.bill_no from bills b join accounts a on a.cust_id = b.cust_id
     where a.login_name = 'enterprise' and b.period_key = $1`, [BIG_PERIOD]))[0];
  if (!(await big()) || Number((await big()).line_count) !== BIG_LINES) {
    console.log(`seeding bills in ${redact(url)}`);
    await seedBills(url);
  }
  const bigBill = await big();
  const [warmBill] = await q<{ bill_id: number }>(
    `select bill_id from bill_lines where period_key = $1 and bill_id <> $2 limit 1`, [BIG_PERIOD, bigBill.bill_id]);
  const [{ n: billCount }] = await q<{ n: string }>('select count(*) n from bills');
  const [{ n: custCount }] = await q<{ n: string }>('select count(distinct cust_id) n from bills');
  const [{ n: cardCount }] = await q<{ n: string }>('select count(*) n from cards');
  const [{ n: partLines }] = await q<{ n: string }>('select count(*) n from bill_lines where period_key = $1', [BIG_PERIOD]);
  const [{ v: version }] = await q<{ v: string }>(`select current_setting('server_version') v`);
  // the statuses as the list computes them today
  const byStatus = rowsOf<{ status: number; n: string }>(await database.db.execute(
    sql`select ${billStatusSql(businessDay(Date.now()))} as status, count(*) as n from bills b group by 1 order by 1`));
  console.log(`PostgreSQL ${version}: ${Number(billCount).toLocaleString('en')} bills of ${custCount} customers (${byStatus.map((r) => `status ${r.status}: ${r.n}`).join(', ')}); `
    + `bill ${bigBill.bill_no}: ${Number(bigBill.line_count).toLocaleString('en')} lines of ${bigBill.card_count.toLocaleString('en')} cards; ${Number(cardCount).toLocaleString('en')} cards`);

  // the server as production runs it, in its own process with the memory probe
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-bench-bill-read-'));
  cleanup.add(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const origin = `http://${HOST}:${PORT}`;
  /** Starts the server (every job on), waits until it answers; `stop` ends it (SIGTERM, SIGKILL after 15 s). */
  const startServer = () =>
    startServerChild<Mem>(cleanup, {
      port: PORT, startSeconds: 90, memProbe: true, nodeFlags: (process.env.BILL_READ_SERVER_FLAGS ?? '').split(' ').filter(Boolean),
      env: { DATABASE_URL: url, DATA_DIR: dataDir, CMP_RATE_LIMIT: '1000000', CMP_RATE_LIMIT_IP: '1000000' },
    });
  const pagesServer = await startServer();

  const tokenOf = async (login: string) => {
    const [a] = await q<{ account_id: number }>('select account_id from accounts where login_name = $1', [login]);
    if (!a) throw new Error(`no ${login} account: the database needs the demo data`);
    return (await new SessionStore(database.db, 1).create(database.db, a.account_id, '127.0.0.1')).token;
  };
  const staff = await tokenOf('admin');
  const ent = await tokenOf('enterprise');
  const call = await startSeqClient(cleanup);
  const pick = picker(14);
  const results: Record<string, ReturnType<typeof stats> & { bytes: number; total: number | null; body: object; machineBusy: number; loadAverage1m: number }> = {};
  const api = (e: { name: string }) => `${origin}${pathOf(e as never)}?ts=1&lang=en`;

  /** the response as a browser gets it (compressed if the server compresses): its size on the wire */
  const wireBytes = async (endpoint: { name: string }, token: string, body: object) => {
    const res = await fetch(api(endpoint), { method: 'POST', headers: { 'content-type': 'application/json', authorization: token, 'accept-encoding': 'gzip, deflate, br' }, body: JSON.stringify(body) });
    const len = res.headers.get('content-length');
    const text = await res.text();
    return len ? Number(len) : Buffer.byteLength(text);
  };
  const run = async (name: string, endpoint: { name: string }, bodies: { token: string; body: object }[]) => {
    for (const b of bodies.slice(0, 20)) await call(api(endpoint), b.token, JSON.stringify(b.body), 1);
    const ms: number[] = [];
    let total: number | null = null;
    // the share of the machine's CPU that was busy while the case ran (other work on the machine slows every call)
    const m0 = machineCpu();
    for (const [i, b] of bodies.entries()) {
      const r = await call(api(endpoint), b.token, JSON.stringify(b.body), 1);
      ms.push(...r.ms);
      if (i === 0) total = r.total;
    }
    const m1 = machineCpu();
    const machineBusy = round((m1.busy - m0.busy) / Math.max(1, m1.total - m0.total));
    const bytes = await wireBytes(endpoint, bodies[0].token, bodies[0].body);
    results[name] = { ...stats(ms), bytes, total, body: bodies[0].body, machineBusy, loadAverage1m: round(os.loadavg()[0]) };
    const s = results[name];
    console.log(`${name.padEnd(52)} p50 ${String(s.p50).padStart(6)}  p95 ${String(s.p95).padStart(6)}  max ${String(s.max).padStart(7)} ms  (${s.n} calls, first: total ${total}, ${bytes} B; machine ${Math.round(machineBusy * 100)} % busy, load ${s.loadAverage1m})`);
  };
  const many = (n: number, make: (i: number) => { token: string; body: object }) => Array.from({ length: n }, (_, i) => make(i));
  const load = () => `load ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')} on ${os.cpus().length} cores`;
  console.log(`server up (${load()}); ${SAMPLES} sequential calls per case, over HTTP from a client process`);

  const billId = Number(bigBill.bill_id);
  if (!PAGES_OFF) {
    // bill list: pages drawn across the whole list, with each filter the screen offers
    const pages = Math.ceil(Number(billCount) / 20);
    const statuses = BillStatus.values as readonly number[];
    await run('bill list, no filter (staff)', bill.getBillListPage, many(SAMPLES, () => ({ token: staff, body: { current: 1 + pick(pages), pageSize: 20 } })));
    await run('bill list, by period (staff)', bill.getBillListPage, many(SAMPLES, () => ({ token: staff, body: { current: 1 + pick(10), pageSize: 20, periodKey: PERIODS[pick(PERIODS.length)] } })));
    await run('bill list, by status (staff)', bill.getBillListPage, many(SAMPLES, () => ({ token: staff, body: { current: 1 + pick(5), pageSize: 20, status: statuses[pick(statuses.length)] } })));
    await run('bill list, period + status + published (staff)', bill.getBillListPage, many(SAMPLES, () => ({ token: staff, body: { current: 1, pageSize: 20, periodKey: PERIODS[pick(PERIODS.length)], status: statuses[pick(statuses.length)], published: 1 } })));
    await run('bill list, customer name fragment (staff)', bill.getBillListPage, many(SAMPLES, () => ({ token: staff, body: { current: 1, pageSize: 20, custName: `customer ${String(pick(20)).padStart(2, '0')}` } })));
    await run('bill list (enterprise, its tree)', bill.getBillListPage, many(SAMPLES, (i) => ({ token: ent, body: i % 3 === 0 ? { current: 1, pageSize: 20, status: statuses[pick(statuses.length)] } : { current: 1 + pick(2), pageSize: 20 } })));

    // card-lines positions drawn uniformly from the whole bill
    await q('select setseed(0.14)');
    const drawn = await q<{ iccid: string; category: number; from_day: string; ref_id: string }>(
      `select iccid, category, from_day::text from_day, ref_id::text ref_id from bill_lines where period_key = $1 and bill_id = $2 order by random() limit $3`,
      [BIG_PERIOD, bigBill.bill_id, SAMPLES]);
    const afterOf = (r: (typeof drawn)[number]) => `${r.iccid}|${r.category}|${r.from_day}|${r.ref_id}`;
    const categories = BillLineCategory.values as readonly number[];
    for (const [who, token] of [['staff', staff], ['enterprise', ent]] as const) {
      await run(`card lines, first page (${who})`, bill.getBillCardLines, many(Math.round(SAMPLES / 3), () => ({ token, body: { billId, pageSize: 20 } })));
      await run(`card lines, after a drawn line (${who})`, bill.getBillCardLines, drawn.map((r) => ({ token, body: { billId, pageSize: 20, after: afterOf(r) } })));
    }
    await run('card lines, category from a drawn line (staff)', bill.getBillCardLines, drawn.map((r) => ({ token: staff, body: { billId, pageSize: 20, category: categories[pick(categories.length)], after: afterOf(r) } })));
    await run('card lines, category, first page (staff)', bill.getBillCardLines, many(Math.round(SAMPLES / 3), (i) => ({ token: staff, body: { billId, pageSize: 20, category: categories[i % categories.length] } })));
    await run('card lines, one card\'s ICCID (staff)', bill.getBillCardLines, drawn.map((r) => ({ token: staff, body: { billId, pageSize: 20, iccid: r.iccid } })));
    await run('card lines, ICCID prefix 15 digits (staff)', bill.getBillCardLines, drawn.map((r) => ({ token: staff, body: { billId, pageSize: 20, iccid: r.iccid.slice(0, 15) } })));
    await run('card lines, ICCID prefix 10 digits (staff)', bill.getBillCardLines, drawn.map((r) => ({ token: staff, body: { billId, pageSize: 20, iccid: r.iccid.slice(0, 10) } })));
  }
  const loadAfterPages = load();
  await pagesServer.stop();

  // the export, through the download task, as the console's export button makes it
  const post = async <T,>(endpoint: { name: string }, token: string, body: unknown): Promise<T> => {
    const res = await fetch(api(endpoint), { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: JSON.stringify(body) });
    const json = (await res.json()) as { success: boolean; msg: string; data: T };
    if (!json.success) throw new Error(`${endpoint.name}: ${json.msg}`);
    return json.data;
  };
  const exportLines = async (id: number, format: number) => {
    const t0 = performance.now();
    const { taskId, direct } = await post<{ taskId: string; direct: boolean }>(bill.exportBillCardLines, staff, { billId: id, format });
    for (;;) {
      const page = await post<{ list: { taskId: string; state: number; rowCount: number | null; fileSize: number | null; error: string | null }[] }>(
        system.getDownloadTaskListPage, staff, { current: 1, pageSize: 10 });
      const task = page.list.find((t) => t.taskId === taskId);
      if (task && task.state !== ExportState.InProcess) {
        if (task.state !== ExportState.Succeeded) throw new Error(`export failed: ${task.error}`);
        return { taskId, direct, ms: performance.now() - t0, rows: task.rowCount ?? 0, bytes: task.fileSize ?? 0 };
      }
      await sleep(250);
    }
  };
  /** downloads the file as the browser does and counts its data rows */
  const download = async (taskId: string, ext: string) => {
    const file = path.join(dataDir, `download-${taskId}.${ext}`);
    const t0 = performance.now();
    const res = await fetch(`${origin}/api/cmp/core/downloadTask/download?taskId=${taskId}&ts=1&lang=en`, { headers: { authorization: staff } });
    if (!res.ok || !res.body) throw new Error(`download failed (${res.status})`);
    await pipeline(Readable.fromWeb(res.body as never), fs.createWriteStream(file));
    const ms = performance.now() - t0;
    const bytes = fs.statSync(file).size;
    // csv: lines after the header; xlsx: the sheet's <row> elements after the header row
    const count = ext === 'csv'
      ? Number(execFileSync('sh', ['-c', `wc -l < "${file}"`], { encoding: 'utf8' }).trim()) - 1
      : Number(execFileSync('sh', ['-c', `unzip -p "${file}" xl/worksheets/sheet1.xml | tr '<' '\\n' | grep -c '^row '`], { encoding: 'utf8' }).trim()) - 1;
    fs.rmSync(file);
    return { bytes, rows: count, downloadMs: Math.round(ms) };
  };
  const exports: Record<string, unknown> = {};
  let exportsMet = !EXPORT_OFF;
  const formats = (process.env.BILL_READ_FORMATS ?? 'xlsx,csv').split(',');
  for (const [label, format, ext] of EXPORT_OFF ? [] : ([['xlsx', ExportFormat.Xlsx, 'xlsx'], ['csv', ExportFormat.Csv, 'csv']] as const).filter(([l]) => formats.includes(l))) {
    // each export on a server of its own, started for it: nothing run before (the pages, the other export) has grown its heap
    const { child, samples, stop } = await startServer();
    const idleRss = async () => {
      child.send({ gc: true });
      await sleep(3000);
      const idle = samples.filter((s) => s.at > Date.now() - 2500);
      return { rss: Math.max(...idle.map((s) => s.rss)), heapUsed: Math.max(...idle.map((s) => s.heapUsed)) };
    };
    // the server just started, idle: growth from here also counts what the warm-up export left
    const start = await idleRss();
    // warm-up: a 12,000-line export through the task path loads every code path (task, job, pages, writer)
    const warm = await exportLines(Number(warmBill.bill_id), format);
    if (warm.direct || warm.rows !== WARM_LINES) throw new Error(`warm-up export: ${warm.rows} rows, direct ${warm.direct}`);
    // the baseline (as bench/card-export.ts takes it) after a full collection, so garbage of the warm-up does not hide growth
    const base = await idleRss();
    const from = samples.length;
    const loadBefore = os.loadavg()[0];
    const done = await exportLines(billId, format);
    await sleep(300);
    const during = samples.slice(from);
    const peak = { rss: Math.max(...during.map((s) => s.rss)), heapUsed: Math.max(...during.map((s) => s.heapUsed)), external: Math.max(...during.map((s) => s.external)) };
    const file = await download(done.taskId, ext);
    await stop();
    if (done.rows !== BIG_LINES || file.rows !== BIG_LINES || file.bytes !== done.bytes) {
      throw new Error(`${label} export: task ${done.rows} rows / ${done.bytes} B, file ${file.rows} rows / ${file.bytes} B; expected ${BIG_LINES} rows`);
    }
    const growthMb = Math.round(((peak.rss - base.rss) / MB) * 10) / 10;
    const tenths = Array.from({ length: 10 }, (_, k) => during.slice(Math.floor((k * during.length) / 10), Math.floor(((k + 1) * during.length) / 10)))
      .filter((w) => w.length)
      .map((w) => ({ rssMb: Math.round(Math.max(...w.map((x) => x.rss)) / MB), heapUsedMaxMb: Math.round(Math.max(...w.map((x) => x.heapUsed)) / MB) }));
    const met = growthMb < TARGET_RSS_MB;
    exportsMet &&= met;
    exports[label] = {
      rows: done.rows, fileBytes: file.bytes, fileMb: round(file.bytes / MB), seconds: round(done.ms / 1000), rowsPerSecond: Math.round(done.rows / (done.ms / 1000)),
      downloadMs: file.downloadMs, rssMb: { started: Math.round(start.rss / MB), baseline: Math.round(base.rss / MB), peak: Math.round(peak.rss / MB), growth: growthMb, growthFromStarted: round((peak.rss - start.rss) / MB) },
      heapUsedMb: { baseline: Math.round(base.heapUsed / MB), peak: Math.round(peak.heapUsed / MB) }, externalPeakMb: Math.round(peak.external / MB),
      samples: during.length, course: tenths, loadAverage1mBefore: round(loadBefore), loadAverage1mAfter: round(os.loadavg()[0]), met,
    };
    console.log(`export ${label}: ${done.rows.toLocaleString('en')} lines, ${round(file.bytes / MB)} MB downloaded (${file.rows.toLocaleString('en')} rows checked) in ${round(done.ms / 1000)} s`);
    console.log(`  server RSS ${Math.round(start.rss / MB)} MB just started, ${Math.round(base.rss / MB)} MB idle after the warm-up → ${Math.round(peak.rss / MB)} MB peak: growth ${growthMb} MB (target < ${TARGET_RSS_MB} MB: ${met ? 'met' : 'MISSED'}); heap used ${Math.round(base.heapUsed / MB)} → ${Math.round(peak.heapUsed / MB)} MB`);
    console.log(`  by tenth: RSS ${tenths.map((x) => x.rssMb).join(' ')} MB; heap used max ${tenths.map((x) => x.heapUsedMaxMb).join(' ')} MB`);
  }

  const pagesMet = !PAGES_OFF && Object.values(results).every((r) => r.p95 < TARGET_P95_MS);
  const file = writeResults('bill-read-postgres', {
    at: new Date().toISOString(), database: `PostgreSQL ${version}`, machine: machineInfo(), git: gitInfo(), uptimeLoadDuringPages: loadAfterPages,
    data: { bills: Number(billCount), customers: Number(custCount), byStatus, cards: Number(cardCount), bigBill: { ...bigBill, bill_id: Number(bigBill.bill_id), line_count: Number(bigBill.line_count) }, partitionLines: Number(partLines) },
    targets: { p95Ms: TARGET_P95_MS, rssGrowthMb: TARGET_RSS_MB }, pages: results, exports, met: pagesMet && exportsMet,
  });
  console.log(`targets: pages p95 < ${TARGET_P95_MS} ms ${PAGES_OFF ? 'not measured' : pagesMet ? 'met' : 'MISSED'}; export RSS growth < ${TARGET_RSS_MB} MB ${EXPORT_OFF ? 'not measured' : exportsMet ? 'met' : 'MISSED'}; ${load()}; results: ${file}`);
  return pagesMet && exportsMet ? 0 : 2;
});
