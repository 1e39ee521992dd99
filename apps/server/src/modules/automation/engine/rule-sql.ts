// The conditions of the rule catalogue as SQL over the card tables (docs/automation.md "Catalogue"): for one rule and
// one chunk of cards (ICCID range), the cards that meet the condition now, each with its once-per key (period_key), what
// was measured (value) and when the fact happened (event_at). Set-based: one statement per rule and chunk.
import { sql, type SQL } from 'drizzle-orm';
import { AutoRuleType, CardActionKind, CardState, PlanCycleUnit, PlanGoodsType, AUTO_RULE_MIN_PREPAID_CYCLE_DAYS } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { rows } from '../sql.ts';

/** A rule as the engine reads it. */
export interface EngineRule {
  ruleId: number;
  ruleType: number;
  threshold: number | null;
  states: number[];
  action: number;
  targetState: number | null;
  targetPlanId: number | null;
  channels: number[];
  ownerCustId: number | null;
  ownerRootCustId: number | null;
  ownerScope: number;
  scopeCustId: number | null;
  scopeOperatorId: number | null;
  scopePlanId: number | null;
  activeFrom: Date | null;
  /** when the rule was last changed (edited, switched, published) */
  updatedAt: Date | null;
  name: string;
}

export function engineRule(r: Record<string, unknown>): EngineRule {
  const n = (v: unknown) => (v == null ? null : Number(v));
  return {
    ruleId: Number(r.rule_id), ruleType: Number(r.rule_type), threshold: n(r.threshold), states: ((r.states as number[]) ?? []).map(Number),
    action: Number(r.action), targetState: n(r.target_state), targetPlanId: n(r.target_plan_id), channels: ((r.channels as number[]) ?? []).map(Number),
    ownerCustId: n(r.owner_cust_id), ownerRootCustId: n(r.owner_root_cust_id), ownerScope: Number(r.owner_scope), scopeCustId: n(r.scope_cust_id),
    scopeOperatorId: n(r.scope_operator_id), scopePlanId: n(r.scope_plan_id), activeFrom: r.active_from == null ? null : new Date(r.active_from as string),
    updatedAt: r.updated_at == null ? null : new Date(r.updated_at as string), name: String(r.name),
  };
}

/** Plans whose prepaid cycle is under 10 days (spec §9): their cards are left out of every rule. */
export async function excludedPlans(ex: Executor): Promise<number[]> {
  const list = await rows<{ id: number }>(ex, sql`select goods_release_id as id from basic_plans
    where goods_type = ${PlanGoodsType.Prepaid} and cycle_unit = ${PlanCycleUnit.Day} and cycle_value < ${AUTO_RULE_MIN_PREPAID_CYCLE_DAYS}`);
  return list.map((p) => Number(p.id));
}

const intArray = (v: number[]) => sql`${`{${v.join(',')}}`}::int[]`;

