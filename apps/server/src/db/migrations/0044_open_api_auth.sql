-- The open API enforced (issue 15, docs/open-api.md).
--
-- Signed calls: the server recomputes a call's HMAC, so it needs the secret itself, sealed with the installation key
-- (AES-256-GCM, like operator credentials). Keys created before this change kept only a hash: secret_sealed stays
-- null and such a key is refused with "rotate it" (21002) until it is rotated.
alter table api_keys add column secret_sealed text;

-- Nonces of accepted signed calls, remembered past the 5-minute window so a replay within it is refused, in the
-- database so that every server process sees them. Expired rows are deleted as calls come in.
create table api_nonces (
  app_key text not null,
  nonce text not null,
  expires_at timestamptz not null,
  primary key (app_key, nonce)
);
create index api_nonces_expiry_idx on api_nonces (expires_at);

-- Usage per key and business day: counters added to in batches (one upsert per second per process), never one row
-- per call. calls = every signed call naming the key; refused = of those, refused before running (signature, time,
-- nonce, whitelist, closed endpoint); errors = of those that ran, answered with an error.
create table api_usage_daily (
  cust_id integer not null,
  day date not null,
  app_key text not null,
  root_cust_id integer not null,
  calls integer not null default 0,
  errors integer not null default 0,
  refused integer not null default 0,
  primary key (cust_id, day, app_key)
);
create index api_usage_daily_day_idx on api_usage_daily (day, cust_id);
create index api_usage_daily_root_idx on api_usage_daily (root_cust_id, day);

-- Ability subscription: the WebhookEventType values (packages/contract/src/enums/webhook-event.ts) the customer's one
-- callback address receives. A callback address saved before subscriptions existed was meant to receive what the
-- platform sends, so it keeps receiving every event type of the catalogue (1-6) until the customer narrows it.
alter table api_configs add column event_types smallint[] not null default '{}';
update api_configs set event_types = '{1,2,3,4,5,6}' where callback_url is not null;
