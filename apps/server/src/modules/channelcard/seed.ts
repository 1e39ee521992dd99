import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ResellSyncState, businessToday } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';
import { exec } from '../dsim/switching.ts';

type Cust = { custId: number; rootCustId: number };

/**
 * Demo channel cards and resold cards (docs/channel-cards.md): six of the channel customer's cards and four of the
 * enterprise's bought through two upstream channels (imported two months ago), last month's bill of one channel, and six
 * resold cards in different sync states (one whose listing the resale platform does not know).
 */
export async function seedDemoChannelCards(ex: Executor, c: { huadian: Cust; zhixing: Cust }): Promise<void> {
  const pick = (cust: Cust, n: number, offset = 0) => exec<{ iccid: string; cust_id: number; root_cust_id: number }>(ex, sql`
    select k.iccid, k.cust_id, k.root_cust_id from cards k where k.root_cust_id = ${cust.rootCustId}
      and not exists (select 1 from dsim_members m where m.iccid = k.iccid) order by k.iccid limit ${n} offset ${offset}`);
  const groups = [
    { cust: c.huadian, cards: await pick(c.huadian, 6), channel: '华南物联渠道', order: 'SO2026090001', cost: '3.50' },
    { cust: c.zhixing, cards: await pick(c.zhixing, 4), channel: '东方通信渠道', order: 'SO2026090002', cost: '5.00' },
  ];
  for (const g of groups) {
    if (!g.cards.length) continue;
    const batchId = crypto.randomUUID();
    await ex.execute(sql`insert into channel_card_imports (batch_id, sales_order, file_name, file_size, card_count, cust_id, root_cust_id, created_by, created_at)
      values (${batchId}::uuid, ${g.order}, ${`${g.order}.xlsx`}, 9216, ${g.cards.length}, ${g.cust.rootCustId}, ${g.cust.rootCustId}, 'admin', now() - interval '62 days')`);
    for (const [i, k] of g.cards.entries()) {
      await ex.execute(sql`insert into channel_cards (iccid, channel_name, sales_order, monthly_cost, batch_id, cust_id, root_cust_id, state, stopped_at, created_at)
        values (${k.iccid}, ${g.channel}, ${g.order}, ${g.cost}::numeric, ${batchId}::uuid, ${k.cust_id}, ${k.root_cust_id}, ${i === 5 ? 2 : 1},
          ${i === 5 ? sql`now() - interval '3 days'` : null}, now() - interval '62 days')`);
    }
  }
  // last month's bill of the first channel, as "Generate bill" makes it
  const today = businessToday();
  const [y, m] = today.slice(0, 7).split('-').map(Number);
  const last = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  const [bill] = await exec<{ bill_id: number }>(ex, sql`insert into channel_card_bills (channel_name, period_key, cust_id, root_cust_id, card_count, total_amount, created_by)
    select channel_name, ${last}, root_cust_id, root_cust_id, count(*), sum(monthly_cost), 'admin' from channel_cards where channel_name = '华南物联渠道'
    group by channel_name, root_cust_id returning bill_id`);
  if (bill) {
    await ex.execute(sql`insert into channel_card_bill_lines (bill_id, iccid, monthly_cost, amount)
      select ${bill.bill_id}, iccid, monthly_cost, monthly_cost from channel_cards where channel_name = '华南物联渠道'`);
  }
  // resold cards: the last of each customer's cards (not the channel cards above)
  const resold = [...(await pick(c.zhixing, 4, 20)), ...(await pick(c.huadian, 2, 10))];
  for (const [i, k] of resold.entries()) {
    const state = [ResellSyncState.Listed, ResellSyncState.Sold, ResellSyncState.NotSynced, ResellSyncState.Failed, ResellSyncState.Delisted, ResellSyncState.NotSynced][i];
    const platformState = { [ResellSyncState.Listed]: 'ON_SALE', [ResellSyncState.Sold]: 'SOLD', [ResellSyncState.Delisted]: 'OFF_SHELF' }[state as 1 | 2 | 3] ?? null;
    await ex.execute(sql`insert into resell_cards (iccid, platform_code, external_id, platform_state, sync_state, last_sync_at, last_error, last_error_zh, cust_id, root_cust_id)
      values (${k.iccid}, 'XIANYU-IOT', ${state === ResellSyncState.Failed ? `X${k.iccid.slice(-8)}` : `L${k.iccid.slice(-10)}`}, ${platformState}, ${state},
        ${state === ResellSyncState.NotSynced ? null : sql`now() - interval '2 hours'`}, ${state === ResellSyncState.Failed ? 'The resale platform answered: NOT_FOUND: no such listing' : null},
        ${state === ResellSyncState.Failed ? '转售平台答复：NOT_FOUND: no such listing' : null}, ${k.cust_id}, ${k.root_cust_id})`);
  }
}
