-- The SMS centre (issue 15, docs/sms.md): messages to and from the cards in card_sms (migration 0014, keyed by
-- iccid so it distributes with the cards), with where each came from, the carrier's delivery report and the
-- messages the devices send (mobile-originated, direction 2); the cursor of the MO feed per operator; messages to
-- people's phones (automation contacts) through the system SMS channel.

-- SmsSource: 1 console, 2 batch, 3 automation rule, 4 from the device
alter table card_sms add column source smallint not null default 1 check (source between 1 and 4);
-- the batch (card_batches) that sent it
alter table card_sms add column batch_id uuid;
-- SmsEncoding: 1 GSM 7-bit, 2 UCS-2
alter table card_sms add column encoding smallint check (encoding in (1, 2));
-- when the carrier accepted it; its delivery report (status word, time)
alter table card_sms add column submitted_at timestamptz;
alter table card_sms add column report_code text;
alter table card_sms add column report_at timestamptz;
-- what set it off (e.g. an automation rule's trigger), free text of the caller
alter table card_sms add column ref text check (ref is null or char_length(ref) <= 200);

-- the carrier's message id is unique per card: a mobile-originated message fed twice is stored once
create unique index card_sms_message_ux on card_sms (iccid, message_id) where message_id is not null;
-- the SMS list, newest first: staff over all, channel customers by root, second-level customers by customer
create index card_sms_created_ix on card_sms (created_at desc, sms_id desc);
create index card_sms_root_created_ix on card_sms (root_cust_id, created_at desc, sms_id desc);
create index card_sms_cust_created_ix on card_sms (cust_id, created_at desc, sms_id desc);
create index card_sms_msisdn_ix on card_sms (msisdn, created_at desc);
create index card_sms_batch_ix on card_sms (batch_id) where batch_id is not null;
-- the delivery report poller: submitted messages to devices, oldest first
create index card_sms_awaiting_report_ix on card_sms (submitted_at) where status = 2 and direction = 1;
-- the resubmission sweep: messages stored but never answered by the carrier
create index card_sms_sending_ix on card_sms (created_at) where status = 1 and direction = 1;

-- the mobile-originated feed of one operator: [watermark, next window) in card (ICCID) chunks, a cursor after each
-- chunk and a lease, like the usage feed
create table sms_mo_feeds (
  operator_id integer primary key,
  watermark timestamptz not null,
  -- the window being worked on and the last card done in it
  window_to timestamptz,
  cursor_iccid text,
  lease_owner text,
  lease_until timestamptz,
  last_error text,
  updated_at timestamptz not null default now()
);

-- messages to people's phones (automation rule contacts), through the system SMS channel
create table sms_phone_messages (
  message_id uuid primary key,
  phone text not null check (phone ~ '^[0-9]{5,20}$'),
  content text not null check (char_length(content) between 1 and 160),
  encoding smallint check (encoding in (1, 2)),
  -- SmsStatus: 1 sending, 2 submission succeeded, 3 sending succeeded, 4 sending failed, 5 submission failed
  status smallint not null default 1 check (status between 1 and 5),
  source smallint not null default 3 check (source between 1 and 4),
  ref text check (ref is null or char_length(ref) <= 200),
  channel_message_id text,
  report_code text,
  fail_reason text,
  -- the tenant whose rule sent it (null: the platform's)
  cust_id integer,
  root_cust_id integer,
  created_by text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index sms_phone_messages_created_ix on sms_phone_messages (created_at desc);
create index sms_phone_messages_root_ix on sms_phone_messages (root_cust_id, created_at desc);
