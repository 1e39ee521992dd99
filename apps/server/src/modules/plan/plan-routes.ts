import type { FastifyInstance } from 'fastify';
import { and, asc, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import {
  plan, ErrorCode, Operator, PlanChangeKind, PlanGoodsType, PlanStatus, PriceChangeFailure, PriceChangeResult, PriceChangeStatus, TariffType,
  SUPPLEMENTARY_TARIFFS, BASE_TARIFFS, toMoneyText, type BodyOf,
} from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import { sizeColumns } from '../../platform/exports.ts';
import type { AppDeps } from '../../app.ts';
import { AppError, denied, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { isStaff, tenantFilter, type Actor, type SessionContext } from '../../platform/context.ts';
import { contains, orderOf, pageFrom, pageOf, totalOver } from '../../platform/paging.ts';
import { blankToNull } from '../../platform/validate.ts';
import type { Executor } from '../../db/client.ts';
import { customers } from '../account/tables.ts';
import { auditLog } from '../../platform/tables.ts';
import { apns } from '../network/tables.ts';
import { commServicesByIds } from '../network/commserv/service.ts';
import { retailPlansOn } from './retail-service.ts';
import { visibleToActor } from './plan-service.ts';
import { apnSets, canonicalPrice as price, checkMoney, checkPlan, priceFen, type PlanInput } from './plan-rules.ts';
import {
  basicPlans, planAlternatives, planApns, planPriceChangeItems, planPriceChanges, planReleases, planZones, planZoneServices,
} from './plan-tables.ts';
import { applyDuePriceChanges, businessTodayOf } from './plan-price.ts';

type PlanRow = typeof basicPlans.$inferSelect;
const PRICE_QUEUE = 'plan.applyPriceChanges';

const pendingPrice = sql<string | null>`(select pc.new_price from plan_price_changes pc where pc.goods_release_id = "basic_plans"."goods_release_id" and pc.status = ${PriceChangeStatus.Pending} order by pc.change_id desc limit 1)`.mapWith((v) => toMoneyText(v as string | null));
const pendingDate = sql<string | null>`(select pc.effective_date::text from plan_price_changes pc where pc.goods_release_id = "basic_plans"."goods_release_id" and pc.status = ${PriceChangeStatus.Pending} order by pc.change_id desc limit 1)`;
const zoneCount = sql<number>`(select count(*) from plan_zones z where z.goods_release_id = "basic_plans"."goods_release_id")`.mapWith(Number);

/** Columns of the plan row every list shows; for a customer the sale price is the one it buys at. */
const listColumns = (actor: Actor) => {
  const scope = isStaff(actor) ? sql`true` : tenantFilter(actor, { custId: sql.raw('r.cust_id') as never, rootCustId: sql.raw('r.root_cust_id') as never });
  return {
    p: basicPlans,
    zoneCount,
    pendingPrice,
    pendingDate,
    releaseCount: sql<number>`(select count(*) from plan_releases r where r.goods_release_id = "basic_plans"."goods_release_id" and ${scope})`.mapWith(Number),
    ownPrice: sql<string | null>`(select min(r.sale_price) from plan_releases r where r.goods_release_id = "basic_plans"."goods_release_id" and ${scope})`.mapWith((v) => toMoneyText(v as string | null)),
  };
};

const toRow = (r: { p: PlanRow; zoneCount: number; releaseCount: number; pendingPrice: string | null; pendingDate: string | null; ownPrice: string | null }, actor: Actor) => ({
  goodsReleaseId: r.p.goodsReleaseId, code: r.p.code, name: r.p.name, goodsType: r.p.goodsType, tariffType: r.p.tariffType,
  standardPrice: r.p.standardPrice, salePrice: isStaff(actor) || r.ownPrice == null ? r.p.salePrice : r.ownPrice,
  status: r.p.status, operatorId: r.p.operatorId, operationMode: r.p.operationMode, cycleUnit: r.p.cycleUnit, cycleValue: r.p.cycleValue,
  durationMonths: r.p.durationMonths, quotaMb: r.p.quotaMb, zoneCount: r.zoneCount, releaseCount: r.releaseCount,
  pendingPrice: isStaff(actor) ? r.pendingPrice : null, pendingDate: isStaff(actor) ? r.pendingDate : null,
  createdBy: r.p.createdBy, createdAt: r.p.createdAt.toISOString(), updatedAt: r.p.updatedAt.toISOString(),
});


const staffOnly = (actor: Actor) => {
  if (!isStaff(actor)) throw denied();
};

/** The plan's own columns from the form (children are written separately). */
const planValues = (b: PlanInput) => ({
  code: b.code.trim(), name: b.name.trim(), goodsType: b.goodsType, tariffType: b.tariffType, standardPrice: price(b.standardPrice), salePrice: price(b.salePrice),
  cycleUnit: b.cycleUnit, cycleValue: b.cycleValue, durationMonths: b.durationMonths, quotaMb: b.quotaMb, useUpAction: b.useUpAction,
  terminateByUsage: b.terminateByUsage, operatorId: b.operatorId, operationMode: b.operationMode, overageGrade: b.overageGrade ?? null,
  overagePrice: b.overagePrice == null ? null : price(b.overagePrice), testPeriodMonths: b.testPeriodMonths ?? 0, testQuotaKb: b.testQuotaKb ?? 100,
  testPrice: price(b.testPrice ?? '0'),
  testValidityDays: b.testValidityDays ?? null, silentPeriodMonths: b.silentPeriodMonths ?? 0, renewalMode: b.renewalMode,
  downtimeFee: price(b.downtimeFee ?? '0'), downtimeFreeMonths: b.downtimeFreeMonths ?? 0, taxRate: b.taxRate, currency: 'CNY',
  profitShareRatio: b.profitShareRatio, profitShareMethod: b.profitShareMethod, networkTypes: [...b.networkTypes].sort((x, y) => x - y),
  remark: blankToNull(b.remark),
});

async function writeChildren(ex: Executor, id: number, b: PlanInput) {
  await ex.delete(planApns).where(eq(planApns.goodsReleaseId, id));
  await ex.delete(planZones).where(eq(planZones.goodsReleaseId, id));
  await ex.delete(planAlternatives).where(eq(planAlternatives.goodsReleaseId, id));
  if (b.apnIds.length) await ex.insert(planApns).values(b.apnIds.map((apnId) => ({ goodsReleaseId: id, apnId })));
  for (const [i, z] of b.zones.entries()) {
    const [zone] = await ex
      .insert(planZones)
      .values({ goodsReleaseId: id, zoneName: z.zoneName.trim(), zoneNameEn: z.zoneNameEn?.trim() || null, regions: z.regions ?? [], quotaMb: z.quotaMb ?? null, price: z.price == null ? null : price(z.price), sort: i })
      .returning({ zoneId: planZones.zoneId });
    if (z.commservIds.length) {
      await ex.insert(planZoneServices).values(z.commservIds.map((commservId) => ({ goodsReleaseId: id, zoneId: zone.zoneId, commservId })));
    }
  }
  const alts = [...new Set(b.alternativeIds ?? [])];
  if (alts.length) await ex.insert(planAlternatives).values(alts.map((altGoodsReleaseId) => ({ goodsReleaseId: id, altGoodsReleaseId })));
}

/** The plan with its APNs, zones (with their services) and change targets. */
async function loadDetail(ex: Executor, id: number) {
  const [plan_] = await ex.select().from(basicPlans).where(eq(basicPlans.goodsReleaseId, id));
  if (!plan_) return null;
  const apnRows = await ex
    .select({ apnId: apns.apnId, apnName: apns.apnName, operatorId: apns.operatorId })
    .from(planApns).innerJoin(apns, eq(apns.apnId, planApns.apnId))
    .where(eq(planApns.goodsReleaseId, id)).orderBy(asc(apns.apnId));
  const zones = await ex.select().from(planZones).where(eq(planZones.goodsReleaseId, id)).orderBy(asc(planZones.sort), asc(planZones.zoneId));
  const links = await ex.select().from(planZoneServices).where(eq(planZoneServices.goodsReleaseId, id));
  const services = new Map((await commServicesByIds(ex, links.map((l) => l.commservId))).map((s) => [s.commservId, s]));
  const alternatives = await ex
    .select({ goodsReleaseId: basicPlans.goodsReleaseId, name: basicPlans.name, code: basicPlans.code })
    .from(planAlternatives).innerJoin(basicPlans, eq(basicPlans.goodsReleaseId, planAlternatives.altGoodsReleaseId))
    .where(eq(planAlternatives.goodsReleaseId, id)).orderBy(asc(basicPlans.goodsReleaseId));
  return {
    plan: plan_, apns: apnRows, alternatives,
    zones: zones.map((z) => ({
      zoneId: z.zoneId, zoneName: z.zoneName, zoneNameEn: z.zoneNameEn, regions: z.regions, quotaMb: z.quotaMb, price: z.price,
      services: links.filter((l) => l.zoneId === z.zoneId).map((l) => services.get(l.commservId)).filter((s) => s !== undefined),
    })),
  };
}

/** The form input that would recreate a plan (used to copy one). */
const inputOf = (d: NonNullable<Awaited<ReturnType<typeof loadDetail>>>): PlanInput => {
  const p = d.plan;
  return {
    code: p.code, name: p.name, goodsType: p.goodsType, tariffType: p.tariffType, standardPrice: p.standardPrice, salePrice: p.salePrice,
    cycleUnit: p.cycleUnit, cycleValue: p.cycleValue, durationMonths: p.durationMonths, quotaMb: p.quotaMb, useUpAction: p.useUpAction,
    terminateByUsage: p.terminateByUsage, operatorId: p.operatorId ?? 0, operationMode: p.operationMode, overageGrade: p.overageGrade,
    overagePrice: p.overagePrice, testPeriodMonths: p.testPeriodMonths, testQuotaKb: p.testQuotaKb, testPrice: p.testPrice,
    testValidityDays: p.testValidityDays, silentPeriodMonths: p.silentPeriodMonths, renewalMode: p.renewalMode, downtimeFee: p.downtimeFee,
    downtimeFreeMonths: p.downtimeFreeMonths, taxRate: p.taxRate, profitShareRatio: p.profitShareRatio, profitShareMethod: p.profitShareMethod,
    networkTypes: p.networkTypes, remark: p.remark ?? undefined, apnIds: d.apns.map((a) => a.apnId),
    alternativeIds: d.alternatives.map((a) => a.goodsReleaseId),
    zones: d.zones.map((z) => ({ zoneName: z.zoneName, zoneNameEn: z.zoneNameEn, regions: z.regions, quotaMb: z.quotaMb, price: z.price, commservIds: z.services.map((x) => x.commservId) })),
  };
};

/** The snapshot written to the audit trail: the plan with its children as ids. */
const snapshot = (d: NonNullable<Awaited<ReturnType<typeof loadDetail>>>) => ({
  ...d.plan, apnIds: d.apns.map((a) => a.apnId), alternativeIds: d.alternatives.map((a) => a.goodsReleaseId),
  zones: d.zones.map((z) => ({ zoneName: z.zoneName, zoneNameEn: z.zoneNameEn, regions: z.regions, quotaMb: z.quotaMb, price: z.price, commservIds: z.services.map((s) => s.commservId) })),
});

const PLAN_ENTITIES = ['basic_plan', 'basic_plan_release', 'basic_plan_price'] as const;

/** One audit row of a plan as an entry of its history. */
function historyEntry(a: typeof auditLog.$inferSelect) {
  const before = (a.before ?? null) as Record<string, unknown> | null;
  const after = (a.after ?? null) as Record<string, unknown> | null;
  // records written before prices became strings hold JSON numbers (12.5); later ones decimal strings
  const num = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? toMoneyText(v) : null);
  const base = { id: a.id, loginName: a.loginName, createdAt: a.createdAt.toISOString(), customerCount: null, oldPrice: null, newPrice: null, effectiveDate: null };
  if (a.entity === 'basic_plan_price') {
    return { ...base, kind: PlanChangeKind.PriceAdjusted, oldPrice: num(before?.salePrice), newPrice: num(after?.newPrice), effectiveDate: (after?.effectiveDate as string) ?? null };
  }
  if (a.entity === 'basic_plan_release') {
    const added = after?.addedCustIds as unknown[] | undefined;
    const removed = after?.removedCustIds as unknown[] | undefined;
    return added
      ? { ...base, kind: PlanChangeKind.Published, customerCount: added.length }
      : { ...base, kind: PlanChangeKind.Unpublished, customerCount: removed?.length ?? 0 };
  }
  if (!after) return { ...base, kind: PlanChangeKind.Deleted };
  return { ...base, kind: before ? PlanChangeKind.Edited : PlanChangeKind.Created, newPrice: num(after.salePrice) };
}

/** Basic plans and supplementary packs: staff build, publish and price them; customers read released ones. */
export function planRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;
  deps.jobs.define(PRICE_QUEUE, async () => {
    await db.transaction((tx) => applyDuePriceChanges(tx));
  });
  // shortly after midnight in China, when a change dated today takes effect
  deps.jobs.schedule(PRICE_QUEUE, '1 0 * * *');

  const planPage = async (q: BodyOf<typeof plan.getBasicPlanListPage>, actor: Actor) => {
    const p = pageOf(q);
    const where: (SQL | undefined)[] = [visibleToActor(actor)];
    if (q.category === 'basic') where.push(inArray(basicPlans.tariffType, [...BASE_TARIFFS]));
    if (q.category === 'supplementary') where.push(inArray(basicPlans.tariffType, [...SUPPLEMENTARY_TARIFFS]));
    if (q.name) where.push(ilike(basicPlans.name, contains(q.name)));
    if (q.code) where.push(ilike(basicPlans.code, contains(q.code)));
    if (q.tariffType !== undefined) where.push(eq(basicPlans.tariffType, q.tariffType));
    if (q.goodsType !== undefined) where.push(eq(basicPlans.goodsType, q.goodsType));
    if (q.operatorId !== undefined) where.push(eq(basicPlans.operatorId, q.operatorId));
    if (q.status !== undefined && isStaff(actor)) where.push(eq(basicPlans.status, q.status));
    if (q.custId !== undefined) {
      const scope = tenantFilter(actor, { custId: sql.raw('r.cust_id') as never, rootCustId: sql.raw('r.root_cust_id') as never });
      where.push(sql`exists (select 1 from plan_releases r where r.goods_release_id = "basic_plans"."goods_release_id" and r.cust_id = ${q.custId} and ${scope})`);
    }
    const cond = and(...where);
    const { rows, total } = await pageFrom(
      await db
        .select({ ...listColumns(actor), total: totalOver() })
        .from(basicPlans)
        .where(cond)
        .orderBy(...orderOf(q, { name: basicPlans.name, salePrice: basicPlans.salePrice, createdAt: basicPlans.createdAt }, [desc(basicPlans.goodsReleaseId)]))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await db.select({ n: count() }).from(basicPlans).where(cond))[0].n),
    );
    return { list: rows.map((r) => toRow(r, actor)), total, current: p.current, pageSize: p.pageSize };
  };
  bind(app, deps, plan.getBasicPlanListPage, (q, ctx) => planPage(q, ctx.actor));

  /** The plan if the actor may see it; otherwise the same answer as a missing plan (20005). */
  const visiblePlanRow = async (ex: Executor, id: number, actor: Actor) => {
    const cond = and(eq(basicPlans.goodsReleaseId, id), visibleToActor(actor));
    const [row] = await ex.select(listColumns(actor)).from(basicPlans).where(cond);
    if (!row) throw notFound();
    return row;
  };

  bind(app, deps, plan.getBasicPlanDetail, async (b, ctx) => {
    const row = await visiblePlanRow(db, b.goodsReleaseId, ctx.actor);
    const d = (await loadDetail(db, b.goodsReleaseId))!;
    const staff = isStaff(ctx.actor);
    return {
      ...toRow(row, ctx.actor),
      overageGrade: d.plan.overageGrade, overagePrice: d.plan.overagePrice, useUpAction: d.plan.useUpAction, terminateByUsage: d.plan.terminateByUsage,
      testPeriodMonths: d.plan.testPeriodMonths, testQuotaKb: d.plan.testQuotaKb, testPrice: d.plan.testPrice, testValidityDays: d.plan.testValidityDays,
      silentPeriodMonths: d.plan.silentPeriodMonths, renewalMode: d.plan.renewalMode, downtimeFee: d.plan.downtimeFee,
      downtimeFreeMonths: d.plan.downtimeFreeMonths, taxRate: d.plan.taxRate, currency: d.plan.currency,
      profitShareRatio: d.plan.profitShareRatio, profitShareMethod: d.plan.profitShareMethod, networkTypes: d.plan.networkTypes,
      remark: staff ? d.plan.remark : null, copiedFrom: staff ? d.plan.copiedFrom : null,
      apns: d.apns, zones: d.zones,
      // a customer sees only change targets also released to it
      alternatives: staff ? d.alternatives : await visibleOnly(d.alternatives, ctx.actor),
    };
  });

  const visibleOnly = async <T extends { goodsReleaseId: number }>(list: T[], actor: Actor) => {
    if (!list.length) return list;
    const ids = await db.select({ id: basicPlans.goodsReleaseId }).from(basicPlans)
      .where(and(inArray(basicPlans.goodsReleaseId, list.map((a) => a.goodsReleaseId)), visibleToActor(actor)));
    const ok = new Set(ids.map((r) => r.id));
    return list.filter((a) => ok.has(a.goodsReleaseId));
  };

  const createPlan = async (tx: Executor, ctx: SessionContext, b: PlanInput, copiedFrom: number | null) => {
    await checkPlan(tx, b, ctx.lang);
    const [row] = await tx
      .insert(basicPlans)
      .values({ ...planValues(b), status: PlanStatus.Draft, copiedFrom, createdBy: ctx.actor.loginName })
      .returning({ id: basicPlans.goodsReleaseId });
    await writeChildren(tx, row.id, b);
    const after = (await loadDetail(tx, row.id))!;
    await audit(tx, ctx, { entity: 'basic_plan', entityId: row.id, after: snapshot(after), custId: null, rootCustId: null });
    return row.id;
  };

  bind(app, deps, plan.saveBasicPlan, async (b, ctx) => {
    staffOnly(ctx.actor);
    const { copiedFrom, ...input } = b;
    return db.transaction(async (tx) => {
      if (copiedFrom !== undefined) {
        const [src] = await tx.select({ id: basicPlans.goodsReleaseId }).from(basicPlans).where(eq(basicPlans.goodsReleaseId, copiedFrom));
        if (!src) throw notFound();
      }
      return { goodsReleaseId: await createPlan(tx, ctx, input, copiedFrom ?? null) };
    });
  });

  const releaseCount = async (ex: Executor, id: number) =>
    Number((await ex.select({ n: count() }).from(planReleases).where(eq(planReleases.goodsReleaseId, id)))[0].n);

  bind(app, deps, plan.updateBasicPlan, async (b, ctx) => {
    staffOnly(ctx.actor);
    const { goodsReleaseId, ...input } = b;
    await db.transaction(async (tx) => {
      const before = await loadDetail(tx, goodsReleaseId);
      if (!before) throw notFound();
      const released = await releaseCount(tx, goodsReleaseId);
      if (released) throw new AppError(ErrorCode.Conflict, undefined, 200, { field: 'goodsReleaseId' });
      await checkPlan(tx, input, ctx.lang, goodsReleaseId);
      await tx.update(basicPlans).set({ ...planValues(input), updatedAt: new Date() }).where(eq(basicPlans.goodsReleaseId, goodsReleaseId));
      await writeChildren(tx, goodsReleaseId, input);
      // plans that listed this one as a change target keep it only while the APN sets still match
      const apnKeyOf = (ids: number[]) => [...ids].sort((x, y) => x - y).join(',');
      if (apnKeyOf(before.apns.map((a) => a.apnId)) !== apnKeyOf(input.apnIds)) {
        await tx.delete(planAlternatives).where(eq(planAlternatives.altGoodsReleaseId, goodsReleaseId));
      }
      const after = (await loadDetail(tx, goodsReleaseId))!;
      await audit(tx, ctx, { entity: 'basic_plan', entityId: goodsReleaseId, before: snapshot(before), after: snapshot(after), custId: null, rootCustId: null });
    });
    return null;
  });

  bind(app, deps, plan.copyBasicPlan, async (b, ctx) => {
    staffOnly(ctx.actor);
    return db.transaction(async (tx) => {
      const src = await loadDetail(tx, b.goodsReleaseId);
      if (!src) throw notFound();
      const input: PlanInput = { ...inputOf(src), code: b.code, name: b.name };
      return { goodsReleaseId: await createPlan(tx, ctx, input, b.goodsReleaseId) };
    });
  });

  bind(app, deps, plan.deleteBasicPlan, async (b, ctx) => {
    staffOnly(ctx.actor);
    await db.transaction(async (tx) => {
      const before = await loadDetail(tx, b.goodsReleaseId);
      if (!before) throw notFound();
      const released = await releaseCount(tx, b.goodsReleaseId);
      if (released) throw new AppError(ErrorCode.PlanReleasedNoDelete, { count: released });
      await tx.delete(basicPlans).where(eq(basicPlans.goodsReleaseId, b.goodsReleaseId));
      await audit(tx, ctx, { entity: 'basic_plan', entityId: b.goodsReleaseId, before: snapshot(before), custId: null, rootCustId: null });
    });
    return null;
  });

  bind(app, deps, plan.publishBasicPlan, async (b, ctx) => {
    staffOnly(ctx.actor);
    return db.transaction(async (tx) => {
      const [p] = await tx.select().from(basicPlans).where(eq(basicPlans.goodsReleaseId, b.goodsReleaseId));
      if (!p) throw notFound();
      const ids = [...new Set(b.custIds)];
      const custs = await tx.select({ custId: customers.custId, rootCustId: customers.rootCustId }).from(customers).where(inArray(customers.custId, ids));
      const missing = ids.find((id) => !custs.some((c) => c.custId === id));
      if (missing !== undefined) throw new AppError(ErrorCode.PlanReleaseCustomerInvalid, { id: missing }, 200, { field: 'custIds' });
      const added = await tx
        .insert(planReleases)
        .values(custs.map((c) => ({ goodsReleaseId: p.goodsReleaseId, custId: c.custId, rootCustId: c.rootCustId, salePrice: p.salePrice, releasedBy: ctx.actor.loginName })))
        .onConflictDoNothing()
        .returning({ custId: planReleases.custId });
      await tx.update(basicPlans).set({ status: PlanStatus.Published, updatedAt: new Date() }).where(eq(basicPlans.goodsReleaseId, p.goodsReleaseId));
      await audit(tx, ctx, {
        entity: 'basic_plan_release', entityId: p.goodsReleaseId, before: { status: p.status },
        after: { status: PlanStatus.Published, addedCustIds: added.map((a) => a.custId) }, custId: null, rootCustId: null,
      });
      return { added: added.length };
    });
  });

  bind(app, deps, plan.unpublishBasicPlan, async (b, ctx) => {
    staffOnly(ctx.actor);
    return db.transaction(async (tx) => {
      const [p] = await tx.select().from(basicPlans).where(eq(basicPlans.goodsReleaseId, b.goodsReleaseId));
      if (!p) throw notFound();
      const current = await tx.select().from(planReleases).where(eq(planReleases.goodsReleaseId, p.goodsReleaseId));
      const target = b.custIds ? current.filter((r) => b.custIds!.includes(r.custId)) : current;
      const removing = new Set(target.map((r) => r.custId));
      const dependent = (await retailPlansOn(tx, p.goodsReleaseId)).find((r) => removing.has(r.custId));
      if (dependent) {
        const [c] = await tx.select({ name: customers.custName }).from(customers).where(eq(customers.custId, dependent.custId));
        throw new AppError(ErrorCode.PlanRetailDepends, { name: dependent.name, cust: c?.name ?? String(dependent.custId) });
      }
      if (removing.size) {
        await tx.delete(planReleases).where(and(eq(planReleases.goodsReleaseId, p.goodsReleaseId), inArray(planReleases.custId, [...removing])));
      }
      const left = current.length - removing.size;
      const status = left > 0 ? PlanStatus.Published : current.length > 0 || p.status === PlanStatus.Published ? PlanStatus.Unpublished : p.status;
      await tx.update(basicPlans).set({ status, updatedAt: new Date() }).where(eq(basicPlans.goodsReleaseId, p.goodsReleaseId));
      await audit(tx, ctx, {
        entity: 'basic_plan_release', entityId: p.goodsReleaseId, before: { status: p.status, custIds: current.map((r) => r.custId) },
        after: { status, removedCustIds: [...removing] }, custId: null, rootCustId: null,
      });
      return { removed: removing.size };
    });
  });

  bind(app, deps, plan.getBasicPlanReleases, async (b, ctx) => {
    await visiblePlanRow(db, b.goodsReleaseId, ctx.actor);
    const rows = await db
      .select({ r: planReleases, custName: customers.custName, level: customers.level })
      .from(planReleases).innerJoin(customers, eq(customers.custId, planReleases.custId))
      .where(and(eq(planReleases.goodsReleaseId, b.goodsReleaseId), tenantFilter(ctx.actor, planReleases)))
      .orderBy(asc(planReleases.custId));
    return rows.map(({ r, custName, level }) => ({
      custId: r.custId, custName, level, salePrice: r.salePrice, releasedBy: r.releasedBy, releasedAt: r.releasedAt.toISOString(),
    }));
  });

  bind(app, deps, plan.getAlternativeOptions, async (b, ctx) => {
    staffOnly(ctx.actor);
    const key = [...new Set(b.apnIds)].sort((x, y) => x - y).join(',');
    if (!key) return [];
    const candidates = await db
      .select({ goodsReleaseId: basicPlans.goodsReleaseId, name: basicPlans.name, code: basicPlans.code, tariffType: basicPlans.tariffType })
      .from(basicPlans)
      .where(and(inArray(basicPlans.tariffType, [...BASE_TARIFFS]), sql`exists (select 1 from plan_apns pa where pa.goods_release_id = "basic_plans"."goods_release_id")`))
      .orderBy(asc(basicPlans.name));
    const sets = await apnSets(db, candidates.map((c) => c.goodsReleaseId));
    return candidates.filter((c) => c.goodsReleaseId !== b.exceptId && sets.get(c.goodsReleaseId)?.apnKey === key);
  });

  bind(app, deps, plan.adjustBasicPlanPrice, async (b, ctx) => {
    staffOnly(ctx.actor);
    checkMoney('salePrice', b.salePrice, ctx.lang);
    const today = businessTodayOf();
    if (b.effectiveDate < today || Number.isNaN(Date.parse(b.effectiveDate))) {
      throw new AppError(ErrorCode.PlanEffectiveDatePast, undefined, 200, { field: 'effectiveDate' });
    }
    return db.transaction(async (tx) => {
      const [p] = await tx.select().from(basicPlans).where(eq(basicPlans.goodsReleaseId, b.goodsReleaseId)).for('update');
      if (!p) throw notFound();
      const [pending] = await tx.select({ date: planPriceChanges.effectiveDate }).from(planPriceChanges)
        .where(and(eq(planPriceChanges.goodsReleaseId, p.goodsReleaseId), eq(planPriceChanges.status, PriceChangeStatus.Pending)));
      if (pending) throw new AppError(ErrorCode.PlanPriceChangePending, { date: pending.date });
      const releases = await tx.select().from(planReleases).where(eq(planReleases.goodsReleaseId, p.goodsReleaseId)).orderBy(asc(planReleases.custId));
      const retail = await retailPlansOn(tx, p.goodsReleaseId);
      const newFen = priceFen(b.salePrice);
      // a retail plan's price must stay greater than the basic plan's: such a customer keeps its old price
      const items = releases.map((r) => {
        const blocking = retail.find((x) => x.custId === r.custId && priceFen(x.price) <= newFen);
        return {
          goodsReleaseId: p.goodsReleaseId, custId: r.custId, rootCustId: r.rootCustId,
          result: blocking ? PriceChangeResult.Failed : PriceChangeResult.Success,
          reasonCode: blocking ? PriceChangeFailure.RetailNotAbove : null,
          retailId: blocking?.retailId ?? null, retailName: blocking?.name ?? null, retailPrice: blocking?.price ?? null,
        };
      });
      const failureCount = items.filter((i) => i.result === PriceChangeResult.Failed).length;
      const [change] = await tx
        .insert(planPriceChanges)
        .values({
          goodsReleaseId: p.goodsReleaseId, oldPrice: p.salePrice, newPrice: price(b.salePrice), effectiveDate: b.effectiveDate,
          status: PriceChangeStatus.Pending, successCount: items.length - failureCount, failureCount, remark: blankToNull(b.remark),
          createdBy: ctx.actor.loginName,
        })
        .returning();
      if (items.length) await tx.insert(planPriceChangeItems).values(items.map((i) => ({ ...i, changeId: change.changeId })));
      const applied = b.effectiveDate <= today ? await applyDuePriceChanges(tx, change.changeId) : 0;
      const status = applied ? PriceChangeStatus.Effective : PriceChangeStatus.Pending;
      await audit(tx, ctx, {
        entity: 'basic_plan_price', entityId: p.goodsReleaseId, before: { salePrice: p.salePrice },
        after: { ...change, status, items }, custId: null, rootCustId: null,
      });
      return { changeId: change.changeId, successCount: change.successCount, failureCount, status };
    });
  });

  const changePage = async (q: BodyOf<typeof plan.getPriceChangeListPage>, actor: Actor) => {
    staffOnly(actor);
    const p = pageOf(q);
    const cond = eq(planPriceChanges.goodsReleaseId, q.goodsReleaseId);
    const { rows, total } = await pageFrom(
      await db.select({ c: planPriceChanges, total: totalOver() }).from(planPriceChanges).where(cond)
        .orderBy(desc(planPriceChanges.changeId)).limit(p.limit).offset(p.offset),
      p,
      async () => Number((await db.select({ n: count() }).from(planPriceChanges).where(cond))[0].n),
    );
    return {
      list: rows.map(({ c }) => ({ ...c, createdAt: c.createdAt.toISOString() })),
      total, current: p.current, pageSize: p.pageSize,
    };
  };
  bind(app, deps, plan.getPriceChangeListPage, async (q, ctx) => {
    staffOnly(ctx.actor);
    const [p] = await db.select({ id: basicPlans.goodsReleaseId }).from(basicPlans).where(eq(basicPlans.goodsReleaseId, q.goodsReleaseId));
    if (!p) throw notFound();
    return changePage(q, ctx.actor);
  });

  bind(app, deps, plan.getPlanHistoryPage, async (q, ctx) => {
    staffOnly(ctx.actor);
    const p = pageOf(q);
    // the plan's own audit trail (it survives deletion of the plan, so a missing plan is not an error here)
    const cond = and(inArray(auditLog.entity, [...PLAN_ENTITIES]), eq(auditLog.entityId, String(q.goodsReleaseId)));
    const { rows, total } = await pageFrom(
      await db.select({ a: auditLog, total: totalOver() }).from(auditLog).where(cond)
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(p.limit).offset(p.offset),
      p,
      async () => Number((await db.select({ n: count() }).from(auditLog).where(cond))[0].n),
    );
    return { list: rows.map(({ a }) => historyEntry(a)), total, current: p.current, pageSize: p.pageSize };
  });

  const itemPage = async (q: BodyOf<typeof plan.getPriceChangeItemPage>, actor: Actor) => {
    staffOnly(actor);
    const p = pageOf(q);
    const cond = and(eq(planPriceChangeItems.changeId, q.changeId), eq(planPriceChangeItems.result, q.result ?? PriceChangeResult.Failed));
    const { rows, total } = await pageFrom(
      await db
        .select({ i: planPriceChangeItems, custName: customers.custName, newPrice: planPriceChanges.newPrice, total: totalOver() })
        .from(planPriceChangeItems)
        .innerJoin(planPriceChanges, eq(planPriceChanges.changeId, planPriceChangeItems.changeId))
        .innerJoin(customers, eq(customers.custId, planPriceChangeItems.custId))
        .where(cond).orderBy(asc(planPriceChangeItems.itemId)).limit(p.limit).offset(p.offset),
      p,
      async () => Number((await db.select({ n: count() }).from(planPriceChangeItems).where(cond))[0].n),
    );
    return {
      list: rows.map(({ i, custName, newPrice }) => ({
        itemId: i.itemId, changeId: i.changeId, custId: i.custId, custName, result: i.result, reasonCode: i.reasonCode,
        retailId: i.retailId, retailName: i.retailName, retailPrice: i.retailPrice, newPrice, createdAt: i.createdAt.toISOString(),
      })),
      total, current: p.current, pageSize: p.pageSize,
    };
  };
  bind(app, deps, plan.getPriceChangeItemPage, (q, ctx) => itemPage(q, ctx.actor));

  deps.exports.register(plan.getBasicPlanListPage, {
    title: { zh: '套餐列表', en: 'Packages' },
    filters: {
      category: { title: { zh: '类别', en: 'Category' }, options: { basic: { zh: '基础套餐', en: 'Basic plans' }, supplementary: { zh: '附加包', en: 'Supplementary packs' } } },
      tariffType: { title: { zh: '资费类型', en: 'Tariff type' }, enum: TariffType },
      goodsType: { title: { zh: '套餐类型', en: 'Plan type' }, enum: PlanGoodsType },
      status: { title: { zh: '状态', en: 'Status' }, enum: PlanStatus },
    },
    perm: 4010006,
    page: planPage,
    columns: [
      { key: 'code', title: { zh: '套餐编码', en: 'Code' } },
      { key: 'name', title: { zh: '套餐名称', en: 'Name' } },
      { key: 'goodsType', title: { zh: '商品类型', en: 'Goods type' }, enum: PlanGoodsType },
      { key: 'tariffType', title: { zh: '资费类型', en: 'Tariff type' }, enum: TariffType },
      { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      { key: 'standardPrice', title: { zh: '标准价格', en: 'Standard price' }, type: 'money' },
      { key: 'salePrice', title: { zh: '销售价格', en: 'Sale price' }, type: 'money' },
      ...sizeColumns('quotaMb', { zh: '总流量', en: 'Quota' }, 'MB'),
      { key: 'status', title: { zh: '状态', en: 'Status' }, enum: PlanStatus },
      { key: 'releaseCount', title: { zh: '发布客户数', en: 'Customers' }, type: 'number' },
      { key: 'createdAt', title: { zh: '创建时间', en: 'Created' }, type: 'datetime' },
    ],
  });

  deps.exports.register(plan.getPriceChangeItemPage, {
    title: { zh: '调价失败明细', en: 'Price change failures' },
    filters: {
      changeId: { title: { zh: '调价记录', en: 'Price change' }, kind: 'shortId' },
      result: { title: { zh: '结果', en: 'Result' }, enum: PriceChangeResult },
    },
    perm: 4010004,
    page: itemPage,
    columns: [
      { key: 'changeId', title: { zh: '变更编号', en: 'Change no.' }, type: 'number' },
      { key: 'custId', title: { zh: '客户编号', en: 'Customer ID' }, type: 'number' },
      { key: 'custName', title: { zh: '客户名称', en: 'Customer' } },
      { key: 'result', title: { zh: '结果', en: 'Result' }, enum: PriceChangeResult },
      { key: 'reasonCode', title: { zh: '失败原因', en: 'Reason' }, enum: PriceChangeFailure },
      { key: 'retailName', title: { zh: '零售套餐', en: 'Retail plan' } },
      { key: 'retailPrice', title: { zh: '零售价格', en: 'Retail price' }, type: 'money' },
      { key: 'newPrice', title: { zh: '新基础价格', en: 'New basic price' }, type: 'money' },
      { key: 'createdAt', title: { zh: '时间', en: 'Time' }, type: 'datetime' },
    ],
  });
}
