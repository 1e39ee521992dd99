/**
 * Automation rules at fleet scale (issue 15 targets, docs/automation.md): a scheduled scan of 10 rules over 1,000,000
 * cards under 60 s, and the threshold check after a usage feed window under 10 s, on PostgreSQL, set-based. On a
 * throwaway copy of the fleet database BENCH_FLEET_TEMPLATE (e.g. billfleet1m: 1,000,000 fleet cards with the 30 days of
 * 2026-11, seeded on 2026-12-01) on the loopback server of BENCH_DATABASE_URL:
 *   0. the background as in production at the scan (RULE_SCAN_DAY, default 2026-11-25, 01:10 business time): the daily
 *      rows of the days after it removed (they have not happened yet); the cards' cycle columns (usage, SMS) worked out
 *      as of then, as the feed keeps them; the scan day's daily usage rows last written by the
 *      feed windows of that day before it (their updated_at spread over 00:00–01:10; the fleet seeds every row at
 *      its own instant), and each card's usage_moved_at the instant of that last write, as the feed's writer sets it;
 *   1. ten platform rules (every type of the catalogue, notify by webhook; thresholds an operator would set: the tail
 *      of the fleet, not its bulk — RULE_SCAN_SMS_OVER, default 45 SMS in the cycle, about two standard deviations
 *      over the fleet's mean at the scan day) and the scan of that day, timed;
 *   2. a usage window through the feed's own writer (usage-write.ts writeDaily: daily rows, rollup and the cards'
 *      cycle usage in one statement): RULE_SCAN_WINDOW_CARDS cards (default 10,000, spread over the fleet) use a
 *      quarter of their quota and 25 SMS more, then the check after the window, timed; it records only the cards
 *      that crossed;
 *   3. the scan again under another key: nothing is recorded twice.
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_FLEET_TEMPLATE=billfleet1m node --import tsx bench/rule-scan.ts
 * (RULE_SCAN_KEEP_DB=1 keeps the copy for EXPLAIN.)
 */
import os from 'node:os';
import { AutoRuleRunKind, AutoRuleType, CardState, zonedTime } from '@lynx/contract';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { baseDatabaseUrl, fleetTemplate, freshPostgres, posInt, runBench } from './common.ts';
import { createRun, continueRun, runFeedCheck, runScan, type EngineDeps } from '../apps/server/src/modules/automation/engine/scan.ts';
import { writeDaily, type CardTenant } from '../apps/server/src/modules/usage/usage-write.ts';
import type { DailyUsageRecord } from '../apps/server/src/operators/gateway.ts';

const SCAN_DAY = process.env.RULE_SCAN_DAY ?? '2026-11-25';
const WINDOW_CARDS = posInt('RULE_SCAN_WINDOW_CARDS', 10_000);
const SMS_OVER = posInt('RULE_SCAN_SMS_OVER', 45);
const [y, m, d] = SCAN_DAY.split('-').map(Number);
const AS_OF = zonedTime(y, m, d, 1, 10);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** the machine's load (1 and 5 minute averages) next to each number: the machine is shared */
const load = () => `load ${os.loadavg().slice(0, 2).map((l) => l.toFixed(1)).join('/')}`;

