-- Login attempts are counted in one row per lower-cased login name, claimed with a single
-- INSERT ... ON CONFLICT DO UPDATE before the password is checked, so parallel guesses see each other's
-- count (the old table was read before the check and written after it). docs/decisions.md
-- "Captcha and lockout keyed by login name".
create table login_attempts (
  login_name text primary key,
  failures integer not null,
  last_failure_at timestamptz not null default now()
);

drop table login_failures;
