/**
 * Automation rules at fleet scale (issue 15 targets, docs/automation.md): a scheduled scan of 10 rules over 1,000,000
 * cards under 60 s, and the threshold check after a usage feed window under 10 s, on PostgreSQL, set-based. On a
 * throwaway copy of the fleet database BENCH_FLEET_TEMPLATE (e.g. billfleet1m: 1,000,000 fleet cards with the 30 days of
 * 2026-11, seeded on 2026-12-01) on the loopback server of BENCH_DATABASE_URL:
 *   0. the cards' cycle columns worked out as of the scan day (RULE_SCAN_DAY, default 2026-11-25), as the feed keeps them;
 *   1. ten platform rules (every type of the catalogue, notify by webhook) and the scan of that day, timed;
 *   2. a usage window: RULE_SCAN_WINDOW_CARDS cards (default 10,000) use more data and SMS, then the check after the
 *      window, timed; it records only the cards that crossed;
 *   3. the scan again under another key: nothing is recorded twice.
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_FLEET_TEMPLATE=billfleet1m node --import tsx bench/rule-scan.ts
 */
import { AutoRuleRunKind, AutoRuleType, CardState, zonedTime } from '@lynx/contract';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { baseDatabaseUrl, fleetTemplate, freshPostgres, posInt, runBench } from './common.ts';
import { createRun, continueRun, runFeedCheck, runScan, type EngineDeps } from '../apps/server/src/modules/automation/engine/scan.ts';

const SCAN_DAY = process.env.RULE_SCAN_DAY ?? '2026-11-25';
const WINDOW_CARDS = posInt('RULE_SCAN_WINDOW_CARDS', 10_000);
const [y, m, d] = SCAN_DAY.split('-').map(Number);
const AS_OF = zonedTime(y, m, d, 1, 10);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

