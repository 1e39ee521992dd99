import { sql, type SQL } from 'drizzle-orm';
import { DsimRuleType, ErrorCode, dsim as api, type BodyOf } from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, denied, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { isStaff, tenantFilter, type Actor, type SessionContext } from '../../platform/context.ts';
import { contains, pageOf } from '../../platform/paging.ts';
import { exec } from './switching.ts';

/**
 * OEM switch strategies (docs/super-sim.md "Strategies"). A strategy belongs to its creator's tenant; one made by staff
 * is a platform strategy (no tenant) that every customer may choose but only staff change. Names are unique across
 * the platform, whatever the letter case, because the spec deletes a strategy by its name; a collision is answered
 * with 21260 naming the name (never whose it is).
 */
type Row = Record<string, unknown>;
type Params = BodyOf<typeof api.insertOemStrategy>['params'];
const n = (v: unknown) => Number(v ?? 0);

const own = (actor: Actor, alias = 's'): SQL => tenantFilter(actor, { custId: sql.raw(`${alias}.cust_id`), rootCustId: sql.raw(`${alias}.root_cust_id`) });
/** What the viewer sees: platform strategies and its own tenant's (staff: all). */
export const visibleSql = (actor: Actor, alias = 's'): SQL => (isStaff(actor) ? sql`true` : sql`(${sql.raw(alias)}.root_cust_id is null or ${own(actor, alias)})`);
/** What the viewer may change: staff everything, a customer its own tenant's (not the platform's). */
const editableSql = (actor: Actor, alias = 's'): SQL => (isStaff(actor) ? sql`true` : sql`(${sql.raw(alias)}.root_cust_id is not null and ${own(actor, alias)})`);

const bad = (zh: string, en: string, lang: 'zh' | 'en') => new AppError(ErrorCode.DsimStrategyParams, { detail: lang === 'zh' ? zh : en }, 200, { field: 'params' });

/** The parameters a rule type needs, and nothing else. */
export function checkParams(ruleType: number, p: Params, lang: 'zh' | 'en'): Params {
  const { DSIM_NO_SESSION_MINUTES: M, DSIM_SIGNAL_DBM: S } = api;
  if (ruleType === DsimRuleType.NoSession) {
    if (p.minutes === undefined) throw bad(`请填写无会话的分钟数（${M.min}-${M.max}）`, `enter the minutes without a session (${M.min}-${M.max})`, lang);
    return { minutes: p.minutes };
  }
  if (ruleType === DsimRuleType.Cost) {
    const order = p.operatorOrder ?? [];
    if (order.length < 2) throw bad('请按资费从低到高选择至少两个运营商', 'choose at least two operators, cheapest first', lang);
    if (new Set(order).size !== order.length) throw bad('运营商不能重复', 'an operator appears twice', lang);
    return { operatorOrder: order };
  }
  if (ruleType === DsimRuleType.Signal) {
    if (p.minSignal === undefined) throw bad(`请填写信号强度阈值（${S.min} 至 ${S.max} dBm）`, `enter the signal threshold (${S.min} to ${S.max} dBm)`, lang);
    return { minSignal: p.minSignal };
  }
  throw bad('未知的策略类型', 'unknown rule type', lang);
}

/** A strategy the viewer may choose for its super SIMs, or 20005. */
export async function visibleStrategy(ex: Executor, strategyId: number, actor: Actor) {
  const [s] = await exec(ex, sql`select * from dsim_strategies s where s.strategy_id = ${strategyId} and ${visibleSql(actor)}`);
  if (!s) throw notFound();
  return s;
}

export class StrategyService {
  constructor(private db: Db) {}

  private out(r: Row, actor: Actor) {
    const params = (typeof r.params === 'string' ? JSON.parse(r.params) : r.params) as Params;
    const platform = r.root_cust_id == null;
    return {
      strategyId: n(r.strategy_id), strategyName: String(r.strategy_name), ruleType: n(r.rule_type), params, remark: (r.remark as string | null) ?? null,
      simCount: n(r.sim_count), platform, editable: isStaff(actor) || (!platform && (r.editable === true)),
      createdBy: String(r.created_by), updatedAt: new Date(r.updated_at as string).toISOString(),
    };
  }

  private select(actor: Actor) {
    return sql`select s.*, ${editableSql(actor)} as editable,
      (select count(*) from dsims d where d.strategy_id = s.strategy_id and ${tenantFilter(actor, { custId: sql.raw('d.cust_id'), rootCustId: sql.raw('d.root_cust_id') })}) as sim_count
      from dsim_strategies s`;
  }

