/**
 * Channel cards and resale sync at scale (issue 16, docs/channel-cards.md), on PostgreSQL: CC_BENCH_CARDS channel cards
 * (default 200,000) over ten first-level customers and five channels, imported two months ago. Timed:
 *   1. the list's first page and its count for one customer (a tenth of the cards) and for staff, and by ICCID prefix;
 *   2. an import of 10,000 channel cards in one transaction (the database checks and the insert);
 *   3. generating one channel's bills for last month (a fifth of the cards: one bill per customer, one line per card);
 *   4. the scheduled resale sync of 10,000 resold cards through the simulator (claims of 500 under a lease).
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/channel-card.ts
 */
import crypto from 'node:crypto';
import { RoleType } from '@lynx/contract';
import { benchActor, benchContext, loadNow as load, migratedPostgres, msSince as ms, posInt, runBench, timedRuns as timed } from './common.ts';
import { ChannelCardService } from '../apps/server/src/modules/channelcard/service.ts';
import { ChannelCardImportService } from '../apps/server/src/modules/channelcard/import.ts';
import { runScheduledSync } from '../apps/server/src/modules/resell/service.ts';
import { createResaleSimulator } from '../apps/server/src/operators/resale/simulator.ts';

const CARDS = posInt('CC_BENCH_CARDS', 200_000);

runBench(30 * 60_000, async (cleanup) => {
  const { database, q } = await migratedPostgres(cleanup);
  let t = performance.now();
  await q(`insert into operators (operator_id, code, name_zh, name_en, billing_day) values (1, 'CMCC', '中国移动', 'China Mobile', 1) on conflict do nothing`);
  await q(`insert into cards (iccid, operator_id, state, cust_id, root_cust_id)
    select '89860' || lpad(g::text, 15, '0'), 1, 64, g % 10 + 1, g % 10 + 1 from generate_series(1, $1) g`, [CARDS + 10_000]);
  const batch = crypto.randomUUID();
  await q(`insert into channel_card_imports (batch_id, sales_order, file_name, file_size, card_count, created_by) values ($1, 'SOBENCH', 'bench.csv', 1, $2, 'bench')`, [batch, CARDS]);
  await q(`insert into channel_cards (iccid, channel_name, sales_order, monthly_cost, batch_id, cust_id, root_cust_id, created_at)
    select '89860' || lpad(g::text, 15, '0'), 'channel ' || (g % 5), 'SOBENCH', 3.5, $2, g % 10 + 1, g % 10 + 1, now() - interval '70 days'
    from generate_series(1, $1) g`, [CARDS, batch]);
  await q(`insert into resell_cards (iccid, platform_code, external_id, cust_id, root_cust_id)
    select '89860' || lpad(g::text, 15, '0'), 'BENCH', 'L' || g, g % 10 + 1, g % 10 + 1 from generate_series(1, 10000) g`);
  await q('vacuum (analyze) cards, channel_cards, resell_cards');
  console.log(`${CARDS} channel cards in ${ms(t)}`);

  const actor = (roleType: number, custId: number | null) => benchActor(roleType, custId, [16020000, 16030000, 16030001]);
  const ctx = benchContext(actor(RoleType.Admin, null));
  const service = new ChannelCardService(database.db);
  await timed('list page 1 + count, one channel customer (1/10 of the cards)', () => service.page({ current: 1, pageSize: 20 }, actor(RoleType.Channel, 3)));
  await timed('list page 1 + count, staff', () => service.page({ current: 1, pageSize: 20 }, actor(RoleType.Admin, null)));
  await timed('list by ICCID prefix, staff', () => service.page({ current: 1, pageSize: 20, iccid: '898600000000001' }, actor(RoleType.Admin, null)));
  await timed('list by channel, staff', () => service.page({ current: 1, pageSize: 20, channelName: 'channel 3' }, actor(RoleType.Admin, null)));

  // 10,000 fresh cards of one customer (g % 10 = 0 → customer 1 for g = CARDS + 10, + 20, …): take one customer's
  await q(`update cards set cust_id = 1, root_cust_id = 1 where iccid > '89860' || lpad($1::text, 15, '0')`, [CARDS]);
  const rows = Array.from({ length: 10_000 }, (_, i) => ({ row: i + 2, iccid: `89860${String(CARDS + i + 1).padStart(15, '0')}`, channel: 'channel new', cost: '4.20' }));
  t = performance.now();
  const b = await new ChannelCardImportService(database.db).store(rows, [], { salesOrder: 'SOBENCH2', fileName: 'bench.csv', fileSize: 1, remark: null }, ctx);
  console.log(`import of ${b.cardCount} channel cards: ${ms(t)} (${load()})`);

  const d = new Date(Date.now() - 35 * 86_400_000 + 8 * 3_600_000);
  const period = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  t = performance.now();
  const g = await service.generate({ channelName: 'channel 2', periodKey: period }, ctx);
  console.log(`bills of one channel for ${period}: ${g.bills} bills, ${g.cards} lines in ${ms(t)} (${load()})`);

  t = performance.now();
  const s = await runScheduledSync(database.db, createResaleSimulator());
  console.log(`scheduled resale sync: ${s.synced} synced, ${s.failed} failed in ${ms(t)} (${load()})`);
  return 0;
});
