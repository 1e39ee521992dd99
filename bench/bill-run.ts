/**
 * The monthly bill run at fleet scale (issue 14 target: 1,000,000 cards with a month of daily usage, under 5 minutes
 * on PostgreSQL; resumable, every bill and line exactly once after a kill -9). On a throwaway copy of the fleet
 * database (BENCH_FLEET_TEMPLATE on the loopback server of BENCH_DATABASE_URL) whose 30 days of usage are the days of
 * the period BILL_RUN_PERIOD (default 2026-11; BILL_RUN_SEED_TEMPLATE=<new database name> makes one: the demo data and
 * BILL_RUN_CARDS fleet cards (default 1,000,000) seeded as on the day after the period, about 10 minutes):
 *   1. a whole-period run, uninterrupted, timed;
 *   2. the same period again, worked by a child process that is killed with SIGKILL after BILL_RUN_KILL_AFTER_S
 *      seconds (default 20); this process then takes the run over once the child's lease has run out and finishes it;
 *   3. both results compared: lines, per-bill totals, card counts and breakdowns identical, no line twice.
 * BILL_RUN_EVERY_CARD=1 bills every card of the fleet (the seed leaves platform stock and one customer's cards without
 * a plan, so about half are billed) and cuts one plan's quota so that overage is rated too. Unless BILL_RUN_CHARGES=0,
 * the period's charges at the event are seeded first (a renewal of every card on a prepaid plan, a pack for every 20th
 * card), so the totals step lists them as lines as it does in production.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { BillRunState, setBusinessTimeZone, getBusinessTimeZone, zonedTime } from '@lynx/contract';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { assertLoopbackDb, baseDatabaseUrl, fleetTemplate, freshPostgres, posInt, runBench, sleep } from './common.ts';
import { seedDemo } from '../apps/server/src/seed/demo.ts';
import { seedFleet } from '../apps/server/src/seed/fleet.ts';
import { billRunRow, continueBillRun, startBillRun } from '../apps/server/src/modules/billing/run/bill-run.ts';

const PERIOD = process.env.BILL_RUN_PERIOD ?? '2026-11';
const KILL_AFTER_MS = posInt('BILL_RUN_KILL_AFTER_S', 20) * 1000;
const CHILD_LEASE_MS = 15_000;
const [y, m] = PERIOD.split('-').map(Number);
/** the day after the period: closed, and the feeds are set to have delivered its last day */
const NOW = zonedTime(y, m + 1, 2).getTime();

async function child(url: string, runId: number): Promise<void> {
  const database = await openDatabase({ databaseUrl: url, dataDir: '/tmp', memory: false });
  process.send?.({ started: true });
  await continueBillRun(database.db, runId, `child-${process.pid}`, { leaseMs: CHILD_LEASE_MS });
  process.send?.({ done: true });
  await database.close();
}

async function fingerprint(database: Database) {
  const q = <T>(text: string) => database.sql.query<T>(text, [PERIOD]);
  const [lines] = await q<{ n: string; amount: string; tax: string; keys: string }>(`
    select count(*) n, sum(amount)::text amount, sum(tax)::text tax,
      count(distinct (bill_id, iccid, category, from_day, ref_id)) keys from bill_lines where period_key = $1`);
  const bills = await q<Record<string, string>>(`
    select bill_id, cust_id, card_count, line_count::text, total::text, tax::text, plan_fee::text, overage_fee::text, test_fee::text,
      downtime_fee::text, one_off_fee::text, unbilled_over_bytes::text from bills where period_key = $1 order by bill_id`);
  const [sums] = await q<{ n: string; amount: string }>(`
    select count(*) n, sum(amount)::text amount from bill_summaries where bill_id in (select bill_id from bills where period_key = $1)`);
  const cats = await q<{ category: number; n: string; amount: string }>(`
    select category, count(*) n, sum(amount)::text amount from bill_lines where period_key = $1 group by 1 order by 1`);
  return { lines, bills, sums, cats };
}

/** A fleet template for this bench: the seed as if run on the day after the period (its usage is the period's days). */
async function seedTemplate(name: string): Promise<void> {
  const base = baseDatabaseUrl();
  if (!base || !/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error('BILL_RUN_SEED_TEMPLATE needs BENCH_DATABASE_URL and a database name');
  assertLoopbackDb(base);
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lynx-bill-seed-'));
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir, memory: false });
  await migrate(database.sql);
  await seedDemo(database.db, 'Bench@2026pass', { dataDir });
  await seedFleet(database.sql, { cards: posInt('BILL_RUN_CARDS', 1_000_000), usageDays: 30, now: zonedTime(y, m + 1, 1), log: (l) => console.log(l) });
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(`template ${name} ready: BENCH_FLEET_TEMPLATE=${name}`);
}

if (process.env.BILL_RUN_SEED_TEMPLATE) {
  await seedTemplate(process.env.BILL_RUN_SEED_TEMPLATE);
  process.exit(0);
}

if (process.env.BILL_RUN_CHILD) {
  setBusinessTimeZone(process.env.BILL_RUN_TZ ?? getBusinessTimeZone());
  await child(process.env.BILL_RUN_DB!, Number(process.env.BILL_RUN_CHILD));
  process.exit(0);
}

