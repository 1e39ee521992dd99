-- eUICCs and their profiles (issue 16, docs/euicc.md). An eUICC is named by its EID and owned by a customer; a
-- profile is named by its ICCID, sits at an SM-DP+ and is bound to at most one eUICC. A profile whose ICCID is also
-- a row of `cards` is that card's subscription: binding it sets cards.euicc / cards.eid (no foreign key between the
-- two: cards distribute by iccid, eUICCs by customer; docs/decisions.md "Issue 16: eUICC profiles and cards").

create table euiccs (
  eid text primary key check (eid ~ '^[0-9]{32}$'),
  cust_id integer,
  root_cust_id integer,
  remark text check (remark is null or char_length(remark) <= 40),
  created_by text not null,
  created_at timestamptz not null default now()
);
create index euiccs_root_ix on euiccs (root_cust_id, eid);
create index euiccs_cust_ix on euiccs (cust_id, eid);

create table euicc_profiles (
  iccid text primary key check (iccid ~ '^[0-9A-Za-z]{19,20}$'),
  eid text references euiccs (eid),
  operator_id smallint not null,
  -- EuiccProfileState 1..12 (spec §4)
  state smallint not null default 1 check (state between 1 and 12),
  -- why the last operation failed (no answer in time, the SM-DP+'s error)
  reason_zh text,
  reason_en text,
  smdp_address text not null,
  matching_id text,
  cust_id integer,
  root_cust_id integer,
  -- the operation sent to the SM-DP+ and not answered yet: its id (the idempotency key of the call), the action
  -- (EuiccAction), whether the call went out, and when it counts as unanswered
  op_id uuid,
  op_action smallint,
  op_sent boolean not null default false,
  op_deadline timestamptz,
  state_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  check ((op_id is null) = (op_action is null)),
  check (eid is not null or state = 1)
);
create index euicc_profiles_eid_ix on euicc_profiles (eid, iccid) where eid is not null;
create index euicc_profiles_root_ix on euicc_profiles (root_cust_id, iccid);
create index euicc_profiles_cust_ix on euicc_profiles (cust_id, iccid);
create index euicc_profiles_state_ix on euicc_profiles (state, iccid);
create unique index euicc_profiles_op_ux on euicc_profiles (op_id) where op_id is not null;
-- the dispatcher: operations not sent yet; the timeout sweep: operations past their deadline
create index euicc_profiles_unsent_ix on euicc_profiles (iccid) where op_id is not null and not op_sent;
create index euicc_profiles_deadline_ix on euicc_profiles (op_deadline) where op_id is not null;
