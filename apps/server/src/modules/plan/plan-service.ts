// Basic plans: reads other modules may use (communication services ask how many plans use a service; retail
// plans ask which basic plan a customer may build on). A module's tables stay its own.
import { and, asc, countDistinct, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { isStaff, tenantFilter, type Actor } from '../../platform/context.ts';
import { contains, idOf, matchOrder } from '../../platform/paging.ts';
import { basicPlans, planReleases, planZoneServices } from './plan-tables.ts';

/** How many basic plans put this communication service in one of their zones. */
export async function countPlansUsingCommService(ex: Executor, commservId: number): Promise<number> {
  const [row] = await ex
    .select({ n: countDistinct(planZoneServices.goodsReleaseId) })
    .from(planZoneServices)
    .where(eq(planZoneServices.commservId, commservId));
  return Number(row?.n ?? 0);
}

export interface VisibleBasicPlan {
  goodsReleaseId: number;
  name: string;
  tariffType: number;
  /** staff: the plan's sale price; a customer: the price it buys at (its own release), money text */
  salePrice: string;
  status: number;
  /** the customers the plan is released to, within what the actor may see */
  custIds: number[];
}

/**
 * The basic plan as the actor may see it: staff see every plan; a customer only a plan released to its
 * tenant (a channel customer: its own customer tree; a second-level customer: itself). Null when the plan
 * does not exist or is not visible, so the caller answers both cases alike.
 */
export async function visibleBasicPlan(ex: Executor, goodsReleaseId: number, actor: Actor): Promise<VisibleBasicPlan | null> {
  const [plan] = await ex
    .select({ goodsReleaseId: basicPlans.goodsReleaseId, name: basicPlans.name, tariffType: basicPlans.tariffType, salePrice: basicPlans.salePrice, status: basicPlans.status })
    .from(basicPlans)
    .where(eq(basicPlans.goodsReleaseId, goodsReleaseId));
  if (!plan) return null;
  const releases = await ex
    .select({ custId: planReleases.custId, salePrice: planReleases.salePrice })
    .from(planReleases)
    .where(and(eq(planReleases.goodsReleaseId, goodsReleaseId), tenantFilter(actor, planReleases)))
    .orderBy(asc(planReleases.custId));
  if (isStaff(actor)) return { ...plan, custIds: releases.map((r) => r.custId) };
  if (!releases.length) return null;
  const own = releases.find((r) => r.custId === actor.custId) ?? releases[0];
  return { ...plan, salePrice: own.salePrice, custIds: releases.map((r) => r.custId) };
}


/** A customer sees a plan only when it is released to its tenant (staff: every plan). */
export const visibleToActor = (actor: Actor): SQL | undefined => {
  if (isStaff(actor)) return undefined;
  const scope = tenantFilter(actor, { custId: sql.raw('r.cust_id') as never, rootCustId: sql.raw('r.root_cust_id') as never });
  return sql`exists (select 1 from plan_releases r where r.goods_release_id = "basic_plans"."goods_release_id" and ${scope})`;
};

/** The header search: basic plans and packs the actor may see whose name or code contains the keyword, or whose id it is. */
export async function searchBasicPlans(ex: Executor, actor: Actor, keyword: string, limit: number) {
  const id = idOf(keyword);
  const match = or(ilike(basicPlans.name, contains(keyword)), ilike(basicPlans.code, contains(keyword)), id === null ? undefined : eq(basicPlans.goodsReleaseId, id));
  return ex
    .select({ goodsReleaseId: basicPlans.goodsReleaseId, tariffType: basicPlans.tariffType, name: basicPlans.name, code: basicPlans.code, operatorId: basicPlans.operatorId })
    .from(basicPlans)
    .where(and(visibleToActor(actor), match))
    .orderBy(...matchOrder(basicPlans.name, keyword))
    .limit(limit);
}
