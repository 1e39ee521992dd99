/**
 * The usage feed at fleet scale: USAGE_FEED_CARDS activated cards (default 100,000) of one operator on a fresh
 * database (PGlite, or PostgreSQL on loopback with BENCH_DATABASE_URL), fed through the built-in network simulator
 * as the feed job does: a 6-hour catch-up window, then a live 5-minute window, then the same 5-minute window again
 * (which must change nothing). Prints cards per second of each pass and what was written.
 */
import { Operator } from '@lynx/contract';
import { posInt, runBench, startPlatform } from './common.ts';
import { runUsageWindow } from '../apps/server/src/modules/usage/usage-feed.ts';

const CARDS = posInt('USAGE_FEED_CARDS', 100_000);
const HOUR = 3_600_000;

runBench(30 * 60_000, async (cleanup) => {
  const p = await startPlatform(cleanup);
  const sql = p.database.sql;
  const deps = { db: p.built.deps.db, config: p.built.deps.config };
  const [ent] = await sql.query<{ cust_id: number; root_cust_id: number }>(`select cust_id, root_cust_id from accounts where login_name = 'enterprise'`);
  const t0 = performance.now();
  await sql.query(`
    insert into cards (iccid, msisdn, imsi, state, operator_id, cust_id, root_cust_id, activated_at)
    select '8986099' || lpad(i::text, 13, '0'), '1099' || lpad(i::text, 9, '0'), '46099' || lpad(i::text, 10, '0'), 64, $2, $3, $4, now() - interval '40 days'
    from generate_series(1, $1::int) i`, [CARDS, Operator.ChinaMobile, ent.cust_id, ent.root_cust_id]);
  await sql.query(`
    insert into card_history (iccid, from_state, to_state, source, actor, reason, at)
    select iccid, 60, 64, 1, 'bench', 'bench', activated_at from cards where iccid like '8986099%'`);
  await sql.exec('analyze cards; analyze card_history');
  console.log(`usage feed: ${CARDS.toLocaleString('en')} activated cards on ${p.dbVersion} (cards inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

  const now = Math.floor(Date.now() / 60_000) * 60_000;
  const count = async () => {
    const [r] = await sql.query<{ s: string; d: string; b: string }>(
      `select (select count(*) from card_sessions) s, (select count(*) from card_usage_daily) d, (select coalesce(sum(bytes), 0) from card_usage_daily_cust) b`);
    return { sessions: Number(r.s), daily: Number(r.d), bytes: Number(r.b) };
  };
  const pass = async (name: string, from: number, to: number) => {
    const t = performance.now();
    const stats = await runUsageWindow(deps, Operator.ChinaMobile, new Date(from), new Date(to));
    const ms = performance.now() - t;
    const c = await count();
    console.log(`  ${name.padEnd(34)} ${(ms / 1000).toFixed(2).padStart(7)} s  ${Math.round(stats.cards / (ms / 1000)).toLocaleString('en').padStart(8)} cards/s`
      + `  reported ${stats.sessions.toLocaleString('en')} sessions, ${stats.days.toLocaleString('en')} card-days; stored ${c.sessions.toLocaleString('en')} sessions, ${c.daily.toLocaleString('en')} daily rows`);
    return c;
  };
  await pass('catch-up window (6 h)', now - 6 * HOUR - 5 * 60_000, now - 5 * 60_000);
  const live = await pass('live window (5 min)', now - 5 * 60_000, now);
  const again = await pass('same 5 min again (idempotent)', now - 5 * 60_000, now);
  const [{ m }] = await sql.query<{ m: string }>(`
    select count(*) m from (
      select day, coalesce(cust_id, 0) c, operator_id, apn, sum(bytes) b, count(*) k from card_usage_daily group by 1, 2, 3, 4
    ) d full join card_usage_daily_cust r on r.day = d.day and r.cust_id = d.c and r.operator_id = d.operator_id and r.apn = d.apn
    where coalesce(r.bytes, 0) <> coalesce(d.b, 0) or coalesce(r.cards, 0) <> coalesce(d.k, 0)`);
  const same = live.sessions === again.sessions && live.daily === again.daily && live.bytes === again.bytes && Number(m) === 0;
  console.log(`  repeat changed nothing and the rollup matches the daily rows: ${same ? 'yes' : 'NO'}`);
  return same ? 0 : 2;
});