runBench(60 * 60_000, async (cleanup) => {
  const base = baseDatabaseUrl();
  const template = fleetTemplate();
  if (!base || !template) throw new Error('set BENCH_DATABASE_URL (loopback PostgreSQL) and BENCH_FLEET_TEMPLATE (a seeded fleet)');
  // RULE_SCAN_REUSE_DB=<url of a copy kept by RULE_SCAN_KEEP_DB>: the steps again on it (its background is in place;
  // the engine's tables and the rules are emptied first; the window's cards have the earlier windows' usage too)
  const reuse = process.env.RULE_SCAN_REUSE_DB || null;
  let t = performance.now();
  let url: string;
  if (reuse) {
    url = reuse;
  } else {
    console.log(`copying the fleet database ${template}`);
    const fresh = await freshPostgres(base, template);
    // RULE_SCAN_KEEP_DB=1 keeps the copy afterwards (to EXPLAIN the statements on it, or run again on it; drop it by hand)
    if (process.env.RULE_SCAN_KEEP_DB === '1') console.log(`  keeping the copy ${fresh.url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')}`);
    else cleanup.add(fresh.drop);
    url = fresh.url;
  }
  const database = await openDatabase({ databaseUrl: url, dataDir: '/tmp', memory: false });
  cleanup.add(() => database.close());
  await migrate(database.sql);
  const q = <T = Record<string, string>>(text: string, params: unknown[] = []) => database.sql.query<T>(text, params);
  console.log(`  copied and migrated in ${s(performance.now() - t)}`);
  const engine = { db: database.db, config: { secretKey: Buffer.alloc(32), dataDir: '/tmp' } } as unknown as EngineDeps;

  if (reuse) {
    await q(`truncate autorule_alarm_cards, autorule_alarms, autorule_deliveries, autorule_runs, autorule_imei_changes`);
    await q(`delete from autorules`);
    await q('vacuum (analyze) autorule_alarm_cards, autorules');
  } else {
    // 0. the fleet as it is on the scan day: the days after it have not happened yet (the fleet is seeded with the whole
    // month), and the cycle columns as of then (the feed keeps them so in production)
    t = performance.now();
    await q(`set work_mem = '256MB'`);
    const gone = await q<{ n: string }>(`with d as (delete from card_usage_daily where day > $1::date returning 1) select count(*) n from d`, [SCAN_DAY]);
    console.log(`  the ${Number(gone[0].n).toLocaleString('en')} daily rows after ${SCAN_DAY} removed in ${s(performance.now() - t)}`);
    t = performance.now();
    await q('select card_cycle_refresh($1, null, false, true)', [AS_OF]);
    await q('vacuum (analyze) cards');
    console.log(`cycle columns as of ${SCAN_DAY} in ${s(performance.now() - t)}`);
    const tBg = performance.now();
    const dayStart = zonedTime(y, m, d, 0, 0);
    await q(`update card_usage_daily set updated_at = $1::timestamptz + (('x' || substr(md5(iccid), 1, 8))::bit(32)::bigint / 4294967296.0) * ($2::timestamptz - $1::timestamptz)
      where day = $3::date`, [dayStart, AS_OF, SCAN_DAY]);
    // and the cards marked as the feed's writer marks them when it moves their usage (the last write of their day's row)
    await q(`update cards c set usage_moved_at = d.updated_at from card_usage_daily d where d.iccid = c.iccid and d.day = $1::date`, [SCAN_DAY]);
    await q('analyze card_usage_daily');
    await q('vacuum (analyze) cards');
    console.log(`  the scan day's daily rows as the feed left them by the scan: ${s(performance.now() - tBg)}`);
  }
  const [fleet] = await q<{ cards: string; usage: string; v: string }>(`select (select count(*) from cards) cards,
    (select count(*) from card_usage_daily) usage, current_setting('server_version') v`);
  console.log(`${Number(fleet.cards).toLocaleString('en')} cards, `
    + `${Number(fleet.usage).toLocaleString('en')} daily usage rows, PostgreSQL ${fleet.v}`);

  // 1. ten platform rules, every type, published and on since 30 days before the scan
  const [root] = await q<{ cust_id: number }>(`select min(cust_id) cust_id from customers where level = 1`);
  const rules: [string, number, number | null, string][] = [
    ['data 80 %', AutoRuleType.DataUsage, 80, ''], ['data 100 %', AutoRuleType.DataUsage, 100, ''],
    ['data 50 % of one customer', AutoRuleType.DataUsage, 50, `scope_cust_id = ${root.cust_id}`],
    [`SMS over ${SMS_OVER}`, AutoRuleType.SmsOver, SMS_OVER, ''], ['silent 72 h', AutoRuleType.NoSession, 72, ''], ['contract ends in 7 days', AutoRuleType.CycleDue, 7, ''],
    ['pool 80 %', AutoRuleType.PoolUsage, 80, ''], ['deactivated', AutoRuleType.StateChanged, null, `states = '{${CardState.Deactivated}}'`],
    ['plan changed', AutoRuleType.PlanChanged, null, ''], ['IMEI changed', AutoRuleType.ImeiChanged, null, ''],
  ];
  for (const [name, type, threshold, extra] of rules) {
    // set up, published and switched on 30 days before the scan (and not edited since)
    const [r] = await q<{ rule_id: number }>(`insert into autorules (name, rule_type, level, threshold, action, channels, status, enabled, active_from,
        published_at, created_by, created_at, updated_at) values ($1, $2, 2, $3, 1, '{3}', 2, true, $4::timestamptz - interval '30 days',
        $4::timestamptz - interval '30 days', 'bench', $4::timestamptz - interval '30 days', $4::timestamptz - interval '30 days') returning rule_id`,
    [name, type, threshold, AS_OF]);
    if (extra) await q(`update autorules set ${extra}, updated_at = created_at where rule_id = $1`, [r.rule_id]);
  }
  t = performance.now();
  const scan = await runScan(engine, AS_OF);
  const msScan = performance.now() - t;
  const per = await q<{ name: string; n: string }>(`select r.name, count(ac.iccid) n from autorules r left join autorule_alarm_cards ac on ac.rule_id = r.rule_id
    group by r.rule_id, r.name order by r.rule_id`);
  const [dl] = await q<{ n: string }>('select count(*) n from autorule_deliveries');
  const [run] = await q<{ chunks: number }>('select chunks from autorule_runs where run_id = $1', [scan!.runId]);
  console.log(`1. scan of ${rules.length} rules over ${Number(fleet.cards).toLocaleString('en')} cards: ${s(msScan)} (target < 60 s), ${run.chunks} chunks, `
    + `${scan!.cardsTriggered.toLocaleString('en')} cards recorded, ${Number(dl.n).toLocaleString('en')} notifications queued (${load()})`);
  for (const p of per) console.log(`     ${p.name}: ${Number(p.n).toLocaleString('en')}`);

  // 2. a usage window: some cards use more data and SMS, written as the feed writes them; then the check after it
  const windowAt = new Date(AS_OF.getTime() + 5 * 60_000);
  // the previous check ran at the scan's instant, the feeds' watermark then 5 minutes before it
  await q(`insert into autorule_runs (kind, run_key, as_of, feeds_from, rule_ids, state, finished_at)
    values (${AutoRuleRunKind.FeedWindow}, 'bench-previous-window', $1, $2, '{}', 2, now())`, [AS_OF, new Date(AS_OF.getTime() - 5 * 60_000)]);
  await q(`update usage_feeds set watermark = $1`, [windowAt]);
  const win = await q<{ iccid: string; operator_id: number; cust_id: number | null; root_cust_id: number | null; apn: string; up: string; down: string;
    sms: number; voice: number; sessions: number; quota: string | null }>(`
    select c.iccid, c.operator_id, c.cust_id, c.root_cust_id, coalesce(d.apn, l.apn, 'bench') apn, coalesce(d.bytes_up, 0) up, coalesce(d.bytes_down, 0) down,
      coalesce(d.sms, 0) sms, coalesce(d.voice_seconds, 0) voice, coalesce(d.sessions, 0) sessions, c.cycle_quota_bytes quota
    from (select * from cards where cycle_from is not null order by md5(iccid) limit $1) c
    left join card_usage_daily d on d.iccid = c.iccid and d.day = $2::date
    left join lateral (select apn from card_usage_daily x where x.iccid = c.iccid order by day desc limit 1) l on true`, [WINDOW_CARDS, SCAN_DAY]);
  const tenants = new Map<string, CardTenant>(win.map((w) => [w.iccid, { iccid: w.iccid, operatorId: Number(w.operator_id), custId: w.cust_id, rootCustId: w.root_cust_id, apn: w.apn }]));
  const daily: DailyUsageRecord[] = win.map((w) => ({
    iccid: w.iccid, day: SCAN_DAY, bytesUp: Number(w.up), bytesDown: Number(w.down) + Math.floor(Number(w.quota ?? 200 * 1_048_576) / 4),
    sms: Number(w.sms) + 25, voiceSeconds: Number(w.voice), sessions: Number(w.sessions) + 1,
  }));
  for (let i = 0; i < daily.length; i += 5_000) {
    await database.db.transaction((tx) => writeDaily(tx, daily.slice(i, i + 5_000), tenants));
  }
  const before = Number((await q<{ n: string }>('select count(*) n from autorule_alarm_cards'))[0].n);
  t = performance.now();
  const check = await runFeedCheck(engine, new Date(windowAt.getTime() + 30_000));
  const msCheck = performance.now() - t;
  const after = Number((await q<{ n: string }>('select count(*) n from autorule_alarm_cards'))[0].n);
  console.log(`2. check after a usage window (${WINDOW_CARDS.toLocaleString('en')} cards used more): ${s(msCheck)} (target < 10 s), `
    + `${check?.cardsTriggered.toLocaleString('en')} cards recorded (${(after - before).toLocaleString('en')} new rows) (${load()})`);

  // 3. the same scan under another key: nothing twice
  const again = await createRun(database.db, { kind: AutoRuleRunKind.Manual, key: 'bench-again', asOf: AS_OF });
  t = performance.now();
  const r3 = await continueRun(engine, again!);
  const [dup] = await q<{ n: string }>('select count(*) - count(distinct (rule_id, iccid, period_key)) n from autorule_alarm_cards');
  console.log(`3. the scan again: ${s(performance.now() - t)}, ${r3.cardsTriggered} cards recorded (must be 0), duplicate keys ${dup.n} (${load()})`);
  return 0;
});
