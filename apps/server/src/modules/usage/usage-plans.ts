// What usage needs to know of plans and operators: quota and the action after use-up, APNs, network types and
// zones of a basic plan; an operator's billing day and default APN. Read in bulk and cached for a few seconds.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { ApnStatus, ApnType, PlanUseUpAction } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';
import { operators } from '../account/tables.ts';
import { apns } from '../network/tables.ts';
import { basicPlans, planApns, planZones } from '../plan/plan-tables.ts';

export interface UsagePlan {
  id: number;
  name: string;
  /** the cycle's data quota in bytes; null = no quota (0 MB in the plan) */
  quotaBytes: number | null;
  /** PlanUseUpAction */
  useUpAction: number;
  apns: string[];
  networkTypes: number[];
  zoneIds: number[];
}

export interface UsageOperator {
  operatorId: number;
  billingDay: number;
  /** the APN of cards without a plan: the operator's first enabled public APN */
  defaultApn: string;
}

export const MB = 1024 * 1024;
const TTL_MS = 5_000;
const planCache = new Map<number, { plan: UsagePlan | null; at: number }>();
let operatorCache: { list: Map<number, UsageOperator>; at: number } | null = null;
/** Forgets the cached plans and operators (a test process that opens another database next). */
export function resetUsageCaches(): void {
  planCache.clear();
  operatorCache = null;
}

// the operators' public IoT APNs, used only when an operator has none configured
const BUILT_IN_APN: Record<number, string> = { 1: 'cmiot', 2: 'scuiot', 3: 'ctnet' };

/** The usage facts of plans by id (missing plans are left out). */
export async function usagePlans(ex: Executor, ids: number[]): Promise<Map<number, UsagePlan>> {
  const out = new Map<number, UsagePlan>();
  const missing: number[] = [];
  for (const id of new Set(ids)) {
    const hit = planCache.get(id);
    if (hit && Date.now() - hit.at < TTL_MS) {
      if (hit.plan) out.set(id, hit.plan);
    } else missing.push(id);
  }
  if (missing.length === 0) return out;
  const [plans, apnRows, zones] = await Promise.all([
    ex.select({
      id: basicPlans.goodsReleaseId, name: basicPlans.name, quotaMb: basicPlans.quotaMb, useUpAction: basicPlans.useUpAction,
      networkTypes: basicPlans.networkTypes,
    }).from(basicPlans).where(inArray(basicPlans.goodsReleaseId, missing)),
    ex.select({ id: planApns.goodsReleaseId, name: apns.apnName }).from(planApns).innerJoin(apns, eq(apns.apnId, planApns.apnId))
      .where(inArray(planApns.goodsReleaseId, missing)).orderBy(asc(apns.apnName)),
    ex.select({ id: planZones.goodsReleaseId, zoneId: planZones.zoneId }).from(planZones).where(inArray(planZones.goodsReleaseId, missing))
      .orderBy(asc(planZones.zoneId)),
  ]);
  const now = Date.now();
  for (const p of plans) {
    const quota = Number(p.quotaMb);
    const plan: UsagePlan = {
      id: p.id, name: p.name, quotaBytes: quota > 0 ? Math.round(quota * MB) : null, useUpAction: p.useUpAction ?? PlanUseUpAction.Overdraw,
      apns: apnRows.filter((a) => a.id === p.id).map((a) => a.name), networkTypes: [...(p.networkTypes ?? [])],
      zoneIds: zones.filter((z) => z.id === p.id).map((z) => z.zoneId),
    };
    out.set(p.id, plan);
  }
  if (planCache.size > 5_000) planCache.clear();
  for (const id of missing) planCache.set(id, { plan: out.get(id) ?? null, at: now });
  return out;
}

/** Billing day and default APN of every operator. */
export async function usageOperators(ex: Executor): Promise<Map<number, UsageOperator>> {
  if (operatorCache && Date.now() - operatorCache.at < TTL_MS) return operatorCache.list;
  const [ops, publicApns] = await Promise.all([
    ex.select({ operatorId: operators.operatorId, billingDay: operators.billingDay }).from(operators),
    ex.select({ operatorId: apns.operatorId, name: apns.apnName }).from(apns)
      .where(and(eq(apns.apnType, ApnType.Public), eq(apns.status, ApnStatus.Enabled))).orderBy(asc(apns.apnId)),
  ]);
  const list = new Map<number, UsageOperator>();
  for (const o of ops) {
    list.set(o.operatorId, {
      operatorId: o.operatorId, billingDay: o.billingDay,
      defaultApn: publicApns.find((a) => a.operatorId === o.operatorId)?.name ?? BUILT_IN_APN[o.operatorId] ?? 'iot',
    });
  }
  operatorCache = { list, at: Date.now() };
  return list;
}

/** The APN a card attaches with: one of its plan's APNs (stable per card), else the operator's default. */
export function apnOf(iccid: string, plan: UsagePlan | undefined, operator: UsageOperator | undefined): string {
  if (plan && plan.apns.length > 0) {
    let h = 0;
    for (let i = 0; i < iccid.length; i++) h = (h * 31 + iccid.charCodeAt(i)) >>> 0;
    return plan.apns[h % plan.apns.length];
  }
  return operator?.defaultApn ?? 'iot';
}

/** Drops the caches (tests that change plans or APNs between feed runs). */
export function clearUsagePlanCache(): void {
  planCache.clear();
  operatorCache = null;
}
