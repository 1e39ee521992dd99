// The bill run's set-based SQL (docs/billing.md): one statement rates a chunk of cards (their bills upserted, their
// lines inserted), one adds the one-off fees, one writes the totals and breakdowns. It mirrors the pure rules of
// rating/rating.ts (rateCardPeriod) exactly in numeric and bigint: a test compares both on the same cards.
import { sql, type SQL } from 'drizzle-orm';
import { BillLineCategory, CardState, ChargeState, OneOffFeeState, OverageGrade, PlanGoodsType, PlanUseUpAction } from '@lynx/contract';

/** One operator's period, as periods.ts computes it (the SQL never re-derives period boundaries). */
export interface OperatorPeriod {
  operator_id: number;
  /** period start and end (instants, ISO) */
  ps: string;
  pe: string;
  first_day: string;
  last_day: string;
  /** the natural-month plan cycle that ends in the period: [os, oe) */
  os: string;
  oe: string;
}

export interface ChunkParams {
  periodKey: string;
  runId: number;
  /** cards after `lo` up to and including `hi`, in ICCID order */
  lo: string;
  hi: string;
  custId: number | null;
  ops: OperatorPeriod[];
  /** 00:00 on the 1st of the month the period is named by (a natural-month cycle starts then, in every operator's period) */
  monthStart: string;
  monthEnd: string;
  timeZone: string;
}

const C = BillLineCategory;
const G = PlanGoodsType;
const S = CardState;

/** The day (business zone) of an instant, and of the last instant before an exclusive end. */
const dayOf = (x: SQL | string, tz: string) => sql`((${typeof x === 'string' ? sql.raw(x) : x}) at time zone ${tz})::date`;
const lastDayOf = (x: string, tz: string) => sql`((${sql.raw(x)} - interval '1 millisecond') at time zone ${tz})::date`;
/** `n` months after an instant in the business zone, the day clamped to the month's end (addBusinessMonths) */
const plusMonths = (x: string, n: string, tz: string) => sql`(((${sql.raw(x)}) at time zone ${tz}) + make_interval(months => ${sql.raw(n)})) at time zone ${tz}`;

/** Bytes of one out-of-plan step per grade (rating.ts OVERAGE_STEP_BYTES); null for an unknown grade. */
const STEP_BYTES = sql.raw(`case overage_grade when ${OverageGrade.PerMb} then 1048576 when ${OverageGrade.Per10Mb} then 10485760
  when ${OverageGrade.Per100Mb} then 104857600 when ${OverageGrade.PerGb} then 1073741824 end::bigint`);

/**
 * Rates the cards of one chunk: upserts the bills of their customers (card count and unbilled bytes added), inserts
 * their lines (ON CONFLICT DO NOTHING: a chunk done twice writes each line once) and answers the counts. Cards of a
 * customer whose bill of the period is published are left alone.
 */
