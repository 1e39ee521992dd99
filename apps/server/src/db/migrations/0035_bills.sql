-- Issue 14: bills (docs/billing.md "Bills", docs/decisions.md "Issue 14: bills").
-- A bill is one customer's charges for one billing period (named by the month it ends in, 'YYYY-MM'); its card lines
-- are a card-scale table partitioned by period. A bill run is set-based and resumable: it walks the cards in iccid
-- order in chunks, each chunk's lines and the run's cursor committed together, every line keyed so that a chunk done
-- twice writes it once.

create table bill_runs (
  run_id bigint generated always as identity primary key,
  period_key text not null check (period_key ~ '^\d{4}-\d{2}$'),
  -- null: every customer; else a re-run of this customer's unpublished bill
  cust_id integer references customers (cust_id),
  -- BillRunState: 1 running, 2 done, 3 failed
  state smallint not null default 1,
  -- the last card whose lines are committed (chunks go in iccid order)
  cursor_iccid text,
  cards_done bigint not null default 0,
  -- the cards the run has to rate, counted when it starts
  cards_total bigint not null default 0,
  lines_written bigint not null default 0,
  -- 1 cards, 2 totals, 3 done: the step the run is in
  step smallint not null default 1,
  lease_owner text,
  lease_until timestamptz,
  started_by text not null,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  error text
);
-- one running run per period and scope
create unique index bill_runs_running on bill_runs (period_key, coalesce(cust_id, 0)) where state = 1;

create table bills (
  bill_id bigint generated always as identity primary key,
  -- 'B' + period (YYYYMM) + customer id, zero padded
  bill_no text not null unique,
  period_key text not null check (period_key ~ '^\d{4}-\d{2}$'),
  cust_id integer not null references customers (cust_id),
  root_cust_id integer not null,
  -- the business days the bill covers (the earliest start and latest end of its operators' periods)
  period_from date not null,
  period_to date not null,
  published boolean not null default false,
  published_at timestamptz,
  published_by text,
  -- the last day to write it off (published day + 15 days); past it, an unpaid bill is overdue
  due_date date,
  card_count integer not null default 0,
  -- the bill's card lines (bill_lines rows), written with its totals: the unfiltered total of the card-lines page
  line_count bigint not null default 0,
  -- amounts including tax; by category (BillLineCategory)
  total numeric(16, 2) not null default 0,
  tax numeric(16, 2) not null default 0,
  plan_fee numeric(16, 2) not null default 0,
  prepaid_fee numeric(16, 2) not null default 0,
  overage_fee numeric(16, 2) not null default 0,
  test_fee numeric(16, 2) not null default 0,
  downtime_fee numeric(16, 2) not null default 0,
  pack_fee numeric(16, 2) not null default 0,
  one_off_fee numeric(16, 2) not null default 0,
  -- already paid at the event (prepaid plan fees and packs withheld from the balance); not due again
  withheld numeric(16, 2) not null default 0,
  -- total − withheld: what write-off must cover
  amount_due numeric(16, 2) not null default 0,
  written_off numeric(16, 2) not null default 0,
  written_off_at timestamptz,
  -- usage beyond a quota that is not charged (plans that do not overdraw), for reconciliation
  unbilled_over_bytes bigint not null default 0,
  run_id bigint,
  rated_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (period_key, cust_id)
);
create index bills_cust on bills (cust_id, period_key desc);
create index bills_root on bills (root_cust_id, period_key desc);
create index bills_period on bills (period_key desc, bill_id desc);

-- the per-card lines: partitioned by period (list on period_key; bill_lines_ensure_partition creates one)
create table bill_lines (
  period_key text not null,
  bill_id bigint not null,
  iccid text not null,
  -- BillLineCategory
  category smallint not null,
  -- the business days the line charges for
  from_day date not null,
  to_day date not null,
  -- a one-off fee's id, else 0 (so two fees on one card and day are two lines)
  ref_id bigint not null default 0,
  goods_release_id integer,
  operator_id smallint,
  card_type_id integer,
  quantity bigint not null,
  unit_price numeric(14, 2) not null,
  amount numeric(14, 2) not null,
  tax numeric(14, 2) not null,
  used_bytes bigint,
  quota_bytes bigint,
  -- paid at the event (withheld), listed on the bill but not due again
  withheld boolean not null default false,
  primary key (period_key, bill_id, iccid, category, from_day, ref_id)
) partition by list (period_key);
-- a card's lines across bills (the card detail's Billing tab); each partition gets its own
create index bill_lines_iccid on bill_lines (iccid, period_key);

create or replace function bill_lines_ensure_partition(p text) returns integer
language plpgsql as $$
declare
  name text := 'bill_lines_p' || replace(p, '-', '_');
begin
  if p !~ '^\d{4}-\d{2}$' then raise exception 'bad period %', p; end if;
  if to_regclass(name) is not null then return 0; end if;
  perform pg_advisory_xact_lock(7310035);
  if to_regclass(name) is not null then return 0; end if;
  execute format('create table %I partition of bill_lines for values in (%L)', name, p);
  return 1;
end $$;

-- a bill's breakdowns, written with its totals: by plan (dim 1, key goods_release_id), operator (2, operator_id) and
-- card type (3, card_type_id, 0 for none) × category, so the detail page never scans a million lines
create table bill_summaries (
  bill_id bigint not null references bills (bill_id) on delete cascade,
  dim smallint not null,
  dim_key integer not null,
  category smallint not null,
  cards integer not null,
  quantity bigint not null,
  amount numeric(16, 2) not null,
  tax numeric(16, 2) not null,
  used_bytes bigint not null default 0,
  primary key (bill_id, dim, dim_key, category)
);

-- one-off fees (6090000): on a customer (iccid null) or a card, charged on the next bill run of the customer
create table one_off_fees (
  fee_id bigint generated always as identity primary key,
  cust_id integer not null references customers (cust_id),
  root_cust_id integer not null,
  iccid text,
  amount numeric(14, 2) not null check (amount > 0),
  tax_rate numeric(5, 2) not null default 6,
  reason text not null,
  -- the business day it is charged for; the first bill whose period contains or follows it takes it
  fee_day date not null,
  -- 1 pending, 2 billed, 3 cancelled
  state smallint not null default 1,
  bill_id bigint,
  created_by text not null,
  created_at timestamptz not null default now(),
  cancelled_by text,
  cancelled_at timestamptz
);
create index one_off_fees_pending on one_off_fees (cust_id, fee_day) where state = 1;

-- write-offs (9020000): a published bill paid from the customer's pre-deposit and grants, one ledger journal each
create table bill_write_offs (
  write_off_id bigint generated always as identity primary key,
  bill_id bigint not null references bills (bill_id),
  cust_id integer not null,
  root_cust_id integer not null,
  amount numeric(14, 2) not null check (amount > 0),
  from_grants numeric(14, 2) not null default 0,
  from_pre_deposit numeric(14, 2) not null default 0,
  -- written off after the due date
  overdue boolean not null default false,
  journal_id bigint not null,
  remark text,
  -- 1 by a person, 2 by an automated ledger rule
  source smallint not null default 1,
  created_by text not null,
  created_at timestamptz not null default now()
);
create index bill_write_offs_bill on bill_write_offs (bill_id, created_at);
