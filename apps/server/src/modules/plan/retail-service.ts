// Retail plans: the rules of spec §3/§5 and the queries behind the retail screens. Other modules use only
// the exported functions here (a module's tables stay its own).
import { and, asc, count, desc, eq, ilike, inArray, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  ErrorCode, PlanStatus, ProfitShareMethod, SUPPLEMENTARY_TARIFFS, TariffType, validateAmount, validateProportion, toMoneyText,
  retail as api, type BodyOf,
} from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, FieldError, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { isStaff, tenantFilter, canSeeTenant, type Actor, type SessionContext } from '../../platform/context.ts';
import { contains, idOf, matchOrder, orderOf, pageFrom, pageOf, totalOver } from '../../platform/paging.ts';
import { blankToNull, check } from '../../platform/validate.ts';
import { customers } from '../account/tables.ts';
import { visibleBasicPlan, type VisibleBasicPlan } from './plan-service.ts';
import { basicPlans, planReleases } from './plan-tables.ts';
import { canonicalPrice, priceFen } from './plan-rules.ts';
import { retailPlanRecords, retailPlans, type RetailFieldChange } from './retail-tables.ts';

const { RetailStatus, RetailRecordAction } = api;

export interface RetailOnBasic {
  retailId: number;
  name: string;
  custId: number;
  /** money text */
  price: string;
}

/** Every retail plan built on one basic plan (all tenants): used when the basic plan's price changes. */
export async function retailPlansOn(ex: Executor, goodsReleaseId: number): Promise<RetailOnBasic[]> {
  return ex
    .select({ retailId: retailPlans.retailId, name: retailPlans.retailName, custId: retailPlans.custId, price: retailPlans.price })
    .from(retailPlans)
    .where(eq(retailPlans.goodsReleaseId, goodsReleaseId))
    .orderBy(asc(retailPlans.retailId));
}

type RetailRow = typeof retailPlans.$inferSelect;
type CustomerRow = typeof customers.$inferSelect;
type SaveBody = BodyOf<typeof api.saveRetail>;
type UpdateBody = BodyOf<typeof api.updateRetail>;


/** a picker, not a list: more customers are found by typing part of the name */
const CUSTOMER_OPTIONS_MAX = 200;
const scope = { custId: retailPlans.custId, rootCustId: retailPlans.rootCustId };

const eventPlans = alias(basicPlans, 'event_plans');
const listColumns = {
  r: retailPlans, custName: customers.custName, basicName: basicPlans.name, basicTariff: basicPlans.tariffType,
  // the price this customer buys the basic plan at (its release), which the retail price must exceed
  basicPrice: planReleases.salePrice, eventName: eventPlans.name,
};
type Joined = { r: RetailRow; custName: string; basicName: string; basicTariff: number; basicPrice: string | null; eventName: string | null };

const toRetail = (j: Joined) => ({
  retailId: j.r.retailId, retailName: j.r.retailName, custId: j.r.custId, custName: j.custName,
  goodsReleaseId: j.r.goodsReleaseId, basicName: j.basicName, tariffType: j.basicTariff, basicSalePrice: j.basicPrice ?? '0.00',
  price: j.r.price, crossedPrice: j.r.crossedPrice, taxRate: j.r.taxRate, dividendMethod: j.r.dividendMethod,
  dividendProportion: j.r.dividendProportion, description: j.r.description, eventGoodsReleaseId: j.r.eventGoodsReleaseId,
  eventName: j.eventName, status: j.r.status, createdBy: j.r.createdBy, updatedBy: j.r.updatedBy,
  createdAt: j.r.createdAt.toISOString(), updatedAt: j.r.updatedAt.toISOString(),
});

/** Fields kept in the change records, in the order the record screen lists them. */
export const RECORDED = [
  'retailName', 'custId', 'goodsReleaseId', 'price', 'crossedPrice', 'taxRate', 'dividendMethod', 'dividendProportion',
  'description', 'eventGoodsReleaseId', 'status',
] as const;
export type Recorded = (typeof RECORDED)[number];
type Values = Pick<RetailRow, Recorded>;

/** A customer the caller may create retail plans for: staff any; a channel customer its own tree; else itself. */
async function customerInScope(ex: Executor, actor: Actor, custId: number): Promise<CustomerRow> {
  const [c] = await ex.select().from(customers).where(eq(customers.custId, custId));
  if (!c || !canSeeTenant(actor, { custId: c.custId, rootCustId: c.rootCustId })) throw notFound();
  return c;
}

/**
 * The release of a basic plan to one customer: the plan must be released to exactly the customer whose end
 * users buy the retail plan, and the release carries the price that customer pays for it.
 */
