-- A bill's card lines filtered by category (issue 14, docs/performance.md): one category's lines in ICCID order are a
-- range of this index, so a page of a rare category of a 1,000,000-line bill is read directly instead of scanning the
-- bill in key order for matches (p95 229 ms before). Each partition of bill_lines gets its own. It makes writing lines
-- dearer (measured 6.1 → 14.9 s per million lines in the bill run's chunks), which the 5-minute run target allows.
create index bill_lines_category on bill_lines (period_key, bill_id, category, iccid, from_day, ref_id);
