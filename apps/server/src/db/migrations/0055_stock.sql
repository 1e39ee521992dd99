-- Physical stock (issue 16, docs/stock.md): the SIMs in the platform's warehouse, keyed by ICCID like the cards so
-- it distributes and co-locates with them. A stock item becomes a card row when it is matched (its three codes are
-- bound): the card then sits in the platform stock (no customer, state 60 start) until it is allocated, and the
-- allocation is what makes the stock item "out" (trigger below). docs/decisions.md "Issue 16: physical stock".

create table stock_items (
  iccid text primary key check (iccid ~ '^[0-9]{19,20}$'),
  imsi text check (imsi is null or imsi ~ '^[0-9]{15}$'),
  msisdn text check (msisdn is null or msisdn ~ '^[0-9]{5,15}$'),
  -- the SN of the dual / super SIM the item is part of (modules/dsim); several items share one SN
  sn text check (sn is null or char_length(sn) between 1 and 64),
  operator_id smallint not null,
  -- where it lies in the warehouse (free text, e.g. "A-01-03")
  location text not null default '' check (char_length(location) <= 32),
  -- StockBalanceType: 1 postpaid, 2 prepaid
  balance_type smallint not null default 1 check (balance_type in (1, 2)),
  -- spec §5: an inventory remark has at most 10 characters
  remark text not null default '' check (char_length(remark) <= 10),
  -- StockMatchState: 1 not matched, 2 matching, 3 matched, 4 scrapped
  match_state smallint not null default 1 check (match_state between 1 and 4),
  -- StockOutState: 1 not out, 2 outgoing, 3 out, 4 scrapped
  out_state smallint not null default 1 check (out_state between 1 and 4),
  -- the stock-in operation that received it
  in_batch_id uuid,
  received_at timestamptz not null default now(),
  matched_at timestamptz,
  out_at timestamptz,
  scrapped_at timestamptz,
  updated_at timestamptz not null default now()
);
-- list filters, each walked in ICCID order (keyset paging on the primary key otherwise)
create index stock_items_match_ix on stock_items (match_state, iccid);
create index stock_items_out_ix on stock_items (out_state, iccid);
create index stock_items_operator_ix on stock_items (operator_id, iccid);
create index stock_items_location_ix on stock_items (location, iccid);
create index stock_items_balance_ix on stock_items (balance_type, iccid);
create index stock_items_imsi_ix on stock_items (imsi) where imsi is not null;
create index stock_items_msisdn_ix on stock_items (msisdn) where msisdn is not null;
create index stock_items_sn_ix on stock_items (sn, iccid) where sn is not null;
create index stock_items_in_batch_ix on stock_items (in_batch_id) where in_batch_id is not null;

-- the change list of an item: every state or field change with who, when, what it was and what it became
create table stock_changes (
  iccid text not null,
  change_id uuid not null,
  at timestamptz not null default now(),
  -- StockChangeKind: 1 received, 2 updated, 3 matched, 4 outgoing, 5 out (allocated), 6 scrapped, 7 match failed
  kind smallint not null check (kind between 1 and 7),
  batch_id uuid,
  login_name text not null,
  before jsonb,
  after jsonb,
  primary key (iccid, change_id)
);
create index stock_changes_item_ix on stock_changes (iccid, at desc);

-- stock operations: durable batches in the card batch engine's design (docs/batch.md): validate first, confirm,
-- a pg-boss job works through the pending items in chunks claimed with SKIP LOCKED, the items' outcomes commit with
-- the changes; the job acts as its creator
create table stock_batches (
  batch_id uuid primary key,
  -- StockOpType: 1 in, 2 match, 3 out, 4 scrap
  type smallint not null check (type between 1 and 4),
  params jsonb not null,
  -- StockBatchState: 1 validated, 2 running, 3 done, 4 cancelled
  state smallint not null default 1 check (state between 1 and 4),
  creator_account_id integer not null,
  created_by text not null,
  total_count integer not null default 0,
  valid_count integer not null default 0,
  invalid_count integer not null default 0,
  duplicate_count integer not null default 0,
  succeeded_count integer not null default 0,
  failed_count integer not null default 0,
  processed_count integer not null default 0,
  created_at timestamptz not null default now(),
  confirmed_at timestamptz,
  finished_at timestamptz,
  cancelled_at timestamptz,
  heartbeat_at timestamptz
);
create index stock_batches_created_ix on stock_batches (created_at desc, batch_id);
create index stock_batches_running_ix on stock_batches (heartbeat_at) where state = 2;

create table stock_batch_items (
  batch_id uuid not null references stock_batches (batch_id) on delete cascade,
  seq integer not null,
  iccid text not null,
  -- stock-in rows carry the other two codes and the SN
  imsi text,
  msisdn text,
  sn text,
  -- StockVerdict: 1 valid, 2 invalid
  verdict smallint not null,
  reason_zh text,
  reason_en text,
  -- StockItemStatus: 1 pending, 2 succeeded, 3 failed, 4 skipped (invalid at validation)
  status smallint not null,
  error_zh text,
  error_en text,
  done_at timestamptz,
  primary key (batch_id, seq)
);
create index stock_batch_items_pending_ix on stock_batch_items (batch_id, seq) where status = 1;
create index stock_batch_items_failed_ix on stock_batch_items (batch_id, seq) where status in (3, 4);

-- A matched card leaves the warehouse when it is allocated (cust_id set on a card with none: card-allocation.ts or any
-- other path): its stock item becomes "out". A row trigger with a WHEN clause costs nothing on the card updates that
-- do not allocate (usage, cycles, states).
create function stock_item_out_on_allocation() returns trigger language plpgsql as $$
begin
  with moved as (
    update stock_items set out_state = 3, out_at = now(), updated_at = now()
    where iccid = new.iccid and match_state = 3 and out_state in (1, 2)
    returning iccid, out_state
  )
  insert into stock_changes (iccid, change_id, kind, login_name, after)
  select iccid, gen_random_uuid(), 5, '-', jsonb_build_object('outState', 3, 'custId', new.cust_id) from moved;
  return null;
end $$;

create trigger cards_stock_out after update of cust_id on cards
  for each row when (old.cust_id is null and new.cust_id is not null)
  execute function stock_item_out_on_allocation();
