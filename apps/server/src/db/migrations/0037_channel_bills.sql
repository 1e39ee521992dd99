-- Issue 14: channel bills (docs/channel-bills.md, docs/decisions.md "Issue 14: channel bills").
-- A bill an operator or an upstream channel sent for one operator and one billing period, imported from a file and
-- reconciled line by line against the platform's own usage. Lines are card-scale (a million in one bill): each bill's
-- lines are a list partition of their own, so a bill is written, scanned and deleted (a DROP) without touching another.

create table channel_bills (
  bill_id bigint generated always as identity primary key,
  -- 'YYYY-MM': the month the operator's billing period ends in (China Unicom 26th-25th)
  period_key text not null check (period_key ~ '^\d{4}-\d{2}$'),
  operator_id smallint not null references operators (operator_id),
  -- the operator's billing period (business days, inclusive), fixed at import
  period_from date not null,
  period_to date not null,
  -- ChannelBillSource: 1 operator, 2 upstream channel
  source_type smallint not null,
  -- the operator account or channel that issued the bill, as finance names it
  source_name text not null,
  -- list the platform's cards of the operator with usage that the bill lacks
  find_missing boolean not null default true,
  -- ChannelBillState: 1 importing, 2 reconciling, 3 reconciled, 4 failed
  state smallint not null default 1,
  file_name text not null,
  file_size bigint not null,
  -- the uploaded file under DATA_DIR/files (read by the import job; kept for audit)
  storage_key text not null,
  remark text,
  total_lines bigint not null default 0,
  -- lines stored: the import's cursor (lines go in file order, a chunk and the cursor committed together)
  lines_done bigint not null default 0,
  error_count bigint not null default 0,
  -- why the file could not be read at all (the lines' own errors are in channel_bill_errors)
  failure_zh text,
  failure_en text,
  channel_amount numeric(16, 2) not null default 0,
  lease_owner text,
  lease_until timestamptz,
  created_by text not null,
  created_at timestamptz not null default now(),
  imported_at timestamptz,
  reconciled_at timestamptz,
  updated_at timestamptz not null default now()
);
create index channel_bills_period on channel_bills (period_key desc, bill_id desc);
-- one live bill per operator, period and issuer (a failed import does not count)
create unique index channel_bills_live on channel_bills (operator_id, period_key, lower(source_name)) where state <> 4;
create index channel_bills_busy on channel_bills (bill_id) where state in (1, 2);

-- the lines: one per card, partitioned by bill (channel_bill_lines_ensure_partition makes one)
create table channel_bill_lines (
  bill_id bigint not null,
  iccid text not null,
  -- the file's line (header = 1); null for a card only the platform has (missing in the channel bill)
  line_no integer,
  channel_bytes bigint,
  channel_sms integer,
  channel_amount numeric(14, 2),
  -- the platform's usage of the card in the period; null when the card is not the platform's
  platform_bytes bigint,
  platform_sms integer,
  -- ChannelBillLineState: 0 not reconciled, 1 matched, 2 differs, 3 missing on platform, 4 missing in channel bill
  state smallint not null default 0,
  primary key (bill_id, iccid)
) partition by list (bill_id);

create or replace function channel_bill_lines_ensure_partition(b bigint) returns integer
language plpgsql as $$
declare
  name text := 'channel_bill_lines_b' || b;
begin
  if to_regclass(name) is not null then return 0; end if;
  perform pg_advisory_xact_lock(7310037);
  if to_regclass(name) is not null then return 0; end if;
  execute format('create table %I partition of channel_bill_lines for values in (%s)', name, b);
  return 1;
end $$;

-- a failed import's line errors (the first CHANNEL_BILL_ERRORS_KEPT; error_count has them all); line 0 is the file
create table channel_bill_errors (
  bill_id bigint not null references channel_bills (bill_id) on delete cascade,
  line_no integer not null,
  column_name text not null,
  iccid text,
  reason_zh text not null,
  reason_en text not null,
  primary key (bill_id, line_no, column_name)
);

-- per bill and line state: counts and sums, written by the reconciliation so the list and detail never scan lines
create table channel_bill_summaries (
  bill_id bigint not null references channel_bills (bill_id) on delete cascade,
  state smallint not null,
  lines bigint not null,
  channel_bytes bigint not null default 0,
  platform_bytes bigint not null default 0,
  channel_sms bigint not null default 0,
  platform_sms bigint not null default 0,
  channel_amount numeric(16, 2) not null default 0,
  primary key (bill_id, state)
);

-- channel bills are platform finance's (decisions.md "Issue 14: channel bills"): customer roles of an existing
-- database, which got every Billing code before, lose the page and its import button; staff keep them
update roles set permissions = array_remove(array_remove(permissions, 4050000), 4050001) where role_type in (3000, 4000, 5000);
update roles set permissions = (select array_agg(distinct p order by p) from unnest(permissions || array[4050000, 4050001]) p)
  where built_in and role_type in (1000, 2000);
