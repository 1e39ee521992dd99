-- Data pools (流量池, spec §2 Card › Pools; docs/pools.md). A pool belongs to one customer and one operator; its
-- member cards share one quota per cycle (the operator's billing period): the sum of their basic plans' quotas.
-- The usage rule ("pool-usage") keeps the snapshot columns below and blocks / unblocks the pool; every block,
-- unblock and threshold alert is a row of card_pool_events.

create table card_pools (
  pool_id serial primary key,
  name text not null check (char_length(name) between 1 and 64),
  -- the owning customer and its first-level customer (the tenant columns every list filters on)
  cust_id integer not null,
  root_cust_id integer not null,
  operator_id smallint not null references operators (operator_id),
  -- PoolExhaustAction: 1 block every card until the next cycle, 2 keep using (overage)
  exhaust_action smallint not null default 1 check (exhaust_action in (1, 2)),
  -- the usage share (percent of the quota) recorded once per cycle as a threshold alert
  alert_percent smallint not null default 80 check (alert_percent between 1 and 100),
  description text,
  -- PoolState: 1 normal, 2 blocked
  state smallint not null default 1 check (state in (1, 2)),
  blocked_at timestamptz,
  -- who blocked it: 'pool-usage' (the quota rule, lifted by the rule) or the login name of a manual block
  blocked_by text,
  -- the cards whose pool_id is this pool, kept exact by join / leave in the transaction that moves them
  member_count integer not null default 0 check (member_count >= 0),
  -- the usage rule's snapshot: current cycle, the members' quota and usage in it, when it was counted
  cycle_start timestamptz,
  cycle_end timestamptz,
  quota_bytes bigint not null default 0,
  used_bytes bigint not null default 0,
  usage_checked_at timestamptz,
  -- the cycle whose threshold alert was recorded (once per cycle)
  alerted_cycle_start timestamptz,
  created_by text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((state = 2) = (blocked_at is not null))
);
-- a name once per customer, regardless of case
create unique index card_pools_cust_name_ux on card_pools (cust_id, lower(name));
-- the pool list per tenant (channel customers by root, second-level customers by their own id) by name
create index card_pools_root_name_ix on card_pools (root_cust_id, name);
create index card_pools_cust_name_ix on card_pools (cust_id, name);

-- A card is in at most one pool. No foreign key from the card-scale table to the tenant-scale one (they are
-- distributed differently on Citus): join / leave lock the pool row and check it; a pool is deleted only empty.
alter table cards add column pool_id integer;
alter table cards add column pool_joined_at timestamptz;
-- the pool's cards in ICCID order (pool card page, card list pool filter, the usage rule's member sums)
create index cards_pool_ix on cards (pool_id, iccid) where pool_id is not null;

-- The block history of a pool: PoolEventType 1 blocked by quota, 2 blocked manually, 3 unblocked by a new cycle,
-- 4 unblocked manually, 5 unblocked by a raised quota, 6 threshold reached. Numbers are as of the event.
create table card_pool_events (
  event_id bigserial primary key,
  pool_id integer not null references card_pools (pool_id) on delete cascade,
  type smallint not null check (type between 1 and 6),
  used_bytes bigint,
  quota_bytes bigint,
  member_count integer,
  reason text,
  -- the login name, or the rule that acted ('pool-usage')
  actor text not null,
  at timestamptz not null default now()
);
create index card_pool_events_pool_at_ix on card_pool_events (pool_id, at desc);

-- the pool change screens: the join / leave batches of one pool, newest first
create index card_batches_pool_ix on card_batches (((params ->> 'poolId')::int), created_at desc) where type in (7, 8);