/** The cards a rule may look at (alias `c`): the owner's reach, the rule's narrowing, the excluded plans. */
export function cardScope(rule: EngineRule, excluded: number[]): SQL {
  const parts: SQL[] = [];
  if (rule.ownerScope === 1) parts.push(sql`c.root_cust_id = ${rule.ownerRootCustId}`);
  if (rule.ownerScope === 2) parts.push(sql`c.cust_id = ${rule.ownerCustId}`);
  if (rule.scopeCustId != null) parts.push(sql`(c.cust_id = ${rule.scopeCustId} or c.root_cust_id = ${rule.scopeCustId})`);
  if (rule.scopeOperatorId != null) parts.push(sql`c.operator_id = ${rule.scopeOperatorId}`);
  if (rule.scopePlanId != null) parts.push(sql`c.goods_release_id = ${rule.scopePlanId}`);
  if (excluded.length) parts.push(sql`(c.goods_release_id is null or not (c.goods_release_id = any(${intArray(excluded)})))`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

export interface ChunkArgs {
  /** ICCID range (lo, hi] */
  lo: string;
  hi: string;
  asOf: Date;
  /** the business day of asOf */
  asOfDay: string;
  /** a feed run: the previous feed check's instant (changes after it are new); null for a scan or a run by hand */
  changedSince: Date | null;
  /**
   * a feed run: the cards of the chunk that can have crossed a usage condition since the previous check — a daily
   * usage row written, or a card history row (state, plan), after `changedSince` less the overlap (scan.ts)
   */
  touched: string[] | null;
  excluded: number[];
}

/** How far before the previous feed check a change still counts as new (a feed transaction committed late). */
export const FEED_OVERLAP_MS = 10 * 60_000;

/**
 * Whether a feed run may look only at the changes since the previous check for this rule: the rule's condition was
 * set (switched on, edited) before that check, which therefore evaluated it over every card. A rule switched on or
 * edited since is evaluated over every card, as a scan would.
 */
export function incremental(rule: EngineRule, a: Pick<ChunkArgs, 'changedSince'>): boolean {
  if (!a.changedSince) return false;
  const setAt = Math.max(rule.activeFrom?.getTime() ?? Infinity, rule.updatedAt?.getTime() ?? 0);
  return setAt <= a.changedSince.getTime() - FEED_OVERLAP_MS;
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * select iccid, cust_id, root_cust_id, period_key, value, event_at: the cards of the chunk that meet the rule's
 * condition at `asOf`. Event types look at changes after the rule was switched on (active_from) up to asOf.
 */
export function triggerSql(rule: EngineRule, a: ChunkArgs): SQL {
  const base = sql`c.iccid > ${a.lo} and c.iccid <= ${a.hi} and ${cardScope(rule, a.excluded)}`;
  const asOf = ts(a.asOf);
  // a feed check looks at the changes since the previous one (an hour's overlap for changes committed late; the key
  // keeps them once); a scan at every change since the rule was switched on
  const from = rule.activeFrom ?? a.asOf;
  const since = ts(a.changedSince && a.changedSince.getTime() - 3600_000 > from.getTime() ? new Date(a.changedSince.getTime() - 3600_000) : from);
  const n = rule.threshold ?? 0;
  const touched = a.touched && incremental(rule, a) ? sql`${`{${a.touched.join(',')}}`}::text[]` : null;
  switch (rule.ruleType) {
    case AutoRuleType.CycleDue:
      return sql`select c.iccid, c.cust_id, c.root_cust_id, 'due:' || extract(epoch from c.contract_end_at)::bigint as period_key,
          to_char(c.contract_end_at, 'YYYY-MM-DD"T"HH24:MI:SSOF') as value, ${asOf} as event_at
        from cards c where ${base} and c.state = ${CardState.Activated}
          and c.contract_end_at > ${asOf} and c.contract_end_at <= ${asOf} + make_interval(days => ${n}::int)`;
    case AutoRuleType.DataUsage:
      // a feed check: only the cards whose usage (or plan) moved can have crossed since the previous one
      return sql`select c.iccid, c.cust_id, c.root_cust_id, 'cycle:' || c.cycle_from::text as period_key,
          round(c.cycle_used_bytes::numeric * 100 / c.cycle_quota_bytes, 2)::text as value, ${asOf} as event_at
        from cards c where ${base} ${touched ? sql`and c.iccid = any(${touched})` : sql``} and c.cycle_from is not null and c.cycle_quota_bytes > 0
          and c.cycle_used_bytes::numeric * 100 >= ${n}::numeric * c.cycle_quota_bytes`;
    case AutoRuleType.PoolUsage:
      return sql`select c.iccid, c.cust_id, c.root_cust_id,
          'pool:' || p.pool_id || ':' || coalesce(extract(epoch from p.cycle_start)::bigint::text, '') as period_key,
          round(p.used_bytes::numeric * 100 / p.quota_bytes, 2)::text as value, ${asOf} as event_at
        from cards c join card_pools p on p.pool_id = c.pool_id
        where ${base} and p.quota_bytes > 0 and p.used_bytes::numeric * 100 >= ${n}::numeric * p.quota_bytes`;
    case AutoRuleType.NoSession:
      return sql`select c.iccid, c.cust_id, c.root_cust_id,
          'silent:' || extract(epoch from coalesce(c.last_session_at, c.activated_at))::bigint as period_key,
          floor(extract(epoch from (${asOf} - coalesce(c.last_session_at, c.activated_at))) / 3600)::bigint::text as value, ${asOf} as event_at
        from cards c where ${base} and c.state = ${CardState.Activated}
          and coalesce(c.last_session_at, c.activated_at) <= ${asOf} - make_interval(hours => ${n}::int)
          ${touched
    // a feed check: silence crosses N hours with time, so the cards whose silence began in the N hours before the
    // previous check (less the overlap) and now, and the cards whose state changed since (a card activated again)
    ? sql`and (coalesce(c.last_session_at, c.activated_at) > ${ts(new Date(a.changedSince!.getTime() - FEED_OVERLAP_MS))} - make_interval(hours => ${n}::int)
            or c.iccid = any(${touched}))`
    : sql``}`;
    case AutoRuleType.ImeiChanged:
      return sql`select c.iccid, c.cust_id, c.root_cust_id, 'imei:' || x.changed_at::text as period_key, x.new_imei as value, x.changed_at as event_at
        from cards c join autorule_imei_changes x on x.iccid = c.iccid
        where ${base} and x.iccid > ${a.lo} and x.iccid <= ${a.hi} and x.changed_at > ${since} and x.changed_at <= ${asOf}`;
    case AutoRuleType.StateChanged:
    case AutoRuleType.PlanChanged: {
      const what = rule.ruleType === AutoRuleType.PlanChanged
        ? sql`h.action = ${CardActionKind.PlanChanged}`
        : sql`h.to_state is not null and h.from_state is distinct from h.to_state
            and (${rule.states.length === 0} or h.to_state = any(${intArray(rule.states)}))`;
      return sql`select c.iccid, c.cust_id, c.root_cust_id, 'h:' || h.history_id::text as period_key, h.to_state::text as value, h.at as event_at
        from cards c join card_history h on h.iccid = c.iccid
        where ${base} and h.iccid > ${a.lo} and h.iccid <= ${a.hi} and h.at > ${since} and h.at <= ${asOf} and ${what}`;
    }
    case AutoRuleType.SmsOver:
      // the card's maintained cycle SMS count (migration 0050; the feed moves it with each daily row); a feed check
      // looks only at the cards whose usage moved since the previous check
      return sql`select c.iccid, c.cust_id, c.root_cust_id, 'cycle:' || c.cycle_from::text as period_key, c.cycle_sms::text as value, ${asOf} as event_at
        from cards c where ${base} ${touched ? sql`and c.iccid = any(${touched})` : sql``} and c.cycle_from is not null and c.cycle_from <= ${a.asOfDay}::date
          and c.cycle_sms > ${n}`;
    default:
      throw new Error(`unknown rule type ${rule.ruleType}`);
  }
}

/** The usage tables' China day (UTC+8) of an instant, as usage_china_day() in SQL. */
export const dayOf = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
