import { sql, type SQL } from 'drizzle-orm';
import { DsimSwitchReason, DsimSwitchState, ErrorCode, businessToday, dsim as api, type BodyOf } from '@lynx/contract';
import type { Db } from '../../db/client.ts';
import type { SuperSimGateway } from '../../operators/gateway.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { tenantFilter, type Actor, type SessionContext } from '../../platform/context.ts';
import { contains, pageOf } from '../../platform/paging.ts';
import { addDay, daysBetween } from '../usage/usage-time.ts';
import { exec, executeSwitch, insertSwitch } from './switching.ts';
import { visibleStrategy } from './strategies.ts';

/**
 * Card › Super SIM (2090000; docs/super-sim.md): the list by SN with each super SIM's member profiles, one super SIM,
 * its usage per operator (the stored daily usage of its member cards), its switch records, a switch by hand and the
 * choice of a strategy. Every read and write is within the viewer's tenant (the super SIM's cust_id / root_cust_id).
 */
type Row = Record<string, unknown>;
const n = (v: unknown) => Number(v ?? 0);
const isoOf = (v: unknown): string | null => (v == null ? null : new Date(v as string).toISOString());
/** The longest usage range of one query (days, inclusive); the default is the last 30 days. */
export const DSIM_FLOW_MAX_DAYS = 93;
const DSIM_FLOW_DEFAULT_DAYS = 30;

export const dsimTenant = (actor: Actor, alias = 'd'): SQL => tenantFilter(actor, { custId: sql.raw(`${alias}.cust_id`), rootCustId: sql.raw(`${alias}.root_cust_id`) });

const SELECT = sql`select d.sn, d.is_supplier, d.cust_id, cu.cust_name, d.current_operator_id, d.strategy_id, s.strategy_name, d.switched_at, d.batch_id,
    d.created_at,
    (select coalesce(json_agg(json_build_object('operatorId', m.operator_id, 'iccid', m.iccid, 'imsi', k.imsi, 'msisdn', k.msisdn, 'state', k.state,
        'online', k.online, 'lastSessionAt', k.last_session_at) order by m.operator_id), '[]'::json)
      from dsim_members m join cards k on k.iccid = m.iccid where m.sn = d.sn) as members,
    (select w.state from dsim_switches w where w.sn = d.sn order by w.requested_at desc, w.switch_id desc limit 1) as last_switch_state
  from dsims d left join customers cu on cu.cust_id = d.cust_id left join dsim_strategies s on s.strategy_id = d.strategy_id`;

function rowOut(r: Row) {
  const current = n(r.current_operator_id);
  const raw = (typeof r.members === 'string' ? JSON.parse(r.members) : r.members) as Row[];
  const members = raw.map((m) => ({
    operatorId: n(m.operatorId), iccid: String(m.iccid), imsi: (m.imsi as string | null) ?? null, msisdn: (m.msisdn as string | null) ?? null,
    state: n(m.state), online: Boolean(m.online), lastSessionAt: isoOf(m.lastSessionAt), current: n(m.operatorId) === current,
  }));
  return {
    sn: String(r.sn), isSupplierCard: Boolean(r.is_supplier), custId: r.cust_id == null ? null : n(r.cust_id), custName: (r.cust_name as string | null) ?? null,
    currentOperatorId: current, currentIccid: members.find((m) => m.current)?.iccid ?? '',
    strategyId: r.strategy_id == null ? null : n(r.strategy_id), strategyName: (r.strategy_name as string | null) ?? null, members,
    lastSwitchState: r.last_switch_state == null ? null : n(r.last_switch_state), switchedAt: isoOf(r.switched_at),
    batchId: (r.batch_id as string | null) ?? null, createdAt: isoOf(r.created_at)!,
  };
}

const recordOut = (r: Row) => ({
  switchId: n(r.switch_id), sn: String(r.sn), fromOperatorId: r.from_operator_id == null ? null : n(r.from_operator_id), toOperatorId: n(r.to_operator_id),
  reason: n(r.reason), strategyName: (r.strategy_name as string | null) ?? null, state: n(r.state), requestId: (r.request_id as string | null) ?? null,
  failCode: (r.fail_code as string | null) ?? null, failReason: (r.fail_reason as string | null) ?? null, actor: String(r.actor),
  requestedAt: isoOf(r.requested_at)!, doneAt: isoOf(r.done_at),
});

export class DsimService {
  constructor(private db: Db, private gateway: () => SuperSimGateway) {}

  async page(q: BodyOf<typeof api.getDsimPage>, actor: Actor) {
    const p = pageOf(q);
    const w: SQL[] = [dsimTenant(actor)];
    if (q.snNumber) w.push(sql`d.sn ilike ${contains(q.snNumber.trim())}`);
    if (q.iccid) w.push(sql`d.sn in (select m.sn from dsim_members m where m.iccid like ${`${q.iccid.trim().replace(/[\\%_]/g, '\\$&')}%`})`);
    if (q.operator !== undefined) w.push(sql`d.current_operator_id = ${q.operator}`);
    if (q.strategyId !== undefined) w.push(q.strategyId === 0 ? sql`d.strategy_id is null` : sql`d.strategy_id = ${q.strategyId}`);
    if (q.isSupplierCard !== undefined) w.push(sql`d.is_supplier = ${q.isSupplierCard}`);
    const where = sql.join(w, sql` and `);
    const [rows, [{ total }]] = await Promise.all([
      exec(this.db, sql`${SELECT} where ${where} order by d.sn limit ${p.limit} offset ${p.offset}`),
      exec<{ total: string }>(this.db, sql`select count(*) as total from dsims d where ${where}`),
    ]);
    return { list: rows.map(rowOut), total: n(total), current: p.current, pageSize: p.pageSize };
  }

