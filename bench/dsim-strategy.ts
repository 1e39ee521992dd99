/**
 * Super SIMs at scale (issue 16, docs/super-sim.md), on PostgreSQL: DSIM_BENCH_SIMS super SIMs (default 100,000) of
 * three member cards each, half of them on a "no session for 60 minutes" strategy and a quarter on a cost strategy,
 * last sessions spread over the last three hours. Timed:
 *   1. the strategy step's candidate statements (one per rule type, at most 2,000 each), and a whole step (2,000
 *      switches through the vendor simulator, each a record and a vendor call);
 *   2. the list's first page and its count for one customer (a tenth of the super SIMs) and for staff;
 *   3. an import of 10,000 super SIMs (30,000 member cards) in one transaction;
 *   4. the usage feed's super SIM bars for one chunk of 5,000 member cards (only the current profile attaches).
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/dsim-strategy.ts
 */
import { sql } from 'drizzle-orm';
import { RoleType } from '@lynx/contract';
import { benchActor, benchContext, loadNow as load, migratedPostgres, msSince as ms, posInt, runBench, timedRuns as timed } from './common.ts';
import { costCandidates, noSessionCandidates, runStrategies } from '../apps/server/src/modules/dsim/switching.ts';
import { DsimService } from '../apps/server/src/modules/dsim/service.ts';
import { superSimBars } from '../apps/server/src/modules/dsim/dsim-usage.ts';
import { DsimImportService } from '../apps/server/src/modules/dsim/import.ts';
import { superSimGateway } from '../apps/server/src/operators/registry.ts';

const SIMS = posInt('DSIM_BENCH_SIMS', 100_000);

runBench(30 * 60_000, async (cleanup) => {
  const { database, q } = await migratedPostgres(cleanup);
  let t = performance.now();
  await q(`insert into operators (operator_id, code, name_zh, name_en, billing_day) values (1, 'CMCC', '中国移动', 'China Mobile', 1),
    (2, 'CUCC', '中国联通', 'China Unicom', 26), (3, 'CTCC', '中国电信', 'China Telecom', 1) on conflict do nothing`);
  // three cards per super SIM: 8986 + operator digit + 15-digit sequence; customer = g % 10 + 1; last session in the last 3 h
  await q(`insert into cards (iccid, imsi, operator_id, state, cust_id, root_cust_id, last_session_at)
    select '8986' || o || lpad(g::text, 15, '0'), '4600' || o || lpad(g::text, 10, '0'), o, 64, g % 10 + 1, g % 10 + 1,
      now() - ((g * 7919 + o * 104729) % 10800) * interval '1 second'
    from generate_series(1, $1) g, generate_series(1, 3) o`, [SIMS]);
  await q(`insert into dsim_strategies (strategy_name, rule_type, params, created_by) values ('no session 60', 1, '{"minutes":60}', 'bench'),
    ('cost', 2, '{"operatorOrder":[3,1,2]}', 'bench')`);
  await q(`insert into dsims (sn, cust_id, root_cust_id, current_operator_id, strategy_id, created_at)
    select 'BSN' || lpad(g::text, 9, '0'), g % 10 + 1, g % 10 + 1, 1 + g % 3, case when g % 4 < 2 then 1 when g % 4 = 2 then 2 end, now() - interval '1 day'
    from generate_series(1, $1) g`, [SIMS]);
  await q(`insert into dsim_members (sn, operator_id, iccid) select 'BSN' || lpad(g::text, 9, '0'), o, '8986' || o || lpad(g::text, 15, '0')
    from generate_series(1, $1) g, generate_series(1, 3) o`, [SIMS]);
  await q('vacuum (analyze) cards, dsims, dsim_members, dsim_strategies');
  console.log(`${SIMS} super SIMs, ${SIMS * 3} cards in ${ms(t)}`);

  const now = new Date();
  await timed('no-session candidates (limit 2,000)', () => noSessionCandidates(database.db, now));
  await timed('cost candidates (limit 2,000)', () => costCandidates(database.db, now));

  const actor = (roleType: number, custId: number | null) => benchActor(roleType, custId, [2090000, 2070000]);
  const service = new DsimService(database.db, superSimGateway);
  await timed('list page 1 + count, one customer (1/10 of the super SIMs)', () => service.page({ current: 1, pageSize: 20 }, actor(RoleType.Enterprise, 3)));
  await timed('list page 1 + count, staff', () => service.page({ current: 1, pageSize: 20 }, actor(RoleType.Admin, null)));
  await timed('list by member ICCID prefix, staff', () => service.page({ current: 1, pageSize: 20, iccid: '89862000000000001' }, actor(RoleType.Admin, null)));

  t = performance.now();
  const r = await runStrategies(database.db, superSimGateway(), now);
  console.log(`strategy step: ${r.candidates} candidates, ${r.switched} switched, ${r.failed} failed in ${ms(t)} (${load()})`);

  // the usage feed's bars for super SIM members (only the current profile attaches): one statement per feed chunk of
  // 5,000 cards, here all of them members (a China Mobile chunk: a third of them current), over a day with switches
  const members = (await q<{ iccid: string }>("select iccid from dsim_members where operator_id = 1 order by iccid limit 5000")).map((m) => m.iccid);
  const day = new Date(now.getTime() - 86_400_000);
  await timed('super SIM bars of one usage feed chunk (5,000 member cards)', async () => {
    const bars = await superSimBars(database.db, members, day, new Date());
    return [...bars.values()];
  });

  // an import of 10,000 super SIMs over fresh cards
  await q(`insert into cards (iccid, operator_id, state) select '8987' || o || lpad(g::text, 15, '0'), o, 60 from generate_series(1, 10000) g, generate_series(1, 3) o`);
  const rows = Array.from({ length: 10_000 }, (_, i) => ({
    row: i + 2, sn: `ISN${String(i + 1).padStart(9, '0')}`, current: 1, supplier: false,
    members: [1, 2, 3].map((o) => ({ operatorId: o, iccid: `8987${o}${String(i + 1).padStart(15, '0')}` })),
  }));
  const ctx = benchContext(actor(RoleType.Admin, null));
  t = performance.now();
  const b = await new DsimImportService(database.db).store(rows, [], { fileName: 'bench.csv', fileSize: 1, remark: null }, ctx);
  console.log(`import of ${b.simCount} super SIMs (${b.cardCount} cards): ${ms(t)} (${load()})`);
  const [{ n }] = await database.db.execute(sql`select count(*) as n from dsims`).then((x) => (x as unknown as { rows: { n: string }[] }).rows);
  console.log(`super SIMs now: ${n}`);
  return 0;
});
