-- Issue 13, withdrawals and working days (docs/decisions.md "Withdrawals and working days").
--
-- work_calendar: the days that differ from "Monday–Friday work, Saturday–Sunday rest": public holidays (kind 1) and
-- the make-up working days on a weekend (kind 2). Shipped with the State Council's 2026 arrangement and, for 2027,
-- the statutory dates (the 2027 arrangement was not yet published: provisional, editable by staff).
create table work_calendar (
  day date primary key,
  -- 1 holiday, 2 make-up working day
  kind smallint not null check (kind in (1, 2)),
  name text not null,
  name_en text,
  -- true: statutory dates shipped before the year's arrangement was published; staff confirm or correct them
  provisional boolean not null default false,
  updated_by text,
  updated_at timestamptz not null default now()
);

insert into work_calendar (day, kind, name, name_en, provisional, updated_by)
select d::date, 1, v.name, v.name_en, false, 'system'
from (values
  ('2026-01-01', '2026-01-03', '元旦', 'New Year''s Day'),
  ('2026-02-15', '2026-02-23', '春节', 'Spring Festival'),
  ('2026-04-04', '2026-04-06', '清明节', 'Qingming Festival'),
  ('2026-05-01', '2026-05-05', '劳动节', 'Labour Day'),
  ('2026-06-19', '2026-06-21', '端午节', 'Dragon Boat Festival'),
  ('2026-09-25', '2026-09-27', '中秋节', 'Mid-Autumn Festival'),
  ('2026-10-01', '2026-10-07', '国庆节', 'National Day')
) as v (first_day, last_day, name, name_en),
generate_series(v.first_day::date, v.last_day::date, interval '1 day') as d;

insert into work_calendar (day, kind, name, name_en, provisional, updated_by) values
  ('2026-01-04', 2, '元旦调休上班', 'New Year make-up working day', false, 'system'),
  ('2026-02-14', 2, '春节调休上班', 'Spring Festival make-up working day', false, 'system'),
  ('2026-02-28', 2, '春节调休上班', 'Spring Festival make-up working day', false, 'system'),
  ('2026-05-09', 2, '劳动节调休上班', 'Labour Day make-up working day', false, 'system'),
  ('2026-09-20', 2, '国庆节调休上班', 'National Day make-up working day', false, 'system'),
  ('2026-10-10', 2, '国庆节调休上班', 'National Day make-up working day', false, 'system');

-- 2027: statutory dates; the State Council's arrangement (and its make-up days) not yet published
insert into work_calendar (day, kind, name, name_en, provisional, updated_by)
select d::date, 1, v.name, v.name_en, true, 'system'
from (values
  ('2027-01-01', '2027-01-01', '元旦（法定日期，安排未公布）', 'New Year''s Day (statutory date; arrangement not yet published)'),
  ('2027-02-05', '2027-02-11', '春节（法定日期，安排未公布）', 'Spring Festival (statutory dates; arrangement not yet published)'),
  ('2027-04-05', '2027-04-05', '清明节（法定日期，安排未公布）', 'Qingming Festival (statutory date; arrangement not yet published)'),
  ('2027-05-01', '2027-05-05', '劳动节（法定日期，安排未公布）', 'Labour Day (statutory dates; arrangement not yet published)'),
  ('2027-06-09', '2027-06-09', '端午节（法定日期，安排未公布）', 'Dragon Boat Festival (statutory date; arrangement not yet published)'),
  ('2027-09-15', '2027-09-15', '中秋节（法定日期，安排未公布）', 'Mid-Autumn Festival (statutory date; arrangement not yet published)'),
  ('2027-10-01', '2027-10-07', '国庆节（法定日期，安排未公布）', 'National Day (statutory dates; arrangement not yet published)')
) as v (first_day, last_day, name, name_en),
generate_series(v.first_day::date, v.last_day::date, interval '1 day') as d;

-- A payout run: the monthly one on the 10th (trigger 1) or one started by finance (trigger 2). Its items are the
-- withdrawals it claimed when it started (withdrawals.run_id); each is paid in its own transaction, exactly once.
create table withdraw_runs (
  run_id integer generated always as identity primary key,
  -- 1 scheduled (the 10th), 2 started by hand
  trigger smallint not null,
  -- 1 running, 2 finished
  state smallint not null default 1,
  item_count integer not null default 0,
  paid_count integer not null default 0,
  started_by text not null,
  started_account_id integer,
  started_at timestamptz not null default now(),
  finished_at timestamptz
);

create table withdrawals (
  withdraw_id integer generated always as identity primary key,
  -- 'W' + business day + sequence, shown to users
  withdraw_no text not null unique,
  cust_id integer not null references customers (cust_id),
  root_cust_id integer not null,
  amount numeric(16, 2) not null check (amount > 0),
  -- the payee, copied from the customer at application
  account_name text not null,
  bank_name text not null,
  bank_account text not null,
  -- WithdrawState: 1 applied, 2 approved, 3 paid, 4 rejected
  state smallint not null default 1,
  remark text,
  applied_by text not null,
  applied_account_id integer,
  applied_at timestamptz not null default now(),
  -- the run that should pay it (the next 10th) and the day the money should arrive
  expected_run_day date not null,
  expected_arrival_day date not null,
  reviewed_by text,
  reviewed_at timestamptz,
  review_reason text,
  run_id integer references withdraw_runs (run_id),
  paid_at timestamptz,
  paid_by text,
  hold_journal_id bigint,
  settle_journal_id bigint,
  updated_at timestamptz not null default now()
);
-- one withdrawal in progress (applied or approved) per customer
create unique index withdrawals_in_progress_uq on withdrawals (cust_id) where state in (1, 2);
create index withdrawals_root_ix on withdrawals (root_cust_id, withdraw_id);
create index withdrawals_cust_ix on withdrawals (cust_id, withdraw_id);
create index withdrawals_state_ix on withdrawals (state, withdraw_id);
create index withdrawals_run_ix on withdrawals (run_id, state) where run_id is not null;
