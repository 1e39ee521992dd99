// The dry run (docs/automation.md "Dry run"): had the rule been on during the last 30 days, which cards would it have
// recorded, on which days — replayed from the stored daily usage, card history and IMEI changes, without recording or
// sending anything. It follows the real evaluation exactly: a real run at the end of every day of the range (the
// engine's rule-sql.ts over the cards' cycle columns as the feed keeps them) records the same cards on the same days
// (tested in automation.test.ts). Usage rules see each day's cumulative usage in the cycle that day belongs to: the
// card's current cycle, the operator's billing period before it (cards without a contract), or, for a contract card's
// earlier cycles, cycles of the current one's length; the quota is the card's current one.
import { sql, type SQL } from 'drizzle-orm';
import { AUTO_RULE_DRY_RUN_DAYS, AUTO_RULE_DRY_RUN_TYPES, AutoRuleType, CardActionKind, ErrorCode, type Lang } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';
import { rows } from '../sql.ts';
import { cardScope, dayOf, excludedPlans, type EngineRule } from './rule-sql.ts';

const HITS_MAX = 500;
const DAY_MS = 86_400_000;
const intArray = (v: number[]) => sql`${`{${v.join(',')}}`}::int[]`;

/** The first instant of a usage (China, UTC+8) day. */
const dayStart = (day: string) => new Date(`${day}T00:00:00+08:00`);

function hitsSql(rule: EngineRule, scope: SQL, from: string, to: string, now: Date): SQL {
  const n = rule.threshold ?? 0;
  const nowTs = sql`${now.toISOString()}::timestamptz`;
  const fromTs = sql`${dayStart(from).toISOString()}::timestamptz`;
  switch (rule.ruleType) {
    case AutoRuleType.DataUsage:
    case AutoRuleType.SmsOver: {
      const data = rule.ruleType === AutoRuleType.DataUsage;
      const cond = data ? sql`k.total::numeric * 100 >= ${n}::numeric * k.q` : sql`k.total > ${n}`;
      return sql`cs as materialized (
          select c.iccid, c.cycle_from, c.cycle_to, c.cycle_quota_bytes as q, o.billing_day,
            coalesce(c.cycle_start_at <= ${nowTs} and ${nowTs} < c.cycle_end_at, false) as contract
          from cards c join operators o on o.operator_id = c.operator_id
          where ${scope} and c.cycle_from is not null ${data ? sql`and c.cycle_quota_bytes > 0` : sql``}
        ),
        used as (
          select d.iccid, d.day, ${data ? sql`d.bytes` : sql`d.sms::bigint`} as v from card_usage_daily d join cs on cs.iccid = d.iccid
          where d.day >= ${from}::date - 62 and d.day <= ${to}::date
          -- the first day of the range is looked at even without usage on it: what the cycle had used by then counts
          union all select cs.iccid, ${from}::date, 0 from cs
        ),
        keyed as (
          select u.iccid, u.day, u.v, cs.q,
            case when u.day >= cs.cycle_from then cs.cycle_from
              when not cs.contract then usage_billing_start((u.day::timestamp - interval '8 hours') at time zone 'UTC', cs.billing_day)
              else cs.cycle_from - (((cs.cycle_from - u.day - 1) / (cs.cycle_to - cs.cycle_from + 1)) + 1) * (cs.cycle_to - cs.cycle_from + 1)
            end as ck
          from used u join cs on cs.iccid = u.iccid
        ),
        k as (select iccid, day, ck, q, sum(v) over (partition by iccid, ck order by day rows between unbounded preceding and current row) as total
          from keyed),
        hits as materialized (
          select distinct on (k.iccid, k.ck) k.iccid, k.day, ${data ? sql`round(k.total::numeric * 100 / k.q, 2)::text` : sql`k.total::text`} as value
          from k where k.day >= ${from}::date and ${cond} order by k.iccid, k.ck, k.day
        )`;
    }
    case AutoRuleType.StateChanged:
    case AutoRuleType.PlanChanged: {
      const what = rule.ruleType === AutoRuleType.PlanChanged
        ? sql`h.action = ${CardActionKind.PlanChanged}`
        : sql`h.to_state is not null and h.from_state is distinct from h.to_state
            and (${rule.states.length === 0} or h.to_state = any(${intArray(rule.states)}))`;
      return sql`hits as materialized (
          select c.iccid, usage_china_day(h.at) as day, h.to_state::text as value
          from cards c join card_history h on h.iccid = c.iccid
          where ${scope} and h.at > ${fromTs} and h.at <= ${nowTs} and ${what}
        )`;
    }
    case AutoRuleType.ImeiChanged:
      return sql`hits as materialized (
          select c.iccid, usage_china_day(x.changed_at) as day, x.new_imei as value
          from cards c join autorule_imei_changes x on x.iccid = c.iccid
          where ${scope} and x.changed_at > ${fromTs} and x.changed_at <= ${nowTs}
        )`;
    default:
      throw new Error(`no dry run for rule type ${rule.ruleType}`);
  }
}

export async function dryRun(ex: Executor, rule: EngineRule, lang: Lang, now = new Date()) {
  if (!AUTO_RULE_DRY_RUN_TYPES.includes(rule.ruleType)) {
    throw new AppError(ErrorCode.AutoRuleDryRunUnsupported, { type: AutoRuleType.label(rule.ruleType, lang) });
  }
  const to = dayOf(now);
  const from = dayOf(new Date(dayStart(to).getTime() - (AUTO_RULE_DRY_RUN_DAYS - 1) * DAY_MS + 12 * 3600_000));
  const scope = cardScope(rule, await excludedPlans(ex));
  const [r] = await rows<{ cards: number; days: { day: string; n: number }[] | null; first: { iccid: string; day: string; value: string | null }[] | null }>(ex,
    sql`with ${hitsSql(rule, scope, from, to, now)}
      select (select count(distinct iccid) from hits)::int as cards,
        (select json_agg(x) from (select day::text as day, count(*)::int as n from hits group by day order by day) x) as days,
        (select json_agg(y) from (select iccid, day::text as day, value from hits order by day, iccid limit ${HITS_MAX + 1}) y) as first`);
  const perDay = new Map((r?.days ?? []).map((d) => [d.day, Number(d.n)]));
  const days: { day: string; cards: number }[] = [];
  for (let t = dayStart(from).getTime() + 12 * 3600_000; dayOf(new Date(t)) <= to; t += DAY_MS) {
    const day = dayOf(new Date(t));
    days.push({ day, cards: perDay.get(day) ?? 0 });
  }
  const first = r?.first ?? [];
  return {
    from, to, cards: Number(r?.cards ?? 0), days,
    hits: first.slice(0, HITS_MAX).map((h) => ({ iccid: h.iccid, day: h.day, value: h.value ?? null })),
    truncated: first.length > HITS_MAX,
  };
}

/** Every hit of a dry run, unpaged (tests compare it with what real runs recorded). */
export async function dryRunAll(ex: Executor, rule: EngineRule, now: Date): Promise<{ iccid: string; day: string }[]> {
  const to = dayOf(now);
  const from = dayOf(new Date(dayStart(to).getTime() - (AUTO_RULE_DRY_RUN_DAYS - 1) * DAY_MS + 12 * 3600_000));
  const scope = cardScope(rule, await excludedPlans(ex));
  return rows<{ iccid: string; day: string }>(ex, sql`with ${hitsSql(rule, scope, from, to, now)}
    select iccid, day::text as day from hits order by day, iccid`);
}
