// Trigger records (Auto rule › Trigger records, 5020000; docs/automation.md): the records of each rule and run, their
// cards with what the card action came to, the notifications per card and channel, and the runs of a rule. Every read
// is kept to the rules the caller sees (ownerSql); a record outside it is "not found", whether it exists or not.
import { sql, type SQL } from 'drizzle-orm';
import { AutoRuleChannel, errorMessage, type BodyOf, type ErrorCode, type Lang, type autorule as api } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { notFound } from '../../../platform/errors.ts';
import type { Actor } from '../../../platform/context.ts';
import { pageOf } from '../../../platform/paging.ts';
import { iso, ownerSql, rows } from '../sql.ts';

const ALARM_SELECT = sql`select a.alarm_id, a.rule_id, r.name, r.rule_type, r.level, r.action, a.run_id, u.kind, a.cards, a.actions_done,
    a.actions_refused, a.triggered_at
  from autorule_alarms a join autorules r on r.rule_id = a.rule_id join autorule_runs u on u.run_id = a.run_id`;

const alarmOut = (a: Record<string, unknown>) => ({
  alarmId: Number(a.alarm_id), ruleId: Number(a.rule_id), ruleName: String(a.name), ruleType: Number(a.rule_type), level: Number(a.level),
  action: Number(a.action), runId: Number(a.run_id), runKind: Number(a.kind), cards: Number(a.cards), actionsDone: Number(a.actions_done),
  actionsRefused: Number(a.actions_refused), triggeredAt: iso(a.triggered_at)!,
});

const dayStart = (day: string) => new Date(`${day}T00:00:00+08:00`).toISOString();

export class AlarmService {
  constructor(private db: Db) {}