runBench(60 * 60_000, async (cleanup) => {
  const base = baseDatabaseUrl();
  const template = fleetTemplate();
  if (!base || !template) throw new Error('set BENCH_DATABASE_URL (loopback PostgreSQL) and BENCH_FLEET_TEMPLATE (a seeded fleet)');
  console.log(`copying the fleet database ${template}`);
  let t = performance.now();
  const fresh = await freshPostgres(base, template);
  cleanup.add(fresh.drop);
  const database = await openDatabase({ databaseUrl: fresh.url, dataDir: '/tmp', memory: false });
  cleanup.add(() => database.close());
  await migrate(database.sql);
  const q = <T = Record<string, string>>(text: string, params: unknown[] = []) => database.sql.query<T>(text, params);
  console.log(`  copied and migrated in ${s(performance.now() - t)}`);
  const engine = { db: database.db, config: { secretKey: Buffer.alloc(32), dataDir: '/tmp' } } as unknown as EngineDeps;

  // 0. the cycle columns as of the scan day (the feed keeps them so in production)
  t = performance.now();
  await q(`set work_mem = '256MB'`);
  await q('select card_cycle_refresh($1, null, false, true)', [AS_OF]);
  await q('vacuum (analyze) cards');
  const [fleet] = await q<{ cards: string; usage: string; v: string }>(`select (select count(*) from cards) cards,
    (select count(*) from card_usage_daily) usage, current_setting('server_version') v`);
  console.log(`cycle columns as of ${SCAN_DAY} in ${s(performance.now() - t)}; ${Number(fleet.cards).toLocaleString('en')} cards, `
    + `${Number(fleet.usage).toLocaleString('en')} daily usage rows, PostgreSQL ${fleet.v}`);

  // 1. ten platform rules, every type, published and on since 30 days before the scan
  const [root] = await q<{ cust_id: number }>(`select min(cust_id) cust_id from customers where level = 1`);
  const rules: [string, number, number | null, string][] = [
    ['data 80 %', AutoRuleType.DataUsage, 80, ''], ['data 100 %', AutoRuleType.DataUsage, 100, ''],
    ['data 50 % of one customer', AutoRuleType.DataUsage, 50, `scope_cust_id = ${root.cust_id}`],
    ['SMS over 20', AutoRuleType.SmsOver, 20, ''], ['silent 72 h', AutoRuleType.NoSession, 72, ''], ['contract ends in 7 days', AutoRuleType.CycleDue, 7, ''],
    ['pool 80 %', AutoRuleType.PoolUsage, 80, ''], ['deactivated', AutoRuleType.StateChanged, null, `states = '{${CardState.Deactivated}}'`],
    ['plan changed', AutoRuleType.PlanChanged, null, ''], ['IMEI changed', AutoRuleType.ImeiChanged, null, ''],
  ];
  for (const [name, type, threshold, extra] of rules) {
    const [r] = await q<{ rule_id: number }>(`insert into autorules (name, rule_type, level, threshold, action, channels, status, enabled, active_from,
        published_at, created_by) values ($1, $2, 2, $3, 1, '{3}', 2, true, $4::timestamptz - interval '30 days', now(), 'bench') returning rule_id`,
    [name, type, threshold, AS_OF]);
    if (extra) await q(`update autorules set ${extra} where rule_id = $1`, [r.rule_id]);
  }
  t = performance.now();
  const scan = await runScan(engine, AS_OF);
  const msScan = performance.now() - t;
  const per = await q<{ name: string; n: string }>(`select r.name, count(ac.iccid) n from autorules r left join autorule_alarm_cards ac on ac.rule_id = r.rule_id
    group by r.rule_id, r.name order by r.rule_id`);
  const [dl] = await q<{ n: string }>('select count(*) n from autorule_deliveries');
  const [run] = await q<{ chunks: number }>('select chunks from autorule_runs where run_id = $1', [scan!.runId]);
  console.log(`1. scan of ${rules.length} rules over ${Number(fleet.cards).toLocaleString('en')} cards: ${s(msScan)} (target < 60 s), ${run.chunks} chunks, `
    + `${scan!.cardsTriggered.toLocaleString('en')} cards recorded, ${Number(dl.n).toLocaleString('en')} notifications queued`);
  for (const p of per) console.log(`     ${p.name}: ${Number(p.n).toLocaleString('en')}`);

  // 2. a usage window: some cards use more data and SMS; then the check after the window
  const windowAt = new Date(AS_OF.getTime() + 5 * 60_000);
  await q(`update usage_feeds set watermark = $1`, [windowAt]);
  await q(`insert into autorule_runs (kind, run_key, as_of, rule_ids, state, finished_at) values (${AutoRuleRunKind.FeedWindow}, 'bench-previous-window', $1, '{}', 2, now())`, [AS_OF]);
  await q(`with w as (select iccid from cards where cycle_quota_bytes > 0 and cycle_from is not null order by md5(iccid) limit $1)
    update cards c set cycle_used_bytes = c.cycle_used_bytes + c.cycle_quota_bytes / 4 from w where c.iccid = w.iccid`, [WINDOW_CARDS]);
  await q(`with w as (select iccid, cust_id, root_cust_id, operator_id from cards where cycle_from is not null order by md5(iccid) limit $1)
    insert into card_usage_daily (iccid, day, sms, apn, operator_id, cust_id, root_cust_id, updated_at)
    select iccid, $2::date, 25, 'bench', operator_id, cust_id, root_cust_id, $3 from w
    on conflict (iccid, day) do update set sms = card_usage_daily.sms + 25, updated_at = excluded.updated_at`, [WINDOW_CARDS, SCAN_DAY, windowAt]);
  const before = Number((await q<{ n: string }>('select count(*) n from autorule_alarm_cards'))[0].n);
  t = performance.now();
  const check = await runFeedCheck(engine, new Date(windowAt.getTime() + 30_000));
  const msCheck = performance.now() - t;
  const after = Number((await q<{ n: string }>('select count(*) n from autorule_alarm_cards'))[0].n);
  console.log(`2. check after a usage window (${WINDOW_CARDS.toLocaleString('en')} cards used more): ${s(msCheck)} (target < 10 s), `
    + `${check?.cardsTriggered.toLocaleString('en')} cards recorded (${(after - before).toLocaleString('en')} new rows)`);

  // 3. the same scan under another key: nothing twice
  const again = await createRun(database.db, { kind: AutoRuleRunKind.Manual, key: 'bench-again', asOf: AS_OF });
  t = performance.now();
  const r3 = await continueRun(engine, again!);
  const [dup] = await q<{ n: string }>('select count(*) - count(distinct (rule_id, iccid, period_key)) n from autorule_alarm_cards');
  console.log(`3. the scan again: ${s(performance.now() - t)}, ${r3.cardsTriggered} cards recorded (must be 0), duplicate keys ${dup.n}`);
  return 0;
});
