-- Card diagnosis records (issue 5, /shortcuts/diagnose): who diagnosed which card, when, and what each check
-- found. Keyed by iccid like the other card-scale tables (ready to be distributed by iccid); the tenant columns
-- are the card's owner at the time, so a customer sees the diagnoses of its own cards, staff all.
create table card_diagnoses (
  iccid text not null,
  diagnosis_id uuid not null default gen_random_uuid(),
  -- true when the live operator checks ran (advanced diagnosis)
  advanced boolean not null default false,
  -- DiagnoseVerdict of the worst check: 1 ok, 2 warning, 3 problem
  overall smallint not null,
  -- the card's state when diagnosed
  card_state smallint,
  -- the whole answer as shown (card summary, checks with verdicts, explanations, actions and facts)
  result jsonb not null,
  account_id integer,
  login_name text not null,
  cust_id integer,
  root_cust_id integer,
  created_at timestamptz not null default now(),
  primary key (iccid, diagnosis_id)
);
create index card_diagnoses_iccid_at_ix on card_diagnoses (iccid, created_at desc);
