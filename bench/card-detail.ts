/**
 * The card detail's first screen at fleet scale (issue 12): the calls the page makes when it opens (basic info, the
 * actions it offers now, plan and cycle, usage this cycle with its days, APN online status), as the enterprise
 * customer (tenant-scoped) and as operator staff, on the real server.
 *
 *   CARD_DETAIL_DATABASE_URL=postgres://postgres@127.0.0.1:5432/fleet1m_copy npm run bench:card-detail
 *
 * The database (loopback PostgreSQL) must hold the fleet and its demo data (`npm run seed -- --cards 1000000`); it is
 * only read. For BENCH_CARDS (100) cards of the enterprise spread over the ICCID order, after 10 warm-up cards: each
 * endpoint alone (sequential calls), then the five together as the browser sends them. Prints p50 / p95 per endpoint
 * and for the whole first screen. Not a timed test: the numbers go to docs/performance.md with the machine's load.
 */
import os from 'node:os';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { cardactions, carddetail, usage } from '@lynx/contract';
import { HOST, assertLoopbackDb, machineInfo, portOf, posInt, redact, runBench, writeResults } from './common.ts';

const CARDS = posInt('BENCH_CARDS', 100);
const WARMUP = 10;
const ENDPOINTS = [carddetail.getCardDetail, cardactions.getCardActions, carddetail.getCardCycle, usage.getCardUsage, carddetail.getCardApnOnline];

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (v: number) => Math.round(v * 100) / 100;
const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: round(pct(s, 50)), p95: round(pct(s, 95)), max: round(s[s.length - 1]) };
};

runBench(30 * 60_000, async (cleanup) => {
  const url = process.env.CARD_DETAIL_DATABASE_URL || process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) throw new Error('set CARD_DETAIL_DATABASE_URL to a PostgreSQL database with the fleet, on loopback');
  assertLoopbackDb(url);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/tmp' });
  cleanup.add(() => database.close());
  const config = loadConfig(process.env, {
    host: HOST, port: 0, dataDir: '/tmp/lynx-bench-card-detail', databaseUrl: url, redisUrl: null, seedDemo: false, logLevel: 'silent',
    rateLimitPerToken: 1e9, rateLimitPerIp: 1e9, runWorkers: false,
  });
  const built = await buildApp(config, database, { jobs: false });
  cleanup.add(() => built.close());
  await built.app.listen({ host: HOST, port: 0 });
  const origin = `http://${HOST}:${portOf(built.app)}`;

  const tokenOf = async (login: string) => {
    const [a] = await database.sql.query<{ account_id: number }>('select account_id from accounts where login_name = $1', [login]);
    if (!a) throw new Error(`no ${login} account: the database needs the demo data`);
    return (await built.deps.sessions.create(database.db, a.account_id, '127.0.0.1')).token;
  };
  const [ent] = await database.sql.query<{ root_cust_id: number }>(`select root_cust_id from accounts where login_name = 'enterprise'`);
  const [{ n }] = await database.sql.query<{ n: string }>('select count(*) n from cards where root_cust_id = $1', [ent.root_cust_id]);
  const step = Math.max(1, Math.floor(Number(n) / (CARDS + WARMUP)));
  // cards spread over the enterprise's ICCID order, with a plan (the detail of a card without one does less)
  const iccids = (await database.sql.query<{ iccid: string }>(
    `select iccid from (select iccid, goods_release_id, row_number() over (order by iccid) r from cards where root_cust_id = $1) c
      where r % $2 = 0 and goods_release_id is not null limit $3`, [ent.root_cust_id, step, CARDS + WARMUP])).map((r) => r.iccid);
  const [{ total }] = await database.sql.query<{ total: string }>('select count(*) total from cards');
  console.log(`${Number(total).toLocaleString('en')} cards in ${redact(url)}; ${iccids.length} enterprise cards; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  const call = async (token: string, name: string, iccid: string) => {
    const t0 = performance.now();
    const r = await fetch(`${origin}/api/cmp/${name}?ts=1&lang=en`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: JSON.stringify({ iccid }) });
    const body = (await r.json()) as { success: boolean; msg: string };
    if (!body.success) throw new Error(`${name} ${iccid}: ${body.msg}`);
    return performance.now() - t0;
  };

  const results: Record<string, unknown> = {};
  for (const actor of ['enterprise', 'admin']) {
    const token = await tokenOf(actor);
    for (const iccid of iccids.slice(0, WARMUP)) for (const e of ENDPOINTS) await call(token, e.name, iccid);
    const cards = iccids.slice(WARMUP);
    const per: Record<string, ReturnType<typeof stats>> = {};
    for (const e of ENDPOINTS) {
      const ms: number[] = [];
      for (const iccid of cards) ms.push(await call(token, e.name, iccid));
      per[e.name] = stats(ms);
    }
    const screen: number[] = [];
    for (const iccid of cards) {
      const t0 = performance.now();
      await Promise.all(ENDPOINTS.map((e) => call(token, e.name, iccid)));
      screen.push(performance.now() - t0);
    }
    results[actor] = { endpoints: per, firstScreen: stats(screen) };
    console.log(`\n${actor} (${cards.length} cards, sequential)`);
    for (const [name, s] of Object.entries(per)) console.log(`  ${name.padEnd(42)} p50 ${String(s.p50).padStart(7)} ms   p95 ${String(s.p95).padStart(7)} ms`);
    const fs = stats(screen);
    console.log(`  ${'first screen (the five together)'.padEnd(42)} p50 ${String(fs.p50).padStart(7)} ms   p95 ${String(fs.p95).padStart(7)} ms`);
  }
  const file = writeResults('card-detail', { at: new Date().toISOString(), machine: machineInfo(), loadavg: os.loadavg(), cards: Number(total), results });
  console.log(`\nwritten to ${file}`);
  return 0;
});
