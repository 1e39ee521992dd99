// Demo stock (an empty database's first start): the warehouse holds the demo's platform stock cards as matched items,
// some allocated cards as items already out, and SIMs received but not matched yet (two dual SIMs among them), so the
// stock screens are not empty. Set-based: four statements.
import { sql } from 'drizzle-orm';
import { CardState, StockBalanceType, StockChangeKind, StockMatchState, StockOutState } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';

export async function seedDemoStock(ex: Executor): Promise<void> {
  const M = StockMatchState;
  const X = StockOutState;
  // matched, in the warehouse: the platform stock cards (no customer, start state)
  await ex.execute(sql`
    insert into stock_items (iccid, imsi, msisdn, operator_id, location, balance_type, match_state, out_state, matched_at, received_at)
    select iccid, imsi, msisdn, operator_id, 'A-0' || (1 + row_number() over (order by iccid) % 3), ${StockBalanceType.Postpaid}::smallint, ${M.Matched}::smallint, ${X.NotOut}::smallint,
      created_at, created_at
    from cards where cust_id is null and state = ${CardState.Start} and imsi ~ '^[0-9]{15}$' and iccid ~ '^[0-9]{19,20}$'
      and (msisdn is null or msisdn ~ '^[0-9]{5,15}$')
    order by iccid limit 40`);
  // out: cards already allocated to customers
  await ex.execute(sql`
    insert into stock_items (iccid, imsi, msisdn, operator_id, location, balance_type, remark, match_state, out_state, matched_at, out_at, received_at)
    select iccid, imsi, msisdn, operator_id, 'B-01', ${StockBalanceType.Prepaid}::smallint, '首批出库', ${M.Matched}::smallint, ${X.Out}::smallint, created_at, created_at + interval '1 day',
      created_at - interval '7 days'
    from cards where cust_id is not null and iccid ~ '^[0-9]{19,20}$' and (imsi is null or imsi ~ '^[0-9]{15}$')
      and (msisdn is null or msisdn ~ '^[0-9]{5,15}$')
    order by iccid limit 15`);
  // received, not matched: 24 SIMs with their codes (items 1-4 are two dual SIMs), 4 still without IMSI / MSISDN, 2 scrapped
  await ex.execute(sql`
    insert into stock_items (iccid, imsi, msisdn, sn, operator_id, location, balance_type, remark, match_state, out_state, scrapped_at)
    select '89860499000000000' || lpad(g::text, 3, '0'),
      case when g <= 24 or g > 28 then '46000990' || lpad(g::text, 7, '0') end,
      case when g <= 24 or g > 28 then '1064999' || lpad(g::text, 6, '0') end,
      case when g <= 4 then 'DSIM-DEMO-' || ((g + 1) / 2) end,
      1 + g % 3, 'C-0' || (1 + g % 2), ${StockBalanceType.Postpaid}::smallint, case when g <= 4 then '双卡' else '' end,
      case when g > 28 then ${M.Scrapped}::smallint else ${M.NotMatched}::smallint end, case when g > 28 then ${X.Scrapped}::smallint else ${X.NotOut}::smallint end,
      case when g > 28 then now() end
    from generate_series(1, 30) g`);
  await ex.execute(sql`
    insert into stock_changes (iccid, change_id, kind, login_name, at, after)
    select iccid, gen_random_uuid(), ${StockChangeKind.Received}::smallint, 'admin', received_at, jsonb_build_object('location', location) from stock_items`);
}
