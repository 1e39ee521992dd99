import crypto from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { BASE_TARIFFS, CardChangeSource, CardState, Operator, PlanOperationMode, PROFESSIONAL_CARD_STATES } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';
import type { customers } from '../account/tables.ts';
import { basicPlans, planReleases } from '../plan/plan-tables.ts';
import { cardHistory, cardImportBatches, cards } from './card-tables.ts';
import { refreshDeadlines } from './lifecycle/card-service.ts';

type Customer = typeof customers.$inferSelect;

/** A small reproducible generator, so every demo database has the same cards. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const digits = (next: () => number, n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join('');

const OPERATORS = [
  { operatorId: Operator.ChinaMobile, iccid: '898600', imsi: '46000', count: 80, batchNo: 'CM-2026-09-A' },
  { operatorId: Operator.ChinaUnicom, iccid: '898601', imsi: '46001', count: 70, batchNo: 'CU-2026-10-A' },
  { operatorId: Operator.ChinaTelecom, iccid: '898603', imsi: '46011', count: 50, batchNo: 'CT-2026-10-B' },
];

/**
 * 200 demo cards across the three operators, imported in three batches: some still in the platform stock
 * (start), the rest allocated to 智行物流 (some to its 华东 branch) and to 华电 (China Mobile cards) with states spread as a real
 * fleet has them (mostly activated, some in test, inventory, to be activated, deactivated, a few closed).
 */
