-- Channel cards (渠道卡, issue 16; docs/channel-cards.md, docs/decisions.md "Issue 16: channel cards"). A channel card is
-- a card of the platform (a `cards` row, imported first) that was bought through an upstream channel: this table adds
-- the channel, the sales order, the monthly cost and the channel card's own state to it, one row per ICCID. Its tenant
-- is the card's tenant at import; one import file holds the cards of one first-level customer.

create table channel_card_imports (
  batch_id uuid primary key,
  sales_order text not null,
  file_name text not null,
  file_size integer not null,
  remark text,
  card_count integer not null,
  cust_id integer,
  root_cust_id integer,
  created_by text not null,
  created_at timestamptz not null default now()
);
create index channel_card_imports_order_ix on channel_card_imports (sales_order, created_at desc);
create index channel_card_imports_created_ix on channel_card_imports (created_at desc, batch_id);

create table channel_cards (
  id bigint generated always as identity primary key,
  iccid text not null unique,
  channel_name text not null,
  sales_order text not null,
  -- what the channel charges per card and month (CNY, exact)
  monthly_cost numeric(12, 2) not null check (monthly_cost >= 0),
  -- ChannelCardState: 1 in use, 2 stopped (no longer billed by the channel from the next period)
  state smallint not null default 1,
  stopped_at timestamptz,
  batch_id uuid not null references channel_card_imports (batch_id),
  cust_id integer,
  root_cust_id integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index channel_cards_tenant_ix on channel_cards (root_cust_id, id);
create index channel_cards_channel_ix on channel_cards (channel_name, id);
create index channel_cards_batch_ix on channel_cards (batch_id, id);

-- The channel's bill for its cards of one first-level customer and one calendar month: one line per card
create table channel_card_bills (
  bill_id bigint generated always as identity primary key,
  channel_name text not null,
  period_key text not null check (period_key ~ '^\d{4}-\d{2}$'),
  cust_id integer,
  root_cust_id integer,
  card_count integer not null,
  total_amount numeric(14, 2) not null,
  created_by text not null,
  created_at timestamptz not null default now()
);
create unique index channel_card_bills_ux on channel_card_bills (channel_name, period_key, coalesce(root_cust_id, 0));
create index channel_card_bills_tenant_ix on channel_card_bills (root_cust_id, period_key desc, bill_id desc);

create table channel_card_bill_lines (
  bill_id bigint not null references channel_card_bills (bill_id) on delete cascade,
  iccid text not null,
  monthly_cost numeric(12, 2) not null,
  amount numeric(12, 2) not null,
  primary key (bill_id, iccid)
);
