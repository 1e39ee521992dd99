-- Issue 13, the money core (docs/money.md). A double-entry ledger: every movement of money is one journal whose
-- postings sum to zero. A customer's accounts (LedgerAccount below 100: pre-deposit, grants, contract payments,
-- held for withdrawal) carry cust_id; the platform's accounts (100 and up) do not. customer_balances is the
-- projection of each customer's postings, kept in the same transaction as every posting and checked against
-- them by the nightly ledger check (a mismatch is an alarm in ledger_checks, never a silent fix). The customers
-- table no longer holds money: its four columns move into opening journals here.

create table ledger_journals (
  journal_id bigint generated always as identity primary key,
  -- JournalKind
  kind smallint not null,
  -- the customer whose money moved, and its first-level customer (the tenant columns)
  cust_id integer not null references customers (cust_id),
  root_cust_id integer not null,
  -- what caused it: a top-up, a withdrawal, a credit order ... and its id
  ref_type text,
  ref_id text,
  memo text,
  -- a movement that must happen once (a payment notification, a run's item) carries a key: a second one is a no-op
  idempotency_key text,
  account_id integer,
  created_by text,
  created_at timestamptz not null default now()
);
create unique index ledger_journals_idem_uq on ledger_journals (idempotency_key) where idempotency_key is not null;
create index ledger_journals_ref_ix on ledger_journals (ref_type, ref_id);

create table ledger_postings (
  posting_id bigint generated always as identity primary key,
  journal_id bigint not null references ledger_journals (journal_id),
  -- null for the platform's accounts
  cust_id integer,
  account smallint not null,
  amount numeric(16, 2) not null,
  -- the customer account's balance right after this posting (null for the platform's accounts)
  balance_after numeric(16, 2),
  created_at timestamptz not null default now(),
  check ((cust_id is null) = (account >= 100)),
  check ((cust_id is null) = (balance_after is null))
);
-- one customer's ledger, newest first (the capital detail page); the nightly check reads by customer and account
create index ledger_postings_cust_ix on ledger_postings (cust_id, posting_id) where cust_id is not null;
create index ledger_postings_journal_ix on ledger_postings (journal_id);

create table customer_balances (
  cust_id integer primary key references customers (cust_id),
  root_cust_id integer not null,
  pre_deposit numeric(16, 2) not null default 0,
  grants numeric(16, 2) not null default 0 check (grants >= 0),
  contract_payment numeric(16, 2) not null default 0 check (contract_payment >= 0),
  withdraw_hold numeric(16, 2) not null default 0 check (withdraw_hold >= 0),
  -- the valid credit (a limit, not money: kept by the credit orders, not by postings); pre-deposit may fall to -credit
  credit numeric(16, 2) not null default 0 check (credit >= 0),
  updated_at timestamptz not null default now()
);
create index customer_balances_root_ix on customer_balances (root_cust_id);

-- The nightly check's results: the last one is shown to finance; a mismatch stays until a check passes.
create table ledger_checks (
  check_id integer generated always as identity primary key,
  checked_at timestamptz not null default now(),
  ok boolean not null,
  postings bigint not null,
  duration_ms integer not null,
  mismatches jsonb not null default '[]'
);

-- Opening balances: each customer's existing money becomes an opening journal against the platform's opening account.
insert into customer_balances (cust_id, root_cust_id, credit)
select cust_id, root_cust_id, credit from customers;

with opening as (
  insert into ledger_journals (kind, cust_id, root_cust_id, ref_type, memo, created_by)
  select 1, cust_id, root_cust_id, 'opening', null, 'system'
  from customers where pre_deposit <> 0 or grants <> 0 or contract_payment <> 0
  returning journal_id, cust_id
), lines as (
  select o.journal_id, o.cust_id, a.account, a.amount
  from opening o join customers c on c.cust_id = o.cust_id
  cross join lateral (values (1::smallint, c.pre_deposit), (2::smallint, c.grants), (3::smallint, c.contract_payment)) as a (account, amount)
  where a.amount <> 0
)
insert into ledger_postings (journal_id, cust_id, account, amount, balance_after)
select journal_id, cust_id, account, amount, amount from lines
union all
select journal_id, null, 105, -sum(amount), null from lines group by journal_id;

update customer_balances b set pre_deposit = c.pre_deposit, grants = c.grants, contract_payment = c.contract_payment
from customers c where c.cust_id = b.cust_id;

alter table customers drop column pre_deposit, drop column grants, drop column contract_payment, drop column credit;
