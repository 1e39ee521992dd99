import { sql, type SQL } from 'drizzle-orm';
import {
  AUTO_RULE_THRESHOLDS, AutoRuleAction, AutoRuleChannel, AutoRuleStatus, AutoRuleType, ErrorCode, formatValidationMessage,
  validateEmailList, validatePhoneList, type BodyOf, type Lang, type ValidationResult, type autorule as api,
} from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError, FieldError, notFound } from '../../../platform/errors.ts';
import { isChannel, isStaff, type Actor, type SessionContext } from '../../../platform/context.ts';
import { contains, pageOf } from '../../../platform/paging.ts';
import { iso, ownerSql, rows, tenantSql } from '../sql.ts';

/**
 * Automation rules (Auto rule › Rules, 5010000; docs/automation.md): add, edit, delete, publish, switch, read. A rule
 * belongs to the customer of whoever made it (staff make platform rules that may span customers) and is seen by that
 * customer's tree (a channel customer) or by the customer alone (a second-level customer). Rules are read with raw SQL,
 * table aliased `r`.
 */

type RuleInput = Omit<BodyOf<typeof api.saveRule>, never>;

const RULE_SELECT = sql`select r.*, oc.cust_name as owner_cust_name, sc.cust_name as scope_cust_name,
    tp.name as target_plan_name, sp.name as scope_plan_name,
    (select count(*) from autorule_alarm_cards ac where ac.rule_id = r.rule_id)::int as triggered_cards,
    (select max(a.triggered_at) from autorule_alarms a where a.rule_id = r.rule_id and a.cards > 0) as last_triggered_at
  from autorules r
  left join customers oc on oc.cust_id = r.owner_cust_id
  left join customers sc on sc.cust_id = r.scope_cust_id
  left join basic_plans tp on tp.goods_release_id = r.target_plan_id
  left join basic_plans sp on sp.goods_release_id = r.scope_plan_id`;

export type RuleOut = ReturnType<typeof ruleOut>;

function ruleOut(r: Record<string, unknown>) {
  const n = (v: unknown) => (v == null ? null : Number(v));
  return {
    ruleId: Number(r.rule_id), name: String(r.name), ruleType: Number(r.rule_type), level: Number(r.level), threshold: n(r.threshold),
    states: ((r.states as number[] | null) ?? []).map(Number), action: Number(r.action), targetState: n(r.target_state),
    targetPlanId: n(r.target_plan_id), targetPlanName: (r.target_plan_name as string | null) ?? null,
    channels: ((r.channels as number[] | null) ?? []).map(Number), phones: (r.phones as string | null) ?? null, emails: (r.emails as string | null) ?? null,
    ownerCustId: n(r.owner_cust_id), ownerCustName: (r.owner_cust_name as string | null) ?? null,
    scopeCustId: n(r.scope_cust_id), scopeCustName: (r.scope_cust_name as string | null) ?? null,
    scopeOperatorId: n(r.scope_operator_id), scopePlanId: n(r.scope_plan_id), scopePlanName: (r.scope_plan_name as string | null) ?? null,
    status: Number(r.status), enabled: r.enabled ? 1 : 0, remark: (r.remark as string | null) ?? null,
    triggeredCards: Number(r.triggered_cards ?? 0), lastTriggeredAt: iso(r.last_triggered_at), publishedAt: iso(r.published_at),
    createdBy: String(r.created_by), createdAt: iso(r.created_at)!, updatedBy: (r.updated_by as string | null) ?? null, updatedAt: iso(r.updated_at)!,
  };
}

const auditView = (r: RuleOut) => {
  const { triggeredCards: _t, lastTriggeredAt: _l, ...rest } = r;
  return rest;
};

/** A spec §5 list check as a field error with the validator's message in both languages. */
function fieldCheck(field: string, err: ValidationResult) {
  if (err) throw new FieldError(field, { zh: formatValidationMessage(err, 'zh'), en: formatValidationMessage(err, 'en') });
}

const label = (e: { label(v: number, lang: Lang): string }, v: number, lang: Lang) => e.label(v, lang);

