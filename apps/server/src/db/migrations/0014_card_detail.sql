-- Card detail (issue 5): the SMS of each card, and the allocations of cards to customers (numcard).
-- card_sms is card-scale: keyed by (iccid, sms_id), so it can be distributed by iccid with the cards.

create table card_sms (
  iccid text not null,
  sms_id uuid not null default gen_random_uuid(),
  msisdn text,
  -- SmsDirection: 1 to the device, 2 from the device
  direction smallint not null default 1 check (direction in (1, 2)),
  -- 160 GSM 7-bit characters or 70 others (checked by the service)
  content text not null check (char_length(content) between 1 and 160),
  -- SmsStatus (spec §4): 1 sending, 2 submission succeeded, 3 sending succeeded, 4 sending failed, 5 submission failed
  status smallint not null default 1 check (status between 1 and 5),
  -- the access configuration it went through and the operator's message reference
  oper_account_id integer,
  message_id text,
  fail_reason text,
  cust_id integer,
  root_cust_id integer,
  created_by text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (iccid, sms_id)
);
create index card_sms_iccid_created_ix on card_sms (iccid, created_at desc);

-- one transfer / distribution of cards to a customer; the cards are changed all together by a job
create table card_allocations (
  allocation_id uuid primary key,
  -- 'transfer' (from the platform stock) or 'distribute' (inside one customer tree)
  mode text not null check (mode in ('transfer', 'distribute')),
  target_cust_id integer not null,
  target_root_cust_id integer not null,
  goods_release_id integer,
  initial_state smallint,
  -- the cards resolved when the user confirmed (at most 10,000)
  iccids text[] not null,
  card_count integer not null,
  -- AllocationStatus: 1 queued, 2 running, 3 succeeded, 4 failed
  status smallint not null default 1,
  error_code integer,
  error_params jsonb,
  failed_iccid text,
  remark text,
  -- who asked, and that account's tenant (the record is seen by that tenant and by staff)
  account_id integer not null,
  created_by text not null,
  lang text not null,
  cust_id integer,
  root_cust_id integer,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index card_allocations_root_created_ix on card_allocations (root_cust_id, created_at desc);
create index card_allocations_created_ix on card_allocations (created_at desc);
