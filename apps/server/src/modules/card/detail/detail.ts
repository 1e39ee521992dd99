// Card detail (read side): one card's sections for /card/card-list/detail/:iccid. Every call loads the card
// first and answers 20005 for a card outside the caller's tenant, exactly as for a missing one.
import { and, asc, count, desc, eq, inArray, or } from 'drizzle-orm';
import { carddetail as api, nameIn, type BodyOf, type Lang } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { notFound } from '../../../platform/errors.ts';
import { canSeeTenant, type Actor } from '../../../platform/context.ts';
import { iso, pageOf } from '../../../platform/paging.ts';
import { inLanguage } from '../../../platform/localized.ts';
import { customers } from '../../account/tables.ts';
import { apns } from '../../network/tables.ts';
import { commServices } from '../../network/commserv/tables.ts';
import { basicPlans, planApns, planReleases, planZoneServices, planZones } from '../../plan/plan-tables.ts';
import { cardEventPacks, cardHistory, cardZoneBlocks, cards } from '../card-tables.ts';
import { snapshotOf } from '../lifecycle/card-service.ts';
import { contractCycles, contractEndsAt, cycleEndsAt } from '../lifecycle/model.ts';
import { cardExtras } from './links.ts';
import { PoolService } from '../../pool/pool-service.ts';

export type CardRow = typeof cards.$inferSelect;
type PlanRow = typeof basicPlans.$inferSelect;

/** The card as the actor may see it, or 20005. `lock` takes a row lock (inside a transaction). */
export async function visibleCard(ex: Executor, actor: Actor, iccid: string, lock = false): Promise<CardRow> {
  const q = ex.select().from(cards).where(eq(cards.iccid, iccid));
  const [row] = lock ? await q.for('update') : await q;
  if (!row || !canSeeTenant(actor, row)) throw notFound();
  return row;
}

/** APN names of plans, by plan id. */
export async function apnNamesOf(ex: Executor, planIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(planIds.map((id) => [id, []]));
  if (!planIds.length) return out;
  const rows = await ex
    .select({ id: planApns.goodsReleaseId, name: apns.apnName })
    .from(planApns)
    .innerJoin(apns, eq(apns.apnId, planApns.apnId))
    .where(inArray(planApns.goodsReleaseId, planIds))
    .orderBy(asc(apns.apnName));
  for (const r of rows) out.get(r.id)?.push(r.name);
  return out;
}

const planRef = (p: PlanRow) => ({ goodsReleaseId: p.goodsReleaseId, name: p.name, tariffType: p.tariffType, goodsType: p.goodsType });

async function planOf(ex: Executor, id: number | null): Promise<PlanRow | null> {
  if (id == null) return null;
  const [p] = await ex.select().from(basicPlans).where(eq(basicPlans.goodsReleaseId, id));
  return p ?? null;
}

export async function basicInfo(ex: Executor, row: CardRow, actor: Actor, lang: Lang) {
  const custIds = [row.custId, row.rootCustId].filter((v): v is number => v != null);
  const custs = custIds.length
    ? await ex.select({ id: customers.custId, name: customers.custName }).from(customers).where(inArray(customers.custId, custIds))
    : [];
  const name = (id: number | null) => (id == null ? null : (custs.find((c) => c.id === id)?.name ?? null));
  const [extras, pools] = await Promise.all([cardExtras(ex, row), PoolService.namesFor(ex, actor, row.poolId != null ? [row.poolId] : [])]);
  const pool = row.poolId != null ? pools.get(row.poolId) : undefined;
  return {
    iccid: row.iccid, msisdn: row.msisdn, imsi: row.imsi, imei: row.imei, state: row.state, operatorId: row.operatorId,
    custId: row.custId, custName: name(row.custId), rootCustName: row.rootCustId !== row.custId ? name(row.rootCustId) : null,
    cardTypeId: row.cardTypeId, cardTypeName: extras.cardType?.[lang] ?? null, labels: extras.labels, custom1: row.custom1, custom2: row.custom2,
    online: row.online, lastSessionAt: iso(row.lastSessionAt), batchId: row.batchId, batchNo: row.batchNo,
    poolId: pool ? row.poolId : null, poolName: pool?.name ?? null, poolState: pool?.state ?? null, activatedAt: iso(row.activatedAt),
    firstUsedAt: iso(row.firstUsedAt), testEndAt: iso(row.testEndAt), silentEndAt: iso(row.silentEndAt), renewalMode: row.renewalMode,
    operationMode: row.operationMode, euicc: row.euicc, eid: row.eid, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(),
  };
}

