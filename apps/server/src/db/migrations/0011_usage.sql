-- Usage (issue 5): what the operator feed reports, as a carrier's usage feed would: per-session records and daily
-- per-card totals, both range-partitioned by month (China time) so a month is one partition to scan or drop; a
-- per-day per-customer per-link rollup written by the feed in the same transaction, so dashboards never read
-- per-card rows; the feed's watermarks; and the quota exhaustions the feed acted on. Usage rows carry the card's
-- tenant at the time of use (cust_id / root_cust_id) and have no foreign key to cards, so they can later be
-- distributed by iccid with the cards (ARCHITECTURE §1). Design note: docs/usage.md.

-- one data session (PDP context / PDN connection) of a card; a session never spans a China midnight (the
-- operator cuts partial records there), so it belongs to the day it started
create table card_sessions (
  iccid text not null,
  -- the operator's session id
  session_id text not null,
  started_at timestamptz not null,
  -- null while the session is open
  ended_at timestamptz,
  -- up to when the operator reported the counters
  reported_at timestamptz not null,
  apn text not null,
  bytes_up bigint not null default 0,
  bytes_down bigint not null default 0,
  -- NetworkType (1 2/3G, 2 4G, 3 5G NSA, 4 5G SA, 5 NB-IoT)
  rat smallint,
  -- serving cell as MCC-MNC-TAC-CI
  cell text,
  operator_id smallint not null,
  cust_id integer,
  root_cust_id integer,
  primary key (iccid, started_at, session_id)
) partition by range (started_at);
-- the primary key serves one card's sessions by time; these serve the traffic query by tenant and time
create index card_sessions_root_started_ix on card_sessions (root_cust_id, started_at desc, iccid);
create index card_sessions_cust_started_ix on card_sessions (cust_id, started_at desc, iccid);
create index card_sessions_started_ix on card_sessions (started_at desc, iccid);
-- open sessions: the feed closes those the operator no longer reports
create index card_sessions_open_ix on card_sessions (iccid) where ended_at is null;

-- one card's usage on one China calendar day
create table card_usage_daily (
  iccid text not null,
  day date not null,
  bytes_up bigint not null default 0,
  bytes_down bigint not null default 0,
  -- bytes_up + bytes_down
  bytes bigint not null default 0,
  sms integer not null default 0,
  voice_seconds integer not null default 0,
  -- data sessions started that day
  sessions integer not null default 0,
  -- the link the card used: operator and APN (docs/decisions.md)
  apn text not null,
  operator_id smallint not null,
  cust_id integer,
  root_cust_id integer,
  updated_at timestamptz not null default now(),
  primary key (iccid, day)
) partition by range (day);
-- the primary key serves one card's days; these serve the traffic query by tenant and day
create index card_usage_daily_root_day_ix on card_usage_daily (root_cust_id, day desc, iccid);
create index card_usage_daily_cust_day_ix on card_usage_daily (cust_id, day desc, iccid);
create index card_usage_daily_day_ix on card_usage_daily (day desc, iccid);

-- the sum of card_usage_daily per day, customer and link (0 = cards in the platform stock): a few rows per
-- customer and day, kept exact by the feed in the transaction that writes the daily rows
create table card_usage_daily_cust (
  day date not null,
  cust_id integer not null,
  root_cust_id integer not null,
  operator_id smallint not null,
  apn text not null,
  bytes bigint not null default 0,
  sms bigint not null default 0,
  voice_seconds bigint not null default 0,
  sessions bigint not null default 0,
  -- card_usage_daily rows behind this one (cards with usage that day)
  cards integer not null default 0,
  primary key (day, cust_id, operator_id, apn)
);
create index card_usage_daily_cust_root_ix on card_usage_daily_cust (root_cust_id, day);
create index card_usage_daily_cust_cust_ix on card_usage_daily_cust (cust_id, day);

-- one operator's usage feed: usage before `watermark` is stored; a run claims the feed with a lease and works
-- through the window (watermark, window_to] card chunk by card chunk (cursor_iccid), so a crash resumes there
create table usage_feeds (
  operator_id smallint primary key,
  watermark timestamptz not null,
  window_to timestamptz,
  cursor_iccid text,
  lease_owner text,
  lease_until timestamptz,
  last_run_at timestamptz,
  last_error text,
  updated_at timestamptz not null default now()
);

-- a card's plan quota ran out in a cycle and the plan's action after use-up was applied (once per card and cycle)
create table card_quota_exhaustions (
  iccid text not null,
  -- start of the cycle whose quota ran out
  cycle_start timestamptz not null,
  exhausted_at timestamptz not null,
  used_bytes bigint not null,
  quota_bytes bigint not null,
  -- PlanUseUpAction
  action smallint not null,
  -- null when applied; otherwise why it could not be
  failure text,
  -- block until cycle end: when the zones were permitted again in a later cycle
  released_at timestamptz,
  primary key (iccid, cycle_start)
);
create index card_quota_exhaustions_open_ix on card_quota_exhaustions (iccid) where released_at is null and action = 3;

-- Creates the monthly partitions of both usage tables for the months from `first_month` to `last_month`
-- (idempotent; an advisory lock keeps two processes from racing). Months are China calendar months.
create or replace function usage_ensure_partitions(first_month date, last_month date) returns integer
language plpgsql as $$
declare
  m date := date_trunc('month', first_month)::date;
  n integer := 0;
  suffix text;
begin
  perform pg_advisory_xact_lock(7310011);
  while m <= last_month loop
    suffix := to_char(m, 'YYYY_MM');
    if to_regclass('card_usage_daily_p' || suffix) is null then
      execute format('create table %I partition of card_usage_daily for values from (%L) to (%L)',
        'card_usage_daily_p' || suffix, m, (m + interval '1 month')::date);
      n := n + 1;
    end if;
    if to_regclass('card_sessions_p' || suffix) is null then
      execute format('create table %I partition of card_sessions for values from (%L) to (%L)',
        'card_sessions_p' || suffix, (m::text || ' 00:00:00+08')::timestamptz, (((m + interval '1 month')::date)::text || ' 00:00:00+08')::timestamptz);
      n := n + 1;
    end if;
    m := (m + interval '1 month')::date;
  end loop;
  return n;
end $$;

-- the last 13 months to the next 2 (China time); the server extends this on start and monthly
select usage_ensure_partitions(
  (date_trunc('month', (now() at time zone 'UTC') + interval '8 hours') - interval '13 months')::date,
  (date_trunc('month', (now() at time zone 'UTC') + interval '8 hours') + interval '2 months')::date
);
