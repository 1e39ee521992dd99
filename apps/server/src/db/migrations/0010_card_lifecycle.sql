-- Card lifecycle facts (issue 5): what the lifecycle engine's snapshot needs beyond the state, the zones a
-- card has blocked, its event packs, and the index the scheduler claims due cards from.

alter table cards
  -- start of the current contract (valid period); null = none yet, or reset by a plan change
  add column contract_start_at timestamptz,
  -- length of the contract in months, renewals included
  add column contract_months integer not null default 0,
  -- cycles begun in this contract (the current one included)
  add column cycles_used integer not null default 0,
  -- a requested plan change: target plan, when requested, when due (null = on the next activation only)
  add column pending_plan_id integer,
  add column pending_plan_requested_at timestamptz,
  add column pending_plan_effective_at timestamptz,
  add column pending_plan_on_activation boolean not null default false,
  -- a price change of the card's plan waits to take effect (renewal refused meanwhile)
  add column pending_price_change boolean not null default false,
  add column last_plan_change_at timestamptz,
  -- the state before a forced shutdown
  add column frozen_from smallint,
  add column last_network_reset_at timestamptz,
  -- the next time a time-driven change is due (test end, silent end, cycle end, pending plan change);
  -- null = nothing scheduled. The scheduler claims due cards by this index with SKIP LOCKED.
  add column next_deadline_at timestamptz,
  -- the cycle the card is in: [cycle_start_at, cycle_end_at)
  add column cycle_start_at timestamptz,
  add column cycle_end_at timestamptz;

create index cards_next_deadline_ix on cards (next_deadline_at) where next_deadline_at is not null;

-- zones, regions or networks blocked on a card (by a user, or all of them by a deactivation)
create table card_zone_blocks (
  iccid text not null,
  -- 'zone', 'region' or 'network'
  kind text not null check (kind in ('zone', 'region', 'network')),
  target_id integer not null,
  -- true: blocked by the card's deactivation, permitted again when it is activated
  by_deactivation boolean not null default false,
  blocked_at timestamptz not null default now(),
  blocked_by text,
  primary key (iccid, kind, target_id)
);

-- event packs ordered on a card; each ends with the base cycle it was ordered in
create table card_event_packs (
  iccid text not null,
  order_id uuid not null default gen_random_uuid(),
  pack_id integer not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  ordered_by text,
  ordered_at timestamptz not null default now(),
  primary key (iccid, order_id)
);
create index card_event_packs_iccid_ix on card_event_packs (iccid, ends_at desc);

-- the plan a history entry is about (plan change scheduled / applied)
alter table card_history add column plan_id integer;