/** The columns a rule is written with, checked (every refusal before anything is written). */
async function checkInput(ex: Executor, b: RuleInput, actor: Actor, lang: Lang) {
  const bound = AUTO_RULE_THRESHOLDS[b.ruleType];
  let threshold: number | null = null;
  if (bound) {
    if (b.threshold == null || b.threshold < bound.min || b.threshold > bound.max) {
      throw new AppError(ErrorCode.AutoRuleThresholdInvalid, { type: label(AutoRuleType, b.ruleType, lang), min: bound.min, max: bound.max, unit: bound.unit[lang] }, 200, { field: 'threshold' });
    }
    threshold = b.threshold;
  }
  const states = b.ruleType === AutoRuleType.StateChanged ? [...new Set(b.states ?? [])].sort() : [];
  let targetState: number | null = null;
  let targetPlanId: number | null = null;
  if (b.action === AutoRuleAction.ChangeState) {
    if (b.targetState == null) throw new AppError(ErrorCode.AutoRuleTargetRequired, { what: lang === 'zh' ? '目标状态' : 'the target state' }, 200, { field: 'targetState' });
    targetState = b.targetState;
  }
  if (b.action === AutoRuleAction.ChangePlan) {
    if (b.targetPlanId == null) throw new AppError(ErrorCode.AutoRuleTargetRequired, { what: lang === 'zh' ? '目标套餐' : 'the plan to move to' }, 200, { field: 'targetPlanId' });
    const [plan] = await rows(ex, sql`select 1 from basic_plans where goods_release_id = ${b.targetPlanId}`);
    if (!plan) throw notFound();
    targetPlanId = b.targetPlanId;
  }
  const channels = [...new Set(b.channels ?? [])].sort();
  if (b.action === AutoRuleAction.NotifyOnly && channels.length === 0) throw new AppError(ErrorCode.AutoRuleChannelRequired, undefined, 200, { field: 'channels' });
  const phones = b.phones?.length ? b.phones : null;
  const emails = b.emails?.length ? b.emails : null;
  if (channels.includes(AutoRuleChannel.Sms) && !phones) {
    throw new AppError(ErrorCode.AutoRuleContactsRequired, { channel: label(AutoRuleChannel, AutoRuleChannel.Sms, lang), field: lang === 'zh' ? '手机号' : 'phone numbers' }, 200, { field: 'phones' });
  }
  if (channels.includes(AutoRuleChannel.Email) && !emails) {
    throw new AppError(ErrorCode.AutoRuleContactsRequired, { channel: label(AutoRuleChannel, AutoRuleChannel.Email, lang), field: lang === 'zh' ? '邮箱' : 'e-mail addresses' }, 200, { field: 'emails' });
  }
  if (phones) fieldCheck('phones', validatePhoneList(phones));
  if (emails) fieldCheck('emails', validateEmailList(emails));
  const scopeCustId = b.scopeCustId ?? null;
  if (scopeCustId != null) {
    const [c] = await rows(ex, sql`select 1 from customers c where c.cust_id = ${scopeCustId} and ${tenantSql(actor, 'c')}`);
    if (!c) throw notFound();
  }
  const scopePlanId = b.scopePlanId ?? null;
  if (scopePlanId != null) {
    const [p] = await rows(ex, sql`select 1 from basic_plans where goods_release_id = ${scopePlanId}`);
    if (!p) throw notFound();
  }
  const remark = b.remark?.trim() || null;
  return {
    name: b.name.trim(), ruleType: b.ruleType, level: b.level, threshold, states, action: b.action, targetState, targetPlanId, channels,
    phones, emails, scopeCustId, scopeOperatorId: b.scopeOperatorId ?? null, scopePlanId, remark,
  };
}

/** The owner columns of a rule the actor makes: staff a platform rule; a channel customer its tree; a sub-customer itself. */
function ownerOf(actor: Actor) {
  if (isStaff(actor)) return { custId: null, rootCustId: null, scope: 0 };
  if (isChannel(actor)) return { custId: actor.custId, rootCustId: actor.rootCustId, scope: 1 };
  return { custId: actor.custId, rootCustId: actor.rootCustId, scope: 2 };
}

const arr = (v: number[]) => sql`${`{${v.join(',')}}`}::smallint[]`;

export class AutoRuleService {
  constructor(private db: Db) {}