  async page(q: BodyOf<typeof api.getOemStrategyPage>, actor: Actor) {
    const p = pageOf(q);
    const w: SQL[] = [visibleSql(actor)];
    if (q.strategyName) w.push(sql`s.strategy_name ilike ${contains(q.strategyName.trim())}`);
    if (q.ruleType !== undefined) w.push(sql`s.rule_type = ${q.ruleType}`);
    const where = sql.join(w, sql` and `);
    const [rows, [{ total }]] = await Promise.all([
      exec(this.db, sql`${this.select(actor)} where ${where} order by s.strategy_name, s.strategy_id limit ${p.limit} offset ${p.offset}`),
      exec<{ total: string }>(this.db, sql`select count(*) as total from dsim_strategies s where ${where}`),
    ]);
    return { list: rows.map((r) => this.out(r, actor)), total: n(total), current: p.current, pageSize: p.pageSize };
  }

  private async nameFree(ex: Executor, name: string, exceptId: number | null) {
    const [taken] = await exec(ex, sql`select 1 from dsim_strategies where lower(strategy_name) = lower(${name})
      ${exceptId ? sql`and strategy_id <> ${exceptId}` : sql``}`);
    if (taken) throw new AppError(ErrorCode.DsimStrategyNameTaken, { name }, 200, { field: 'strategyName' });
  }

  /** A unique-index race lost to another insert is the same collision. */
  private async unique<T>(name: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
      if (code === '23505') throw new AppError(ErrorCode.DsimStrategyNameTaken, { name }, 200, { field: 'strategyName' });
      throw err;
    }
  }

  async add(b: BodyOf<typeof api.insertOemStrategy>, ctx: SessionContext) {
    const name = b.strategyName.trim();
    if (!name) throw new AppError(ErrorCode.DsimStrategyParams, { detail: ctx.lang === 'zh' ? '请填写策略名称' : 'enter the strategy name' }, 200, { field: 'strategyName' });
    const params = checkParams(b.ruleType, b.params, ctx.lang);
    const staff = isStaff(ctx.actor);
    return this.unique(name, () => this.db.transaction(async (tx) => {
      await this.nameFree(tx, name, null);
      const [r] = await exec(tx, sql`insert into dsim_strategies (strategy_name, rule_type, params, remark, cust_id, root_cust_id, created_by)
        values (${name}, ${b.ruleType}, ${JSON.stringify(params)}::jsonb, ${b.remark?.trim() || null}, ${staff ? null : ctx.actor.custId},
          ${staff ? null : ctx.actor.rootCustId}, ${ctx.actor.loginName}) returning strategy_id`);
      const [row] = await exec(tx, sql`${this.select(ctx.actor)} where s.strategy_id = ${r.strategy_id}`);
      const out = this.out(row, ctx.actor);
      await audit(tx, ctx, { entity: 'dsimStrategy', entityId: out.strategyId, after: out });
      return out;
    }));
  }

  async edit(b: BodyOf<typeof api.updateOemStrategy>, ctx: SessionContext) {
    const name = b.strategyName.trim();
    if (!name) throw new AppError(ErrorCode.DsimStrategyParams, { detail: ctx.lang === 'zh' ? '请填写策略名称' : 'enter the strategy name' }, 200, { field: 'strategyName' });
    const params = checkParams(b.ruleType, b.params, ctx.lang);
    return this.unique(name, () => this.db.transaction(async (tx) => {
      const [cur] = await exec(tx, sql`${this.select(ctx.actor)} where s.strategy_id = ${b.strategyId} and ${visibleSql(ctx.actor)} for update of s`);
      if (!cur) throw notFound();
      if (cur.editable !== true) throw denied();
      await this.nameFree(tx, name, b.strategyId);
      await tx.execute(sql`update dsim_strategies set strategy_name = ${name}, rule_type = ${b.ruleType}, params = ${JSON.stringify(params)}::jsonb,
        remark = ${b.remark?.trim() || null}, updated_at = now() where strategy_id = ${b.strategyId}`);
      const [row] = await exec(tx, sql`${this.select(ctx.actor)} where s.strategy_id = ${b.strategyId}`);
      const out = this.out(row, ctx.actor);
      await audit(tx, ctx, { entity: 'dsimStrategy', entityId: b.strategyId, before: this.out(cur, ctx.actor), after: out });
      return out;
    }));
  }

  /** By name (spec §7); refused while any super SIM (of any tenant) uses it. */
  async remove(strategyName: string, ctx: SessionContext) {
    return this.db.transaction(async (tx) => {
      const [cur] = await exec(tx, sql`${this.select(ctx.actor)} where s.strategy_name = ${strategyName.trim()} and ${visibleSql(ctx.actor)} for update of s`);
      if (!cur) throw notFound();
      if (cur.editable !== true) throw denied();
      const [{ used }] = await exec<{ used: string }>(tx, sql`select count(*) as used from dsims where strategy_id = ${cur.strategy_id}`);
      if (n(used) > 0) throw new AppError(ErrorCode.DsimStrategyInUse, { count: n(used) });
      await tx.execute(sql`delete from dsim_strategies where strategy_id = ${cur.strategy_id}`);
      await audit(tx, ctx, { entity: 'dsimStrategy', entityId: n(cur.strategy_id), before: this.out(cur, ctx.actor) });
      return null;
    });
  }
}