export async function historyPage(ex: Executor, row: CardRow, q: BodyOf<typeof api.getCardHistoryPage>, lang: Lang) {
  const p = pageOf(q);
  const [rows, [{ n }]] = await Promise.all([
    ex.select().from(cardHistory).where(eq(cardHistory.iccid, row.iccid)).orderBy(desc(cardHistory.at), desc(cardHistory.historyId)).limit(p.limit).offset(p.offset),
    ex.select({ n: count() }).from(cardHistory).where(eq(cardHistory.iccid, row.iccid)),
  ]);
  const planIds = [...new Set(rows.map((r) => r.planId).filter((v): v is number => v != null))];
  const plans = planIds.length
    ? await ex.select({ id: basicPlans.goodsReleaseId, name: basicPlans.name }).from(basicPlans).where(inArray(basicPlans.goodsReleaseId, planIds))
    : [];
  return {
    list: rows.map((r) => ({
      historyId: r.historyId, at: r.at.toISOString(), fromState: r.fromState, toState: r.toState, action: r.action, source: r.source,
      actor: r.actor, reason: r.reason, note: lang === 'en' ? r.noteEn : r.noteZh, planId: r.planId, planName: r.planId != null ? (plans.find((x) => x.id === r.planId)?.name ?? null) : null,
    })),
    total: Number(n), current: p.current, pageSize: p.pageSize,
  };
}

export async function cycleInfo(ex: Executor, row: CardRow) {
  const [plan, pending, snap, packs] = await Promise.all([
    planOf(ex, row.goodsReleaseId),
    planOf(ex, row.pendingPlanId),
    snapshotOf(ex, row),
    ex.select().from(cardEventPacks).where(eq(cardEventPacks.iccid, row.iccid)).orderBy(desc(cardEventPacks.orderedAt)).limit(50),
  ]);
  const apnNames = await apnNamesOf(ex, plan ? [plan.goodsReleaseId] : []);
  const packPlans = packs.length
    ? await ex.select({ id: basicPlans.goodsReleaseId, name: basicPlans.name, quotaMb: basicPlans.quotaMb }).from(basicPlans)
      .where(inArray(basicPlans.goodsReleaseId, [...new Set(packs.map((x) => x.packId))]))
    : [];
  const now = Date.now();
  const contractEnd = contractEndsAt(snap) ?? row.contractEndAt;
  const cycleEnd = row.cycleEndAt ?? cycleEndsAt(snap);
  const extras = await cardExtras(ex, row);
  return {
    plan: plan
      ? {
        ...planRef(plan), cycleUnit: plan.cycleUnit, cycleValue: plan.cycleValue, durationMonths: plan.durationMonths, quotaMb: plan.quotaMb,
        operationMode: plan.operationMode, renewalMode: plan.renewalMode, apns: apnNames.get(plan.goodsReleaseId) ?? [],
      }
      : null,
    contractStartAt: iso(snap.contractStartAt ?? row.contractStartAt),
    contractEndAt: iso(contractEnd),
    cycleStartAt: iso(row.cycleStartAt),
    cycleEndAt: iso(cycleEnd),
    bCycles: contractCycles(snap),
    cCycles: extras.retailCycles,
    pendingPlan: pending
      ? {
        plan: planRef(pending), requestedAt: iso(row.pendingPlanRequestedAt), effectiveAt: iso(row.pendingPlanEffectiveAt),
        onActivation: row.pendingPlanOnActivation,
      }
      : null,
    pendingPriceChange: snap.pendingPriceChange,
    lastPlanChangeAt: iso(row.lastPlanChangeAt),
    eventPacks: packs.map((x) => {
      const pp = packPlans.find((y) => y.id === x.packId);
      return {
        orderId: x.orderId, packId: x.packId, packName: pp?.name ?? null, quotaMb: pp?.quotaMb ?? null, startsAt: x.startsAt.toISOString(),
        endsAt: x.endsAt.toISOString(), orderedBy: x.orderedBy, orderedAt: x.orderedAt.toISOString(),
        active: x.startsAt.getTime() <= now && x.endsAt.getTime() > now,
      };
    }),
  };
}

