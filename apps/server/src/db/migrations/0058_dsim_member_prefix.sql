-- The super SIM list's "ICCID of any profile" filter is a prefix (issue 16, docs/performance.md "Super SIMs"): under the
-- database's default collation the unique index on iccid cannot serve LIKE 'prefix%'; a text_pattern_ops index can.
create index if not exists dsim_members_iccid_pattern_ix on dsim_members (iccid text_pattern_ops);
