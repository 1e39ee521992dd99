-- The card list's "online" filter for a customer (issue 12, docs/performance.md "card list at 1,000,000 cards"): a
-- customer's online cards were counted by reading its rows one by one until 10,001 matched (about a quarter of a fleet
-- is online at a time): 9 ms typical, 52 ms at p95 for a customer with half of 1,000,000 cards. A partial index of the
-- online cards by tenant counts them from the index alone (1.3 ms). Its cost is on the usage feed: the update that
-- turns a card on- or offline (usage-write.ts writeCardActivity) now changes an indexed column, so it writes a new
-- entry in every index of cards instead of a heap-only tuple; that happens when a session opens or closes, not on
-- every usage write.
create index if not exists cards_root_online_ix on cards (root_cust_id) where online;
