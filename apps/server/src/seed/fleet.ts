// The fleet-scale seed (`npm run seed -- --cards 1000000`): cards for the demo customers and their second-level
// customers, with states, plans, labels, lifecycle facts and a month of daily usage, written by set-based SQL
// (generate_series) in chunks, so a million cards take minutes, not hours. Every choice is a hash of the seed
// and the card's number, so the same seed gives the same cards (times are relative to the start of the seeding
// day, the business time zone). Runs on PostgreSQL and PGlite. Design note: docs/performance.md "Fleet seed".
import { BASE_TARIFFS, CardChangeSource, CardState, PlanCycleUnit, PlanGoodsType, PlanRenewalMode, businessDay, businessDayStart, getBusinessTimeZone, formatCount } from '@lynx/contract';
import type { SqlClient } from '../db/client.ts';

export interface FleetOptions {
  cards: number;
  /** the random seed: the same seed gives the same cards */
  seed?: number;
  /** days of daily usage, ending yesterday (the business time zone) */
  usageDays?: number;
  /** cards per statement */
  chunk?: number;
  now?: Date;
  log?: (line: string) => void;
}

export interface FleetResult {
  cards: number;
  zoneBlocks: number;
  history: number;
  usageRows: number;
  rollupRows: number;
  labels: number;
  ms: { cardsAndUsage: number; indexes: number; rollup: number; analyze: number; total: number };
}

/** Fleet cards are told apart from demo and imported cards by the 7th ICCID digit. */
export const FLEET_ICCID_LIKE = '8986__9%';
export const FLEET_MAX_CARDS = 10_000_000;

const DAY_MS = 86_400_000;
/** ICCID issuer code (digits 5-6) and IMSI MNC of each operator. */
const ICCID_CODE: Record<number, string> = { 1: '00', 2: '01', 3: '03' };
const IMSI_MNC: Record<number, string> = { 1: '00', 2: '01', 3: '11' };
const BUILT_IN_APN: Record<number, string> = { 1: 'cmiot', 2: 'scuiot', 3: 'ctnet' };

/** Share of each state among cards that belong to a customer (the rest of the fleet is platform stock, state start). */
const STATE_MIX: [number, number][] = [
  [CardState.Activated, 0.7], [CardState.Test, 0.05], [CardState.ActivationReady, 0.04], [CardState.Inventory, 0.05],
  [CardState.Deactivated, 0.12], [CardState.Frozen, 0.015], [CardState.Invalidated, 0.015], [CardState.Retired, 0.01],
];
const STOCK_SHARE = 0.1;
const LABELS = [
  { zh: '冷链车队', colour: '#1677ff' }, { zh: '城配车辆', colour: '#52c41a' }, { zh: '重点客户', colour: '#fa8c16' },
  { zh: '智能电表', colour: '#722ed1' }, { zh: '待回收', colour: '#8c8c8c' },
];

const num = (v: number) => (Number.isFinite(v) ? String(v) : 'null');
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** A VALUES list with typed columns; an empty list is one row of nulls that matches nothing, so joins stay valid. */
function values(rows: (string | number | null)[][], types: string[], alias: string): string {
  const cell = (v: string | number | null, k: number) => `(${v === null ? 'null' : typeof v === 'number' ? num(v) : v})::${types[k]}`;
  const body = (rows.length ? rows : [types.map(() => null)]).map((r) => `(${r.map(cell).join(', ')})`).join(', ');
  return `(values ${body}) as ${alias}`;
}

/** Uniform [0, 1) from the seed, the card number `i` and a stream number `k`: deterministic on every server. */
const uniform = (seed: number, i: string, k: number) =>
  `((hashint8((${i}) * 1000003 + ${k * 7919 + (seed % 1_000_000) * 104729})::float8 + 2147483648) / 4294967296.0)`;

