-- SIM cards (issue 5): the card inventory, each card's state history, and card file imports.
-- Card-scale tables are keyed by iccid (no global sequence on the hot path) so they can later be
-- distributed by iccid with Citus; tenant columns cust_id / root_cust_id are null while a card is in the
-- platform's stock. Monthly usage tables live in their own migration.

create table cards (
  iccid text primary key check (iccid ~ '^[0-9]{19,20}$'),
  msisdn text,
  imsi text,
  imei text,
  -- CardState (spec §4); imported cards start in 60 (start)
  state smallint not null default 60,
  operator_id smallint not null references operators (operator_id),
  cust_id integer,
  root_cust_id integer,
  -- the card's current plan (basic plan release), null while none is ordered
  goods_release_id integer,
  operation_mode smallint,
  card_type_id integer,
  -- the import that brought the card in, and the supplier's batch number written in the file
  batch_id uuid,
  batch_no text,
  label_ids integer[] not null default '{}',
  custom1 text,
  custom2 text,
  online boolean not null default false,
  last_session_at timestamptz,
  activated_at timestamptz,
  first_used_at timestamptz,
  test_end_at timestamptz,
  silent_end_at timestamptz,
  contract_end_at timestamptz,
  renewal_mode smallint,
  euicc boolean not null default false,
  eid text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- the list's common filters: tenant (root or own customer) with state, ICCID prefix/range, activation date
create index cards_root_state_ix on cards (root_cust_id, state);
create index cards_cust_state_ix on cards (cust_id, state);
create index cards_iccid_pattern_ix on cards (iccid text_pattern_ops);
create index cards_root_iccid_ix on cards (root_cust_id, iccid text_pattern_ops);
create index cards_cust_iccid_ix on cards (cust_id, iccid text_pattern_ops);
create index cards_root_activated_ix on cards (root_cust_id, activated_at);
create index cards_msisdn_ix on cards (msisdn);
create index cards_imsi_ix on cards (imsi);
create index cards_batch_ix on cards (batch_id);
create index cards_batch_no_ix on cards (batch_no);
create index cards_plan_ix on cards (goods_release_id);

-- every state change of a card: who or which rule, from, to, when (written by the lifecycle engine)
create table card_history (
  iccid text not null,
  history_id uuid not null default gen_random_uuid(),
  from_state smallint,
  to_state smallint,
  -- CardActionKind, null for a plain state change
  action smallint,
  -- CardChangeSource: user, automation rule, scheduled job, operator
  source smallint not null,
  actor text,
  reason text,
  at timestamptz not null default now(),
  primary key (iccid, history_id)
);
create index card_history_iccid_at_ix on card_history (iccid, at desc);

-- one uploaded card file
create table card_import_batches (
  batch_id uuid primary key,
  file_name text not null,
  file_size integer not null,
  remark text,
  total_rows integer not null,
  success_rows integer not null,
  failed_rows integer not null,
  created_by text not null,
  created_at timestamptz not null default now()
);
create index card_import_batches_created_ix on card_import_batches (created_at desc);

-- the rows of a file that were not imported, with the reason
create table card_import_errors (
  batch_id uuid not null references card_import_batches (batch_id) on delete cascade,
  row_no integer not null,
  iccid text,
  msisdn text,
  imsi text,
  -- column key (iccid, msisdn, imsi, operator, cardType, remark); titles are shown in the reader's language
  column_name text not null,
  reason_zh text not null,
  reason_en text not null,
  primary key (batch_id, row_no, column_name)
);