export async function policyInfo(ex: Executor, row: CardRow, lang: Lang) {
  const [zones, blocks] = await Promise.all([
    row.goodsReleaseId == null
      ? Promise.resolve([])
      : ex.select().from(planZones).where(eq(planZones.goodsReleaseId, row.goodsReleaseId)).orderBy(asc(planZones.sort), asc(planZones.zoneId)),
    ex.select().from(cardZoneBlocks).where(eq(cardZoneBlocks.iccid, row.iccid)).orderBy(asc(cardZoneBlocks.kind), asc(cardZoneBlocks.targetId)),
  ]);
  const services = zones.length
    ? await ex
      .select({ zoneId: planZoneServices.zoneId, id: commServices.commservId, name: inLanguage(commServices.commservName, commServices.commservNameEn, lang), type: commServices.commservType, directional: commServices.directional, priority: commServices.priority })
      .from(planZoneServices)
      .innerJoin(commServices, eq(commServices.commservId, planZoneServices.commservId))
      .where(inArray(planZoneServices.zoneId, zones.map((z) => z.zoneId)))
      .orderBy(asc(commServices.priority), asc(commServices.commservId))
    : [];
  // a zone block may name a zone of an earlier plan: look its name up too
  const blockZoneIds = blocks.filter((b) => b.kind === 'zone').map((b) => b.targetId);
  const zoneNames = blockZoneIds.length
    ? await ex.select({ id: planZones.zoneId, name: inLanguage(planZones.zoneName, planZones.zoneNameEn, lang) }).from(planZones).where(inArray(planZones.zoneId, blockZoneIds))
    : [];
  const blocked = new Set(blocks.filter((b) => b.kind === 'zone').map((b) => b.targetId));
  return {
    zones: zones.map((z) => ({
      zoneId: z.zoneId, zoneName: nameIn(lang, z.zoneName, z.zoneNameEn), regions: z.regions, quotaMb: z.quotaMb, blocked: blocked.has(z.zoneId),
      services: services.filter((s) => s.zoneId === z.zoneId).map((s) => ({ commservId: s.id, name: s.name, type: s.type, directional: s.directional, priority: s.priority })),
    })),
    blocks: blocks.map((b) => ({
      kind: b.kind, targetId: b.targetId, name: b.kind === 'zone' ? (zoneNames.find((z) => z.id === b.targetId)?.name ?? null) : null,
      byDeactivation: b.byDeactivation, blockedAt: b.blockedAt.toISOString(), blockedBy: b.blockedBy,
    })),
  };
}

export async function apnOnline(ex: Executor, row: CardRow) {
  const [names, last] = await Promise.all([
    apnNamesOf(ex, row.goodsReleaseId != null ? [row.goodsReleaseId] : []),
    cardExtras(ex, row).then((e) => e.lastSession()),
  ]);
  return {
    online: row.online,
    lastSessionAt: iso(row.lastSessionAt ?? last?.startAt ?? null),
    apn: last?.apn ?? null,
    sessionStartAt: iso(last?.startAt ?? null),
    sessionEndAt: iso(last?.endAt ?? null),
    planApns: row.goodsReleaseId != null ? (names.get(row.goodsReleaseId) ?? []) : [],
  };
}

/** The price the card's customer buys its plan at: its own release, else its first-level customer's, else the list price. */
async function priceOf(ex: Executor, row: CardRow, plan: PlanRow): Promise<string> {
  const owners = [row.custId, row.rootCustId].filter((v): v is number => v != null);
  if (owners.length) {
    const rels = await ex
      .select({ custId: planReleases.custId, price: planReleases.salePrice })
      .from(planReleases)
      .where(and(eq(planReleases.goodsReleaseId, plan.goodsReleaseId), or(...owners.map((o) => eq(planReleases.custId, o)))));
    const own = rels.find((r) => r.custId === row.custId) ?? rels.find((r) => r.custId === row.rootCustId);
    if (own) return own.price;
  }
  return plan.salePrice;
}

export async function billingInfo(ex: Executor, row: CardRow) {
  const [plan, snap, [{ n }]] = await Promise.all([
    planOf(ex, row.goodsReleaseId),
    snapshotOf(ex, row),
    ex.select({ n: count() }).from(cardEventPacks).where(eq(cardEventPacks.iccid, row.iccid)),
  ]);
  return {
    plan: plan ? planRef(plan) : null,
    price: plan ? await priceOf(ex, row, plan) : null,
    currency: plan?.currency ?? null,
    taxRate: plan?.taxRate ?? null,
    overageGrade: plan?.overageGrade ?? null,
    overagePrice: plan?.overagePrice ?? null,
    renewalMode: row.renewalMode ?? plan?.renewalMode ?? null,
    contractMonths: snap.contractMonths || row.contractMonths,
    bCycles: contractCycles(snap),
    contractEndAt: iso(contractEndsAt(snap) ?? row.contractEndAt),
    eventPackCount: Number(n),
  };
}
