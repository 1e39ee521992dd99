-- Home and exports (issue 12): the overview's fleet health and the download tasks' badge, titles and filter words.
-- Design: docs/home.md.

-- Near / over quota: the cards' maintained cycle usage and quota (migration 0019, docs/home.md). An interim snapshot
-- (card_quota_levels, card_quota_level_runs, counted by a job) stood here until those columns came; 0019 drops it
-- where it was created.

-- Recent alerts by time, across pools and cards (the overview lists the last week's)
create index card_pool_events_alert_at_ix on card_pool_events (at desc) where type in (1, 2, 6);
create index card_quota_exhaustions_at_ix on card_quota_exhaustions (exhausted_at desc);
create index card_change_failures_created_ix on card_change_failures (created_at desc);

-- Download tasks: the title in both languages (the English console never shows a Chinese title), the filters in
-- words in both languages, the first download (the header badge counts tasks ready and not downloaded), and whether
-- the export was written during the call (up to 10,000 rows) instead of as a background job.
alter table download_tasks
  add column title_zh text,
  add column title_en text,
  add column filters_zh text,
  add column filters_en text,
  add column downloaded_at timestamptz,
  add column direct boolean not null default false;
-- older tasks kept their title in the requester's language only; the other one comes from the export's registration
update download_tasks set title_zh = task_name where lang = 'zh';
update download_tasks set title_en = task_name where lang = 'en';
-- the badge: ready and not downloaded, and in process, per owner
create index download_tasks_badge_ix on download_tasks (owner_account_id, state) where downloaded_at is null;
