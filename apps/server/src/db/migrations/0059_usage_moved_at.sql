-- The check after a usage feed window (issue 15; docs/automation.md "Evaluation") looks only at the cards that can have
-- crossed a usage condition since the previous check: those whose usage moved, and those with a state or plan change.
-- Both are read through an index instead of from every card's daily row and history:
-- - cards.usage_moved_at: when the feed last moved the card's cycle usage or SMS (usage-write.ts writeDaily, in the
--   statement that moves them; that update is not a HOT update anyway, since the cycle usage is indexed);
-- - card_history by time.
-- Cards get the column empty: a crossing in the minutes before this migration that no feed check saw yet is found by the
-- next scheduled scan, like any change no check sees.
alter table cards add column usage_moved_at timestamptz;
create index cards_usage_moved_ix on cards (usage_moved_at) where usage_moved_at is not null;
create index card_history_at_ix on card_history (at);
