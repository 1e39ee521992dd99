-- The cards' maintained cycle SMS count (issue 15; docs/automation.md "Evaluation"): the rule "SMS usage over N in the
-- cycle" reads one column per card, as "data usage >= N %" reads cycle_used_bytes, instead of summing the cycle's daily
-- rows of every card at each scan and feed check. It is kept like cycle_used_bytes (usage/cycle-columns.ts): the usage
-- feed adds each daily row's SMS difference for the days of the card's current cycle (usage-write.ts writeDaily), and
-- card_cycle_refresh sums it again wherever it sums the data usage again.
-- A constant default adds the column without rewriting the table; the backfill below writes only the cards whose
-- current cycle has SMS.
alter table cards add column cycle_sms integer not null default 0;

create or replace function card_cycle_refresh(at timestamptz, iccids text[], only_due boolean, resum boolean) returns integer
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
    select d.iccid, sum(d.bytes)::bigint as bytes, sum(d.sms)::bigint as sms
    from card_usage_daily d join summed s on s.iccid = d.iccid and d.day >= s.from_day and d.day <= s.to_day
    where d.day >= (select min(from_day) from summed) and d.day <= (select max(to_day) from summed)
    group by d.iccid
  ),
  written as (
    update cards c set cycle_from = t.from_day, cycle_to = t.to_day, cycle_next_at = t.next_at, cycle_quota_bytes = t.quota,
      cycle_used_bytes = case when s.iccid is not null then coalesce(u.bytes, 0) else c.cycle_used_bytes end,
      cycle_sms = case when s.iccid is not null then coalesce(u.sms, 0) else c.cycle_sms end
    from target t left join summed s on s.iccid = t.iccid left join used u on u.iccid = t.iccid
    where c.iccid = t.iccid and (
      c.cycle_from is distinct from t.from_day or c.cycle_to is distinct from t.to_day or c.cycle_next_at is distinct from t.next_at
      or c.cycle_quota_bytes is distinct from t.quota or (s.iccid is not null and (c.cycle_used_bytes <> coalesce(u.bytes, 0) or c.cycle_sms <> coalesce(u.sms, 0))))
    returning 1
  )
  select count(*) into n from written;
  return n;
end
$$;

set local work_mem = '64MB';
update cards c set cycle_sms = s.n
from (
  select d.iccid, sum(d.sms)::int as n
  from card_usage_daily d join cards k on k.iccid = d.iccid and d.day >= k.cycle_from and d.day <= k.cycle_to
  where d.sms > 0
  group by d.iccid
) s
where c.iccid = s.iccid and s.n <> 0;
