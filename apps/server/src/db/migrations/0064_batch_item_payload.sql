-- Batches of other modules run by the card batch engine (issue 16, docs/batch.md "Batches of other modules"): an item
-- may carry what its module needs besides the ICCID (a stock-in item's IMSI, MSISDN and SN; an eUICC item's EID).
alter table card_batch_items add column payload jsonb;
