-- The card list's usage columns (issue 12): each card carries its current cycle's usage and quota as maintained
-- columns, so the list can show them and sort by them at a million cards. Design: docs/cards.md "Cycle usage".
--
-- The definitions are the usage module's (docs/usage.md "Quota"): the cycle is the card's contract cycle
-- (cycle_start_at <= now < cycle_end_at), else its operator's billing period (from the operator's billing day,
-- 00:00 China time; China Unicom the 26th); its usage is the sum of its China days' totals in card_usage_daily; its
-- quota is the plan's volume plus the event packs running now (null when the plan has none: 0 MB or no plan).
-- Bytes, like card_usage_daily and the quota check (the API answers KB): increments from the feed stay exact.
alter table cards
  add column cycle_from date,
  add column cycle_to date,
  -- when the values must be worked out again: the cycle ends, a contract cycle begins, an event pack starts or ends.
  -- null: never worked out (a card written by hand); the lifecycle tick picks those up too
  add column cycle_next_at timestamptz,
  add column cycle_used_bytes bigint not null default 0,
  add column cycle_quota_bytes bigint,
  -- % of the quota used, for sorting; null without a quota
  add column cycle_used_pct real generated always as (
    case when cycle_quota_bytes > 0 then (cycle_used_bytes::float8 * 100 / cycle_quota_bytes)::real end
  ) stored;

-- The China day (UTC+8, no daylight saving) of an instant.
create function usage_china_day(at timestamptz) returns date language sql immutable parallel safe as $$
  select ((at at time zone 'UTC') + interval '8 hours')::date
$$;

-- The first China day of the operator's billing period containing `at` (usage-time.ts billingPeriod()).
create function usage_billing_start(at timestamptz, billing_day integer) returns date language sql immutable parallel safe as $$
  select case when extract(day from d) >= bd then make_date(extract(year from d)::int, extract(month from d)::int, bd)
    else (make_date(extract(year from d)::int, extract(month from d)::int, bd) - interval '1 month')::date end
  from (select usage_china_day(at) as d, least(greatest(billing_day, 1), 28) as bd) x
$$;

-- Works the cycle columns out from scratch for the given cards (null: every card) at `at`, and writes the rows whose
-- values change. `only_due`: only cards whose values are due (cycle_next_at passed or never worked out). The usage is
-- summed again only where the cycle changed or `resum` is set; otherwise it is kept (the feed moves it).
-- Given cards are locked first, in ICCID order, and the sums read afterwards (a new snapshot): a feed chunk writing the
-- same cards either committed before (its days are summed) or waits and adds its difference to the new value. Every
-- card (null) is for the backfill and a seed, which hold the table themselves (locking each row first would write
-- the whole table once more).
create function card_cycle_refresh(at timestamptz, iccids text[], only_due boolean, resum boolean) returns integer
language plpgsql as $$
declare
  n integer;
