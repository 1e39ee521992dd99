-- Billing › Automated ledger (4060000, issue 14; docs/decisions.md "Issue 14: automated ledger"): one rule per customer
-- that, on its day of the month (business time), publishes the customer's bill of the last closed period and writes it
-- off from grants then pre-deposit; each rule × period is executed once and recorded.
create table bill_automate_rules (
  rule_id integer generated always as identity primary key,
  cust_id integer not null references customers (cust_id),
  root_cust_id integer not null,
  day_of_month smallint not null check (day_of_month between 1 and 28),
  publish boolean not null,
  write_off boolean not null,
  -- BillAutoWriteOffMode: 1 the whole amount due only, 2 as much as pre-deposit + grants allow
  write_off_mode smallint not null default 1 check (write_off_mode in (1, 2)),
  enabled boolean not null default true,
  remark text,
  -- the first period it acts on: the one whose day comes on or after the day the rule was created, changed or switched on
  first_period text not null,
  created_by text not null,
  created_at timestamptz not null default now(),
  updated_by text,
  updated_at timestamptz not null default now(),
  -- deleted rules stay for their executions' history
  deleted_at timestamptz,
  deleted_by text,
  check (publish or write_off)
);
-- one live rule per customer
create unique index bill_automate_rules_cust on bill_automate_rules (cust_id) where deleted_at is null;
create index bill_automate_rules_root on bill_automate_rules (root_cust_id, rule_id) where deleted_at is null;

-- one row per rule × period: the claim that makes it run once, and its outcome per action
create table bill_automate_execs (
  exec_id bigint generated always as identity primary key,
  rule_id integer not null references bill_automate_rules (rule_id),
  cust_id integer not null,
  root_cust_id integer not null,
  period_key text not null,
  -- the business day the execution became due
  due_day date not null,
  -- BillAutoExecState: 1 waiting, 2 done, 3 needs attention, 4 skipped
  state smallint not null default 1,
  -- the bill it acted on (bills are never deleted; no foreign key so the bill module stays free to reorganise its rows)
  bill_id bigint,
  -- BillAutoActionResult and BillAutoReason of each action
  publish_result smallint not null default 0,
  publish_reason smallint,
  write_off_result smallint not null default 0,
  write_off_reason smallint,
  arrears numeric(14, 2),
  payable numeric(14, 2),
  write_off_amount numeric(14, 2),
  write_off_id bigint,
  journal_id bigint,
  -- an action that failed: its error code and the message's parameters
  error_code integer,
  error_params jsonb,
  attempts integer not null default 0,
  first_tried_at timestamptz not null default now(),
  last_tried_at timestamptz not null default now(),
  finished_at timestamptz,
  unique (rule_id, period_key)
);
create index bill_automate_execs_rule on bill_automate_execs (rule_id, exec_id desc);
create index bill_automate_execs_root on bill_automate_execs (root_cust_id, exec_id desc);
create index bill_automate_execs_waiting on bill_automate_execs (period_key) where state = 1;

-- the new buttons for the built-in roles of an existing installation (an empty database gets them from the seed):
-- staff all four, customers' finance the switch
update roles set permissions = (select array_agg(distinct p order by p) from unnest(permissions || array[4060001, 4060002, 4060003, 4060004]) p)
  where built_in and role_type in (1000, 2000) and 4060000 = any (permissions);
update roles set permissions = (select array_agg(distinct p order by p) from unnest(permissions || array[4060004]) p)
  where built_in and role_type in (3000, 4000) and 4060000 = any (permissions);
