-- Batch operations on cards (issue 5): a batch is validated first (every card classified valid / invalid /
-- already in the target state, nothing changed), then confirmed into a durable job that works through its
-- pending items in seq order. Each item's card change and the item's own status are written in the same
-- transaction, so a restart in the middle loses nothing and never repeats a card. Design: docs/batch.md.

create table card_batches (
  batch_id uuid primary key,
  -- BatchType: 1 status change, 2 plan change, 3 zone block/permit, 4 labels, 5 data recovery, 6 standard-card operation
  type smallint not null,
  -- the operation's parameters (state action, plan, zone target, label ids, reason)
  params jsonb not null,
  -- BatchSource: 1 card list selection, 2 uploaded file, 3 card list filter, 4 pasted ICCIDs
  source smallint not null,
  -- the file name, or the card list filters, the cards were chosen by
  source_detail jsonb,
  -- BatchState: 1 validated, 2 running, 3 done, 4 cancelled (before confirm)
  state smallint not null default 1,
  creator_account_id integer not null,
  created_by text not null,
  -- tenant of the creator's scope (null / null for operator staff)
  cust_id integer,
  root_cust_id integer,
  -- validation counts: unique cards, valid, invalid, already in the target state, duplicates collapsed
  total_count integer not null default 0,
  valid_count integer not null default 0,
  invalid_count integer not null default 0,
  already_count integer not null default 0,
  duplicate_count integer not null default 0,
  -- run counts (kept current by the job while it runs)
  succeeded_count integer not null default 0,
  failed_count integer not null default 0,
  processed_count integer not null default 0,
  created_at timestamptz not null default now(),
  confirmed_at timestamptz,
  finished_at timestamptz,
  cancelled_at timestamptz,
  -- last sign of life of a worker on a running batch; a stale one is resumed by the sweep
  heartbeat_at timestamptz
);
create index card_batches_created_ix on card_batches (created_at desc);
create index card_batches_root_ix on card_batches (root_cust_id, created_at desc);
create index card_batches_cust_ix on card_batches (cust_id, created_at desc);
create index card_batches_running_ix on card_batches (heartbeat_at) where state = 2;

-- one card of a batch, in the order it was given (seq from 1)
create table card_batch_items (
  batch_id uuid not null references card_batches (batch_id) on delete cascade,
  seq integer not null,
  iccid text not null,
  -- BatchVerdict: 1 valid, 2 invalid, 3 already in the target state
  verdict smallint not null,
  reason_zh text,
  reason_en text,
  -- BatchItemStatus: 1 pending, 2 succeeded, 3 failed, 4 skipped (invalid or already at validation)
  status smallint not null,
  error_zh text,
  error_en text,
  done_at timestamptz,
  primary key (batch_id, seq)
);
-- the job claims the next pending items of a batch along this index (it shrinks as the batch advances)
create index card_batch_items_pending_ix on card_batch_items (batch_id, seq) where status = 1;
-- detail filters: by status (succeeded / failed) and by verdict (the invalid rows before confirming)
create index card_batch_items_status_ix on card_batch_items (batch_id, status, seq);
create index card_batch_items_verdict_ix on card_batch_items (batch_id, verdict, seq);
