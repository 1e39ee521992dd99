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

-- The card list at a million cards (docs/performance.md "Card list"). The page is read in ICCID order and stops at
-- LIMIT; a filter whose cards sit together in ICCID order (a plan: its operator's ICCID prefix) made that walk read
-- most of the table first (0.8 s). (plan, iccid) serves the page directly and still serves plan look-ups; the tenant
-- columns ride along so a customer's count by plan is read from the index alone.
drop index if exists cards_plan_ix;
create index cards_plan_iccid_ix on cards (goods_release_id, iccid) include (root_cust_id, cust_id);
-- staff's activation date range (customers have root_cust_id, activated_at): the capped count reads the range
create index cards_activated_ix on cards (activated_at) where activated_at is not null;
