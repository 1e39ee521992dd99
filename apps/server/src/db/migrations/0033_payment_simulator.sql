-- Issue 13 hardening (docs/payments.md "The payment simulator", "Refunds"; docs/decisions.md).
--
-- The payment simulator's own side: the channel's orders and refunds, kept as a real channel keeps them, across the
-- platform's restarts (they were in memory: a restart lost an order being paid). Only payments/simulator.ts reads or
-- writes these two tables; the platform's records of the same payments are recharge_orders and recharge_refunds.
create table payment_sim_orders (
  -- our payment order number: the channel's idempotency key for the order
  pay_order_no text primary key,
  amount numeric(16, 2) not null check (amount > 0),
  subject text not null,
  state text not null check (state in ('unpaid', 'paid', 'failed', 'closed')),
  -- the channel's trade number, given when it is paid
  trade_no text unique,
  refunded numeric(16, 2) not null default 0 check (refunded >= 0 and refunded <= amount),
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (state <> 'paid' or trade_no is not null)
);

create table payment_sim_refunds (
  -- our refund number: the channel's idempotency key for the refund (asked again, it answers the same refund)
  refund_no text primary key,
  pay_order_no text not null references payment_sim_orders (pay_order_no) on delete cascade,
  amount numeric(16, 2) not null check (amount > 0),
  channel_refund_no text not null unique,
  created_at timestamptz not null default now()
);
create index payment_sim_refunds_order_ix on payment_sim_refunds (pay_order_no);

-- A refund of an online top-up is recorded (and its Refund journal posted) before the channel is asked, then
-- completed with the channel's answer. A refund whose answer was never recorded (a crash between the channel's
-- answer and our commit) stays pending until the reconciliation job asks the channel: refunded there → done; not
-- there → failed, and its journal reversed (JournalKind.RefundReversal). RefundState: 1 pending, 2 done, 3 failed.
alter table recharge_refunds add column state smallint not null default 2 check (state between 1 and 3);
alter table recharge_refunds add column reversal_journal_id bigint;
alter table recharge_refunds add column failure text;
alter table recharge_refunds add column updated_at timestamptz not null default now();
alter table recharge_refunds add constraint recharge_refunds_failed_reversed check ((state = 3) = (reversal_journal_id is not null));
create index recharge_refunds_pending_ix on recharge_refunds (created_at) where state = 1;
