-- Top-ups (充值, spec §2 /business/recharge/list, §4 payment states, §9 channels; docs/payments.md). An online
-- top-up is a payment order at a PaymentGateway (the built-in simulator by default), credited when the channel's
-- signed notification says it is paid; a public (bank) transfer is entered with its serial number and certificate
-- and credited when finance approves it (due two working days after it was entered). Every credit and refund is
-- a ledger journal (0027_ledger.sql) posted in the same transaction as the state change.

create table recharge_orders (
  recharge_id serial primary key,
  recharge_no text not null unique,
  cust_id integer not null references customers (cust_id),
  root_cust_id integer not null,
  -- PayChannel: 1 Alipay, 2 WeChat, 3 offline, 4 public transfer, 5 online
  channel smallint not null check (channel between 1 and 5),
  amount numeric(16, 2) not null check (amount > 0),
  -- what has been refunded of it (never more than the amount)
  refunded numeric(16, 2) not null default 0 check (refunded >= 0 and refunded <= amount),
  -- PayState: 1 unpaid, 2 paid (public: entered, waiting for review), 3 confirmed (credited), 4 closed, 5 failed
  pay_state smallint not null check (pay_state between 1 and 5),
  -- RechargeAuditState of a public transfer: 0 submitted, 1 passed, 2 rejected; null for online top-ups
  audit_state smallint check (audit_state between 0 and 2),
  -- online: the adapter, our payment order number at the channel, the channel's trade number, when it closes unpaid
  gateway text,
  pay_order_no text unique,
  trade_no text,
  expires_at timestamptz,
  -- public transfer: bank serial number, transfer day, certificate (files), review due time
  serial_no text,
  transfer_date date,
  proof_file_id uuid references files (file_id),
  due_at timestamptz,
  note text check (char_length(note) <= 500),
  review_reason text,
  reviewed_by text,
  reviewed_at timestamptz,
  -- the Recharge journal that credited it
  journal_id bigint,
  paid_at timestamptz,
  closed_at timestamptz,
  account_id integer,
  created_by text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((channel = 4) = (audit_state is not null)),
  check ((pay_state = 3) = (journal_id is not null))
);
-- one bank transfer is credited once: its serial number is taken unless the earlier entry was rejected
create unique index recharge_orders_serial_ux on recharge_orders (upper(serial_no)) where serial_no is not null and audit_state <> 2;
create index recharge_orders_root_ix on recharge_orders (root_cust_id, created_at desc);
create index recharge_orders_cust_ix on recharge_orders (cust_id, created_at desc);
-- the expiry job's and the reviewers' work lists
create index recharge_orders_unpaid_ix on recharge_orders (expires_at) where pay_state = 1;
create index recharge_orders_review_ix on recharge_orders (due_at) where audit_state = 0;

create table recharge_refunds (
  refund_id serial primary key,
  refund_no text not null unique,
  recharge_id integer not null references recharge_orders (recharge_id),
  cust_id integer not null,
  root_cust_id integer not null,
  amount numeric(16, 2) not null check (amount > 0),
  reason text not null,
  -- the channel's refund reference (online top-ups)
  channel_refund_no text,
  journal_id bigint not null,
  account_id integer,
  created_by text,
  created_at timestamptz not null default now()
);
create index recharge_refunds_recharge_ix on recharge_refunds (recharge_id);

-- every notification a payment channel sent, as received (forged ones too), and what was done with it
create table payment_notifications (
  notification_id serial primary key,
  gateway text not null,
  pay_order_no text,
  -- what it said (paid / failed / closed) and its own id at the channel
  state text,
  notify_id text,
  raw jsonb not null,
  verified boolean not null,
  -- credited, duplicate, late-credited, ignored, forged, amount-mismatch, unknown-order
  outcome text not null,
  received_at timestamptz not null default now()
);
create index payment_notifications_order_ix on payment_notifications (pay_order_no);

