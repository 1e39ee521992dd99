-- A resale sync's failure reason in both languages (issue 16; docs/channel-cards.md "Resale"): the list shows it in the
-- reader's language. last_error keeps the English sentence (what the API answered before); last_error_zh the Chinese.
-- A reason of ours (no answer in time, platform unavailable, no state for the listing) is written in both; a free-text
-- error of the resale platform is kept as it sent it, after "the resale platform answered:" in each language.
alter table resell_cards add column last_error_zh text;