export async function seedCards(ex: Executor, who: { zhixing: Customer; east: Customer; huadian: Customer }) {
  const next = rng(20261122);
  const now = Date.now();
  const day = 86_400_000;
  const plans = new Map<string, { id: number; mode: number; renewal: number; months: number } | null>();
  const planOf = async (cust: Customer, operatorId: number) => {
    const key = `${cust.rootCustId}:${operatorId}`;
    if (plans.has(key)) return plans.get(key)!;
    const [p] = await ex
      .select({ id: basicPlans.goodsReleaseId, mode: basicPlans.operationMode, renewal: basicPlans.renewalMode, months: basicPlans.durationMonths })
      .from(planReleases)
      .innerJoin(basicPlans, eq(basicPlans.goodsReleaseId, planReleases.goodsReleaseId))
      .where(and(eq(planReleases.custId, cust.rootCustId), eq(basicPlans.operatorId, operatorId), inArray(basicPlans.tariffType, [...BASE_TARIFFS])))
      .orderBy(basicPlans.goodsReleaseId)
      .limit(1);
    plans.set(key, p ?? null);
    return p ?? null;
  };
  // the professional-version plan published to a customer for an operator (its cards can be diagnosed), if any
  const proPlans = new Map<string, { id: number; mode: number; renewal: number; months: number } | null>();
  const proPlanOf = async (cust: Customer, operatorId: number) => {
    const key = `${cust.rootCustId}:${operatorId}`;
    if (proPlans.has(key)) return proPlans.get(key)!;
    const [p] = await ex
      .select({ id: basicPlans.goodsReleaseId, mode: basicPlans.operationMode, renewal: basicPlans.renewalMode, months: basicPlans.durationMonths })
      .from(planReleases)
      .innerJoin(basicPlans, eq(basicPlans.goodsReleaseId, planReleases.goodsReleaseId))
      .where(and(
        eq(planReleases.custId, cust.rootCustId), eq(basicPlans.operatorId, operatorId), inArray(basicPlans.tariffType, [...BASE_TARIFFS]),
        eq(basicPlans.operationMode, PlanOperationMode.Professional),
      ))
      .orderBy(basicPlans.goodsReleaseId)
      .limit(1);
    proPlans.set(key, p ?? null);
    return p ?? null;
  };
  const stateOf = (r: number) =>
    r < 0.55 ? CardState.Activated : r < 0.65 ? CardState.Test : r < 0.73 ? CardState.Inventory : r < 0.8 ? CardState.ActivationReady
      : r < 0.93 ? CardState.Deactivated : r < 0.96 ? CardState.Frozen : r < 0.98 ? CardState.Invalidated : CardState.Retired;

  for (const [n, op] of OPERATORS.entries()) {
    const batchId = crypto.randomUUID();
    const createdAt = new Date(now - (120 - n * 20) * day);
    await ex.insert(cardImportBatches).values({
      batchId, fileName: `${op.batchNo}.xlsx`, fileSize: 9000 + op.count * 60, remark: op.batchNo, totalRows: op.count, successRows: op.count,
      failedRows: 0, createdBy: 'admin', createdAt,
    });
    const rows: (typeof cards.$inferInsert)[] = [];
    const history: (typeof cardHistory.$inferInsert)[] = [];
    for (let i = 0; i < op.count; i++) {
      const iccid = `${op.iccid}${String(26 + n).padStart(2, '0')}${digits(next, 8)}${String(i).padStart(4, '0')}`;
      const r = next();
      // about a third stays in the platform stock; the rest goes to customers
      const owner = r < 0.33 ? null
        : op.operatorId === Operator.ChinaMobile ? (r < 0.66 ? who.huadian : who.zhixing)
        : r < 0.6 ? who.east : who.zhixing;
      const state = owner ? stateOf(next()) : CardState.Start;
      // every other card of the professional version's five states goes on the professional plan when there is one
      const pro = owner && PROFESSIONAL_CARD_STATES.includes(state) && i % 2 === 0 ? await proPlanOf(owner, op.operatorId) : null;
      const plan = pro ?? (owner ? await planOf(owner, op.operatorId) : null);
      const used = state !== CardState.Start && state !== CardState.Test && state !== CardState.ActivationReady && state !== CardState.Inventory;
      const activatedAt = used ? new Date(now - Math.floor(5 + next() * 100) * day) : null;
      const online = state === CardState.Activated && next() < 0.6;
      rows.push({
        iccid, msisdn: `1064${op.operatorId}${digits(next, 8)}`, imsi: `${op.imsi}${digits(next, 10)}`, imei: used ? `86${digits(next, 13)}` : null,
        state, operatorId: op.operatorId, custId: owner?.custId ?? null, rootCustId: owner?.rootCustId ?? null,
        goodsReleaseId: plan?.id ?? null, operationMode: plan?.mode ?? null, renewalMode: plan?.renewal ?? null, batchId, batchNo: op.batchNo,
        online, lastSessionAt: used ? new Date(now - Math.floor(next() * (online ? 3600_000 : 20 * day))) : null, activatedAt,
        firstUsedAt: activatedAt ? new Date(activatedAt.getTime() + Math.floor(next() * day)) : null,
        testEndAt: state === CardState.Test ? new Date(now + 30 * day) : null,
        silentEndAt: state === CardState.Inventory ? new Date(now + 90 * day) : null,
        // the contract started at the activation; the lifecycle columns derived from it are computed below
        contractStartAt: activatedAt && plan ? activatedAt : null, contractMonths: activatedAt && plan ? Math.max(1, plan.months) : 0,
        cyclesUsed: activatedAt && plan ? 1 : 0, frozenFrom: state === CardState.Frozen ? CardState.Activated : null,
        custom1: owner && next() < 0.4 ? `车辆-${String(1000 + i)}` : null, createdAt,
      });
      if (state !== CardState.Start) {
        history.push({ iccid, fromState: CardState.Start, toState: state, source: CardChangeSource.User, actor: 'admin', noteZh: '演示数据', noteEn: 'demo data', at: activatedAt ?? createdAt });
      }
    }
    await ex.insert(cards).values(rows);
    if (history.length) await ex.insert(cardHistory).values(history);
    // cycle and contract ends and the scheduler's next deadline, as the engine computes them (past cycles are
    // rolled forward by the scheduler's first run)
    await refreshDeadlines(ex, rows.map((r) => r.iccid));
  }
}
