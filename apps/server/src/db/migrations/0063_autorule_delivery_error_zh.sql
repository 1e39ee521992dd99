-- A rule notification's last error in both languages (issue 15): the trigger record's execution detail shows it in the
-- reader's language. last_error keeps the English sentence (what the API answered before); last_error_zh the Chinese.
alter table autorule_deliveries add column last_error_zh text;
