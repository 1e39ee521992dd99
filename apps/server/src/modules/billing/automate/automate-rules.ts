import { sql, type SQL } from 'drizzle-orm';
import { BillAutoExecState, BillAutoWriteOffMode, ErrorCode, businessDay, type BodyOf, type billautomate as api } from '@lynx/contract';
import type { Executor, Db } from '../../../db/client.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError, denied, notFound } from '../../../platform/errors.ts';
import { isStaff, type Actor, type SessionContext } from '../../../platform/context.ts';
import { contains, pageOf } from '../../../platform/paging.ts';
import { customerScope } from '../../money/capital-service.ts';
import { iso, rowsOf } from '../bills/bill-sql.ts';
import { firstPeriodFrom, laterPeriod, nextExecution, targetPeriod } from './automate-days.ts';

/**
 * Automated ledger rules (Billing › Automated ledger, 4060000; docs/decisions.md "Issue 14: automated ledger"): one
 * live rule per customer. Platform finance adds, edits and deletes them; a customer's finance sees its tree's rules
 * and switches them on and off. Rules are read with raw SQL, table aliased `r`, customer `c`.
 */

type RuleInput = Pick<BodyOf<typeof api.addBillAutomateRule>, 'dayOfMonth' | 'publish' | 'writeOff' | 'writeOffMode' | 'remark'>;

const RULE_COLUMNS = sql.raw(`r.rule_id, r.cust_id, r.root_cust_id, c.cust_name, r.day_of_month, r.publish, r.write_off, r.write_off_mode,
  r.enabled, r.remark, r.first_period, r.created_by, r.created_at, r.updated_by, r.updated_at`);

/** The rule columns plus its last execution and whether the execution of `target` is finished. */
const ruleSelect = (target: string) => sql`select ${RULE_COLUMNS},
    le.exec_id as last_exec_id, le.period_key as last_period, le.state as last_state, le.last_tried_at as last_at,
    exists (select 1 from bill_automate_execs x where x.rule_id = r.rule_id and x.period_key = ${target} and x.state <> ${BillAutoExecState.Waiting}) as target_finished
  from bill_automate_rules r join customers c on c.cust_id = r.cust_id
  left join lateral (select e.exec_id, e.period_key, e.state, e.last_tried_at from bill_automate_execs e where e.rule_id = r.rule_id
    order by e.exec_id desc limit 1) le on true`;

export type RuleOut = ReturnType<typeof ruleOut>;

function ruleOut(r: Record<string, unknown>, today: string) {
  const enabled = Boolean(r.enabled);
  const next = enabled ? nextExecution(today, Number(r.day_of_month), String(r.first_period), Boolean(r.target_finished)) : null;
  return {
    ruleId: Number(r.rule_id), custId: Number(r.cust_id), custName: String(r.cust_name), dayOfMonth: Number(r.day_of_month),
    publish: r.publish ? 1 : 0, writeOff: r.write_off ? 1 : 0, writeOffMode: Number(r.write_off_mode), enabled: enabled ? 1 : 0,
    remark: (r.remark as string | null) ?? null, firstPeriod: String(r.first_period),
    nextDay: next?.day ?? null, nextPeriod: next?.period ?? null,
    lastExec: r.last_exec_id == null ? null : { execId: Number(r.last_exec_id), periodKey: String(r.last_period), state: Number(r.last_state), at: iso(r.last_at)! },
    createdBy: String(r.created_by), createdAt: iso(r.created_at)!, updatedBy: (r.updated_by as string | null) ?? null, updatedAt: iso(r.updated_at)!,
  };
}

const staffOnly = (actor: Actor) => {
  if (!isStaff(actor)) throw denied();
};

/** A rule's fields as written: the write-off mode is kept only for a rule that writes off. */
function checkInput(b: RuleInput) {
  if (!b.publish && !b.writeOff) throw new AppError(ErrorCode.BillAutoNoAction);
  const remark = b.remark?.trim() || null;
  return { day: b.dayOfMonth, publish: b.publish === 1, writeOff: b.writeOff === 1, mode: b.writeOff ? b.writeOffMode : BillAutoWriteOffMode.Full, remark };
}

