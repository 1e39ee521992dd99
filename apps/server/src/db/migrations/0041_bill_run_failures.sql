-- A bill run that keeps failing gives up (issue 14): its failed attempts in a row; at BILL_RUN_MAX_FAILURES it is
-- marked failed with its last error, no longer retried, and a new run of the period may start.
alter table bill_runs add column failures smallint not null default 0;