export function chunkSql(p: ChunkParams): SQL {
  const tz = p.timeZone;
  const ops = JSON.stringify(p.ops);
  const M = sql`${p.monthStart}::timestamptz`;
  const Mnext = sql`${p.monthEnd}::timestamptz`;
  return sql`
with op as materialized (
  select * from jsonb_to_recordset(${ops}::jsonb)
    as o(operator_id int, ps timestamptz, pe timestamptz, first_day date, last_day date, os timestamptz, oe timestamptz)
),
card as materialized (
  select c.iccid, c.state, c.operator_id, c.cust_id, cu.root_cust_id, c.goods_release_id, c.card_type_id,
    c.activated_at, c.contract_start_at, c.contract_end_at, c.test_end_at,
    p.goods_type, p.quota_mb, p.use_up_action, p.overage_grade, p.overage_price, p.test_quota_kb, p.test_price,
    p.downtime_fee, p.downtime_free_months, p.tax_rate, p.cycle_unit, greatest(p.cycle_value, 1) cycle_value,
    coalesce(r.sale_price, rr.sale_price, p.sale_price) sale_price,
    op.ps, op.pe, op.first_day, op.last_day, op.os, op.oe
  from cards c
  join customers cu on cu.cust_id = c.cust_id
  join basic_plans p on p.goods_release_id = c.goods_release_id
  join op on op.operator_id = c.operator_id
  left join plan_releases r on r.goods_release_id = c.goods_release_id and r.cust_id = c.cust_id
  left join plan_releases rr on rr.goods_release_id = c.goods_release_id and rr.cust_id = cu.root_cust_id
  where c.iccid > ${p.lo} and c.iccid <= ${p.hi} and c.cust_id is not null
    and (${p.custId}::int is null or c.cust_id = ${p.custId}::int)
    and not exists (select 1 from bills pb where pb.period_key = ${p.periodKey} and pb.cust_id = c.cust_id and pb.published)
),
-- the chunk's state changes (plan-change rows keep the state and are left out), each with when the next one came
hist as materialized (
  select h.iccid, h.at, h.from_state, h.to_state, lead(h.at) over (partition by h.iccid order by h.at, h.history_id) next_at
  from card_history h
  where h.iccid > ${p.lo} and h.iccid <= ${p.hi} and h.to_state is not null and h.to_state is distinct from h.from_state
),
-- the state at the month start: the last change before it, else the state before the first change, else today's
at_m as (
  select iccid, (array_agg(to_state order by at desc) filter (where at <= ${M}))[1] last_to, (array_agg(from_state order by at))[1] first_from
  from hist group by iccid
),
-- plan cycles and test periods whose usage is complete in the period (they end in it), with their quota
spans as materialized (
  -- a monthly plan's natural-month cycle ending in the period, from the contract start when that came later
  select c.iccid, 'c'::text kind, greatest(c.os, coalesce(c.contract_start_at, c.activated_at)) s, c.oe e,
    round(c.quota_mb * 1048576)::bigint quota
  from card c
  where c.goods_type = ${G.Monthly} and c.quota_mb > 0 and c.activated_at is not null
    and greatest(c.os, coalesce(c.contract_start_at, c.activated_at)) < c.oe
  union all
  -- a prepaid (or test) plan's cycles from the contract start, in steps of its cycle, the last one cut at the contract end
  select c.iccid, 'c', k.s, k.e, round(c.quota_mb * 1048576)::bigint
  from card c
  cross join lateral (
    select case when c.cycle_unit = 2 then greatest(1, floor(extract(epoch from c.ps - c.contract_start_at) / (c.cycle_value * 86400))::int)
        else greatest(1, ((extract(year from c.ps at time zone ${tz}) * 12 + extract(month from c.ps at time zone ${tz}))
          - (extract(year from c.contract_start_at at time zone ${tz}) * 12 + extract(month from c.contract_start_at at time zone ${tz})))::int / c.cycle_value - 1) end k_lo,
      case when c.cycle_unit = 2 then ceil(extract(epoch from c.pe - c.contract_start_at) / (c.cycle_value * 86400))::int + 1
        else ((extract(year from c.pe at time zone ${tz}) * 12 + extract(month from c.pe at time zone ${tz}))
          - (extract(year from c.contract_start_at at time zone ${tz}) * 12 + extract(month from c.contract_start_at at time zone ${tz})))::int / c.cycle_value + 2 end k_hi
  ) kr
  cross join lateral generate_series(kr.k_lo, kr.k_hi) g(k)
  cross join lateral (
    select b0 s, least(b1, c.contract_end_at) e from (
      select case when c.cycle_unit = 2 then c.contract_start_at + make_interval(secs => (g.k - 1) * c.cycle_value * 86400)
          else ${plusMonths('c.contract_start_at', '(g.k - 1) * c.cycle_value', tz)} end b0,
        case when c.cycle_unit = 2 then c.contract_start_at + make_interval(secs => g.k * c.cycle_value * 86400)
          else ${plusMonths('c.contract_start_at', 'g.k * c.cycle_value', tz)} end b1
    ) b
  ) k
  where c.goods_type <> ${G.Monthly} and c.quota_mb > 0 and c.contract_start_at is not null and c.contract_end_at is not null
    and c.contract_start_at < c.pe and k.s < c.contract_end_at and k.e > c.ps and k.e <= c.pe
  union all
  -- a test period ending in the period, against the test quota
  select c.iccid, 't', t.s, t.e, c.test_quota_kb::bigint * 1024
  from card c join (
    select h.iccid, h.at s, coalesce(h.next_at, case when c2.state = ${S.Test} then c2.test_end_at end) e
    from hist h join card c2 on c2.iccid = h.iccid where h.to_state = ${S.Test}
  ) t on t.iccid = c.iccid
  where c.test_quota_kb > 0 and t.e > c.ps and t.e <= c.pe
),
span_days as materialized (
  select sp.*, ${dayOf('sp.s', tz)} from_day, ${lastDayOf('sp.e', tz)} to_day from spans sp
),
used as (
  select sd.iccid, sd.kind, sd.s, sum(d.bytes)::bigint bytes
  from span_days sd join card_usage_daily d on d.iccid = sd.iccid and d.day >= sd.from_day and d.day <= sd.to_day
  where d.iccid > ${p.lo} and d.iccid <= ${p.hi}
    and d.day >= (select min(from_day) from span_days) and d.day <= (select max(to_day) from span_days)
  group by 1, 2, 3
),
-- the event packs ordered in a plan cycle add their quota to it (card_cycle_refresh rounds their sum the same way)
packs as (
  select sd.iccid, sd.s, round(sum(bp.quota_mb) * 1048576)::bigint bytes
  from span_days sd
  join card_event_packs e on e.iccid = sd.iccid and e.starts_at >= sd.s and e.starts_at < sd.e
  join basic_plans bp on bp.goods_release_id = e.pack_id
  where sd.kind = 'c'
  group by 1, 2
),
over as (
  select sd.iccid, sd.kind, sd.from_day, sd.to_day, coalesce(u.bytes, 0) used_bytes, sd.quota + coalesce(pk.bytes, 0) quota_bytes,
    greatest(coalesce(u.bytes, 0) - sd.quota - coalesce(pk.bytes, 0), 0) over_bytes,
    (sd.kind = 't' or c.use_up_action = ${PlanUseUpAction.Overdraw}) and c.overage_price is not null and ${STEP_BYTES} is not null charged,
    ${STEP_BYTES} step, c.overage_price
  from span_days sd
  join card c on c.iccid = sd.iccid
  left join used u on u.iccid = sd.iccid and u.kind = sd.kind and u.s = sd.s
  left join packs pk on pk.iccid = sd.iccid and pk.s = sd.s and sd.kind = 'c'
),
downs as (
  select c.iccid, h.at since,
    coalesce(h.next_at, case when c.state = ${S.Deactivated} then 'infinity'::timestamptz else h.at end) until,
    c.downtime_fee, c.ps, c.pe, greatest(c.downtime_free_months, 0) free,
    ((extract(year from c.ps at time zone ${tz}) * 12 + extract(month from c.ps at time zone ${tz}))
      - (extract(year from h.at at time zone ${tz}) * 12 + extract(month from h.at at time zone ${tz})))::int d
  from hist h join card c on c.iccid = h.iccid
  where h.to_state = ${S.Deactivated} and h.at < c.pe and c.downtime_fee > 0
),
down_months as (
  select dn.iccid, dn.since, dn.downtime_fee, count(*) months, min(m.s) first_s, max(m.e) last_e
  from downs dn
  cross join lateral generate_series(greatest(dn.free, dn.d - 1), dn.d + 1) g(k)
  cross join lateral (select ${plusMonths('dn.since', 'g.k', tz)} s, ${plusMonths('dn.since', 'g.k + 1', tz)} e) m
  where m.s >= dn.ps and m.s < least(dn.pe, dn.until)
  group by 1, 2, 3
),
raw_lines as (
  -- plan fee: a monthly plan's natural-month cycle starting at the month start while the card is activated
  select c.iccid, ${C.PlanFee}::smallint category, ${dayOf(M, tz)} from_day, ${dayOf(sql`${Mnext} - interval '1 millisecond'`, tz)} to_day,
    1::bigint quantity, c.sale_price unit_price, null::bigint used_bytes, null::bigint quota_bytes
  from card c left join at_m a on a.iccid = c.iccid
  where c.goods_type = ${G.Monthly} and c.activated_at <= ${M} and coalesce(a.last_to, a.first_from, c.state) = ${S.Activated}
  union all
  -- plan fee: the first cycle of a contract that started in the period (activation, plan change), in full
  select c.iccid, ${C.PlanFee}, ${dayOf('c.contract_start_at', tz)},
    ((date_trunc('month', c.contract_start_at at time zone ${tz}) + interval '1 month')::date - 1), 1, c.sale_price, null, null
  from card c
  where c.goods_type = ${G.Monthly} and c.contract_start_at >= c.ps and c.contract_start_at < c.pe and c.contract_start_at <> ${M}
  union all
  -- out-of-plan usage of the cycles and test periods that ended in the period
  select o.iccid, ${C.OutOfPlanUsage}, o.from_day, o.to_day, (o.over_bytes + o.step - 1) / o.step, o.overage_price, o.used_bytes, o.quota_bytes
  from over o where o.charged and o.over_bytes > 0
  union all
  -- test-period fee in the period the test started: a test plan's sale price, else the plan's test price
  select c.iccid, ${C.TestFee}, ${dayOf('h.at', tz)},
    coalesce(${lastDayOf('coalesce(h.next_at, case when c.state = ' + S.Test + ' then c.test_end_at end)', tz)}, ${dayOf('h.at', tz)}),
    1, case when c.goods_type = ${G.Test} then c.sale_price else c.test_price end, null, null
  from hist h join card c on c.iccid = h.iccid
  where h.to_state = ${S.Test} and h.at >= c.ps and h.at < c.pe
  union all
  -- downtime maintenance fee: the months of each deactivation after its free months that start in the period
  select dm.iccid, ${C.DowntimeFee}, ${dayOf('dm.first_s', tz)}, ${lastDayOf('dm.last_e', tz)}, dm.months, dm.downtime_fee, null, null
  from down_months dm
),
priced as (
  select l.*, c.cust_id, c.goods_release_id, c.operator_id, c.card_type_id, (l.quantity * l.unit_price * 100) incl_fen,
    div(2 * l.quantity * l.unit_price * 100 * 10000 + (10000 + c.tax_rate * 100), 2 * (10000 + c.tax_rate * 100)) excl_fen
  from raw_lines l join card c on c.iccid = l.iccid
  where l.quantity * l.unit_price > 0
),
custs as (
  select c.cust_id, min(c.root_cust_id) root_cust_id, min(c.first_day) period_from, max(c.last_day) period_to, count(*)::int cards,
    coalesce(sum(u.unbilled), 0)::bigint unbilled
  from card c left join (select iccid, sum(over_bytes) unbilled from over where not charged group by iccid) u on u.iccid = c.iccid
  group by c.cust_id
),
b as (
  insert into bills (bill_no, period_key, cust_id, root_cust_id, period_from, period_to, card_count, unbilled_over_bytes, run_id)
  select 'B' || replace(${p.periodKey}, '-', '') || lpad(cust_id::text, 8, '0'), ${p.periodKey}, cust_id, root_cust_id,
    period_from, period_to, cards, unbilled, ${p.runId}
  from custs
  on conflict (period_key, cust_id) do update set
    period_from = least(bills.period_from, excluded.period_from), period_to = greatest(bills.period_to, excluded.period_to),
    card_count = bills.card_count + excluded.card_count, unbilled_over_bytes = bills.unbilled_over_bytes + excluded.unbilled_over_bytes,
    run_id = excluded.run_id, updated_at = now()
  where not bills.published
  returning bill_id, cust_id
),
ins as (
  insert into bill_lines (period_key, bill_id, iccid, category, from_day, to_day, ref_id, goods_release_id, operator_id, card_type_id,
    quantity, unit_price, amount, tax, used_bytes, quota_bytes, withheld)
  select ${p.periodKey}, b.bill_id, l.iccid, l.category, l.from_day, l.to_day, 0, l.goods_release_id, l.operator_id, l.card_type_id,
    l.quantity, l.unit_price, l.incl_fen / 100, (l.incl_fen - l.excl_fen) / 100, l.used_bytes, l.quota_bytes, false
  from priced l join b on b.cust_id = l.cust_id
  -- written by category: a page of one category of a big bill then reads a few heap pages of the chunk, not one per line
  order by b.bill_id, l.category, l.iccid, l.from_day
  on conflict do nothing
  returning 1
)
select (select count(*) from card)::int cards, (select count(*) from ins)::int lines`;
}