begin
  if iccids is not null then
    perform 1 from cards c
    where c.iccid = any(iccids) and (not only_due or c.cycle_next_at is null or c.cycle_next_at <= at)
    order by c.iccid for update;
  end if;
  with billing as (
    select o.operator_id, usage_billing_start(at, o.billing_day) as from_day
    from operators o
  ),
  target as (
    select c.iccid, c.cycle_from as old_from, c.cycle_to as old_to, k.contract,
      case when k.contract then usage_china_day(c.cycle_start_at) else b.from_day end as from_day,
      case when k.contract then usage_china_day(c.cycle_end_at - interval '1 millisecond') else (b.from_day + interval '1 month')::date - 1 end as to_day,
      least(
        case when k.contract then c.cycle_end_at else ((b.from_day + interval '1 month')::timestamp - interval '8 hours') at time zone 'UTC' end,
        case when not k.contract and c.cycle_start_at > at and c.cycle_end_at > c.cycle_start_at then c.cycle_start_at end,
        pk.next_at
      ) as next_at,
      case when p.quota_mb > 0 then round(p.quota_mb * 1048576)::bigint + coalesce(round(pk.mb * 1048576)::bigint, 0) end as quota
    from cards c
    join billing b on b.operator_id = c.operator_id
    cross join lateral (select coalesce(c.cycle_start_at <= at and at < c.cycle_end_at, false) as contract) k
    left join basic_plans p on p.goods_release_id = c.goods_release_id
    left join lateral (
      select sum(bp.quota_mb) filter (where e.starts_at <= at) as mb,
        least(min(e.starts_at) filter (where e.starts_at > at), min(e.ends_at)) as next_at
      from card_event_packs e join basic_plans bp on bp.goods_release_id = e.pack_id
      where e.iccid = c.iccid and e.ends_at > at
    ) pk on true
    where (iccids is null or c.iccid = any(iccids)) and (not only_due or c.cycle_next_at is null or c.cycle_next_at <= at)
  ),
  summed as materialized (
    select t.iccid, t.from_day, t.to_day from target t
    where resum or t.old_from is distinct from t.from_day or t.old_to is distinct from t.to_day
  ),
  used as (
    select d.iccid, sum(d.bytes)::bigint as bytes
    from card_usage_daily d join summed s on s.iccid = d.iccid and d.day >= s.from_day and d.day <= s.to_day
    where d.day >= (select min(from_day) from summed) and d.day <= (select max(to_day) from summed)
    group by d.iccid
  ),
  written as (
    update cards c set cycle_from = t.from_day, cycle_to = t.to_day, cycle_next_at = t.next_at, cycle_quota_bytes = t.quota,
      cycle_used_bytes = case when s.iccid is not null then coalesce(u.bytes, 0) else c.cycle_used_bytes end
    from target t left join summed s on s.iccid = t.iccid left join used u on u.iccid = t.iccid
    where c.iccid = t.iccid and (
      c.cycle_from is distinct from t.from_day or c.cycle_to is distinct from t.to_day or c.cycle_next_at is distinct from t.next_at
      or c.cycle_quota_bytes is distinct from t.quota or (s.iccid is not null and c.cycle_used_bytes <> coalesce(u.bytes, 0)))
    returning 1
  )
  select count(*) into n from written;
  return n;
end
$$;

-- The backfill: every card, from the daily rows (set-based; docs/performance.md has its time at 1,000,000 cards).
set local work_mem = '64MB';
select card_cycle_refresh(now(), null, false, true);

-- The card list sorted by usage or by % used, in each tenant scope the list uses (staff: every card; a channel
-- customer: root_cust_id; a second-level customer: cust_id). The ICCID breaks ties in the same direction, so one
-- index serves both directions. % used: cards without a quota come last when sorting down (most used first).
create index cards_used_ix on cards (cycle_used_bytes, iccid);
create index cards_root_used_ix on cards (root_cust_id, cycle_used_bytes, iccid);
create index cards_cust_used_ix on cards (cust_id, cycle_used_bytes, iccid);
create index cards_used_pct_ix on cards (cycle_used_pct desc nulls last, iccid desc);
create index cards_root_used_pct_ix on cards (root_cust_id, cycle_used_pct desc nulls last, iccid desc);
create index cards_cust_used_pct_ix on cards (cust_id, cycle_used_pct desc nulls last, iccid desc);
-- the lifecycle tick's roll-over: cards whose cycle values are due
create index cards_cycle_next_ix on cards (cycle_next_at nulls first);

-- Near / over quota now reads these columns (modules/home/quota-levels.ts): the interim snapshot of migration 0021
-- goes (on a new database 0021 no longer creates it).
drop table if exists card_quota_levels;
drop table if exists card_quota_level_runs;

-- the table was rewritten and every row changed: fresh planner statistics, or the planner guesses the new columns
-- (a count of near-quota cards took 700 ms by a sequential scan instead of 0.2 ms by cards_used_pct_ix at 1M cards)
analyze cards;
