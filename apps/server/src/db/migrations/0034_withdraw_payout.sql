-- Issue 13 hardening (docs/decisions.md "A payout that keeps failing"): a payout run no longer stops at a withdrawal
-- whose payout keeps failing. Each attempt is counted (before it is made, so an attempt that kills the process
-- counts too) and a failed one leaves its reason; after WITHDRAW_PAYOUT_MAX_ATTEMPTS the withdrawal becomes
-- "payout failed" (WithdrawState 5): the money stays held, the run goes on, finance retries it (back to approved,
-- paid by the next run) or rejects it (the hold is released).
alter table withdrawals add column payout_attempts smallint not null default 0;
alter table withdrawals add column payout_error text;
alter table withdrawals add column payout_failed_at timestamptz;
-- what a finished run left payout failed
alter table withdraw_runs add column failed_count integer not null default 0;

-- a withdrawal whose payout failed is still in progress: the money is held and no second one may start
drop index withdrawals_in_progress_uq;
create unique index withdrawals_in_progress_uq on withdrawals (cust_id) where state in (1, 2, 5);