/**
 * The one-off fees due on the period's bills (pending, dated up to the period's last day) of the run's scope, as
 * category-7 lines (ICCID '' for a fee on the customer), each marked billed with its bill in the same statement.
 */
export function oneOffSql(a: { periodKey: string; runId: number; custId: number | null; periodFrom: string; periodTo: string }): SQL {
  return sql`
with f as (
  select f.fee_id, f.cust_id, cu.root_cust_id, f.iccid, f.amount, f.tax_rate, f.fee_day
  from one_off_fees f join customers cu on cu.cust_id = f.cust_id
  where f.state = ${OneOffFeeState.Pending} and f.fee_day <= ${a.periodTo}::date
    and (${a.custId}::int is null or f.cust_id = ${a.custId}::int)
    and not exists (select 1 from bills pb where pb.period_key = ${a.periodKey} and pb.cust_id = f.cust_id and pb.published)
  for update of f
),
b as (
  insert into bills (bill_no, period_key, cust_id, root_cust_id, period_from, period_to, run_id)
  select distinct 'B' || replace(${a.periodKey}, '-', '') || lpad(cust_id::text, 8, '0'), ${a.periodKey}, cust_id, root_cust_id,
    ${a.periodFrom}::date, ${a.periodTo}::date, ${a.runId}::bigint
  from f
  on conflict (period_key, cust_id) do update set updated_at = now() where not bills.published
  returning bill_id, cust_id
),
ins as (
  insert into bill_lines (period_key, bill_id, iccid, category, from_day, to_day, ref_id, goods_release_id, operator_id, card_type_id,
    quantity, unit_price, amount, tax, withheld)
  select ${a.periodKey}, b.bill_id, coalesce(f.iccid, ''), ${C.OneOffFee}, f.fee_day, f.fee_day, f.fee_id, c.goods_release_id, c.operator_id,
    c.card_type_id, 1, f.amount, f.amount,
    (f.amount * 100 - div(2 * f.amount * 100 * 10000 + (10000 + f.tax_rate * 100), 2 * (10000 + f.tax_rate * 100))) / 100, false
  from f join b on b.cust_id = f.cust_id left join cards c on c.iccid = f.iccid
  on conflict do nothing
  returning 1
),
upd as (
  update one_off_fees o set state = ${OneOffFeeState.Billed}, bill_id = b.bill_id
  from f join b on b.cust_id = f.cust_id where o.fee_id = f.fee_id
  returning 1
)
select (select count(*) from ins)::int lines, (select count(*) from upd)::int fees`;
}

