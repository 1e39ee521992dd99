import type { FastifyInstance } from 'fastify';
import { and, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import { network, ApnStatus, ApnType, ErrorCode, IpAllocation, Operator, type BodyOf } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import type { AppDeps } from '../../app.ts';
import { AppError, denied, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { isStaff, type Actor, type SessionContext } from '../../platform/context.ts';
import { orderOf, pageFrom, pageOf, totalOver, contains } from '../../platform/paging.ts';
import { blankToNull } from '../../platform/validate.ts';
import type { Executor } from '../../db/client.ts';
import { operators } from '../account/tables.ts';
import { apns } from './tables.ts';

type ApnRow = typeof apns.$inferSelect;
const toApn = (r: ApnRow) => ({
  apnId: r.apnId, apnName: r.apnName, operatorId: r.operatorId, apnType: r.apnType, ipAllocation: r.ipAllocation, status: r.status,
  remark: r.remark, createdBy: r.createdBy, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
});

/** Operators and the APNs on their networks: platform configuration kept by operator staff. */
export function networkRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;
  const staffOnly = (actor: Actor) => {
    if (!isStaff(actor)) throw denied();
  };

  bind(app, deps, network.getOperatorList, async (_b, ctx) => {
    staffOnly(ctx.actor);
    const rows = await db
      .select({ o: operators, apnCount: sql<number>`(select count(*) from apns a where a.operator_id = "operators"."operator_id")`.mapWith(Number) })
      .from(operators)
      .orderBy(operators.operatorId);
    return rows.map(({ o, apnCount }) => ({
      operatorId: o.operatorId, code: o.code, nameZh: o.nameZh, nameEn: o.nameEn, billingDay: o.billingDay, apnCount, createdAt: o.createdAt.toISOString(),
    }));
  });

  const apnPage = async (q: BodyOf<typeof network.getApnListPage>, actor: Actor) => {
    staffOnly(actor);
    const p = pageOf(q);
    const where: SQL[] = [];
    if (q.apnName) where.push(ilike(apns.apnName, contains(q.apnName)));
    if (q.operatorId !== undefined) where.push(eq(apns.operatorId, q.operatorId));
    if (q.apnType !== undefined) where.push(eq(apns.apnType, q.apnType));
    if (q.status !== undefined) where.push(eq(apns.status, q.status));
    const cond = where.length ? and(...where) : undefined;
    const { rows, total } = await pageFrom(
      await db
        .select({ a: apns, total: totalOver() })
        .from(apns)
        .where(cond)
        .orderBy(...orderOf(q, { apnName: apns.apnName, updatedAt: apns.updatedAt }, [desc(apns.apnId)]))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await db.select({ n: count() }).from(apns).where(cond))[0].n),
    );
    return { list: rows.map((r) => toApn(r.a)), total, current: p.current, pageSize: p.pageSize };
  };
  bind(app, deps, network.getApnListPage, (q, ctx) => apnPage(q, ctx.actor));

  const checkOperator = async (ex: Executor, operatorId: number) => {
    const [o] = await ex.select({ id: operators.operatorId }).from(operators).where(eq(operators.operatorId, operatorId));
    if (!o) throw new AppError(ErrorCode.Validation, { field: 'operatorId', reason: 'unknown operator' }, 400, { field: 'operatorId' });
  };
  const nameFree = async (ex: Executor, operatorId: number, name: string, except?: number) => {
    const rows = await ex
      .select({ id: apns.apnId })
      .from(apns)
      .where(and(eq(apns.operatorId, operatorId), sql`lower(${apns.apnName}) = ${name.toLowerCase()}`));
    if (rows.some((r) => r.id !== except)) throw new AppError(ErrorCode.ApnNameTaken, undefined, 200, { field: 'apnName' });
  };
  const enumsOk = (b: { apnType?: number; ipAllocation?: number; status?: number }) => {
    if (b.apnType !== undefined && !ApnType.has(b.apnType)) throw new AppError(ErrorCode.Validation, { field: 'apnType', reason: 'invalid' }, 400);
    if (b.ipAllocation !== undefined && !IpAllocation.has(b.ipAllocation)) throw new AppError(ErrorCode.Validation, { field: 'ipAllocation', reason: 'invalid' }, 400);
    if (b.status !== undefined && !ApnStatus.has(b.status)) throw new AppError(ErrorCode.Validation, { field: 'status', reason: 'invalid' }, 400);
  };

  bind(app, deps, network.saveApn, async (b, ctx: SessionContext) => {
    staffOnly(ctx.actor);
    enumsOk(b);
    return db.transaction(async (tx) => {
      await checkOperator(tx, b.operatorId);
      await nameFree(tx, b.operatorId, b.apnName);
      const [row] = await tx
        .insert(apns)
        .values({
          apnName: b.apnName, operatorId: b.operatorId, apnType: b.apnType, ipAllocation: b.ipAllocation,
          status: b.status ?? ApnStatus.Enabled, remark: blankToNull(b.remark), createdBy: ctx.actor.loginName,
        })
        .returning();
      await audit(tx, ctx, { entity: 'apn', entityId: row.apnId, after: row, custId: null, rootCustId: null });
      return { apnId: row.apnId };
    });
  });

  bind(app, deps, network.updateApn, async (b, ctx) => {
    staffOnly(ctx.actor);
    enumsOk(b);
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(apns).where(eq(apns.apnId, b.apnId));
      if (!before) throw notFound();
      const operatorId = b.operatorId ?? before.operatorId;
      if (b.operatorId !== undefined) await checkOperator(tx, operatorId);
      if (b.apnName !== undefined || b.operatorId !== undefined) await nameFree(tx, operatorId, b.apnName ?? before.apnName, b.apnId);
      const [after] = await tx
        .update(apns)
        .set({
          ...(b.apnName !== undefined && { apnName: b.apnName }),
          ...(b.operatorId !== undefined && { operatorId: b.operatorId }),
          ...(b.apnType !== undefined && { apnType: b.apnType }),
          ...(b.ipAllocation !== undefined && { ipAllocation: b.ipAllocation }),
          ...(b.status !== undefined && { status: b.status }),
          ...(b.remark !== undefined && { remark: blankToNull(b.remark) }),
          updatedAt: new Date(),
        })
        .where(eq(apns.apnId, b.apnId))
        .returning();
      await audit(tx, ctx, { entity: 'apn', entityId: b.apnId, before, after, custId: null, rootCustId: null });
    });
    return null;
  });

  deps.exports.register(network.getApnListPage, {
    title: { zh: 'APN 列表', en: 'APNs' },
    filters: {
      apnName: { title: { zh: 'APN 名称', en: 'APN name' } },
      apnType: { title: { zh: 'APN 类型', en: 'APN type' }, enum: ApnType },
      status: { title: { zh: '状态', en: 'Status' }, enum: ApnStatus },
    },
    perm: 7010003,
    page: apnPage,
    columns: [
      { key: 'apnName', title: { zh: 'APN 名称', en: 'APN name' } },
      { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      { key: 'apnType', title: { zh: '类型', en: 'Type' }, enum: ApnType },
      { key: 'ipAllocation', title: { zh: 'IP 分配', en: 'IP allocation' }, enum: IpAllocation },
      { key: 'status', title: { zh: '状态', en: 'Status' }, enum: ApnStatus },
      { key: 'remark', title: { zh: '备注', en: 'Remark' } },
      { key: 'createdBy', title: { zh: '创建人', en: 'Created by' } },
      { key: 'updatedAt', title: { zh: '更新时间', en: 'Updated' }, type: 'datetime' },
    ],
  });
}