runBench(60 * 60_000, async (cleanup) => {
  const base = baseDatabaseUrl();
  const template = fleetTemplate();
  if (!base || !template) throw new Error('set BENCH_DATABASE_URL (loopback PostgreSQL) and BENCH_FLEET_TEMPLATE (a fleet seeded with usage for the period)');
  console.log(`copying the fleet database ${template}`);
  const t0 = performance.now();
  const fresh = await freshPostgres(base, template);
  cleanup.add(fresh.drop);
  const database = await openDatabase({ databaseUrl: fresh.url, dataDir: '/tmp', memory: false });
  cleanup.add(() => database.close());
  await migrate(database.sql);
  console.log(`  copied and migrated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const sql = database.sql;
  await sql.query(`update usage_feeds set watermark = $1`, [zonedTime(y, m + 1, 1)]);
  if (process.env.BILL_RUN_EVERY_CARD === '1') {
    // the harder case: every card of the fleet billed (stock cards and cards without a plan get the first-level
    // customer's monthly plans), and the smallest monthly quota cut to 1 GB so the heavier users go over it
    const tc = performance.now();
    const monthly = (await sql.query<{ id: number }>(`select goods_release_id id from basic_plans where goods_type = 2 order by quota_mb, goods_release_id`)).map((r) => r.id);
    const [root] = await sql.query<{ cust_id: number }>(`select min(cust_id) cust_id from customers where level = 1`);
    await sql.query(`update cards set cust_id = coalesce(cust_id, $1), root_cust_id = coalesce(root_cust_id, $1),
      goods_release_id = coalesce(goods_release_id, ($2::int[])[1 + abs(hashtext(iccid)) % array_length($2::int[], 1)])
      where cust_id is null or goods_release_id is null`, [root.cust_id, monthly]);
    await sql.query(`update basic_plans set quota_mb = 1024 where goods_release_id = $1`, [monthly[0]]);
    await sql.exec('vacuum (analyze) cards');
    console.log(`  every card billed: plans and customers given in ${((performance.now() - tc) / 1000).toFixed(1)} s; plan ${monthly[0]}'s quota cut to 1 GB`);
  }
  if (process.env.BILL_RUN_CHARGES !== '0') {
    // the charges at the event of the period, as the card changes record them (charges.ts recordEventCharges): every
    // card on a prepaid plan renewed once in the period, and every 20th card of a customer ordering its customer's
    // first supplementary pack; the totals step lists each as a bill line (withheld ones for prepaid customers)
    const tc = performance.now();
    const [span] = await sql.query<{ f: string; t: string }>(`select $1::date::text f, ($1::date + interval '1 month' - interval '1 day')::date::text t`, [`${PERIOD}-01`]);
    await sql.query(`insert into card_charges (cust_id, root_cust_id, event, category, goods_release_id, period_key, cards, quantity, amount, tax, state, actor)
      select c.cust_id, min(coalesce(c.root_cust_id, c.cust_id)), 2, 2, c.goods_release_id, $1, count(*), count(*), sum(p.sale_price),
        sum(round(p.sale_price * p.tax_rate / (100 + p.tax_rate), 2)), case when cu.payment_model = 1 then 1 else 2 end, 'bench'
      from cards c join basic_plans p on p.goods_release_id = c.goods_release_id and p.goods_type = 1 and p.sale_price > 0
        join customers cu on cu.cust_id = c.cust_id
      group by c.cust_id, c.goods_release_id, cu.payment_model`, [PERIOD]);
    await sql.query(`insert into card_charges (cust_id, root_cust_id, event, category, goods_release_id, period_key, cards, quantity, amount, tax, state, actor)
      select c.cust_id, min(coalesce(c.root_cust_id, c.cust_id)), 4, 6, k.gid, $1, count(*), count(*), sum(k.sale_price),
        sum(round(k.sale_price * k.tax_rate / (100 + k.tax_rate), 2)), case when cu.payment_model = 1 then 1 else 2 end, 'bench-pack'
      from cards c join customers cu on cu.cust_id = c.cust_id
        join lateral (select goods_release_id gid, sale_price, tax_rate from basic_plans where goods_type = 3 and sale_price > 0 order by goods_release_id limit 1) k on true
      where abs(hashtext(c.iccid)) % 20 = 0
      group by c.cust_id, k.gid, cu.payment_model`, [PERIOD]);
    await sql.query(`insert into card_charge_items (charge_id, iccid, from_day, to_day, quantity, unit_price, amount, tax, operator_id, card_type_id)
      select ch.charge_id, c.iccid, $1::date, $2::date, 1, p.sale_price, p.sale_price, round(p.sale_price * p.tax_rate / (100 + p.tax_rate), 2), c.operator_id, c.card_type_id
      from card_charges ch join basic_plans p on p.goods_release_id = ch.goods_release_id
        join cards c on c.cust_id = ch.cust_id and (ch.actor = 'bench' and c.goods_release_id = ch.goods_release_id
          or ch.actor = 'bench-pack' and abs(hashtext(c.iccid)) % 20 = 0)
      where ch.actor in ('bench', 'bench-pack')`, [span.f, span.t]);
    const [n] = await sql.query<{ records: string; items: string; amount: string }>(`select count(distinct ch.charge_id) records, count(*) items, sum(i.amount)::text amount
      from card_charges ch join card_charge_items i on i.charge_id = ch.charge_id where ch.period_key = $1`, [PERIOD]);
    console.log(`  charges at the event seeded in ${((performance.now() - tc) / 1000).toFixed(1)} s: ${Number(n.records).toLocaleString('en')} records, `
      + `${Number(n.items).toLocaleString('en')} card items, ${n.amount}`);
  }
  const [fleet] = await sql.query<{ cards: string; usage: string; v: string }>(`
    select (select count(*) from cards) cards, (select count(*) from card_usage_daily) usage, current_setting('server_version') v`);
  console.log(`bill run of ${PERIOD}: ${Number(fleet.cards).toLocaleString('en')} cards, ${Number(fleet.usage).toLocaleString('en')} daily usage rows, PostgreSQL ${fleet.v}`);

  // 1. uninterrupted
  let t = performance.now();
  const first = await startBillRun(database.db, { periodKey: PERIOD, by: 'bench' }, NOW);
  const tStart = performance.now() - t;
  let chunks = 0;
  const r1 = await continueBillRun(database.db, first, 'bench-1');
  chunks += r1.chunks;
  const ms1 = performance.now() - t;
  const row1 = await billRunRow(database.db, first);
  const a = await fingerprint(database);
  console.log(`  1. whole run ${(ms1 / 1000).toFixed(1)} s (start ${(tStart / 1000).toFixed(1)} s, ${chunks} chunks): ${row1.cardsDone.toLocaleString('en')} / `
    + `${row1.cardsTotal.toLocaleString('en')} cards, ${row1.linesWritten.toLocaleString('en')} lines, ${a.bills.length} bills, ${a.sums.n} breakdown rows, total ${a.lines.amount}`);
  for (const c of a.cats) console.log(`     category ${c.category}: ${Number(c.n).toLocaleString('en')} lines, ${c.amount}`);

  // 2. again, killed in the middle
  t = performance.now();
  const second = await startBillRun(database.db, { periodKey: PERIOD, by: 'bench-kill' }, NOW);
  const kid = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, BILL_RUN_CHILD: String(second), BILL_RUN_DB: fresh.url, BILL_RUN_TZ: getBusinessTimeZone() },
  });
  const exited = new Promise((resolve) => kid.once('exit', resolve));
  cleanup.add(async () => { if (kid.exitCode === null) kid.kill('SIGKILL'); });
  await new Promise<void>((resolve) => kid.on('message', (msg: { started?: boolean }) => { if (msg.started) resolve(); }));
  await sleep(KILL_AFTER_MS);
  const before = await billRunRow(database.db, second);
  const finishedFirst = kid.exitCode !== null;
  kid.kill('SIGKILL');
  await exited;
  if (finishedFirst) console.log('  2. the child finished the run before the kill: more cards or a shorter BILL_RUN_KILL_AFTER_S make this a crash test');
  const atKill = await billRunRow(database.db, second);
  console.log(`  2. child killed (SIGKILL) after ${(KILL_AFTER_MS / 1000).toFixed(0)} s: step ${atKill.step}, ${atKill.cardsDone.toLocaleString('en')} / `
    + `${atKill.cardsTotal.toLocaleString('en')} cards committed (${before.cardsDone.toLocaleString('en')} just before)`);
  const refused = await continueBillRun(database.db, second, 'bench-2');
  const tWait = performance.now();
  let r2 = refused;
  while (!r2.claimed && r2.state === BillRunState.Running) {
    await sleep(1000);
    r2 = await continueBillRun(database.db, second, 'bench-2');
  }
  const ms2 = performance.now() - t;
  const row2 = await billRunRow(database.db, second);
  const b = await fingerprint(database);
  console.log(`     taken over after the lease ran out (${((performance.now() - tWait) / 1000).toFixed(1)} s incl. the rest of the run; refused while held: ${!refused.claimed}); `
    + `finished: state ${row2.state}, ${row2.cardsDone.toLocaleString('en')} cards, ${row2.linesWritten.toLocaleString('en')} lines; whole pass ${(ms2 / 1000).toFixed(1)} s`);

  // 3. exactly once
  const same = JSON.stringify(a) === JSON.stringify(b);
  const unique = a.lines.n === a.lines.keys && b.lines.n === b.lines.keys;
  console.log(`  3. killed-and-resumed run equals the uninterrupted one (lines, amounts, every bill's totals and counts, breakdowns): ${same ? 'yes' : 'NO'}; `
    + `no line twice: ${unique ? 'yes' : 'NO'}; cards done = cards to do: ${row2.cardsDone === row2.cardsTotal ? 'yes' : 'NO'}`);
  console.log(`  under 5 minutes: ${ms1 < 300_000 ? 'yes' : 'NO'}`);
  return same && unique && row2.cardsDone === row2.cardsTotal && ms1 < 300_000 ? 0 : 2;
});