  async list(q: BodyOf<typeof api.getAlarmListPage>, actor: Actor) {
    const p = pageOf(q);
    const where: SQL[] = [ownerSql(actor, 'a'), sql`a.cards > 0`];
    if (q.ruleId !== undefined) where.push(sql`a.rule_id = ${q.ruleId}`);
    if (q.ruleType !== undefined) where.push(sql`r.rule_type = ${q.ruleType}`);
    if (q.level !== undefined) where.push(sql`r.level = ${q.level}`);
    if (q.startDate) where.push(sql`a.triggered_at >= ${dayStart(q.startDate)}::timestamptz`);
    if (q.endDate) where.push(sql`a.triggered_at < ${dayStart(q.endDate)}::timestamptz + interval '1 day'`);
    const cond = sql.join(where, sql` and `);
    const list = await rows(this.db, sql`${ALARM_SELECT} where ${cond} order by a.alarm_id desc limit ${p.limit} offset ${p.offset}`);
    const [{ n }] = await rows<{ n: string }>(this.db, sql`select count(*) as n from autorule_alarms a join autorules r on r.rule_id = a.rule_id where ${cond}`);
    return { list: list.map(alarmOut), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  async detail(alarmId: number, actor: Actor) {
    const [a] = await rows(this.db, sql`${ALARM_SELECT} where a.alarm_id = ${alarmId} and ${ownerSql(actor, 'a')}`);
    if (!a) throw notFound();
    return alarmOut(a);
  }

  async cards(q: BodyOf<typeof api.getAlarmCardPage>, actor: Actor, lang: Lang) {
    await this.detail(q.alarmId, actor);
    const p = pageOf(q);
    const where: SQL[] = [sql`ac.alarm_id = ${q.alarmId}`];
    if (q.iccid) where.push(sql`ac.iccid = ${q.iccid}`);
    const cond = sql.join(where, sql` and `);
    const list = await rows(this.db, sql`select ac.*, c.msisdn, cu.cust_name from autorule_alarm_cards ac
      left join cards c on c.iccid = ac.iccid left join customers cu on cu.cust_id = ac.cust_id
      where ${cond} order by ac.iccid, ac.period_key limit ${p.limit} offset ${p.offset}`);
    const [{ n }] = await rows<{ n: string }>(this.db, sql`select count(*) as n from autorule_alarm_cards ac where ${cond}`);
    return {
      list: list.map((r) => ({
        iccid: String(r.iccid), msisdn: (r.msisdn as string | null) ?? null, custId: r.cust_id == null ? null : Number(r.cust_id),
        custName: (r.cust_name as string | null) ?? null, periodKey: String(r.period_key), value: (r.value as string | null) ?? null,
        actionResult: Number(r.action_result),
        actionError: r.action_error_code == null ? null
          : errorMessage(Number(r.action_error_code) as ErrorCode, lang, (r.action_error_params as Record<string, string | number> | null) ?? undefined),
        triggeredAt: iso(r.triggered_at)!,
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  async deliveries(q: BodyOf<typeof api.getActionRecords>, actor: Actor, lang: Lang = 'en') {
    await this.detail(q.alarmId, actor);
    const p = pageOf(q);
    const where: SQL[] = [sql`d.alarm_id = ${q.alarmId}`];
    if (q.iccid) where.push(sql`d.iccid = ${q.iccid}`);
    if (q.channel !== undefined) where.push(sql`d.channel = ${q.channel}`);
    if (q.state !== undefined) where.push(sql`d.state = ${q.state}`);
    const cond = sql.join(where, sql` and `);
    // a webhook notification names the webhook delivery it was handed to (channel_ref): where that delivery stands
    const list = await rows(this.db, sql`select d.*, w.delivery_id as w_id, w.state as w_state, w.total_attempts as w_attempts,
        w.last_http_status as w_http
      from autorule_deliveries d
      left join webhook_deliveries w on d.channel = ${AutoRuleChannel.Webhook}
        and w.delivery_id = (case when d.channel_ref ~ '^[0-9]{1,18}$' then d.channel_ref::bigint end)
      where ${cond} order by d.iccid, d.channel limit ${p.limit} offset ${p.offset}`);
    const [{ n }] = await rows<{ n: string }>(this.db, sql`select count(*) as n from autorule_deliveries d where ${cond}`);
    return {
      list: list.map((d) => ({
        deliveryId: Number(d.delivery_id), alarmId: Number(d.alarm_id), iccid: String(d.iccid), channel: Number(d.channel), state: Number(d.state),
        attempts: Number(d.attempts), lastError: ((lang === 'zh' ? d.last_error_zh ?? d.last_error : d.last_error) as string | null) ?? null, createdAt: iso(d.created_at)!, sentAt: iso(d.sent_at),
        webhook: d.w_id == null ? null : {
          deliveryId: Number(d.w_id), state: Number(d.w_state), totalAttempts: Number(d.w_attempts), lastHttpStatus: d.w_http == null ? null : Number(d.w_http),
        },
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  /** The runs that covered a rule (the rule must be one the caller sees), with what each recorded for it. */
  async runs(q: BodyOf<typeof api.getRuleRunPage>, actor: Actor) {
    const [rule] = await rows(this.db, sql`select 1 from autorules r where r.rule_id = ${q.ruleId} and r.deleted_at is null and ${ownerSql(actor, 'r')}`);
    if (!rule) throw notFound();
    const p = pageOf(q);
    const cond = sql`${q.ruleId} = any(u.rule_ids)`;
    const list = await rows(this.db, sql`select u.run_id, u.kind, u.state, u.as_of, u.started_at, u.finished_at, u.error,
        coalesce((select a.cards from autorule_alarms a where a.run_id = u.run_id and a.rule_id = ${q.ruleId}), 0) as cards
      from autorule_runs u where ${cond} order by u.run_id desc limit ${p.limit} offset ${p.offset}`);
    const [{ n }] = await rows<{ n: string }>(this.db, sql`select count(*) as n from autorule_runs u where ${cond}`);
    return {
      list: list.map((u) => ({
        runId: Number(u.run_id), kind: Number(u.kind), state: Number(u.state), asOf: iso(u.as_of)!, cardsTriggered: Number(u.cards),
        startedAt: iso(u.started_at)!, finishedAt: iso(u.finished_at), error: (u.error as string | null) ?? null,
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }
}
