-- Stock operations run by the card batch engine (issue 16; docs/stock.md, docs/batch.md "Batches of other modules"):
-- the batches and items of migration 0055's own tables move into card_batches / card_batch_items (types 1-4 → 20-23,
-- the stock-in item's codes into the payload, the engine's runner dispatching on params.type), then those tables go.
-- The states, verdicts and item statuses have the same numbers in both. A stock batch is the platform's (staff): no
-- tenant. Its source: pasted (4), or the stock list's filter (3).
insert into card_batches (batch_id, type, params, source, source_detail, state, creator_account_id, created_by, cust_id, root_cust_id,
  total_count, valid_count, invalid_count, already_count, duplicate_count, succeeded_count, failed_count, processed_count,
  created_at, confirmed_at, finished_at, cancelled_at, heartbeat_at)
select batch_id, type + 19, params || jsonb_build_object('type', type + 19),
  case when params ? 'filter' then 3 else 4 end, case when params ? 'filter' then jsonb_build_object('filter', params -> 'filter') end,
  state, creator_account_id, created_by, null, null,
  total_count, valid_count, invalid_count, 0, duplicate_count, succeeded_count, failed_count, processed_count,
  created_at, confirmed_at, finished_at, cancelled_at, heartbeat_at
from stock_batches
on conflict (batch_id) do nothing;

insert into card_batch_items (batch_id, seq, iccid, verdict, reason_zh, reason_en, status, error_zh, error_en, done_at, payload)
select i.batch_id, i.seq, i.iccid, i.verdict, i.reason_zh, i.reason_en, i.status, i.error_zh, i.error_en, i.done_at,
  case when b.type = 1 then jsonb_strip_nulls(jsonb_build_object('imsi', i.imsi, 'msisdn', i.msisdn, 'sn', i.sn)) end
from stock_batch_items i join stock_batches b on b.batch_id = i.batch_id
on conflict (batch_id, seq) do nothing;

drop table stock_batch_items;
drop table stock_batches;
