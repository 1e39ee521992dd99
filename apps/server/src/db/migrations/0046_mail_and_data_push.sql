-- Issue 15: outbound e-mail through SMTP (a delivery record per message) and SFTP data push tasks with their runs
-- (System › File push, 14030000; docs/data-push.md).

-- every e-mail the platform tried to send: who it went to, what, and what the SMTP server answered
create table mail_deliveries (
  delivery_id bigint generated always as identity primary key,
  to_addrs text[] not null,
  subject text not null,
  -- MailState: 1 sent (accepted by the SMTP server), 2 failed
  state smallint not null,
  error text,
  message_id text,
  -- who asked for it, e.g. 'autorule:12:34' (free text of the caller), and the tenant it belongs to
  source text,
  cust_id integer,
  root_cust_id integer,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index mail_deliveries_source_ix on mail_deliveries (source, delivery_id desc);
create index mail_deliveries_created_ix on mail_deliveries (created_at desc);

-- an SFTP push task of one customer: what file, where to, when (daily at push_time, business time)
create table data_push_tasks (
  task_id integer generated always as identity primary key,
  cust_id integer not null,
  root_cust_id integer not null,
  task_name text not null,
  -- DataPushFileType
  file_type smallint not null,
  host text not null,
  port integer not null check (port between 1 and 65535),
  account text not null,
  -- DataPushAuthType: 1 password, 2 private key
  auth_type smallint not null,
  -- {"password"} or {"privateKey","passphrase"} sealed with the installation's key (purpose data_push_tasks.credentials:<id>)
  credentials_sealed text,
  remote_path text not null,
  push_time text not null check (push_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  open boolean not null default true,
  -- the task pushes at push_time on days whose push instant is at or after this (set when added, switched on or
  -- given a new time), so a change acts from the next time its time comes, never on a time already past
  active_from timestamptz not null default now(),
  created_by text not null,
  created_at timestamptz not null default now(),
  updated_by text,
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  deleted_by text
);
-- a name once per customer among live tasks
create unique index data_push_tasks_name_ux on data_push_tasks (cust_id, lower(task_name)) where deleted_at is null;
create index data_push_tasks_root_ix on data_push_tasks (root_cust_id, task_id desc);

-- one push of a task: scheduled (once per task and business day) or by hand; claimed by one worker at a time
create table data_push_runs (
  run_id bigint generated always as identity primary key,
  task_id integer not null,
  cust_id integer not null,
  root_cust_id integer not null,
  -- DataPushTrigger: 1 schedule, 2 by hand
  trigger smallint not null,
  -- the business day a scheduled run belongs to (null for a push by hand)
  run_day date,
  -- DataPushRunState: 1 waiting, 2 running, 3 succeeded, 4 failed
  state smallint not null default 1,
  file_name text,
  size_bytes bigint,
  row_count integer,
  error_code integer,
  error_params jsonb,
  attempts integer not null default 0,
  requested_by text,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  heartbeat_at timestamptz,
  finished_at timestamptz
);
create unique index data_push_runs_day_ux on data_push_runs (task_id, run_day) where trigger = 1;
create index data_push_runs_task_ix on data_push_runs (task_id, run_id desc);
create index data_push_runs_open_ix on data_push_runs (state, run_id) where state in (1, 2);