/**
 * The charges at the event of the period (prepaid plan terms and packs, recorded by the card changes: billing/charges)
 * as category 2 and 6 lines of their customers' bills, `ref_id` the charge record; withheld ones are listed, not due
 * again. The charged customer's bill, whoever owns the card now.
 */
export function chargesSql(a: { periodKey: string; runId: number; custId: number | null; periodFrom: string; periodTo: string }): SQL {
  return sql`
with ch as (
  select ch.charge_id, ch.cust_id, ch.root_cust_id, ch.category, ch.goods_release_id, ch.state
  from card_charges ch
  where ch.period_key = ${a.periodKey} and (${a.custId}::int is null or ch.cust_id = ${a.custId}::int)
    and not exists (select 1 from bills pb where pb.period_key = ${a.periodKey} and pb.cust_id = ch.cust_id and pb.published)
),
b as (
  insert into bills (bill_no, period_key, cust_id, root_cust_id, period_from, period_to, run_id)
  select distinct 'B' || replace(${a.periodKey}, '-', '') || lpad(cust_id::text, 8, '0'), ${a.periodKey}, cust_id, root_cust_id,
    ${a.periodFrom}::date, ${a.periodTo}::date, ${a.runId}::bigint
  from ch
  on conflict (period_key, cust_id) do update set updated_at = now() where not bills.published
  returning bill_id, cust_id
)
insert into bill_lines (period_key, bill_id, iccid, category, from_day, to_day, ref_id, goods_release_id, operator_id, card_type_id,
  quantity, unit_price, amount, tax, withheld)
select ${a.periodKey}, b.bill_id, i.iccid, ch.category, i.from_day, i.to_day, ch.charge_id, ch.goods_release_id, i.operator_id, i.card_type_id,
  i.quantity, i.unit_price, i.amount, i.tax, ch.state = ${ChargeState.Withheld}
from ch join b on b.cust_id = ch.cust_id join card_charge_items i on i.charge_id = ch.charge_id
order by b.bill_id, ch.category, i.iccid
on conflict do nothing`;
}