async function releaseOf(ex: Executor, goodsReleaseId: number, custId: number) {
  const [r] = await ex
    .select({ salePrice: planReleases.salePrice })
    .from(planReleases)
    .where(and(eq(planReleases.goodsReleaseId, goodsReleaseId), eq(planReleases.custId, custId)));
  return r ?? null;
}

function checkNumbers(v: Partial<Values>) {
  if (v.price !== undefined) check('price', validateAmount(v.price, { allowZero: true }));
  if (v.crossedPrice != null) check('crossedPrice', validateAmount(v.crossedPrice, { allowZero: true }));
  if (v.taxRate !== undefined && validateAmount(v.taxRate, { allowZero: true, max: 100 })) {
    throw new FieldError('taxRate', { zh: '税率须为 0-100 之间的数字，最多 2 位小数', en: 'Tax rate must be a number from 0 to 100 with at most 2 decimals' });
  }
  if (v.dividendProportion !== undefined) check('dividendProportion', validateProportion(v.dividendProportion));
  if (v.dividendMethod !== undefined && !ProfitShareMethod.has(v.dividendMethod)) {
    throw new FieldError('dividendMethod', { zh: '取值无效', en: 'has an invalid value' });
  }
  if (v.status !== undefined && !RetailStatus.has(v.status)) throw new FieldError('status', { zh: '取值无效', en: 'has an invalid value' });
}

const fieldError = (code: ErrorCode, field: string, params?: Record<string, string | number>) => new AppError(code, params, 200, { field });

/** The header search: retail plans of the caller's tenant whose name contains the keyword, or whose id it is. */
export async function searchRetailPlans(ex: Executor, actor: Actor, keyword: string, limit: number) {
  const id = idOf(keyword);
  const named = ilike(retailPlans.retailName, contains(keyword));
  return ex
    .select({ retailId: retailPlans.retailId, tariffType: basicPlans.tariffType, retailName: retailPlans.retailName, custName: customers.custName })
    .from(retailPlans)
    .innerJoin(basicPlans, eq(basicPlans.goodsReleaseId, retailPlans.goodsReleaseId))
    .leftJoin(customers, eq(customers.custId, retailPlans.custId))
    .where(and(tenantFilter(actor, scope), id === null ? named : or(named, eq(retailPlans.retailId, id))))
    .orderBy(...matchOrder(retailPlans.retailName, keyword))
    .limit(limit);
}

