-- Issue 14, Financial › Accounting reports (docs/accounting-reports.md). One row per closed business day and one per
-- customer with money or a movement that day, built by the accounting-report job from the ledger's customer postings
-- after the day has closed (one day per transaction, in order, never twice). A customer's money is the sum of its
-- accounts below 100, so moves between its own accounts (withdrawal hold and release) net to zero; the columns are
-- the movements by journal kind, signed (in +, out -), and opening + movements = closing on every row. A day's
-- opening is the previous day's closing; a month is read as the sum of its days.

-- the build reads one business day of customer postings (a time range); without this it scanned every posting
create index ledger_postings_time_ix on ledger_postings (created_at) where cust_id is not null;

create table accounting_days (
  -- the business day (CMP_TIME_ZONE)
  day date primary key,
  -- the platform's totals: the sums of the day's customer rows
  opening numeric(18, 2) not null default 0,
  carried_in numeric(18, 2) not null default 0,
  recharge numeric(18, 2) not null default 0,
  grant_amount numeric(18, 2) not null default 0,
  refund numeric(18, 2) not null default 0,
  refund_reversal numeric(18, 2) not null default 0,
  spend numeric(18, 2) not null default 0,
  write_off numeric(18, 2) not null default 0,
  withdraw_paid numeric(18, 2) not null default 0,
  adjust numeric(18, 2) not null default 0,
  other numeric(18, 2) not null default 0,
  closing numeric(18, 2) not null default 0,
  customers integer not null default 0,
  -- customer postings of the day read by the build, and how long it took
  postings bigint not null default 0,
  build_ms integer not null default 0,
  built_at timestamptz not null default now(),
  check (opening + carried_in + recharge + grant_amount + refund + refund_reversal + spend + write_off + withdraw_paid + adjust + other = closing)
);

create table accounting_day_customers (
  day date not null,
  cust_id integer not null,
  -- the tenant column (a first-level customer reads its tree's rows)
  root_cust_id integer not null,
  opening numeric(16, 2) not null,
  carried_in numeric(16, 2) not null,
  recharge numeric(16, 2) not null,
  grant_amount numeric(16, 2) not null,
  refund numeric(16, 2) not null,
  refund_reversal numeric(16, 2) not null,
  spend numeric(16, 2) not null,
  write_off numeric(16, 2) not null,
  withdraw_paid numeric(16, 2) not null,
  adjust numeric(16, 2) not null,
  other numeric(16, 2) not null,
  closing numeric(16, 2) not null,
  primary key (day, cust_id),
  check (opening + carried_in + recharge + grant_amount + refund + refund_reversal + spend + write_off + withdraw_paid + adjust + other = closing)
);
-- a tree's days (first-level customers) and one customer's days (second-level customers, the customer filter)
create index accounting_day_customers_root_ix on accounting_day_customers (root_cust_id, day);
create index accounting_day_customers_cust_ix on accounting_day_customers (cust_id, day);

-- Each customer's month so far, kept by the same transaction that builds each of its days (the month's first row
-- opens it, every day adds its movements and sets the closing), so a month's statements are read like a day's rather
-- than summed from up to 31 days of every customer on each page (1.1 s at 10,000 customers; docs/performance.md).
-- It holds nothing a day row does not: the month of a customer = its first day row's opening, the sums, its last
-- day row's closing (a customer absent from a day had no money and no movement that day).
create table accounting_month_customers (
  -- the month's first day
  month date not null,
  cust_id integer not null,
  root_cust_id integer not null,
  opening numeric(16, 2) not null,
  carried_in numeric(16, 2) not null,
  recharge numeric(16, 2) not null,
  grant_amount numeric(16, 2) not null,
  refund numeric(16, 2) not null,
  refund_reversal numeric(16, 2) not null,
  spend numeric(16, 2) not null,
  write_off numeric(16, 2) not null,
  withdraw_paid numeric(16, 2) not null,
  adjust numeric(16, 2) not null,
  other numeric(16, 2) not null,
  closing numeric(16, 2) not null,
  primary key (month, cust_id),
  check (opening + carried_in + recharge + grant_amount + refund + refund_reversal + spend + write_off + withdraw_paid + adjust + other = closing)
);
create index accounting_month_customers_root_ix on accounting_month_customers (root_cust_id, month);
create index accounting_month_customers_cust_ix on accounting_month_customers (cust_id, month);
