/**
 * Channel bills at scale (issue 14 target, PostgreSQL): a 1,000,000-line channel bill imported in under 60 s and
 * reconciled in under 60 s, against the production server with every background job on.
 *
 *   CHANNEL_BILL_DATABASE_URL=postgres://postgres@127.0.0.1:5432/channelbill1m npm run bench:channel-bill
 *
 * The database (loopback PostgreSQL, default above) is made on the first run and kept afterwards (drop it yourself):
 * the demo data, the 1,000,000-card fleet (`seedFleet`, no usage of its own) moved to China Mobile so that one
 * operator's bill has a million cards, and a month of daily usage for the period CHANNEL_BILL_PERIOD (default 2026-10:
 * each card active on ~85 % of days, 0.25-90 MB a day by device, SMS on a few days), ~26 million daily rows (the
 * usage table's traffic-query indexes are dropped in this database: the reconciliation does not use them).
 *
 * Each run writes a CSV bill of exactly 1,000,000 lines from the platform's own totals of the period, drawn across the
 * whole fleet: ~94 % matched (within the tolerance), ~4 % differing (5 % + 2 MB more data, or one SMS more), ~1 % of
 * the fleet's cards left out (missing in channel bill) and their places taken by cards the platform does not have
 * (missing on platform). The real server runs as a child process as in production (apps/server/src/main.ts,
 * NODE_ENV=production, every job on, its own DATA_DIR); the bill is uploaded over HTTP as the console does, then the
 * detail polled until it is reconciled. Times: the upload (HTTP), the import (the job: read, check, store, from the
 * bill's created_at to imported_at), the reconciliation (imported_at to reconciled_at); counts per state checked against
 * the file's own. Then line pages (by state, by key) and the delete (a partition dropped).
 * CHANNEL_BILL_SEED_ONLY=1 stops after making the database.
 * Exits 0 when both targets are met, 2 otherwise, 1 on an error. Writes bench/results/channel-bill-postgres.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import pg from 'pg';
import { ChannelBillLineState as L, ChannelBillState, channelbill, pathOf, zonedTime } from '@lynx/contract';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { SessionStore } from '../apps/server/src/platform/sessions.ts';
import { seedDemo } from '../apps/server/src/seed/demo.ts';
import { seedFleet, FLEET_ICCID_LIKE } from '../apps/server/src/seed/fleet.ts';
import { periodByKey } from '../apps/server/src/modules/billing/rating/periods.ts';
import { assertLoopbackDb, gitInfo, machineInfo, posInt, redact, runBench, sleep, startServerChild, writeResults } from './common.ts';

const TARGET_S = 60;
const LINES = 1_000_000;
const PERIOD = process.env.CHANNEL_BILL_PERIOD ?? '2026-10';
const PORT = posInt('BENCH_PORT', 8097);
const MiB = 1024 * 1024;
const url = process.env.CHANNEL_BILL_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/channelbill1m';
const period = periodByKey(PERIOD, 1);

/** [0, 1) from a number: the same draw on every run */
const draw = (i: number, k: number) => {
  let x = (i * 2654435761 + k * 40503 + 12345) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 2246822507) >>> 0;
  x ^= x >>> 13;
  return (x >>> 0) / 4294967296;
};

