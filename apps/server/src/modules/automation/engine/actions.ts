// A rule's card action on the cards it has just recorded (docs/automation.md "Actions"): through the card service
// (applyCardActions), so every lifecycle rule and message holds — a network reset at most every 3 minutes, a plan
// change once a month with the same APNs, no activation of a retired card. The outcome is kept per card on its record.
import { sql } from 'drizzle-orm';
import { AutoRuleAction, AutoRuleActionResult, AutoRuleTargetState, CardChangeSource } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { applyCardActions, loadCardPlan, type CardOutcome, type CardServiceDeps } from '../../card/lifecycle/card-service.ts';
import type { CardAction, StateActionType } from '../../card/lifecycle/model.ts';
import { AppError } from '../../../platform/errors.ts';
import type { EngineRule } from './rule-sql.ts';

const TARGET_ACTIONS: Record<number, StateActionType> = {
  [AutoRuleTargetState.Deactivate]: 'deactivate',
  [AutoRuleTargetState.Activate]: 'activate',
  [AutoRuleTargetState.Freeze]: 'freeze',
};

/** Cards handed to the card service at once (each is decided one by one there; the writes are set-based). */
const ACTION_BATCH = 500;

async function cardActionOf(tx: Executor, rule: EngineRule): Promise<CardAction | AppError | null> {
  switch (rule.action) {
    case AutoRuleAction.ChangeState: return { type: TARGET_ACTIONS[rule.targetState ?? 0] ?? 'deactivate' };
    case AutoRuleAction.NetworkReset: return { type: 'networkReset' };
    case AutoRuleAction.ChangePlan:
      try {
        return { type: 'changePlan', plan: await loadCardPlan(tx, rule.targetPlanId ?? 0) };
      } catch (e) {
        if (e instanceof AppError) return e;
        throw e;
      }
    default: return null;
  }
}

export async function applyRuleActions(
  deps: CardServiceDeps, tx: Executor, rule: EngineRule, alarmId: number, iccids: string[], now: Date,
): Promise<void> {
  if (iccids.length === 0) return;
  const action = await cardActionOf(tx, rule);
  if (action === null) return;
  const outcomes = new Map<string, CardOutcome>();
  if (action instanceof AppError) {
    for (const iccid of iccids) outcomes.set(iccid, { ok: false, error: action });
  } else {
    for (let i = 0; i < iccids.length; i += ACTION_BATCH) {
      const part = await applyCardActions(deps, { kind: 'system', source: CardChangeSource.Rule, actor: `autorule:${rule.ruleId}` },
        iccids.slice(i, i + ACTION_BATCH), action, { tx, now, reason: rule.name });
      for (const [k, v] of part) outcomes.set(k, v);
    }
  }
  const list = [...outcomes];
  const codes = list.map(([, o]) => (o.ok ? null : o.error.code));
  const params = list.map(([, o]) => (o.ok ? null : JSON.stringify(o.error.params ?? {})));
  const results = list.map(([, o]) => (o.ok ? AutoRuleActionResult.Done : AutoRuleActionResult.Refused));
  await tx.execute(sql`update autorule_alarm_cards ac set action_result = u.result, action_error_code = u.code, action_error_params = u.params::jsonb
    from unnest(${`{${list.map(([k]) => k).join(',')}}`}::text[], ${`{${results.join(',')}}`}::smallint[],
      ${pgArray(codes)}::int[], ${pgArray(params)}::text[]) as u (iccid, result, code, params)
    where ac.alarm_id = ${alarmId} and ac.iccid = u.iccid`);
  const done = results.filter((r) => r === AutoRuleActionResult.Done).length;
  await tx.execute(sql`update autorule_alarms set actions_done = actions_done + ${done}, actions_refused = actions_refused + ${results.length - done}
    where alarm_id = ${alarmId}`);
}

/** A PostgreSQL array literal of nullable values (strings quoted). */
function pgArray(v: (string | number | null)[]): string {
  return `{${v.map((x) => (x === null ? 'NULL' : typeof x === 'number' ? String(x) : `"${x.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}
