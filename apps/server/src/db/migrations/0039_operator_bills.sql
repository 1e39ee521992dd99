-- Issue 14: operator bills (Financial › Operating bills, 9030000; docs/operator-gateway.md "Operator bills",
-- docs/decisions.md "Issue 14: operator bills"). The carrier's bill of each operator account for each closed period,
-- fetched through the operator gateway card page by card page under a lease (a killed fetch resumes at its cursor),
-- kept with its totals, a breakdown by the carrier's plan and the per-card charges (a card-scale table, partitioned by
-- period like bill_lines). Revenue is read from the bills at the time of reading, never stored here.

create table operator_bills (
  operator_bill_id bigint generated always as identity primary key,
  -- the access configuration; 0: the operator's built-in network simulator (an operator without one)
  oper_account_id integer not null,
  operator_id smallint not null references operators (operator_id),
  -- the account's name when the bill was made (an access configuration may be renamed or deleted later)
  account_name text not null,
  period_key text not null check (period_key ~ '^\d{4}-\d{2}$'),
  -- the carrier's period (China Unicom 26th–25th, the others the natural month)
  period_from date not null,
  period_to date not null,
  -- OperatorBillState: 1 pending, 2 fetching, 3 fetched, 4 failed, 5 confirmed
  state smallint not null default 1,
  -- the last card whose charges are stored (pages go in iccid order)
  cursor_iccid text,
  bill_ref text,
  tariff jsonb,
  cards integer not null default 0,
  data_bytes bigint not null default 0,
  billed_mb bigint not null default 0,
  sms bigint not null default 0,
  -- amounts tax excluded, and the tax
  card_fee numeric(16, 2) not null default 0,
  data_fee numeric(16, 2) not null default 0,
  sms_fee numeric(16, 2) not null default 0,
  amount numeric(16, 2) not null default 0,
  tax numeric(16, 2) not null default 0,
  attempts integer not null default 0,
  last_error text,
  next_attempt_at timestamptz not null default now(),
  lease_owner text,
  lease_until timestamptz,
  fetched_at timestamptz,
  confirmed_at timestamptz,
  confirmed_by text,
  requested_by text not null default 'system',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (period_key, operator_id, oper_account_id)
);
create index operator_bills_due on operator_bills (next_attempt_at) where state in (1, 2, 4);
create index operator_bills_period on operator_bills (period_key desc, operator_id, oper_account_id);

-- the carrier's breakdown by its plan code ('' for cards without a plan), written with the totals
create table operator_bill_plans (
  operator_bill_id bigint not null references operator_bills (operator_bill_id) on delete cascade,
  plan_code text not null,
  cards integer not null,
  data_bytes bigint not null,
  billed_mb bigint not null,
  sms bigint not null,
  card_fee numeric(16, 2) not null,
  data_fee numeric(16, 2) not null,
  sms_fee numeric(16, 2) not null,
  amount numeric(16, 2) not null,
  tax numeric(16, 2) not null,
  primary key (operator_bill_id, plan_code)
);

-- the carrier's per-card charges: partitioned by period (operator_bill_cards_ensure_partition creates one)
create table operator_bill_cards (
  period_key text not null,
  operator_bill_id bigint not null,
  iccid text not null,
  plan_code text not null default '',
  data_bytes bigint not null,
  billed_mb bigint not null,
  sms integer not null,
  card_fee numeric(14, 2) not null,
  data_fee numeric(14, 2) not null,
  sms_fee numeric(14, 2) not null,
  amount numeric(14, 2) not null,
  tax numeric(14, 2) not null,
  primary key (period_key, operator_bill_id, iccid)
) partition by list (period_key);
-- the cards of a customer's bill against the carrier's charges (the bill detail's operator section)
create index operator_bill_cards_iccid on operator_bill_cards (iccid, period_key);

create or replace function operator_bill_cards_ensure_partition(p text) returns integer
language plpgsql as $$
declare
  name text := 'operator_bill_cards_p' || replace(p, '-', '_');
begin
  if p !~ '^\d{4}-\d{2}$' then raise exception 'bad period %', p; end if;
  if to_regclass(name) is not null then return 0; end if;
  perform pg_advisory_xact_lock(7310039);
  if to_regclass(name) is not null then return 0; end if;
  execute format('create table %I partition of operator_bill_cards for values in (%L)', name, p);
  return 1;
end $$;

-- Operating bills are the platform's costs at the carriers: platform staff only. Customer roles lose the page (their
-- built-in sets held it through the Financial tree); staff roles holding it get its buttons (fetch again, export, confirm).
update roles set permissions = array(select p from unnest(permissions) p where p not between 9030000 and 9039999 order by p)
  where role_type in (3000, 4000, 5000) and exists (select 1 from unnest(permissions) p where p between 9030000 and 9039999);
update roles set permissions = (select array_agg(distinct p order by p) from unnest(permissions || array[9030001, 9030002, 9030003]) p)
  where built_in and role_type in (1000, 2000) and 9030000 = any (permissions);