  async list(q: BodyOf<typeof api.getRuleListPage>, actor: Actor) {
    const p = pageOf(q);
    const where: SQL[] = [sql`r.deleted_at is null`, ownerSql(actor, 'r')];
    if (q.name) where.push(sql`r.name ilike ${contains(q.name)}`);
    if (q.ruleType !== undefined) where.push(sql`r.rule_type = ${q.ruleType}`);
    if (q.level !== undefined) where.push(sql`r.level = ${q.level}`);
    if (q.status !== undefined) where.push(sql`r.status = ${q.status}`);
    if (q.enabled !== undefined) where.push(q.enabled ? sql`r.enabled` : sql`not r.enabled`);
    const cond = sql.join(where, sql` and `);
    const list = await rows(this.db, sql`${RULE_SELECT} where ${cond} order by r.rule_id desc limit ${p.limit} offset ${p.offset}`);
    const [{ n }] = await rows<{ n: string }>(this.db, sql`select count(*) as n from autorules r where ${cond}`);
    return { list: list.map(ruleOut), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  /** One live rule the actor may see (20005 otherwise, whether it exists or not). */
  async detail(ruleId: number, actor: Actor, ex: Executor = this.db) {
    const [r] = await rows(ex, sql`${RULE_SELECT} where r.rule_id = ${ruleId} and r.deleted_at is null and ${ownerSql(actor, 'r')}`);
    if (!r) throw notFound();
    return ruleOut(r);
  }

  private async locked(tx: Executor, ruleId: number, actor: Actor) {
    const [r] = await rows(tx, sql`select rule_id from autorules r where r.rule_id = ${ruleId} and r.deleted_at is null and ${ownerSql(actor, 'r')} for update`);
    if (!r) throw notFound();
    return this.detail(ruleId, actor, tx);
  }

  async add(b: BodyOf<typeof api.saveRule>, ctx: SessionContext) {
    return this.db.transaction(async (tx) => {
      const v = await checkInput(tx, b, ctx.actor, ctx.lang);
      const o = ownerOf(ctx.actor);
      const [{ rule_id: id }] = await rows<{ rule_id: number }>(tx, sql`insert into autorules (name, rule_type, level, threshold, states, action,
          target_state, target_plan_id, channels, phones, emails, owner_cust_id, owner_root_cust_id, owner_scope, scope_cust_id, scope_operator_id,
          scope_plan_id, remark, created_by, updated_by)
        values (${v.name}, ${v.ruleType}, ${v.level}, ${v.threshold}, ${arr(v.states)}, ${v.action}, ${v.targetState}, ${v.targetPlanId},
          ${arr(v.channels)}, ${v.phones}, ${v.emails}, ${o.custId}, ${o.rootCustId}, ${o.scope}, ${v.scopeCustId}, ${v.scopeOperatorId},
          ${v.scopePlanId}, ${v.remark}, ${ctx.actor.loginName}, ${ctx.actor.loginName}) returning rule_id`);
      const after = await this.detail(Number(id), ctx.actor, tx);
      await audit(tx, ctx, { entity: 'autoRule', entityId: id, custId: o.custId, rootCustId: o.rootCustId, after: auditView(after) });
      return after;
    });
  }

  async edit(b: BodyOf<typeof api.updateRule>, ctx: SessionContext) {
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, b.ruleId, ctx.actor);
      const v = await checkInput(tx, b, ctx.actor, ctx.lang);
      await tx.execute(sql`update autorules set name = ${v.name}, rule_type = ${v.ruleType}, level = ${v.level}, threshold = ${v.threshold},
        states = ${arr(v.states)}, action = ${v.action}, target_state = ${v.targetState}, target_plan_id = ${v.targetPlanId}, channels = ${arr(v.channels)},
        phones = ${v.phones}, emails = ${v.emails}, scope_cust_id = ${v.scopeCustId}, scope_operator_id = ${v.scopeOperatorId},
        scope_plan_id = ${v.scopePlanId}, remark = ${v.remark}, updated_by = ${ctx.actor.loginName}, updated_at = now()
        where rule_id = ${b.ruleId}`);
      const after = await this.detail(b.ruleId, ctx.actor, tx);
      await audit(tx, ctx, { entity: 'autoRule', entityId: b.ruleId, custId: before.ownerCustId, before: auditView(before), after: auditView(after) });
      return after;
    });
  }

  async remove(ruleId: number, ctx: SessionContext) {
    await this.db.transaction(async (tx) => {
      const before = await this.locked(tx, ruleId, ctx.actor);
      await tx.execute(sql`update autorules set deleted_at = now(), deleted_by = ${ctx.actor.loginName}, enabled = false,
        updated_by = ${ctx.actor.loginName}, updated_at = now() where rule_id = ${ruleId}`);
      await audit(tx, ctx, { entity: 'autoRule', entityId: ruleId, custId: before.ownerCustId, before: auditView(before), after: { deleted: true } });
    });
    return null;
  }

  /** Publishes a draft and switches it on (a published rule: switched on if off). */
  async publish(ruleId: number, ctx: SessionContext) {
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, ruleId, ctx.actor);
      if (before.status === AutoRuleStatus.Published && before.enabled) {
        await audit(tx, ctx, { entity: 'autoRule', entityId: ruleId, custId: before.ownerCustId, before: { enabled: 1 }, after: { enabled: 1, unchanged: true } });
        return before;
      }
      await tx.execute(sql`update autorules set status = ${AutoRuleStatus.Published}, enabled = true, active_from = now(),
        published_at = coalesce(published_at, now()), updated_by = ${ctx.actor.loginName}, updated_at = now() where rule_id = ${ruleId}`);
      const after = await this.detail(ruleId, ctx.actor, tx);
      await audit(tx, ctx, { entity: 'autoRule', entityId: ruleId, custId: before.ownerCustId, before: auditView(before), after: auditView(after) });
      return after;
    });
  }

  async switch(b: BodyOf<typeof api.switchRule>, ctx: SessionContext) {
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, b.ruleId, ctx.actor);
      if (before.status !== AutoRuleStatus.Published) throw new AppError(ErrorCode.AutoRuleNotPublished);
      if (before.enabled === b.enabled) {
        await audit(tx, ctx, { entity: 'autoRule', entityId: b.ruleId, custId: before.ownerCustId, before: { enabled: before.enabled }, after: { enabled: b.enabled, unchanged: true } });
        return before;
      }
      await tx.execute(sql`update autorules set enabled = ${b.enabled === 1},
        active_from = case when ${b.enabled === 1} then now() else active_from end,
        updated_by = ${ctx.actor.loginName}, updated_at = now() where rule_id = ${b.ruleId}`);
      const after = await this.detail(b.ruleId, ctx.actor, tx);
      await audit(tx, ctx, { entity: 'autoRule', entityId: b.ruleId, custId: before.ownerCustId, before: auditView(before), after: auditView(after) });
      return after;
    });
  }
}