/** The unpublished bills of the run's scope. */
const scopeBills = (periodKey: string, custId: number | null) =>
  sql`select bill_id from bills where period_key = ${periodKey} and not published and (${custId}::int is null or cust_id = ${custId}::int)`;

/** Totals by category (sums of the lines, never re-rounded), amount due, line count, and the breakdowns. */
export function totalsSql(a: { periodKey: string; runId: number; custId: number | null }): SQL[] {
  const amount = (cat: number) => sql.raw(`coalesce(sum(amount) filter (where category = ${cat}), 0)`);
  return [
    sql`
with agg as (
  select bill_id, sum(amount) total, sum(tax) tax, ${amount(C.PlanFee)} plan_fee, ${amount(C.PrepaidPlanFee)} prepaid_fee,
    ${amount(C.OutOfPlanUsage)} overage_fee, ${amount(C.TestFee)} test_fee, ${amount(C.DowntimeFee)} downtime_fee,
    ${amount(C.PackFee)} pack_fee, ${amount(C.OneOffFee)} one_off_fee, coalesce(sum(amount) filter (where withheld), 0) withheld, count(*) lines
  from bill_lines where period_key = ${a.periodKey} and bill_id in (${scopeBills(a.periodKey, a.custId)})
  group by bill_id
)
update bills b set total = coalesce(g.total, 0), tax = coalesce(g.tax, 0), plan_fee = coalesce(g.plan_fee, 0),
  prepaid_fee = coalesce(g.prepaid_fee, 0), overage_fee = coalesce(g.overage_fee, 0), test_fee = coalesce(g.test_fee, 0),
  downtime_fee = coalesce(g.downtime_fee, 0), pack_fee = coalesce(g.pack_fee, 0), one_off_fee = coalesce(g.one_off_fee, 0),
  withheld = coalesce(g.withheld, 0), amount_due = coalesce(g.total, 0) - coalesce(g.withheld, 0), line_count = coalesce(g.lines, 0),
  run_id = ${a.runId}, rated_at = now(), updated_at = now()
from bills s left join agg g on g.bill_id = s.bill_id
where b.bill_id = s.bill_id and s.bill_id in (${scopeBills(a.periodKey, a.custId)})`,
    sql`delete from bill_summaries where bill_id in (${scopeBills(a.periodKey, a.custId)})`,
    sql`
insert into bill_summaries (bill_id, dim, dim_key, category, cards, quantity, amount, tax, used_bytes)
select bill_id,
  case when grouping(goods_release_id) = 0 then 1 when grouping(operator_id) = 0 then 2 else 3 end,
  case when grouping(goods_release_id) = 0 then coalesce(goods_release_id, 0) when grouping(operator_id) = 0 then coalesce(operator_id, 0)
    else coalesce(card_type_id, 0) end,
  category, count(distinct nullif(iccid, '')), sum(quantity), sum(amount), sum(tax), coalesce(sum(used_bytes), 0)
from bill_lines
where period_key = ${a.periodKey} and bill_id in (${scopeBills(a.periodKey, a.custId)})
group by grouping sets ((bill_id, category, goods_release_id), (bill_id, category, operator_id), (bill_id, category, card_type_id))`,
  ];
}