const isUniqueViolation = (e: unknown) => {
  for (let c: unknown = e; c; c = (c as { cause?: unknown }).cause) if ((c as { code?: string }).code === '23505') return true;
  return false;
};

export class BillAutoRuleService {
  constructor(private db: Db) {}

  async list(q: BodyOf<typeof api.getBillAutomateListPage>, actor: Actor, now = new Date()) {
    const today = businessDay(now.getTime());
    const p = pageOf(q);
    const where: SQL[] = [sql`r.deleted_at is null`, customerScope(actor, 'r')];
    if (q.custId !== undefined) where.push(sql`r.cust_id = ${q.custId}`);
    if (q.custName) where.push(sql`c.cust_name ilike ${contains(q.custName)}`);
    if (q.enabled !== undefined) where.push(q.enabled ? sql`r.enabled` : sql`not r.enabled`);
    if (q.dayOfMonth !== undefined) where.push(sql`r.day_of_month = ${q.dayOfMonth}`);
    const cond = sql.join(where, sql` and `);
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`${ruleSelect(targetPeriod(today))} where ${cond}
      order by r.rule_id desc limit ${p.limit} offset ${p.offset}`));
    const [{ n }] = rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from bill_automate_rules r join customers c on c.cust_id = r.cust_id where ${cond}`));
    return { list: rows.map((r) => ruleOut(r, today)), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  /** One live rule as the actor may see it (NotFound otherwise, whether it exists or not). */
  async detail(ruleId: number, actor: Actor, now = new Date(), ex: Executor = this.db) {
    const today = businessDay(now.getTime());
    const [r] = rowsOf<Record<string, unknown>>(await ex.execute(sql`${ruleSelect(targetPeriod(today))}
      where r.rule_id = ${ruleId} and r.deleted_at is null and ${customerScope(actor, 'r')}`));
    if (!r) throw notFound();
    return ruleOut(r, today);
  }

  async add(b: BodyOf<typeof api.addBillAutomateRule>, ctx: SessionContext, now = new Date()) {
    staffOnly(ctx.actor);
    const v = checkInput(b);
    const today = businessDay(now.getTime());
    try {
      return await this.db.transaction(async (tx) => {
        const [cust] = rowsOf<{ cust_id: number; root_cust_id: number; cust_name: string }>(await tx.execute(sql`select cust_id, root_cust_id, cust_name
          from customers c where c.cust_id = ${b.custId} and ${customerScope(ctx.actor)} for share`));
        if (!cust) throw notFound();
        const [taken] = rowsOf(await tx.execute(sql`select 1 from bill_automate_rules where cust_id = ${b.custId} and deleted_at is null`));
        if (taken) throw new AppError(ErrorCode.BillAutoRuleExists, { cust: cust.cust_name });
        const [{ rule_id: id }] = rowsOf<{ rule_id: number }>(await tx.execute(sql`insert into bill_automate_rules
            (cust_id, root_cust_id, day_of_month, publish, write_off, write_off_mode, enabled, remark, first_period, created_by, updated_by)
          values (${cust.cust_id}, ${cust.root_cust_id}, ${v.day}, ${v.publish}, ${v.writeOff}, ${v.mode}, ${b.enabled !== 0}, ${v.remark},
            ${firstPeriodFrom(today, v.day)}, ${ctx.actor.loginName}, ${ctx.actor.loginName}) returning rule_id`));
        const after = await this.detail(Number(id), ctx.actor, now, tx);
        await audit(tx, ctx, { entity: 'billAutomateRule', entityId: id, custId: cust.cust_id, rootCustId: cust.root_cust_id, after: auditView(after) });
        return after;
      });
    } catch (e) {
      // two adds for one customer at once: the partial unique index lets one through
      if (isUniqueViolation(e)) {
        const [c] = rowsOf<{ cust_name: string }>(await this.db.execute(sql`select cust_name from customers where cust_id = ${b.custId}`));
        throw new AppError(ErrorCode.BillAutoRuleExists, { cust: c?.cust_name ?? String(b.custId) });
      }
      throw e;
    }
  }

  /** Changes the day, actions and remark. A new day acts from the next time it comes (never on one already past). */
  async edit(b: BodyOf<typeof api.editBillAutomateRule>, ctx: SessionContext, now = new Date()) {
    staffOnly(ctx.actor);
    const v = checkInput(b);
    const today = businessDay(now.getTime());
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, b.ruleId, ctx.actor, now);
      const first = before.dayOfMonth === v.day ? before.firstPeriod : laterPeriod(before.firstPeriod, firstPeriodFrom(today, v.day));
      await tx.execute(sql`update bill_automate_rules set day_of_month = ${v.day}, publish = ${v.publish}, write_off = ${v.writeOff},
        write_off_mode = ${v.mode}, remark = ${v.remark}, first_period = ${first}, updated_by = ${ctx.actor.loginName}, updated_at = now()
        where rule_id = ${b.ruleId}`);
      const after = await this.detail(b.ruleId, ctx.actor, now, tx);
      await audit(tx, ctx, { entity: 'billAutomateRule', entityId: b.ruleId, custId: after.custId, rootCustId: before.rootCustId, before: auditView(before), after: auditView(after) });
      return after;
    });
  }

  /** Deletes a rule (kept, marked deleted, so its executions keep their history); a waiting execution is given up. */
  async remove(ruleId: number, ctx: SessionContext, now = new Date()) {
    staffOnly(ctx.actor);
    await this.db.transaction(async (tx) => {
      const before = await this.locked(tx, ruleId, ctx.actor, now);
      await tx.execute(sql`update bill_automate_rules set deleted_at = ${now.toISOString()}::timestamptz, deleted_by = ${ctx.actor.loginName},
        enabled = false, updated_by = ${ctx.actor.loginName}, updated_at = now() where rule_id = ${ruleId}`);
      await audit(tx, ctx, { entity: 'billAutomateRule', entityId: ruleId, custId: before.custId, rootCustId: before.rootCustId, before: auditView(before), after: { deleted: true } });
    });
    return null;
  }

  /**
   * Switches a rule on or off (staff, or the customer's finance within its tree). Switched on, it acts from the next
   * time its day comes; the same state again changes nothing (and writes no record of a change).
   */
  async switch(b: BodyOf<typeof api.switchBillAutomateRule>, ctx: SessionContext, now = new Date()) {
    const today = businessDay(now.getTime());
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, b.ruleId, ctx.actor, now);
      if (before.enabled === b.enabled) {
        await audit(tx, ctx, { entity: 'billAutomateRule', entityId: b.ruleId, custId: before.custId, rootCustId: before.rootCustId, before: { enabled: before.enabled }, after: { enabled: b.enabled, unchanged: true } });
        return before;
      }
      const first = b.enabled ? laterPeriod(before.firstPeriod, firstPeriodFrom(today, before.dayOfMonth)) : before.firstPeriod;
      await tx.execute(sql`update bill_automate_rules set enabled = ${b.enabled === 1}, first_period = ${first}, updated_by = ${ctx.actor.loginName},
        updated_at = now() where rule_id = ${b.ruleId}`);
      const after = await this.detail(b.ruleId, ctx.actor, now, tx);
      await audit(tx, ctx, { entity: 'billAutomateRule', entityId: b.ruleId, custId: after.custId, rootCustId: before.rootCustId, before: auditView(before), after: auditView(after) });
      return after;
    });
  }

  /** The rule row locked for a change, as the actor may see it. */
  private async locked(tx: Executor, ruleId: number, actor: Actor, now: Date) {
    const [r] = rowsOf<{ root_cust_id: number }>(await tx.execute(sql`select r.root_cust_id from bill_automate_rules r where r.rule_id = ${ruleId}
      and r.deleted_at is null and ${customerScope(actor, 'r')} for update`));
    if (!r) throw notFound();
    return { ...(await this.detail(ruleId, actor, now, tx)), rootCustId: Number(r.root_cust_id) };
  }
}

/** What the audit trail keeps of a rule. */
const auditView = (r: RuleOut) => ({
  custId: r.custId, custName: r.custName, dayOfMonth: r.dayOfMonth, publish: r.publish, writeOff: r.writeOff, writeOffMode: r.writeOffMode,
  enabled: r.enabled, remark: r.remark, firstPeriod: r.firstPeriod,
});
