-- Finding a card by any fragment of its numbers (issue 12, docs/cards.md "Search"): the header search and the card
-- list's "contains" match look for at least 6 digits anywhere in the ICCID, MSISDN, IMSI or IMEI.
--
-- A b-tree serves only the beginning of a value (prefix, exact); a fragment in the middle or at the end (the last
-- digits printed on the SIM) needs an index of the pieces: pg_trgm indexes every 3-character piece of a value, and
-- "contains '123456'" becomes "holds 123, 234, 345 and 456", checked again on the row. Both extensions are trusted
-- contrib modules on PostgreSQL 15 and ship with PGlite 0.5 (loaded by db/client.ts).
--
-- One GIN index carries the tenant columns next to the four numbers (btree_gin makes integers GIN keys), so a
-- customer's search intersects its own cards with the fragment's pieces inside the index: with the tenant kept
-- outside (a trigram index and the tenant's b-tree, or a filter on the rows) a small customer searching a fragment
-- that is common elsewhere in the fleet read every other tenant's matches first (136 ms against 0.9 ms for a
-- customer of 2,000 cards among 1,000,000, docs/performance.md "Card fragment search"). A GIN index answers for any
-- subset of its columns, so staff (no tenant condition) and every single number use the same index.
create extension if not exists pg_trgm;
create extension if not exists btree_gin;

create index cards_search_gin on cards using gin (
  root_cust_id, cust_id,
  iccid gin_trgm_ops, msisdn gin_trgm_ops, imsi gin_trgm_ops, imei gin_trgm_ops
);
