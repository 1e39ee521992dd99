/**
 * Super SIMs at scale (issue 16, docs/super-sim.md), on PostgreSQL: DSIM_BENCH_SIMS super SIMs (default 100,000) of
 * three member cards each, half of them on a "no session for 60 minutes" strategy and a quarter on a cost strategy,
 * last sessions spread over the last three hours. Timed:
 *   1. the strategy step's candidate statements (one per rule type, at most 2,000 each), and a whole step (2,000
 *      switches through the vendor simulator, each a record and a vendor call);
 *   2. the list's first page and its count for one customer (a tenth of the super SIMs) and for staff;
 *   3. an import of 10,000 super SIMs (30,000 member cards) in one transaction.
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/dsim-strategy.ts
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { RoleType } from '@lynx/contract';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { baseDatabaseUrl, freshPostgres, posInt, runBench } from './common.ts';
import { costCandidates, noSessionCandidates, runStrategies } from '../apps/server/src/modules/dsim/switching.ts';
import { DsimService } from '../apps/server/src/modules/dsim/service.ts';
import { DsimImportService } from '../apps/server/src/modules/dsim/import.ts';
import { superSimGateway } from '../apps/server/src/operators/registry.ts';
import type { Actor, SessionContext } from '../apps/server/src/platform/context.ts';

const SIMS = posInt('DSIM_BENCH_SIMS', 100_000);
const ms = (t: number) => `${(performance.now() - t).toFixed(1)} ms`;
const load = () => `load ${os.loadavg().slice(0, 2).map((l) => l.toFixed(1)).join('/')}`;

runBench(30 * 60_000, async (cleanup) => {
  const base = baseDatabaseUrl();
  if (!base) throw new Error('set BENCH_DATABASE_URL (loopback PostgreSQL)');
  const fresh = await freshPostgres(base);
  cleanup.add(fresh.drop);
  const database = await openDatabase({ databaseUrl: fresh.url, dataDir: '/tmp', memory: false });
  cleanup.add(() => database.close());
  await migrate(database.sql);
  const q = <T = Record<string, string>>(text: string, params: unknown[] = []) => database.sql.query<T>(text, params);
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
  const timed = async (label: string, f: () => Promise<{ length: number } | unknown>, runs = 5) => {
    const times: number[] = [];
    let n = 0;
    for (let i = 0; i < runs; i++) {
      const s = performance.now();
      const r = await f();
      times.push(performance.now() - s);
      n = Array.isArray(r) ? r.length : (r as { list?: unknown[] })?.list?.length ?? 0;
    }
    times.sort((a, b) => a - b);
    console.log(`${label}: median ${times[Math.floor(runs / 2)].toFixed(1)} ms, max ${times[runs - 1].toFixed(1)} ms (${n} rows; ${load()})`);
  };
  await timed('no-session candidates (limit 2,000)', () => noSessionCandidates(database.db, now));
  await timed('cost candidates (limit 2,000)', () => costCandidates(database.db, now));

  const actor = (roleType: number, custId: number | null): Actor => ({
    accountId: 1, loginName: 'bench', userName: 'bench', roleId: roleType, roleName: 'bench', roleType, custId, rootCustId: custId,
    permissions: new Set([2090000, 2070000]), mustResetPassword: false,
  });
  const service = new DsimService(database.db, superSimGateway);
  await timed('list page 1 + count, one customer (1/10 of the super SIMs)', () => service.page({ current: 1, pageSize: 20 }, actor(RoleType.Enterprise, 3)));
  await timed('list page 1 + count, staff', () => service.page({ current: 1, pageSize: 20 }, actor(RoleType.Admin, null)));
  await timed('list by member ICCID prefix, staff', () => service.page({ current: 1, pageSize: 20, iccid: '89862000000000001' }, actor(RoleType.Admin, null)));

  t = performance.now();
  const r = await runStrategies(database.db, superSimGateway(), now);
  console.log(`strategy step: ${r.candidates} candidates, ${r.switched} switched, ${r.failed} failed in ${ms(t)} (${load()})`);

  // an import of 10,000 super SIMs over fresh cards
  await q(`insert into cards (iccid, operator_id, state) select '8987' || o || lpad(g::text, 15, '0'), o, 60 from generate_series(1, 10000) g, generate_series(1, 3) o`);
  const rows = Array.from({ length: 10_000 }, (_, i) => ({
    row: i + 2, sn: `ISN${String(i + 1).padStart(9, '0')}`, current: 1, supplier: false,
    members: [1, 2, 3].map((o) => ({ operatorId: o, iccid: `8987${o}${String(i + 1).padStart(15, '0')}` })),
  }));
  const ctx = { actor: actor(RoleType.Admin, null), lang: 'en', ip: '-', endpoint: 'bench', tokenHash: null, audited: false } as SessionContext;
  t = performance.now();
  const b = await new DsimImportService(database.db).store(rows, [], { fileName: 'bench.csv', fileSize: 1, remark: null }, ctx);
  console.log(`import of ${b.simCount} super SIMs (${b.cardCount} cards): ${ms(t)} (${load()})`);
  const [{ n }] = await database.db.execute(sql`select count(*) as n from dsims`).then((x) => (x as unknown as { rows: { n: string }[] }).rows);
  console.log(`super SIMs now: ${n}`);
  return 0;
});
