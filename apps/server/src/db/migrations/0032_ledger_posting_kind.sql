-- Issue 13: one customer's ledger page at 10,000,000 postings. A customer's postings lie scattered over the table
-- (one among every few thousand), so filtering them by the journal's kind through a join read a heap page and a
-- journal per posting: up to seconds with a cold cache. The posting now carries its journal's kind, and the
-- customer index carries what the page filters and counts by, so the count is an index-only scan and only the 20
-- rows shown are read from the table.
alter table ledger_postings add column kind smallint;
update ledger_postings p set kind = j.kind from ledger_journals j where j.journal_id = p.journal_id;
alter table ledger_postings alter column kind set not null;
drop index ledger_postings_cust_ix;
create index ledger_postings_cust_ix on ledger_postings (cust_id, posting_id) include (kind, account, created_at) where cust_id is not null;
