-- The network simulator's generated traffic (issue 15; docs/operator-gateway.md "Generated traffic"): sessions operator
-- staff ask a card's simulated device to make now (network/simulator/generateTraffic). The simulator adds them to the
-- usage it reports (operators/simulator-traffic.ts), so what follows from usage can be tried end to end on the
-- built-in network. Kept for the card's usage and the simulator's bill; a real network never reads them.
create table simulator_traffic (
  traffic_id bigserial primary key,
  iccid text not null,
  -- the session's start; its bytes grow evenly over `seconds`
  at timestamptz not null,
  seconds integer not null check (seconds > 0),
  bytes_up bigint not null check (bytes_up >= 0),
  bytes_down bigint not null check (bytes_down >= 0),
  created_by text not null,
  created_at timestamptz not null default now()
);
-- the simulator reads a window's cards from the start of the window's first day
create index simulator_traffic_card_ix on simulator_traffic (iccid, at);