async function ensureDatabase(): Promise<void> {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  const base = new URL(url);
  base.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount;
  if (!exists) await admin.query(`create database ${name}`);
  await admin.end();
  if (exists) return;
  console.log(`seeding ${name}: demo data, 1,000,000 fleet cards on China Mobile, a month of usage for ${PERIOD} (about 10 minutes)`);
  const t0 = performance.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-cb-seed-'));
  const database = await openDatabase({ databaseUrl: url, dataDir, memory: false });
  const sql = database.sql;
  await migrate(sql);
  await seedDemo(database.db, 'Bench@2026pass', { dataDir });
  await seedFleet(sql, { cards: LINES, usageDays: 0, now: zonedTime(Number(PERIOD.slice(0, 4)), Number(PERIOD.slice(5)) + 1, 2), log: (l) => console.log(`  ${l}`) });
  await sql.query(`update cards set operator_id = 1 where iccid like $1`, [FLEET_ICCID_LIKE]);
  await sql.query(`select usage_ensure_partitions($1::date, $2::date)`, [period.firstDay, period.lastDay]);
  // the traffic query's indexes of the usage table play no part here (the reconciliation reads the period's partition
  // whole); without them the month of usage is written in a third of the time
  await sql.exec('drop index if exists card_usage_daily_root_day_ix, card_usage_daily_cust_day_ix, card_usage_daily_day_ix');
  const days = Math.round((Date.parse(period.lastDay) - Date.parse(period.firstDay)) / 86400_000) + 1;
  let after = '';
  for (let n = 0; ; ) {
    const ids = (await sql.query<{ iccid: string }>(`select iccid from cards where iccid like $1 and iccid > $2 order by iccid limit 50000`, [FLEET_ICCID_LIKE, after])).map((r) => r.iccid);
    if (!ids.length) break;
    // a card's level by device (0.25-90 MB a day), active on ~85 % of days, ±50 % day to day; SMS on ~4 % of days
    await sql.query(`insert into card_usage_daily (iccid, day, bytes_up, bytes_down, bytes, sms, voice_seconds, sessions, apn, operator_id, cust_id, root_cust_id)
      select c.iccid, $2::date + d, u.b / 5, u.b - u.b / 5, u.b, case when abs(hashtext(c.iccid || 's' || d)) % 100 < 4 then 1 + abs(hashtext(c.iccid || 'n' || d)) % 3 else 0 end,
        0, 1 + abs(hashtext(c.iccid || 'k' || d)) % 5, 'cmiot', 1, c.cust_id, c.root_cust_id
      from cards c cross join generate_series(0, $3 - 1) d
      cross join lateral (select ((250000 + abs(hashtext(c.iccid)) % 90000000) * (0.5 + (abs(hashtext(c.iccid || d)) % 1000) / 1000.0))::bigint as b) u
      where c.iccid = any($1::text[]) and abs(hashtext(c.iccid || 'a' || d)) % 100 < 85`, [ids, period.firstDay, days]);
    after = ids[ids.length - 1];
    n += ids.length;
    if (n % 200000 === 0) console.log(`  usage: ${n.toLocaleString('en')} cards`);
  }
  await sql.exec('vacuum (analyze) cards');
  await sql.exec('analyze card_usage_daily');
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(`  seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

/** The bill file from the platform's own totals; answers the counts per state it was written to produce. */
async function writeBill(c: pg.Client, file: string) {
  const out = fs.createWriteStream(file);
  out.write('ICCID,Period,Data (KB),SMS,Amount (CNY)\n');
  const want = { [L.Matched]: 0, [L.Differs]: 0, [L.MissingOnPlatform]: 0, [L.MissingInChannel]: 0 };
  let lines = 0;
  let i = 0;
  let after = '';
  const line = (iccid: string, bytes: number, sms: number) => {
    const fen = Math.ceil(bytes / MiB) * 3 + sms * 10;
    lines++;
    return `${iccid},${PERIOD},${(bytes / 1024).toFixed(3)},${sms},${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}\n`;
  };
  for (;;) {
    const { rows } = await c.query<{ iccid: string; bytes: string; sms: string }>(`select c.iccid, coalesce(sum(u.bytes), 0)::text bytes, coalesce(sum(u.sms), 0)::text sms
      from (select iccid from cards where iccid like $1 and iccid > $2 order by iccid limit 50000) c
      left join card_usage_daily u on u.iccid = c.iccid and u.day between $3 and $4 group by c.iccid order by c.iccid`, [FLEET_ICCID_LIKE, after, period.firstDay, period.lastDay]);
    if (!rows.length) break;
    let buf = '';
    for (const r of rows) {
      const bytes = Number(r.bytes);
      const sms = Number(r.sms);
      const p = draw(i++, 1);
      if (p < 0.01) {
        if (bytes > 0 || sms > 0) want[L.MissingInChannel]++;
        continue;
      }
      if (p < 0.03) {
        want[L.Differs]++;
        buf += p < 0.025 ? line(r.iccid, Math.round(bytes * 1.05) + 2 * MiB, sms) : line(r.iccid, bytes, sms + 1);
      } else {
        want[L.Matched]++;
        // the operator's own rounding: within 100 KB
        buf += line(r.iccid, Math.max(0, bytes + Math.round((draw(i, 2) - 0.5) * 200 * 1024)), sms);
      }
    }
    if (!out.write(buf)) await once(out, 'drain');
    after = rows[rows.length - 1].iccid;
  }
  // the rest of the million: cards the platform does not have (another issuer's numbers)
  let k = 0;
  while (lines < LINES) {
    want[L.MissingOnPlatform]++;
    if (!out.write(line(`89860777${String(k++).padStart(12, '0')}`, 5 * MiB, 0))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { want, lines };
}

runBench(60 * 60_000, async (cleanup) => {
  assertLoopbackDb(url);
  await ensureDatabase();
  if (process.env.CHANNEL_BILL_SEED_ONLY === '1') return 0;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  cleanup.add(() => c.end());
  // earlier runs' bills (a run stopped half-way) go first
  for (const { bill_id } of (await c.query<{ bill_id: string }>('select bill_id from channel_bills')).rows) {
    await c.query(`drop table if exists channel_bill_lines_b${Number(bill_id)}`);
    await c.query('delete from channel_bills where bill_id = $1', [bill_id]);
  }
  // the operators' usage feeds start from now: a feed behind since the seed would fill the period's days in with the
  // simulator's numbers while the bill is written and reconciled, so the file and the platform would drift apart
  await c.query(`update usage_feeds set watermark = now(), window_to = null, cursor_iccid = null, lease_until = null`);
  const [{ server_version: version }] = (await c.query<{ server_version: string }>('show server_version')).rows;
  const [{ cards, usage }] = (await c.query<{ cards: string; usage: string }>(`select (select count(*) from cards) cards,
    (select count(*) from card_usage_daily where day between $1 and $2) usage`, [period.firstDay, period.lastDay])).rows;
  console.log(`PostgreSQL ${version}: ${Number(cards).toLocaleString('en')} cards, ${Number(usage).toLocaleString('en')} daily usage rows in ${PERIOD}`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-bench-cb-'));
  cleanup.add(async () => fs.rmSync(dir, { recursive: true, force: true }));
  // the file depends only on the database: kept beside it for the next run (CHANNEL_BILL_FRESH_FILE=1 writes it again)
  const file = path.join(os.tmpdir(), `lynx-channel-bill-${new URL(url).pathname.slice(1)}-${PERIOD}.csv`);
  const tw = performance.now();
  const cached = !process.env.CHANNEL_BILL_FRESH_FILE && fs.existsSync(`${file}.json`) && fs.existsSync(file);
  const { want, lines }: Awaited<ReturnType<typeof writeBill>> = cached ? JSON.parse(fs.readFileSync(`${file}.json`, 'utf8')) : await writeBill(c, file);
  if (!cached) fs.writeFileSync(`${file}.json`, JSON.stringify({ want: { ...want }, lines }));
  const size = fs.statSync(file).size;
  // the platform's other cards of the operator with usage in the period (the demo's) are missing in the bill too
  want[L.MissingInChannel] += Number((await c.query<{ n: string }>(`select count(*) n from (select iccid from card_usage_daily where day between $1 and $2
    and operator_id = 1 and iccid not like $3 group by iccid having sum(bytes) > 0 or sum(sms) > 0) x`, [period.firstDay, period.lastDay, FLEET_ICCID_LIKE])).rows[0].n);
  console.log(`bill file: ${lines.toLocaleString('en')} lines, ${(size / MiB).toFixed(1)} MB, ${cached ? 'kept from an earlier run' : `written in ${((performance.now() - tw) / 1000).toFixed(1)} s`}; `
    + `expected matched ${want[L.Matched]}, differs ${want[L.Differs]}, missing on platform ${want[L.MissingOnPlatform]}, missing in channel ${want[L.MissingInChannel]}`);

  const dataDir = path.join(dir, 'data');
  const { origin } = await startServerChild(cleanup, {
    port: PORT, startSeconds: 90,
    env: { DATABASE_URL: url, DATA_DIR: dataDir, CMP_RATE_LIMIT: '1000000', CMP_RATE_LIMIT_IP: '1000000', CMP_SEED: 'off',
      // every job on, but the usage feed would add the demo cards' usage to the period while it is being reconciled
      CMP_USAGE_FEED_MINUTES: '0' },
  });
  const database = await openDatabase({ databaseUrl: url, dataDir: dir, memory: false });
  cleanup.add(() => database.close());
  const [a] = await database.sql.query<{ account_id: number }>(`select account_id from accounts where login_name = 'admin'`);
  const token = (await new SessionStore(database.db, 1).create(database.db, a.account_id, '127.0.0.1')).token;
  const api = (e: { name: string }) => `${origin}${pathOf(e as never)}?ts=1&lang=en`;
  const post = async (e: { name: string }, body: object) => {
    const r = await fetch(api(e), { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: JSON.stringify(body) });
    const j = (await r.json()) as { success: boolean; msg: string; data: any };
    if (!j.success) throw new Error(`${e.name}: ${j.msg}`);
    return j.data;
  };

  // the upload, as the console sends it
  const form = new FormData();
  form.set('operatorId', '1');
  form.set('periodKey', PERIOD);
  form.set('sourceType', '1');
  form.set('sourceName', `CMCC bench ${Date.now()}`);
  form.set('file', new Blob([fs.readFileSync(file)], { type: 'text/csv' }), path.basename(file));
  const t0 = performance.now();
  const res = await fetch(api(channelbill.importChannelBill), { method: 'POST', headers: { authorization: token }, body: form });
  const created = (await res.json()) as { success: boolean; msg: string; data: { billId: number } };
  if (!created.success) throw new Error(`upload: ${created.msg}`);
  const uploadS = (performance.now() - t0) / 1000;
  const billId = created.data.billId;
  console.log(`uploaded in ${uploadS.toFixed(1)} s: bill ${billId}`);
  let last = -1;
  let bill: any;
  let seenReconciling: number | null = null;
  for (;;) {
    bill = (await post(channelbill.getChannelBillDetail, { billId })).bill;
    if (bill.linesDone !== last) {
      last = bill.linesDone;
      console.log(`  ${((performance.now() - t0) / 1000).toFixed(1)} s: ${ChannelBillState.label(bill.state, 'en')}, ${bill.linesDone.toLocaleString('en')} / ${bill.totalLines.toLocaleString('en')} lines`);
    }
    if (bill.state === ChannelBillState.Reconciling && seenReconciling === null) seenReconciling = performance.now();
    if (bill.state === ChannelBillState.Reconciled || bill.state === ChannelBillState.Failed) break;
    if (performance.now() - t0 > 15 * 60_000) throw new Error('not reconciled within 15 minutes');
    await sleep(250);
  }
  const doneAt = performance.now();
  const endToEndS = (doneAt - t0) / 1000;
  if (bill.state !== ChannelBillState.Reconciled) throw new Error(`the import failed: ${bill.failure ?? bill.errorCount + ' bad lines'}`);
  const [times] = await database.sql.query<{ import_s: number; reconcile_s: number }>(`select extract(epoch from imported_at - created_at)::float8 import_s,
    extract(epoch from reconciled_at - imported_at)::float8 reconcile_s from channel_bills where bill_id = $1`, [billId]);
  const got = { [L.Matched]: bill.matched, [L.Differs]: bill.differs, [L.MissingOnPlatform]: bill.missingOnPlatform, [L.MissingInChannel]: bill.missingInChannel };
  const countsOk = JSON.stringify(got) === JSON.stringify(want);
  console.log(`import (job: read, check, store ${bill.totalLines.toLocaleString('en')} lines): ${times.import_s.toFixed(1)} s (target < ${TARGET_S} s)`);
  const seenReconcileS = seenReconciling === null ? null : (doneAt - seenReconciling) / 1000;
  console.log(`reconciliation: ${times.reconcile_s.toFixed(1)} s (target < ${TARGET_S} s; as the poller saw it: ${seenReconcileS?.toFixed(1) ?? '-'} s)`);
  console.log(`upload to reconciled: ${endToEndS.toFixed(1)} s; counts ${countsOk ? 'as the file was written' : `DIFFER: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`}`);

  // reading the lines: pages by state from positions across the bill
  const pages: Record<string, number[]> = {};
  const time = async (name: string, body: object) => {
    const t = performance.now();
    await post(channelbill.getChannelBillLines, body);
    (pages[name] ??= []).push(performance.now() - t);
  };
  for (let i = 0; i < 60; i++) {
    const after = `898600${String(Math.floor(draw(i, 7) * 1e14)).padStart(14, '0')}`;
    await time('page by key', { billId, after, pageSize: 20 });
    await time('differs from a key', { billId, state: L.Differs, after, pageSize: 20 });
    await time('missing in channel', { billId, state: L.MissingInChannel, pageSize: 20 });
  }
  const p95 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.ceil(0.95 * xs.length) - 1];
  const pageStats = Object.fromEntries(Object.entries(pages).map(([k, v]) => [k, { p95: Math.round(p95(v) * 10) / 10, n: v.length }]));
  for (const [k, v] of Object.entries(pageStats)) console.log(`lines page, ${k}: p95 ${v.p95} ms over ${v.n}`);
  const td = performance.now();
  await post(channelbill.deleteChannelBill, { billId });
  const deleteMs = performance.now() - td;
  console.log(`delete (its partition dropped): ${deleteMs.toFixed(0)} ms`);

  const met = times.import_s < TARGET_S && times.reconcile_s < TARGET_S && countsOk;
  const out = writeResults('channel-bill-postgres', {
    at: new Date().toISOString(), git: gitInfo(), machine: machineInfo(), database: redact(url), postgres: version, period: PERIOD,
    cards: Number(cards), usageRows: Number(usage), lines, fileMb: size / MiB, uploadS, importS: times.import_s, reconcileS: times.reconcile_s, seenReconcileS, endToEndS, loadAverage: os.loadavg(),
    counts: got, countsOk, pages: pageStats, deleteMs, targetS: TARGET_S, met,
  });
  console.log(`${met ? 'targets met' : 'TARGETS NOT MET'}; results in ${out}`);
  return met ? 0 : 2;
});
