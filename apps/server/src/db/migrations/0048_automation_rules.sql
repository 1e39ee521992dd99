-- Automation rules (issue 15; docs/automation.md): the rules, their evaluation runs (resumable like the bill run:
-- cursor + lease), the trigger records (one per rule and run) with their cards, the notifications per card × channel,
-- and the IMEIs the evaluation has seen (the platform keeps no other IMEI history).
-- Card-scale tables (autorule_alarm_cards, autorule_imei_*) are keyed by iccid with no foreign key to cards, so they
-- can be distributed with the cards later (ARCHITECTURE §1).

create table autorules (
  rule_id integer generated always as identity primary key,
  name text not null check (char_length(name) between 1 and 64),
  -- AutoRuleType, AutoRuleLevel, AutoRuleAction
  rule_type smallint not null,
  level smallint not null,
  -- the type's parameter: days before the contract ends, % of the quota, hours without a session, SMS in the cycle
  threshold integer,
  -- StateChanged: the states that trigger (empty: any change)
  states smallint[] not null default '{}',
  action smallint not null,
  -- AutoRuleTargetState of a ChangeState rule; the plan of a ChangePlan rule
  target_state smallint,
  target_plan_id integer,
  -- AutoRuleChannel; the contacts (';'-separated, spec §5)
  channels smallint[] not null default '{}',
  phones text,
  emails text,
  -- the owner's tenant (null: a platform rule made by staff) and how far its cards reach: 0 every card, 1 the owner's
  -- tree (root_cust_id), 2 the owner's own cards (cust_id)
  owner_cust_id integer,
  owner_root_cust_id integer,
  owner_scope smallint not null default 0 check (owner_scope in (0, 1, 2)),
  -- narrowing inside the owner's reach: a customer (its tree), an operator, a plan
  scope_cust_id integer,
  scope_operator_id smallint,
  scope_plan_id integer,
  -- AutoRuleStatus: 1 draft, 2 published
  status smallint not null default 1 check (status in (1, 2)),
  enabled boolean not null default false,
  -- event types (IMEI, state, plan changed) look at changes after this instant: when the rule was last switched on
  active_from timestamptz,
  remark text,
  published_at timestamptz,
  created_by text not null,
  created_at timestamptz not null default now(),
  updated_by text,
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  deleted_by text,
  check (enabled = false or status = 2)
);
create index autorules_root_ix on autorules (owner_root_cust_id, rule_id desc) where deleted_at is null;
create index autorules_live_ix on autorules (rule_type) where deleted_at is null and enabled;

-- one evaluation: a scheduled scan (run_key 'scan:<day>'), a check after a usage feed window ('feed:<watermark>') or a
-- run by hand; worked chunk by chunk in ICCID order, the cursor committed with each chunk's records, under a lease
create table autorule_runs (
  run_id bigint generated always as identity primary key,
  -- AutoRuleRunKind
  kind smallint not null,
  run_key text not null unique,
  -- the instant the run evaluates the rules at
  as_of timestamptz not null,
  -- feed runs: usage changed after this instant is new (the previous feed run's as_of)
  changed_since timestamptz,
  rule_ids integer[] not null,
  -- AutoRuleRunState
  state smallint not null default 1,
  -- the last ICCID done; '' = none yet
  cursor_iccid text not null default '',
  chunks integer not null default 0,
  cards_triggered integer not null default 0,
  lease_owner text,
  lease_until timestamptz,
  error text,
  started_at timestamptz not null default now(),
  finished_at timestamptz
);
create index autorule_runs_running_ix on autorule_runs (run_id) where state = 1;
create index autorule_runs_kind_ix on autorule_runs (kind, run_id desc);

-- a trigger record: the cards one run recorded for one rule
create table autorule_alarms (
  alarm_id bigint generated always as identity primary key,
  run_id bigint not null,
  rule_id integer not null,
  owner_cust_id integer,
  owner_root_cust_id integer,
  cards integer not null default 0,
  actions_done integer not null default 0,
  actions_refused integer not null default 0,
  triggered_at timestamptz not null default now(),
  unique (run_id, rule_id)
);
create index autorule_alarms_rule_ix on autorule_alarms (rule_id, alarm_id desc);
create index autorule_alarms_root_ix on autorule_alarms (owner_root_cust_id, alarm_id desc);

-- once per card per rule: the key (rule, card, period) is what makes two concurrent runs record a card once; the period
-- is the cycle (threshold types), the contract end (cycle due), the silence, or the change (history row, IMEI change)
create table autorule_alarm_cards (
  rule_id integer not null,
  iccid text not null,
  period_key text not null,
  alarm_id bigint not null,
  cust_id integer,
  root_cust_id integer,
  -- what was measured (bytes, %, hours, messages, the new IMEI or state)
  value text,
  -- when the fact happened: the change's time for event types, the run's as_of otherwise
  event_at timestamptz not null,
  -- AutoRuleActionResult; the card service's refusal
  action_result smallint not null default 0,
  action_error_code integer,
  action_error_params jsonb,
  triggered_at timestamptz not null default now(),
  primary key (rule_id, iccid, period_key)
);
create index autorule_alarm_cards_alarm_ix on autorule_alarm_cards (alarm_id, iccid);

-- one notification of one triggered card on one channel; the dispatcher job sends it through the channel's notifier
create table autorule_deliveries (
  delivery_id bigint generated always as identity primary key,
  alarm_id bigint not null,
  rule_id integer not null,
  iccid text not null,
  -- AutoRuleChannel, AutoRuleDeliveryState
  channel smallint not null,
  state smallint not null default 1,
  attempts integer not null default 0,
  last_error text,
  -- the channel's own record of it: the webhook delivery id, the mail delivery id
  channel_ref text,
  next_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  unique (alarm_id, iccid, channel)
);
create index autorule_deliveries_due_ix on autorule_deliveries (next_at, delivery_id) where state in (1, 2);

-- the IMEI each card had when the evaluation last looked, and every change it saw (what IMEI rules and their dry run read)
create table autorule_imei_seen (
  iccid text primary key,
  imei text,
  seen_at timestamptz not null
);
create table autorule_imei_changes (
  iccid text not null,
  changed_at timestamptz not null,
  old_imei text not null,
  new_imei text not null,
  primary key (iccid, changed_at)
);
create index autorule_imei_changes_at_ix on autorule_imei_changes (changed_at);