export function retailService(db: Db) {
  /** The main plan the retail plan is built on, with the price the customer buys it at. */
  async function mainPlanFor(ex: Executor, actor: Actor, goodsReleaseId: number, c: CustomerRow): Promise<VisibleBasicPlan> {
    const plan = await visibleBasicPlan(ex, goodsReleaseId, actor);
    if (!plan) throw notFound();
    if (SUPPLEMENTARY_TARIFFS.includes(plan.tariffType)) throw fieldError(ErrorCode.RetailBasicIsPack, 'goodsReleaseId');
    const release = await releaseOf(ex, goodsReleaseId, c.custId);
    if (!release || plan.status !== PlanStatus.Published) throw fieldError(ErrorCode.RetailBasicNotReleased, 'goodsReleaseId');
    return { ...plan, salePrice: release.salePrice };
  }

  async function checkEventPack(ex: Executor, actor: Actor, id: number, c: CustomerRow) {
    const ev = await visibleBasicPlan(ex, id, actor);
    const ok = ev && ev.tariffType === TariffType.EventPack && ev.status === PlanStatus.Published && (await releaseOf(ex, id, c.custId));
    if (!ok) throw fieldError(ErrorCode.RetailEventPackInvalid, 'eventGoodsReleaseId');
  }

  function checkPrices(v: Pick<Values, 'price' | 'crossedPrice'>, plan: VisibleBasicPlan | null) {
    if (plan && priceFen(v.price) <= priceFen(plan.salePrice)) {
      throw fieldError(ErrorCode.RetailPriceNotAboveBasic, 'price', { basicPrice: toMoneyText(plan.salePrice) ?? plan.salePrice });
    }
    if (v.crossedPrice != null && priceFen(v.crossedPrice) < priceFen(v.price)) throw fieldError(ErrorCode.RetailCrossedPriceTooLow, 'crossedPrice');
  }

  async function checkName(ex: Executor, custId: number, name: string, confirmed: boolean | undefined, except?: number) {
    if (confirmed) return;
    const where = [eq(retailPlans.custId, custId), sql`lower(${retailPlans.retailName}) = ${name.toLowerCase()}`];
    if (except !== undefined) where.push(ne(retailPlans.retailId, except));
    const [hit] = await ex.select({ id: retailPlans.retailId }).from(retailPlans).where(and(...where)).limit(1);
    if (hit) throw new AppError(ErrorCode.RetailNameExists, { name }, 200, { field: 'retailName', confirm: 'confirmDuplicateName' });
  }

  /** Reference values are recorded with their names, so records still read well after a rename. */
  async function describe(ex: Executor, field: Recorded, value: unknown): Promise<unknown> {
    if (value == null) return null;
    if (field === 'custId') {
      const [c] = await ex.select({ name: customers.custName }).from(customers).where(eq(customers.custId, value as number));
      return { id: value, name: c?.name ?? '' };
    }
    if (field === 'goodsReleaseId' || field === 'eventGoodsReleaseId') {
      const [p] = await ex.select({ name: basicPlans.name }).from(basicPlans).where(eq(basicPlans.goodsReleaseId, value as number));
      return { id: value, name: p?.name ?? '' };
    }
    return value;
  }

  async function changesOf(ex: Executor, before: Values | null, after: Values): Promise<RetailFieldChange[]> {
    const out: RetailFieldChange[] = [];
    for (const f of RECORDED) {
      const b = before ? before[f] : null;
      const a = after[f];
      if (before && (b ?? null) === (a ?? null)) continue;
      if (!before && a == null) continue;
      out.push({ field: f, before: await describe(ex, f, b), after: await describe(ex, f, a) });
    }
    return out;
  }

  async function writeRecord(ex: Executor, ctx: SessionContext, row: RetailRow, action: number, changes: RetailFieldChange[]) {
    await ex.insert(retailPlanRecords).values({
      retailId: row.retailId, custId: row.custId, rootCustId: row.rootCustId, action, changes,
      loginName: ctx.actor.loginName, userName: ctx.actor.userName,
    });
  }

  const pick = (r: RetailRow): Values => Object.fromEntries(RECORDED.map((f) => [f, r[f]])) as Values;

  async function joinedById(ex: Executor, retailId: number) {
    const [j] = await ex
      .select(listColumns)
      .from(retailPlans)
      .innerJoin(customers, eq(customers.custId, retailPlans.custId))
      .innerJoin(basicPlans, eq(basicPlans.goodsReleaseId, retailPlans.goodsReleaseId))
      .leftJoin(planReleases, and(eq(planReleases.goodsReleaseId, retailPlans.goodsReleaseId), eq(planReleases.custId, retailPlans.custId)))
      .leftJoin(eventPlans, eq(eventPlans.goodsReleaseId, retailPlans.eventGoodsReleaseId))
      .where(eq(retailPlans.retailId, retailId));
    return j as Joined | undefined;
  }

  async function list(q: BodyOf<typeof api.getRetailListPage>, actor: Actor) {
    const p = pageOf(q);
    const where: SQL[] = [tenantFilter(actor, scope)];
    if (q.retailName?.trim()) where.push(ilike(retailPlans.retailName, contains(q.retailName.trim())));
    if (q.custId !== undefined) where.push(eq(retailPlans.custId, q.custId));
    if (q.goodsReleaseId !== undefined) where.push(eq(retailPlans.goodsReleaseId, q.goodsReleaseId));
    if (q.status !== undefined) where.push(eq(retailPlans.status, q.status));
    const cond = and(...where);
    const { rows, total } = await pageFrom(
      await db
        .select({ ...listColumns, total: totalOver() })
        .from(retailPlans)
        .innerJoin(customers, eq(customers.custId, retailPlans.custId))
        .innerJoin(basicPlans, eq(basicPlans.goodsReleaseId, retailPlans.goodsReleaseId))
        .leftJoin(planReleases, and(eq(planReleases.goodsReleaseId, retailPlans.goodsReleaseId), eq(planReleases.custId, retailPlans.custId)))
        .leftJoin(eventPlans, eq(eventPlans.goodsReleaseId, retailPlans.eventGoodsReleaseId))
        .where(cond)
        .orderBy(...orderOf(q, { retailName: retailPlans.retailName, price: retailPlans.price, updatedAt: retailPlans.updatedAt }, [desc(retailPlans.retailId)]))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await db.select({ n: count() }).from(retailPlans).where(cond))[0].n),
    );
    return { list: rows.map((r) => toRetail(r as Joined)), total, current: p.current, pageSize: p.pageSize };
  }

  async function detail(retailId: number, actor: Actor) {
    const j = await joinedById(db, retailId);
    if (!j || !canSeeTenant(actor, j.r)) throw notFound();
    return toRetail(j);
  }

  async function create(b: SaveBody, ctx: SessionContext) {
    const actor = ctx.actor;
    const name = b.retailName.trim();
    if (!name) throw new FieldError('retailName', { zh: '不能为空', en: 'must not be blank' });
    const values: Values = {
      retailName: name, custId: b.custId, goodsReleaseId: b.goodsReleaseId, price: canonicalPrice(b.price), crossedPrice: canonicalPrice(b.crossedPrice ?? null),
      taxRate: b.taxRate, dividendMethod: b.dividendMethod, dividendProportion: b.dividendProportion,
      description: blankToNull(b.description), eventGoodsReleaseId: b.eventGoodsReleaseId ?? null, status: b.status ?? RetailStatus.OnSale,
    };
    checkNumbers(values);
    return db.transaction(async (tx) => {
      if (b.copyFromRetailId !== undefined) {
        const [src] = await tx.select().from(retailPlans).where(eq(retailPlans.retailId, b.copyFromRetailId));
        if (!src || !canSeeTenant(actor, src)) throw notFound();
      }
      const c = await customerInScope(tx, actor, values.custId);
      const plan = await mainPlanFor(tx, actor, values.goodsReleaseId, c);
      checkPrices(values, plan);
      if (values.eventGoodsReleaseId != null) await checkEventPack(tx, actor, values.eventGoodsReleaseId, c);
      await checkName(tx, c.custId, name, b.confirmDuplicateName);
      const [row] = await tx
        .insert(retailPlans)
        .values({ ...values, rootCustId: c.rootCustId, createdBy: actor.loginName, updatedBy: actor.loginName })
        .returning();
      const action = b.copyFromRetailId !== undefined ? RetailRecordAction.Copy : RetailRecordAction.Create;
      await writeRecord(tx, ctx, row, action, await changesOf(tx, null, pick(row)));
      await audit(tx, ctx, {
        entity: 'retailPlan', entityId: row.retailId, after: { ...row, copyFromRetailId: b.copyFromRetailId ?? null },
        custId: row.custId, rootCustId: row.rootCustId,
      });
      return { retailId: row.retailId };
    });
  }

  async function update(b: UpdateBody, ctx: SessionContext) {
    const actor = ctx.actor;
    const { retailId, confirmDuplicateName, ...patch } = b;
    if (patch.retailName !== undefined) {
      patch.retailName = patch.retailName.trim();
      if (!patch.retailName) throw new FieldError('retailName', { zh: '不能为空', en: 'must not be blank' });
    }
    if (patch.description !== undefined) patch.description = blankToNull(patch.description);
    // a price compares with the stored one as money text, so '12.5' is no change from 12.50
    patch.price = canonicalPrice(patch.price);
    patch.crossedPrice = canonicalPrice(patch.crossedPrice);
    checkNumbers(patch as Partial<Values>);
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(retailPlans).where(eq(retailPlans.retailId, retailId)).for('update');
      if (!before || !canSeeTenant(actor, before)) throw notFound();
      const next: Values = { ...pick(before) };
      for (const f of RECORDED) if (patch[f] !== undefined) (next as Record<string, unknown>)[f] = patch[f];
      const changed = (f: Recorded) => (next[f] ?? null) !== (before[f] ?? null);
      const c = changed('custId') ? await customerInScope(tx, actor, next.custId) : (await tx.select().from(customers).where(eq(customers.custId, before.custId)))[0];
      const planChanged = changed('goodsReleaseId') || changed('custId');
      // the price rule holds whenever the price or its basis changes, and before the plan goes back on sale
      const priceMatters = planChanged || changed('price') || changed('crossedPrice') || (changed('status') && next.status === RetailStatus.OnSale);
      const plan = planChanged || priceMatters ? await mainPlanFor(tx, actor, next.goodsReleaseId, c) : null;
      if (priceMatters) checkPrices(next, plan);
      if (next.eventGoodsReleaseId != null && (changed('eventGoodsReleaseId') || changed('custId'))) {
        await checkEventPack(tx, actor, next.eventGoodsReleaseId, c);
      }
      if (changed('retailName') || changed('custId')) await checkName(tx, c.custId, next.retailName, confirmDuplicateName, retailId);
      const changes = await changesOf(tx, pick(before), next);
      if (!changes.length) {
        await audit(tx, ctx, { entity: 'retailPlan', entityId: retailId, before, after: before, custId: before.custId, rootCustId: before.rootCustId });
        return;
      }
      const [after] = await tx
        .update(retailPlans)
        .set({ ...next, rootCustId: c.rootCustId, updatedBy: actor.loginName, updatedAt: new Date() })
        .where(eq(retailPlans.retailId, retailId))
        .returning();
      await writeRecord(tx, ctx, after, RetailRecordAction.Update, changes);
      await audit(tx, ctx, { entity: 'retailPlan', entityId: retailId, before, after, custId: after.custId, rootCustId: after.rootCustId });
    });
    return null;
  }

  async function records(q: BodyOf<typeof api.getRetailChangeRecord>, actor: Actor) {
    const [r] = await db.select().from(retailPlans).where(eq(retailPlans.retailId, q.retailId));
    if (!r || !canSeeTenant(actor, r)) throw notFound();
    const p = pageOf(q);
    const cond = eq(retailPlanRecords.retailId, q.retailId);
    const { rows, total } = await pageFrom(
      await db
        .select({ x: retailPlanRecords, total: totalOver() })
        .from(retailPlanRecords)
        .where(cond)
        .orderBy(desc(retailPlanRecords.recordId))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await db.select({ n: count() }).from(retailPlanRecords).where(cond))[0].n),
    );
    return {
      list: rows.map(({ x }) => ({
        recordId: x.recordId, retailId: x.retailId, action: x.action, changes: x.changes, loginName: x.loginName, userName: x.userName,
        createdAt: x.createdAt.toISOString(),
      })),
      total, current: p.current, pageSize: p.pageSize,
    };
  }

  /** Customers the caller may pick; with a basic plan, only those it is available to. */
  async function customerOptions(b: BodyOf<typeof api.getRetailCustomerOptions>, actor: Actor) {
    const where: SQL[] = [tenantFilter(actor, { custId: customers.custId, rootCustId: customers.rootCustId })];
    if (b.goodsReleaseId !== undefined) {
      if (!(await visibleBasicPlan(db, b.goodsReleaseId, actor))) return [];
      where.push(sql`exists (select 1 from ${planReleases} where ${planReleases.goodsReleaseId} = ${b.goodsReleaseId} and ${planReleases.custId} = ${customers.custId})`);
    }
    if (b.custName?.trim()) where.push(ilike(customers.custName, contains(b.custName.trim())));
    return db
      .select({ custId: customers.custId, custName: customers.custName, level: customers.level, parentCustId: customers.parentCustId })
      .from(customers)
      .where(and(...where))
      .orderBy(asc(customers.rootCustId), asc(customers.level), asc(customers.custId))
      .limit(CUSTOMER_OPTIONS_MAX);
  }

  /** Published main plans or event packs the caller sees, narrowed to those released to one customer when given. */
  async function basicOptions(b: BodyOf<typeof api.getRetailBasicOptions>, actor: Actor) {
    const where: SQL[] = [
      eq(basicPlans.status, PlanStatus.Published),
      b.kind === 'event' ? eq(basicPlans.tariffType, TariffType.EventPack) : notInArray(basicPlans.tariffType, [...SUPPLEMENTARY_TARIFFS]),
    ];
    const released = (cond: SQL) =>
      sql`exists (select 1 from ${planReleases} where ${planReleases.goodsReleaseId} = ${basicPlans.goodsReleaseId} and ${cond})`;
    if (b.custId !== undefined) {
      const c = await customerInScope(db, actor, b.custId);
      where.push(released(eq(planReleases.custId, c.custId)));
    } else if (!isStaff(actor)) {
      where.push(released(tenantFilter(actor, planReleases)));
    }
    const rows = await db
      .select({ goodsReleaseId: basicPlans.goodsReleaseId, name: basicPlans.name, tariffType: basicPlans.tariffType, salePrice: basicPlans.salePrice })
      .from(basicPlans)
      .where(and(...where))
      .orderBy(desc(basicPlans.goodsReleaseId))
      .limit(500);
    if (b.custId === undefined) return rows;
    // the price the chosen customer buys at, so the form can show the floor for the retail price
    const prices = rows.length
      ? await db
          .select({ id: planReleases.goodsReleaseId, salePrice: planReleases.salePrice })
          .from(planReleases)
          .where(and(eq(planReleases.custId, b.custId), inArray(planReleases.goodsReleaseId, rows.map((r) => r.goodsReleaseId))))
      : [];
    const byId = new Map(prices.map((p) => [p.id, p.salePrice]));
    return rows.map((r) => ({ ...r, salePrice: byId.get(r.goodsReleaseId) ?? r.salePrice }));
  }

  return { list, detail, create, update, records, customerOptions, basicOptions };
}

