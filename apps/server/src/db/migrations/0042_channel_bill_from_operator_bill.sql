-- Issue 14: a channel bill reconciled from a fetched operator bill (docs/channel-bills.md "From an operating bill",
-- docs/decisions.md "Issue 14: channel bills"). Such a bill has no file: its lines are copied from the operator bill's
-- per-card charges. One live channel bill per operator bill; deleting it frees the operator bill to be reconciled again.
alter table channel_bills add column operator_bill_id bigint references operator_bills (operator_bill_id) on delete set null;
create unique index channel_bills_operator_bill on channel_bills (operator_bill_id) where operator_bill_id is not null;