export async function seedFleet(sql: SqlClient, opts: FleetOptions): Promise<FleetResult> {
  const t0 = performance.now();
  const log = opts.log ?? (() => {});
  const n = opts.cards;
  if (!Number.isInteger(n) || n < 1 || n > FLEET_MAX_CARDS) throw new Error(`--cards must be a whole number from 1 to ${FLEET_MAX_CARDS}`);
  const seed = opts.seed ?? 20261122;
  const days = opts.usageDays ?? 30;
  const chunk = opts.chunk ?? 50_000;
  const now = opts.now ?? new Date();
  // times of the cards are relative to 00:00 (business zone) of the seeding day, so a seed gives the same rows all day
  const base = businessDayStart(businessDay(now.getTime()));
  const u = (i: string, k: number) => uniform(seed, i, k);

  const [{ n: existing }] = await sql.query<{ n: string }>(`select count(*) n from cards where iccid like $1`, [FLEET_ICCID_LIKE]);
  if (Number(existing) > 0) throw new Error(`the database already holds ${existing} fleet cards: seed a fresh database (the fleet seed does not add to or replace an earlier one)`);

  // ---- what the demo data offers: customers, operators, plans, labels, card types, APNs ------------------------
  const customers = await sql.query<{ cust_id: number; root_cust_id: number; level: number }>(
    'select cust_id, root_cust_id, level from customers order by cust_id');
  if (customers.length === 0) throw new Error('no customers: run the demo seed first (start the server once on an empty database, or npm run seed without --cards)');
  const operators = await sql.query<{ operator_id: number }>('select operator_id from operators order by operator_id');
  const plans = await sql.query<{ id: number; root: number; op: number; goods_type: number; cycle_unit: number; cycle_value: number; duration: number; renewal: number; mode: number }>(
    `select distinct b.goods_release_id id, r.root_cust_id root, b.operator_id op, b.goods_type, b.cycle_unit, b.cycle_value, b.duration_months duration,
       b.renewal_mode renewal, b.operation_mode mode
     from plan_releases r join basic_plans b on b.goods_release_id = r.goods_release_id
     where b.tariff_type = any($1::int[]) and b.operator_id is not null order by r.root_cust_id, b.operator_id, b.goods_release_id`, [[...BASE_TARIFFS]]);
  const planApns = await sql.query<{ id: number; apns: string[] }>(
    `select pa.goods_release_id id, array_agg(a.apn_name order by a.apn_name) apns from plan_apns pa join apns a on a.apn_id = pa.apn_id
     where pa.goods_release_id = any($1::int[]) group by pa.goods_release_id`, [plans.map((p) => p.id)]);
  const publicApns = await sql.query<{ operator_id: number; apn_name: string }>(
    `select distinct on (operator_id) operator_id, apn_name from apns where apn_type = 1 and status = 1 order by operator_id, apn_id`).catch(() => []);
  const hasLabels = (await sql.query<{ t: string | null }>(`select to_regclass('card_labels')::text t`))[0].t != null;
  const hasTypes = (await sql.query<{ t: string | null }>(`select to_regclass('card_types')::text t`))[0].t != null;
  const hasRollup = (await sql.query<{ t: string | null }>(`select to_regclass('card_usage_daily_cust')::text t`))[0].t != null;
  const hasUsage = (await sql.query<{ t: string | null }>(`select to_regclass('card_usage_daily')::text t`))[0].t != null;

  // owners: 10 % platform stock, then first-level customers weigh 2 and second-level customers 1
  const weights = customers.map((c) => (c.level === 1 ? 2 : 1));
  const total = weights.reduce((a, b) => a + b, 0);
  let acc = STOCK_SHARE;
  const owners = customers.map((c, k) => {
    const lo = acc;
    acc += ((1 - STOCK_SHARE) * weights[k]) / total;
    return [lo, k === customers.length - 1 ? 1.000001 : acc, c.cust_id, c.root_cust_id];
  });
  // operators: China Mobile 40 %, the others share the rest
  const opShare = (id: number) => (id === 1 ? 0.4 : 0.6 / Math.max(1, operators.length - 1));
  acc = 0;
  const ops = operators.map((o, k) => {
    const lo = acc;
    acc += opShare(o.operator_id);
    return [lo, k === operators.length - 1 ? 1.000001 : acc, o.operator_id, lit(ICCID_CODE[o.operator_id] ?? String(o.operator_id % 100).padStart(2, '0')),
      lit(IMSI_MNC[o.operator_id] ?? String(o.operator_id % 100).padStart(2, '0'))];
  });
  acc = 0;
  const states = STATE_MIX.map(([s, w], k) => {
    const lo = acc;
    acc += w;
    return [lo, k === STATE_MIX.length - 1 ? 1.000001 : acc, s];
  });
  // plans per (first-level customer, operator): the card takes one of them
  const groups = new Map<string, typeof plans>();
  for (const p of plans) groups.set(`${p.root}:${p.op}`, [...(groups.get(`${p.root}:${p.op}`) ?? []), p]);
  const planRows = [...groups.values()].flatMap((g) => g.map((p, idx) => [p.root, p.op, idx, g.length, p.id, p.goods_type, p.cycle_unit, Math.max(1, p.cycle_value), Math.max(1, p.duration), p.renewal, p.mode]));
  const apnOf = new Map(planApns.map((p) => [p.id, p.apns]));
  const defaultApn = new Map(operators.map((o) => [o.operator_id, publicApns.find((a) => a.operator_id === o.operator_id)?.apn_name ?? BUILT_IN_APN[o.operator_id] ?? 'iot']));

  // labels: five per first-level customer, made if missing
  let labelRows: (string | number)[][] = [];
  if (hasLabels) {
    const roots = customers.filter((c) => c.level === 1);
    for (const r of roots) {
      for (const l of LABELS) {
        await sql.query(
          `insert into card_labels (name, colour, description, cust_id, root_cust_id, created_by)
           select $1, $2, '批量演示数据', $3, $3, 'seed' where not exists (select 1 from card_labels where cust_id = $3 and lower(name) = lower($1))`,
          [l.zh, l.colour, r.cust_id]);
      }
    }
    const labels = await sql.query<{ root: number; ids: number[] }>(
      `select root_cust_id root, array_agg(label_id order by label_id) ids from card_labels where cust_id = root_cust_id and cust_id = any($1::int[]) group by root_cust_id`,
      [roots.map((r) => r.cust_id)]);
    labelRows = labels.map((l) => [l.root, l.ids.length, `array[${l.ids.map(Number).join(',')}]::int[]`]);
  }
  const types = hasTypes ? (await sql.query<{ id: number }>('select card_type_id id from card_types order by card_type_id')).map((r) => Number(r.id)) : [];
  log(`fleet seed: ${formatCount(n)} cards, seed ${seed}, ${customers.length} customers, ${operators.length} operators, ${plans.length} plan choices, ` +
    `${labelRows.length ? 'labels' : 'no labels'}, ${days} days of usage`);

  // ---- cards, their history and the zones their deactivation blocked ------------------------------------------------
  const baseLit = `${lit(base.toISOString())}::timestamptz`;
  const nowLit = `${lit(now.toISOString())}::timestamptz`;
  // wall-clock arithmetic (months, days) happens in the business zone
  const zone = lit(getBusinessTimeZone());
  const local = (ts: string) => `((${ts}) at time zone ${zone})`;
  const utc = (localTs: string) => `((${localTs}) at time zone ${zone})`;
  const cardSql = (lo: number, hi: number, usage: string | null) => `
    with g as (
      select i, ${u('i', 1)} r_owner, ${u('i', 2)} r_op, ${u('i', 3)} r_state, ${u('i', 4)} r_act, ${u('i', 5)} r_plan, ${u('i', 6)} r_online,
        ${u('i', 7)} r_misc, ${u('i', 8)} r_label, ${u('i', 9)} r_label2, ${u('i', 10)} r_created, ${u('i', 11)} r_custom
      from generate_series(${lo}::bigint, ${hi}::bigint) i
    ), o as (
      select g.*, ow.cust_id, ow.root_cust_id, op.operator_id, op.code, op.mnc,
        case when ow.cust_id is null then ${CardState.Start} else st.state end state0
      from g
      join ${values(owners, ['float8', 'float8', 'int', 'int'], 'ow(lo, hi, cust_id, root_cust_id)')} on g.r_owner >= ow.lo and g.r_owner < ow.hi
      join ${values(ops, ['float8', 'float8', 'int', 'text', 'text'], 'op(lo, hi, operator_id, code, mnc)')} on g.r_op >= op.lo and g.r_op < op.hi
      join ${values(states, ['float8', 'float8', 'int'], 'st(lo, hi, state)')} on g.r_state >= st.lo and g.r_state < st.hi
      union all
      select g.*, null, null, op.operator_id, op.code, op.mnc, ${CardState.Start}
      from g join ${values(ops, ['float8', 'float8', 'int', 'text', 'text'], 'op(lo, hi, operator_id, code, mnc)')} on g.r_op >= op.lo and g.r_op < op.hi
      where g.r_owner < ${STOCK_SHARE}
    ), p as (
      select o.*, pl.plan_id, pl.goods_type, pl.cycle_unit, pl.cycle_value, pl.duration, pl.renewal, pl.mode,
        o.state0 in (${CardState.Activated}, ${CardState.Deactivated}, ${CardState.Frozen}, ${CardState.Invalidated}, ${CardState.Retired}) used,
        ${baseLit} - make_interval(secs => 3600 + floor(o.r_act * 364 * 86400)::int) act
      from o
      left join ${values(planRows, ['int', 'int', 'int', 'int', 'int', 'int', 'int', 'int', 'int', 'int', 'int'], 'pl(root, op, idx, n, plan_id, goods_type, cycle_unit, cycle_value, duration, renewal, mode)')}
        on o.cust_id is not null and pl.root = o.root_cust_id and pl.op = o.operator_id and pl.idx = floor(o.r_plan * pl.n)::int
    ), a as (
      select p.*, ${local('p.act')} al, ${local(nowLit)} nl,
        (extract(year from ${local(nowLit)}) * 12 + extract(month from ${local(nowLit)}))::int
          - (extract(year from ${local('p.act')}) * 12 + extract(month from ${local('p.act')}))::int months_apart
      from p
    ), f as (
      -- whole months from the activation to now (the activation's day and time clamped like addBusinessMonths)
      select a.*, months_apart - case when al + make_interval(months => months_apart) > nl then 1 else 0 end full_months
      from a
    ), n as (
      -- contract months so the contract covers now: auto-renew adds whole plan periods; renewal off ends it
      select f.*,
        case when goods_type = ${PlanGoodsType.Monthly} then months_apart + 1 else full_months + 1 end need_months
      from f
    ), c as (
      select n.*,
        case
          when plan_id is null or not used then 0
          when state0 = ${CardState.Activated} and renewal = ${PlanRenewalMode.AutoRenew} and duration < need_months
            then duration + duration * ceil((need_months - duration)::numeric / duration)::int
          else duration
        end months,
        -- renewal off and the contract over: the scheduler would have deactivated the card at its end
        case when plan_id is not null and used and state0 = ${CardState.Activated} and renewal <> ${PlanRenewalMode.AutoRenew} and duration < need_months
          then ${CardState.Deactivated} else state0 end state
      from n
    ), e as (
      select c.*,
        case when months = 0 then null
          when goods_type = ${PlanGoodsType.Monthly} then ${utc("date_trunc('month', al) + make_interval(months => months)")}
          else ${utc('al + make_interval(months => months)')} end contract_end,
        case when months = 0 then 0
          when goods_type = ${PlanGoodsType.Monthly} then months_apart + 1
          when cycle_unit = ${PlanCycleUnit.Day} then floor(extract(epoch from ${nowLit} - act) / (cycle_value * 86400))::int + 1
          else floor(full_months::numeric / cycle_value)::int + 1 end cycles_now
      from c
    ), k as (
      select e.*,
        case when months = 0 then 0
          when goods_type = ${PlanGoodsType.Monthly} then months
          when cycle_unit = ${PlanCycleUnit.Day} then ceil(extract(epoch from contract_end - act) / (cycle_value * 86400))::int
          else ceil(months::numeric / cycle_value)::int end cycles_total
      from e
    ), y as (
      select k.*, least(cycles_now, cycles_total) cycles from k
    ), b as (
      -- cycle boundaries k - 1 and k of the current cycle k (card/lifecycle/time.ts cycleBoundary)
      select y.*,
        case when months = 0 then null
          when goods_type = ${PlanGoodsType.Monthly} then ${utc("date_trunc('month', al) + make_interval(months => cycles - 1)")}
          when cycle_unit = ${PlanCycleUnit.Day} then act + make_interval(days => (cycles - 1) * cycle_value)
          else ${utc('al + make_interval(months => (cycles - 1) * cycle_value)')} end bound_prev,
        case when months = 0 then null
          when goods_type = ${PlanGoodsType.Monthly} then ${utc("date_trunc('month', al) + make_interval(months => greatest(1, cycles))")}
          when cycle_unit = ${PlanCycleUnit.Day} then act + make_interval(days => greatest(1, cycles) * cycle_value)
          else ${utc('al + make_interval(months => greatest(1, cycles) * cycle_value)')} end bound_next
      from y
    ), z as (
      select b.*,
        case when used then act end activated_at,
        case when state = ${CardState.Test} then ${baseLit} + make_interval(secs => floor((2 + r_misc * 88) * 86400)::int) end test_end,
        case when state = ${CardState.Inventory} then ${baseLit} + make_interval(secs => floor((2 + r_misc * 178) * 86400)::int) end silent_end,
        case when months = 0 then null when cycles <= 1 then act else bound_prev end cycle_start,
        case when months = 0 then null else least(bound_next, contract_end) end cycle_end,
        state = ${CardState.Activated} and r_online < 0.45 online
      from b
    ), ins as (
      insert into cards (iccid, msisdn, imsi, imei, state, operator_id, cust_id, root_cust_id, goods_release_id, operation_mode, renewal_mode,
      card_type_id, batch_no, label_ids, custom1, online, last_session_at, activated_at, first_used_at, test_end_at, silent_end_at,
      contract_start_at, contract_months, cycles_used, contract_end_at, cycle_start_at, cycle_end_at, next_deadline_at, frozen_from, created_at, updated_at)
    select
      '8986' || code || '9' || lpad(i::text, 13, '0'),
      '10649' || lpad(i::text, 8, '0'),
      '460' || mnc || '9' || lpad(i::text, 9, '0'),
      case when used then '86' || lpad(i::text, 13, '0') end,
      state, operator_id, cust_id, root_cust_id,
      case when state = ${CardState.Start} then null else plan_id end,
      case when state = ${CardState.Start} then null else mode end,
      case when state = ${CardState.Start} then null else renewal end,
      ${types.length ? `case when cust_id is not null then (array[${types.join(',')}]::int[])[1 + (i % ${types.length})::int] end` : 'null'},
      'FLEET-' || code || '-' || lpad((i / 100000)::text, 3, '0'),
      ${labelRows.length ? `coalesce(case when r_label < 0.3 then (select array[lb.ids[1 + floor(r_label2 * lb.n)::int]] from ${values(labelRows, ['int', 'int', 'int[]'], 'lb(root, n, ids)')} where lb.root = z.root_cust_id) end, '{}')` : `'{}'`},
      case when cust_id is not null and r_custom < 0.2 then 'VIN' || lpad(i::text, 9, '0') end,
      online,
      case when state = ${CardState.Activated} then ${nowLit} - make_interval(secs => floor(case when online then r_misc * 3600 else r_misc * 5 * 86400 end)::int)
        when used then greatest(act, ${baseLit} - make_interval(secs => floor(r_misc * 90 * 86400)::int)) end,
      case when used then act end,
      case when used then act + make_interval(secs => floor(r_misc * 86400)::int) end,
      test_end, silent_end,
      case when months > 0 then act end, months, cycles, contract_end, cycle_start, cycle_end,
      case when state = ${CardState.Activated} then cycle_end when state = ${CardState.Test} then test_end when state = ${CardState.Inventory} then silent_end end,
      case when state = ${CardState.Frozen} then ${CardState.Activated} end,
      coalesce(act, ${baseLit}) - make_interval(secs => floor((1 + r_created * 60) * 86400)::int),
      ${baseLit}
    from z
      returning iccid, state, operator_id, cust_id, root_cust_id, goods_release_id, activated_at, created_at, last_session_at
    ), zb as (
      -- a deactivated card has all its zones blocked (lifecycle rule), permitted again when it is activated
      insert into card_zone_blocks (iccid, kind, target_id, by_deactivation, blocked_at, blocked_by)
      select ins.iccid, 'zone', pz.zone_id, true, ins.last_session_at + interval '1 hour', 'seed'
      from ins join plan_zones pz on pz.goods_release_id = ins.goods_release_id
      where ins.state = ${CardState.Deactivated}
      returning 1
    ), h as (
      insert into card_history (iccid, from_state, to_state, source, actor, note_zh, note_en, at)
      select iccid, ${CardState.Start}, state, ${CardChangeSource.User}, 'seed', '演示数据', 'demo data', coalesce(activated_at, created_at + interval '1 day')
      from ins where state <> ${CardState.Start}
      returning 1
    )${usage ? `, us as (${usage}
      returning 1
    )` : ''}
    select (select count(*) from ins) cards, (select count(*) from zb) zone_blocks, (select count(*) from h) history,
      ${usage ? '(select count(*) from us)' : '0'} usage_rows`;

  // ---- a month of daily usage for the activated cards, written with them ------------------------------------------------
  const firstDay = businessDay(base.getTime() - days * DAY_MS + 12 * 3_600_000);
  const withUsage = hasUsage && days > 0;
  if (withUsage) {
    // the usage tables are partitioned by month; the server keeps 13 months ready, this makes sure of the seeded ones
    await sql.query(`select usage_ensure_partitions($1::date, $2::date)`, [firstDay, businessDay(base.getTime())]);
  }
  const apnRows = [...apnOf.entries()].map(([id, list]) => [id, `array[${list.map(lit).join(',')}]::text[]`]);
  const opApn = [...defaultApn.entries()].map(([id, apn]) => [id, lit(apn)]);
  const usageSql = `
      insert into card_usage_daily (iccid, day, bytes_up, bytes_down, bytes, sms, voice_seconds, sessions, apn, operator_id, cust_id, root_cust_id, updated_at)
      select iccid, day, up, down, up + down, sms, voice, sessions, apn, operator_id, cust_id, root_cust_id, ${baseLit}
      from (
        select c.iccid, (${lit(firstDay)}::date + d) as day, c.operator_id, c.cust_id, c.root_cust_id,
          coalesce(pa.apns[1 + (c.num % array_length(pa.apns, 1))::int], oa.apn) apn,
          -- the card's level (most cards use little, a few a lot) times the day's variation, in bytes
          floor(c.level * 0.12 * (0.3 + 1.4 * ${u('c.num * 40 + d', 13)}))::bigint up,
          floor(c.level * 0.88 * (0.3 + 1.4 * ${u('c.num * 40 + d', 14)}))::bigint down,
          floor(${u('c.num * 40 + d', 15)} * 4)::int sms,
          case when ${u('c.num * 40 + d', 16)} < 0.1 then floor(${u('c.num * 40 + d', 17)} * 600)::int else 0 end voice,
          1 + floor(${u('c.num * 40 + d', 18)} * 24)::int sessions,
          ${u('c.num * 40 + d', 12)} r_day, c.first_day
        from (
          select iccid, right(iccid, 13)::bigint num, operator_id, cust_id, root_cust_id, goods_release_id,
            (0.2 + 60 * power(${u('right(iccid, 13)::bigint', 19)}, 3)) * 1048576 level,
            (activated_at at time zone ${zone})::date first_day
          from ins where state = ${CardState.Activated}
        ) c
        cross join generate_series(0, ${Math.max(0, days - 1)}) d
        left join ${values(apnRows, ['int', 'text[]'], 'pa(plan_id, apns)')} on pa.plan_id = c.goods_release_id
        left join ${values(opApn, ['int', 'text'], 'oa(operator_id, apn)')} on oa.operator_id = c.operator_id
      ) x
      where day >= first_day and r_day < 0.85`;

  let zoneBlocks = 0;
  let history = 0;
  let usageRows = 0;
  let msIndexes = 0;
  const tCards = performance.now();
  // All or nothing: one transaction. A large fleet (at least as many cards as are stored) is loaded with the
  // secondary indexes of the tables it fills dropped and built again at the end (PostgreSQL's advice for bulk
  // loads: one sorted build instead of millions of random index inserts); the definitions are read from the
  // catalog, so they come back exactly as the migrations made them. The statements lock those tables meanwhile.
  const [{ n: stored }] = await sql.query<{ n: string }>('select count(*) n from cards');
  const bulk = n >= 50_000 && n >= Number(stored);
  await sql.transaction(async (tx) => {
    // JIT compiling these wide statements costs more than running them (minutes at 50,000 cards on PostgreSQL 15)
    await tx.exec(`set local synchronous_commit = off; set local jit = off; set local maintenance_work_mem = '256MB'`);
    const tables = ['cards', 'card_history', ...(withUsage ? ['card_usage_daily'] : [])];
    const indexes = bulk
      ? await tx.query<{ name: string; def: string }>(`
          select c.relname name, pg_get_indexdef(i.indexrelid) def
          from pg_index i join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
          where t.relname = any($1::text[]) and t.relnamespace = current_schema()::regnamespace
            and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
          order by t.relname, c.relname`, [tables])
      : [];
    for (const ix of indexes) await tx.exec(`drop index "${ix.name.replace(/"/g, '')}"`);
    if (indexes.length) log(`  bulk load: ${indexes.length} secondary indexes of ${tables.join(', ')} are built again at the end`);
    for (let lo = 1; lo <= n; lo += chunk) {
      const hi = Math.min(n, lo + chunk - 1);
      const [r] = await tx.query<{ cards: string; zone_blocks: string; history: string; usage_rows: string }>(cardSql(lo, hi, withUsage ? usageSql : null));
      zoneBlocks += Number(r.zone_blocks);
      history += Number(r.history);
      usageRows += Number(r.usage_rows);
      if (hi === n || (hi / chunk) % 4 === 0) {
        log(`  cards ${formatCount(hi)} / ${formatCount(n)}, ${formatCount(usageRows)} daily usage rows (${((performance.now() - tCards) / 1000).toFixed(1)} s)`);
      }
    }
    const tIx = performance.now();
    // an index of a partitioned table is read back as "ON ONLY <parent>": build it on every partition again
    for (const ix of indexes) await tx.exec(ix.def.replace(/ ON ONLY /, ' ON '));
    msIndexes = performance.now() - tIx;
    if (indexes.length) log(`  ${indexes.length} indexes built in ${(msIndexes / 1000).toFixed(1)} s`);
  });
  const msCards = performance.now() - tCards;

  // ---- the per-customer rollup the dashboards read, and the statistics the planner needs -------------------------------
  const tRollup = performance.now();
  let rollupRows = 0;
  if (hasRollup && usageRows > 0) {
    const [r] = await sql.query<{ n: string }>(`
      with ins as (
        insert into card_usage_daily_cust (day, cust_id, root_cust_id, operator_id, apn, bytes, sms, voice_seconds, sessions, cards)
        select day, coalesce(cust_id, 0), coalesce(root_cust_id, 0), operator_id, apn, sum(bytes), sum(sms), sum(voice_seconds), sum(sessions), count(*)
        from card_usage_daily where iccid like ${lit(FLEET_ICCID_LIKE)} and day >= ${lit(firstDay)}::date
        group by 1, 2, 3, 4, 5
        on conflict (day, cust_id, operator_id, apn) do update set
          bytes = card_usage_daily_cust.bytes + excluded.bytes, sms = card_usage_daily_cust.sms + excluded.sms,
          voice_seconds = card_usage_daily_cust.voice_seconds + excluded.voice_seconds, sessions = card_usage_daily_cust.sessions + excluded.sessions,
          cards = card_usage_daily_cust.cards + excluded.cards
        returning 1)
      select count(*) n from ins`);
    rollupRows = Number(r.n);
  }
  // the cards' maintained cycle usage and quota (migration 0019), set-based from the daily rows just written
  const hasCycles = (await sql.query<{ f: string | null }>(`select to_regproc('card_cycle_refresh')::text f`))[0].f != null;
  if (hasCycles) {
    await sql.transaction(async (tx) => {
      await tx.exec(`set local work_mem = '64MB'; set local jit = off`);
      await tx.query(`select card_cycle_refresh(now(), null, false, true)`);
    });
  }
  const msRollup = performance.now() - tRollup;
  const tAnalyze = performance.now();
  // the cycle refresh above rewrote every card: vacuum them (one statement of its own, not in a transaction) as
  // autovacuum would soon after, or the lists read a million dead rows and lose their index-only scans (an activation
  // date count took 26-80 ms instead of 2 ms)
  await sql.exec('vacuum (analyze) cards');
  await sql.exec(`analyze card_history; analyze card_zone_blocks;${hasUsage ? ' analyze card_usage_daily;' : ''}${hasRollup ? ' analyze card_usage_daily_cust;' : ''}`);
  const msAnalyze = performance.now() - tAnalyze;
  const result: FleetResult = {
    cards: n, zoneBlocks, history, usageRows, rollupRows, labels: labelRows.length * LABELS.length,
    ms: { cardsAndUsage: Math.round(msCards), indexes: Math.round(msIndexes), rollup: Math.round(msRollup), analyze: Math.round(msAnalyze), total: Math.round(performance.now() - t0) },
  };
  log(`fleet seed done in ${(result.ms.total / 1000).toFixed(1)} s: ${formatCount(n)} cards, ${formatCount(history)} history rows, ` +
    `${formatCount(zoneBlocks)} zone blocks, ${formatCount(usageRows)} daily usage rows, ${formatCount(rollupRows)} rollup rows`);
  return result;
}
