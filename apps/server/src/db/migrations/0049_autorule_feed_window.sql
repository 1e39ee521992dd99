-- Automation rules at fleet scale (issue 15; docs/automation.md "Evaluation"): a check after a usage feed window looks
-- only at the cards that can have crossed since the previous check — the daily usage rows written since then. Those
-- windows write usage from the feeds' watermark on, so each feed check keeps the earliest watermark of the feeds when
-- it was made; the next check reads the daily rows from that day on.
alter table autorule_runs add column feeds_from timestamptz;