  async info(sn: string, actor: Actor) {
    const [r] = await exec(this.db, sql`${SELECT} where d.sn = ${sn} and ${dsimTenant(actor)}`);
    if (!r) throw notFound();
    return rowOut(r);
  }

  async flowUse(q: BodyOf<typeof api.getDsimFlowUse>, actor: Actor) {
    await this.info(q.snNumber, actor);
    const today = businessToday();
    const endDate = q.endDate ?? today;
    const startDate = q.startDate ?? addDay(endDate, -(DSIM_FLOW_DEFAULT_DAYS - 1));
    if (endDate < startDate) throw new AppError(ErrorCode.UsageRangeReversed, undefined, 200, { field: 'endDate' });
    if (daysBetween(startDate, endDate) + 1 > DSIM_FLOW_MAX_DAYS) throw new AppError(ErrorCode.UsageRangeTooLong, { max: DSIM_FLOW_MAX_DAYS }, 200, { field: 'startDate' });
    const rows = await exec(this.db, sql`select m.operator_id, m.iccid, coalesce(sum(u.bytes), 0) as bytes, coalesce(sum(u.sms), 0) as sms,
        coalesce(sum(u.sessions), 0) as sessions, count(u.day) as days
      from dsim_members m left join card_usage_daily u on u.iccid = m.iccid and u.day >= ${startDate}::date and u.day <= ${endDate}::date
      where m.sn = ${q.snNumber} group by m.operator_id, m.iccid order by m.operator_id`);
    return {
      startDate, endDate,
      list: rows.map((r) => ({ operatorId: n(r.operator_id), iccid: String(r.iccid), bytes: n(r.bytes), sms: n(r.sms), sessions: n(r.sessions), days: n(r.days) })),
    };
  }

  async records(q: BodyOf<typeof api.getDsimChangeRecordPage>, actor: Actor) {
    await this.info(q.snNumber, actor);
    const p = pageOf(q);
    const [rows, [{ total }]] = await Promise.all([
      exec(this.db, sql`select * from dsim_switches where sn = ${q.snNumber} order by requested_at desc, switch_id desc limit ${p.limit} offset ${p.offset}`),
      exec<{ total: string }>(this.db, sql`select count(*) as total from dsim_switches where sn = ${q.snNumber}`),
    ]);
    return { list: rows.map(recordOut), total: n(total), current: p.current, pageSize: p.pageSize };
  }

  /** A switch by hand: the record is written (requested) and committed, then the vendor is asked; its answer ends it. */
  async switchOperator(b: BodyOf<typeof api.switchOperator>, ctx: SessionContext) {
    const switchId = await this.db.transaction(async (tx) => {
      const [d] = await exec<{ sn: string; current_operator_id: number; cust_id: number | null; root_cust_id: number | null }>(tx, sql`
        select sn, current_operator_id, cust_id, root_cust_id from dsims d where d.sn = ${b.snNumber} and ${dsimTenant(ctx.actor)} for update`);
      if (!d) throw notFound();
      if (n(d.current_operator_id) === b.operator) throw new AppError(ErrorCode.DsimSameOperator, undefined, 200, { field: 'operator' });
      const [m] = await exec(tx, sql`select 1 from dsim_members where sn = ${d.sn} and operator_id = ${b.operator}`);
      if (!m) throw new AppError(ErrorCode.DsimNoMember, undefined, 200, { field: 'operator' });
      const id = await insertSwitch(tx, { sn: d.sn, from: n(d.current_operator_id), to: b.operator, reason: DsimSwitchReason.Manual, actor: ctx.actor.loginName });
      if (!id) throw new AppError(ErrorCode.DsimSwitchPending);
      await audit(tx, ctx, {
        entity: 'dsimSwitch', entityId: id, custId: d.cust_id, rootCustId: d.root_cust_id,
        before: { sn: d.sn, operatorId: n(d.current_operator_id) }, after: { sn: d.sn, requested: b.operator, state: DsimSwitchState.Requested },
      });
      return id;
    });
    await executeSwitch(this.db, this.gateway(), ctx, switchId);
    const [r] = await exec(this.db, sql`select * from dsim_switches where switch_id = ${switchId}`);
    return recordOut(r);
  }

  /** All or nothing: every SN must be in the viewer's scope, the strategy one the viewer may use. */
  async chooseStrategy(b: BodyOf<typeof api.chooseStrategy>, ctx: SessionContext) {
    const sns = [...new Set(b.snNumbers)];
    return this.db.transaction(async (tx) => {
      if (b.strategyId !== null) await visibleStrategy(tx, b.strategyId, ctx.actor);
      const before = await exec<{ sn: string; strategy_id: number | null }>(tx, sql`select sn, strategy_id from dsims d
        where d.sn = any(${sql.param(sns)}::text[]) and ${dsimTenant(ctx.actor)} for update`);
      if (before.length !== sns.length) throw notFound();
      await tx.execute(sql`update dsims set strategy_id = ${b.strategyId}, updated_at = now() where sn = any(${sql.param(sns)}::text[])`);
      await audit(tx, ctx, {
        entity: 'dsimStrategyChoice', entityId: sns.length === 1 ? sns[0] : null,
        before: before.map((x) => ({ sn: x.sn, strategyId: x.strategy_id })), after: { sns, strategyId: b.strategyId },
      });
      return { updated: sns.length };
    });
  }
}
