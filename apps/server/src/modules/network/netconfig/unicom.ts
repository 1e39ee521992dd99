import { and, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import { ApnStatus, ErrorCode, Operator, RoamingZone, UnicomPlanStatus, type BodyOf, type netconfig } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError, FieldError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import type { SessionContext } from '../../../platform/context.ts';
import { contains, orderOf, pageFrom, pageOf, totalOver } from '../../../platform/paging.ts';
import { blankToNull } from '../../../platform/validate.ts';
import { operators } from '../../account/tables.ts';
import { apns } from '../tables.ts';
import { unicomCommPlans } from './tables.ts';

type PlanRow = typeof unicomCommPlans.$inferSelect;
type PlanBody = BodyOf<typeof netconfig.addUnicomCommPlan>;

const toPlan = (r: PlanRow, apnName: string | null) => ({
  planId: r.planId, planName: r.planName, planCode: r.planCode, dataEnabled: r.dataEnabled, smsEnabled: r.smsEnabled, voiceEnabled: r.voiceEnabled,
  apnId: r.apnId, apnName, roamingZone: r.roamingZone, dataLimitMb: r.dataLimitMb, smsLimit: r.smsLimit, speedLimitKbps: r.speedLimitKbps,
  billingDay: r.billingDay, description: r.description, status: r.status, copiedFrom: r.copiedFrom,
  createdBy: r.createdBy, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
});

/** China Unicom communication plans: the service set, APN and limits a Unicom card is provisioned with. */
export class UnicomPlanService {
  constructor(private db: Db) {}

  /** China Unicom's billing period start day (spec §9: the 26th), read from the operator record. */
  private async billingDay(ex: Executor): Promise<number> {
    const [o] = await ex.select({ day: operators.billingDay }).from(operators).where(eq(operators.operatorId, Operator.ChinaUnicom));
    if (!o) throw new AppError(ErrorCode.UnicomPlanApnInvalid, undefined, 200, { field: 'apnId' });
    return o.day;
  }

  async apnOptions() {
    const rows = await this.db
      .select({ apnId: apns.apnId, apnName: apns.apnName, status: apns.status })
      .from(apns)
      .where(eq(apns.operatorId, Operator.ChinaUnicom))
      .orderBy(apns.apnName);
    return { billingDay: await this.billingDay(this.db), apns: rows };
  }

  async page(q: BodyOf<typeof netconfig.getUnicomCommPlanPage>) {
    const p = pageOf(q);
    const where: SQL[] = [];
    if (q.planName) where.push(ilike(unicomCommPlans.planName, contains(q.planName)));
    if (q.planCode) where.push(ilike(unicomCommPlans.planCode, contains(q.planCode)));
    if (q.roamingZone !== undefined) where.push(eq(unicomCommPlans.roamingZone, q.roamingZone));
    if (q.status !== undefined) where.push(eq(unicomCommPlans.status, q.status));
    const cond = where.length ? and(...where) : undefined;
    const { rows, total } = await pageFrom(
      await this.db
        .select({ p: unicomCommPlans, apnName: apns.apnName, total: totalOver() })
        .from(unicomCommPlans)
        .leftJoin(apns, eq(apns.apnId, unicomCommPlans.apnId))
        .where(cond)
        .orderBy(...orderOf(q, { planName: unicomCommPlans.planName, updatedAt: unicomCommPlans.updatedAt }, [desc(unicomCommPlans.planId)]))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await this.db.select({ n: count() }).from(unicomCommPlans).where(cond))[0].n),
    );
    return { list: rows.map((r) => toPlan(r.p, r.apnName)), total, current: p.current, pageSize: p.pageSize };
  }

  async detail(planId: number) {
    const [r] = await this.db
      .select({ p: unicomCommPlans, apnName: apns.apnName })
      .from(unicomCommPlans)
      .leftJoin(apns, eq(apns.apnId, unicomCommPlans.apnId))
      .where(eq(unicomCommPlans.planId, planId));
    if (!r) throw notFound();
    return toPlan(r.p, r.apnName);
  }

  private async values(ex: Executor, b: PlanBody | BodyOf<typeof netconfig.updateUnicomCommPlan>, currentApnId: number | null) {
    if (!RoamingZone.has(b.roamingZone)) throw new FieldError('roamingZone', { zh: '取值无效', en: 'has an invalid value' });
    if (b.status !== undefined && !UnicomPlanStatus.has(b.status)) throw new FieldError('status', { zh: '取值无效', en: 'has an invalid value' });
    const planName = b.planName.trim();
    if (!planName) throw new FieldError('planName', { zh: '请选择或输入', en: 'Please select or enter' });
    if (!b.dataEnabled && !b.smsEnabled && !b.voiceEnabled) {
      throw new FieldError('serviceTypes', { zh: '至少选择一种业务（数据、短信或语音）', en: 'choose at least one service (data, SMS or voice)' });
    }
    const apnId = b.dataEnabled ? (b.apnId ?? null) : null;
    if (b.dataEnabled) {
      if (apnId === null) throw new FieldError('apnId', { zh: '开通数据业务时必须选择 APN', en: 'an APN is required when data is enabled' });
      const [apn] = await ex.select().from(apns).where(eq(apns.apnId, apnId));
      // an APN already on the plan may stay after being disabled; a new choice must be enabled
      if (!apn || apn.operatorId !== Operator.ChinaUnicom || (apn.status !== ApnStatus.Enabled && apnId !== currentApnId)) {
        throw new AppError(ErrorCode.UnicomPlanApnInvalid, undefined, 200, { field: 'apnId' });
      }
    }
    return {
      planName, planCode: b.planCode, dataEnabled: b.dataEnabled, smsEnabled: b.smsEnabled, voiceEnabled: b.voiceEnabled, apnId,
      roamingZone: b.roamingZone,
      dataLimitMb: b.dataEnabled ? (b.dataLimitMb ?? null) : null,
      smsLimit: b.smsEnabled ? (b.smsLimit ?? null) : null,
      speedLimitKbps: b.dataEnabled ? (b.speedLimitKbps ?? null) : null,
      description: blankToNull(b.description), status: b.status ?? UnicomPlanStatus.Enabled,
    };
  }

  private async nameFree(ex: Executor, name: string, except?: number) {
    const rows = await ex.select({ id: unicomCommPlans.planId }).from(unicomCommPlans).where(sql`lower(${unicomCommPlans.planName}) = ${name.toLowerCase()}`);
    if (rows.some((r) => r.id !== except)) throw new AppError(ErrorCode.UnicomPlanNameTaken, undefined, 200, { field: 'planName' });
  }

  /** Add, or copy when copyFrom is given: a copy is a new plan and must take a new name. */
  async add(b: PlanBody, ctx: SessionContext) {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7310804)`);
      if (b.copyFrom !== undefined) {
        const [source] = await tx.select({ id: unicomCommPlans.planId }).from(unicomCommPlans).where(eq(unicomCommPlans.planId, b.copyFrom));
        if (!source) throw notFound();
      }
      const v = await this.values(tx, b, null);
      await this.nameFree(tx, v.planName);
      const [row] = await tx
        .insert(unicomCommPlans)
        .values({ ...v, billingDay: await this.billingDay(tx), copiedFrom: b.copyFrom ?? null, createdBy: ctx.actor.loginName })
        .returning();
      await audit(tx, ctx, { entity: 'unicomCommPlan', entityId: row.planId, after: row, custId: null, rootCustId: null });
      return { planId: row.planId };
    });
  }

  async update(b: BodyOf<typeof netconfig.updateUnicomCommPlan>, ctx: SessionContext) {
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7310804)`);
      const [before] = await tx.select().from(unicomCommPlans).where(eq(unicomCommPlans.planId, b.planId));
      if (!before) throw notFound();
      const v = await this.values(tx, b, before.apnId);
      await this.nameFree(tx, v.planName, b.planId);
      const [after] = await tx.update(unicomCommPlans).set({ ...v, updatedAt: new Date() }).where(eq(unicomCommPlans.planId, b.planId)).returning();
      await audit(tx, ctx, { entity: 'unicomCommPlan', entityId: b.planId, before, after, custId: null, rootCustId: null });
    });
  }

  async delete(planId: number, ctx: SessionContext) {
    await this.db.transaction(async (tx) => {
      const [before] = await tx.delete(unicomCommPlans).where(eq(unicomCommPlans.planId, planId)).returning();
      if (!before) throw notFound();
      await audit(tx, ctx, { entity: 'unicomCommPlan', entityId: planId, before, custId: null, rootCustId: null });
    });
  }
}
