-- Resale status sync (转售卡状态同步, issue 16; docs/channel-cards.md "Resale"). A card of the platform resold through
-- another platform: the resale platform's own state of it (kept as it says it, plus our mapped state), when it was last
-- synced and the last error. The scheduled sync and "sync now" both go through the ResalePlatform interface.
create table resell_cards (
  iccid text primary key,
  platform_code text not null,
  -- the card's id on the resale platform
  external_id text not null,
  -- the resale platform's own state (its word), and ResellSyncState (ours): 0 not synced, 1 listed, 2 sold, 3 delisted, 4 sync failed
  platform_state text,
  sync_state smallint not null default 0,
  last_sync_at timestamptz,
  last_error text,
  -- claim of the scheduled sync (restart-safe: a claim older than the lease is taken over)
  claimed_until timestamptz,
  cust_id integer,
  root_cust_id integer,
  created_at timestamptz not null default now()
);
create index resell_cards_tenant_ix on resell_cards (root_cust_id, iccid);
create index resell_cards_due_ix on resell_cards (last_sync_at nulls first);
