-- Signed webhook delivery (issue 15, docs/webhooks.md): an outbox of events written in the producer's transaction,
-- one delivery per event to the customer's callback address, every attempt logged, and the per-customer signing secret.
-- Tenant columns on every table (cust_id, root_cust_id): a later Citus move distributes them by root_cust_id.

-- An event as the receiver gets it: {id, type, version, createdAt, data}. Written only when the customer has a callback
-- address for its type (nobody listening: nothing written).
create table webhook_events (
  event_id uuid primary key,
  cust_id integer not null,
  root_cust_id integer not null,
  -- WebhookEventType and the payload schema version of `data`
  event_type smallint not null,
  version smallint not null,
  payload jsonb not null,
  created_at timestamptz not null
);

-- One event to one callback address. state: WebhookDeliveryState 1 pending, 2 retrying, 3 delivered, 4 dead letter.
-- A worker claims a due row (next_at passed, no live lease) with FOR UPDATE SKIP LOCKED and leases it for the length of
-- one attempt plus a margin: a process killed in the middle leaves the lease to run out, then another worker takes
-- the delivery again. A replay by hand starts a new series (series + 1, attempts back to 0) for the same event.
create table webhook_deliveries (
  delivery_id bigint generated always as identity primary key,
  event_id uuid not null references webhook_events (event_id),
  cust_id integer not null,
  root_cust_id integer not null,
  event_type smallint not null,
  url text not null,
  state smallint not null default 1 check (state between 1 and 4),
  attempts integer not null default 0,
  total_attempts integer not null default 0,
  series integer not null default 1,
  next_at timestamptz not null,
  lease_until timestamptz,
  lease_token uuid,
  last_attempt_at timestamptz,
  -- WebhookAttemptOutcome of the last finished attempt
  last_outcome smallint,
  last_http_status integer,
  last_error text,
  delivered_at timestamptz,
  dead_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null default now()
);
-- what the workers poll: only undelivered rows, by due time
create index webhook_deliveries_due on webhook_deliveries (next_at) where state in (1, 2);
create index webhook_deliveries_event on webhook_deliveries (event_id);
create index webhook_deliveries_root on webhook_deliveries (root_cust_id, created_at desc);
create index webhook_deliveries_cust on webhook_deliveries (cust_id, created_at desc);
create index webhook_deliveries_created on webhook_deliveries (created_at desc);

-- Every attempt: inserted when a worker claims it (outcome null = in flight), finished with what came back. An attempt
-- whose worker died stays open until its delivery is claimed again, then it is closed as interrupted (6).
create table webhook_attempts (
  attempt_id bigint generated always as identity primary key,
  delivery_id bigint not null references webhook_deliveries (delivery_id),
  cust_id integer not null,
  root_cust_id integer not null,
  series integer not null,
  attempt_no integer not null,
  url text not null,
  key_id text,
  lease_token uuid not null,
  started_at timestamptz not null,
  finished_at timestamptz,
  latency_ms integer,
  -- WebhookAttemptOutcome: 1 success, 2 HTTP error, 3 network error, 4 timeout, 5 no callback address, 6 interrupted
  outcome smallint,
  http_status integer,
  error text,
  response_excerpt text,
  unique (delivery_id, series, attempt_no)
);
create index webhook_attempts_open on webhook_attempts (delivery_id) where outcome is null;

-- The customer's signing secret (HMAC-SHA256 key), sealed with the installation key (AES-256-GCM, like operator
-- credentials): the server must sign with it, so it is kept reversible, never in clear. key_id changes on rotation and
-- is sent with every delivery (X-Lynx-Key-Id).
create table webhook_secrets (
  cust_id integer primary key,
  root_cust_id integer not null,
  key_id text not null,
  secret_sealed text not null,
  secret_hint text not null,
  created_at timestamptz not null default now(),
  rotated_at timestamptz
);
