-- Super SIMs (超级 SIM, issue 16; docs/super-sim.md, docs/decisions.md "Issue 16: super SIM members are cards"). A
-- super SIM is identified by its SN and holds one profile per operator; every profile is a card of the platform (a
-- `cards` row: its own ICCID, IMSI, state, usage), so dsim_members only links an SN to the ICCIDs. The super SIM's
-- tenant is the member cards' tenant at import (all members must share it); the vendor platform switches the active
-- profile over the air, each request kept as a switch record with its outcome.

-- OEM switch strategies; the name is unique (the spec deletes a strategy by its name), whatever the letter case
create table dsim_strategies (
  strategy_id serial primary key,
  strategy_name text not null,
  -- DsimRuleType: 1 no session on the current operator for N minutes, 2 cost, 3 signal
  rule_type smallint not null,
  params jsonb not null default '{}',
  remark text,
  -- null tenant: a platform strategy made by staff (every customer may choose it)
  cust_id integer,
  root_cust_id integer,
  created_by text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index dsim_strategies_name_ux on dsim_strategies (lower(strategy_name));

create table dsim_import_batches (
  batch_id uuid primary key,
  file_name text not null,
  file_size integer not null,
  remark text,
  sim_count integer not null,
  card_count integer not null,
  created_by text not null,
  created_at timestamptz not null default now()
);
create index dsim_import_batches_created_ix on dsim_import_batches (created_at desc, batch_id);

create table dsims (
  sn text primary key check (sn ~ '^[0-9A-Za-z]{6,32}$'),
  -- the supplier's own card (the detail route's isSupplierCard)
  is_supplier boolean not null default false,
  cust_id integer,
  root_cust_id integer,
  current_operator_id smallint not null,
  strategy_id integer references dsim_strategies (strategy_id),
  batch_id uuid references dsim_import_batches (batch_id),
  -- the last confirmed switch (a strategy's "N minutes" count from here at the earliest)
  switched_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index dsims_root_ix on dsims (root_cust_id, sn);
create index dsims_cust_ix on dsims (cust_id, sn);
create index dsims_strategy_ix on dsims (strategy_id) where strategy_id is not null;

-- one profile per operator; a card is the member of at most one super SIM
create table dsim_members (
  sn text not null references dsims (sn) on delete cascade,
  operator_id smallint not null,
  iccid text not null unique,
  primary key (sn, operator_id)
);

-- every switch request: manual or by a strategy; requested → succeeded | failed (with the vendor's reason)
create table dsim_switches (
  switch_id bigserial primary key,
  sn text not null references dsims (sn) on delete cascade,
  from_operator_id smallint,
  to_operator_id smallint not null,
  -- DsimSwitchReason: 1 manual, 2 strategy
  reason smallint not null,
  strategy_id integer,
  strategy_name text,
  -- DsimSwitchState: 1 requested, 2 succeeded, 3 failed
  state smallint not null default 1,
  request_id text,
  fail_code text,
  fail_reason text,
  actor text not null,
  requested_at timestamptz not null default now(),
  done_at timestamptz
);
create index dsim_switches_sn_ix on dsim_switches (sn, requested_at desc, switch_id desc);
-- at most one open request per super SIM
create unique index dsim_switches_open_ux on dsim_switches (sn) where state = 1;

-- the strategy step after the usage feed (docs/super-sim.md "Strategies"): one run per feed watermark, whichever
-- process gets there first (the insert is the claim)
create table dsim_strategy_runs (
  run_key text primary key,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  candidates integer not null default 0,
  switched integer not null default 0,
  failed integer not null default 0
);
