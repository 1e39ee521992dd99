// Card diagnosis (issue 5): loads what each check needs for one card, runs the checks (diagnose-checks.ts and the
// professional-only diagnose-policy.ts), records the diagnosis and answers it. Tenant scope from the session; the card
// state goes through the lifecycle engine's gate ({ type: 'diagnose' }: start-state cards are refused with the spec's
// message; standard-version cards get the checks that need no professional network, issue 12). Network reset goes
// through the card service's applyCardAction. Design note: docs/diagnosis.md.
import crypto from 'node:crypto';
import { and, asc, count, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { CardState, ErrorCode, OPEN_FAILURE_STATES, diagnose, nameIn, type Bilingual, type BodyOf, type ResponseOf } from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { canSeeTenant, tenantFilter, type SessionContext } from '../../platform/context.ts';
import { iso, pageOf } from '../../platform/paging.ts';
import { customers, operators } from '../account/tables.ts';
import { apns } from '../network/tables.ts';
import { cardChangeFailures, operatorAccounts } from '../network/opconfig/tables.ts';
import { gatewayOfAccount } from '../network/opconfig/service.ts';
import { secretBoxFor } from '../network/opconfig/secrets.ts';
import { commServiceQos, commServices } from '../network/commserv/tables.ts';
import { basicPlans, planApns, planZoneServices, planZones } from '../plan/plan-tables.ts';
import { cardEventPacks, cardZoneBlocks, cards } from '../card/card-tables.ts';
import { applyCardAction, snapshotOf } from '../card/lifecycle/card-service.ts';
import { NETWORK_RESET_INTERVAL_MS, STATE_ACTIONS, targetOf, transition } from '../card/lifecycle/engine.ts';
import {
  operatorCheck, overallOf, planCheck, sessionCheck, stateCheck, zoneCheck,
  type CardFacts, type OperatorFacts, type PlanFacts, type SessionFacts, type ZoneBlockFacts,
} from './diagnose-checks.ts';
import { cycleUsageMb, lastSessionOf } from './diagnose-usage.ts';
import { isProfessionalCard, policyCheck, type PolicyService } from './diagnose-policy.ts';
import { cardDiagnoses } from './diagnose-tables.ts';

export type DiagnoseResult = ResponseOf<typeof diagnose.diagnoseCard>;
type CardRow = typeof cards.$inferSelect;

export interface DiagnoseDeps {
  db: Db;
  config: Pick<Config, 'secretKey' | 'dataDir'>;
}

/** The card, if the caller may see it; 20005 alike for a missing card and one outside the tenant. */
async function visibleCard(ex: Executor, ctx: SessionContext, iccid: string): Promise<CardRow> {
  const [row] = await ex.select().from(cards).where(eq(cards.iccid, iccid));
  if (!row || !canSeeTenant(ctx.actor, row)) throw notFound();
  return row;
}

/** A zone's names: the English one where the zone has one, else as typed (docs/decisions.md). */
const bothNames = (z: { id: number; zh: string; en: string | null }) => ({ id: z.id, name: { zh: z.zh, en: nameIn('en', z.zh, z.en) } });

async function planFacts(ex: Executor, goodsReleaseId: number | null) {
  if (goodsReleaseId == null) return null;
  const [p] = await ex
    .select({ name: basicPlans.name, quotaMb: basicPlans.quotaMb, useUpAction: basicPlans.useUpAction, overagePrice: basicPlans.overagePrice })
    .from(basicPlans)
    .where(eq(basicPlans.goodsReleaseId, goodsReleaseId));
  if (!p) return null;
  const [apnRows, zoneRows] = await Promise.all([
    ex.select({ name: apns.apnName }).from(planApns).innerJoin(apns, eq(apns.apnId, planApns.apnId)).where(eq(planApns.goodsReleaseId, goodsReleaseId)).orderBy(asc(apns.apnName)),
    ex.select({ id: planZones.zoneId, zh: planZones.zoneName, en: planZones.zoneNameEn }).from(planZones).where(eq(planZones.goodsReleaseId, goodsReleaseId)),
  ]);
  const plan: PlanFacts = { name: p.name, quotaMb: Number(p.quotaMb), useUpAction: p.useUpAction, overagePrice: p.overagePrice, apns: apnRows.map((a) => a.name) };
  return { plan, zones: zoneRows.map(bothNames) };
}

/** Quota of the event packs valid now (each ends with the base cycle it was ordered in). */
async function packsMb(ex: Executor, iccid: string, now: Date): Promise<number> {
  const [r] = await ex
    .select({ mb: sql<string | null>`sum(${basicPlans.quotaMb})` })
    .from(cardEventPacks)
    .innerJoin(basicPlans, eq(basicPlans.goodsReleaseId, cardEventPacks.packId))
    .where(and(eq(cardEventPacks.iccid, iccid), lte(cardEventPacks.startsAt, now), gt(cardEventPacks.endsAt, now)));
  return Number(r?.mb ?? 0);
}

async function operatorFacts(deps: DiagnoseDeps, row: CardRow, advanced: boolean): Promise<OperatorFacts> {
  const ex = deps.db;
  const [[op], [account], [failures]] = await Promise.all([
    ex.select({ zh: operators.nameZh, en: operators.nameEn }).from(operators).where(eq(operators.operatorId, row.operatorId)),
    // the access configuration the card service sends this card's changes through: the operator's oldest
    ex.select().from(operatorAccounts).where(eq(operatorAccounts.operatorId, row.operatorId)).orderBy(asc(operatorAccounts.operAccountId)).limit(1),
    ex.select({ n: count() }).from(cardChangeFailures).where(and(
      // served by the msisdn index (the table has no iccid index); the iccid check keeps it to this card
      row.msisdn != null ? eq(cardChangeFailures.msisdn, row.msisdn) : undefined,
      eq(cardChangeFailures.iccid, row.iccid), inArray(cardChangeFailures.state, [...OPEN_FAILURE_STATES]),
    )),
  ]);
  let live: OperatorFacts['live'] = null;
  if (advanced && account) {
    const gateway = gatewayOfAccount(secretBoxFor(deps.config), account);
    if (!gateway) {
      live = { ok: false, latencyMs: 0, message: `gateway adapter ${account.adapter} is not installed` };
    } else {
      const r = await gateway.testConnection();
      live = r.ok ? { ok: true, latencyMs: r.latencyMs, platform: r.data.platform, apiVersion: r.data.apiVersion } : { ok: false, latencyMs: r.latencyMs, message: `${r.code}: ${r.message}` };
    }
  }
  return {
    operatorId: row.operatorId,
    operatorName: op ? { zh: op.zh, en: op.en } : { zh: `运营商 ${row.operatorId}`, en: `Operator ${row.operatorId}` },
    access: account
      ? { lastTestAt: account.lastTestAt, lastTestOk: account.lastTestOk, lastTestMessage: account.lastTestMessage, lastTestLatencyMs: account.lastTestLatencyMs }
      : null,
    live,
    openFailures: Number(failures?.n ?? 0),
  };
}

async function zoneBlocks(ex: Executor, iccid: string, zones: { id: number; name: Bilingual }[]): Promise<ZoneBlockFacts[]> {
  const rows = await ex.select().from(cardZoneBlocks).where(eq(cardZoneBlocks.iccid, iccid)).orderBy(asc(cardZoneBlocks.kind), asc(cardZoneBlocks.targetId));
  // a blocked zone of another plan (the card changed plans since) is looked up by id
  const missing = rows.filter((r) => r.kind === 'zone' && !zones.some((z) => z.id === r.targetId)).map((r) => r.targetId);
  const extra = missing.length
    ? (await ex.select({ id: planZones.zoneId, zh: planZones.zoneName, en: planZones.zoneNameEn }).from(planZones).where(inArray(planZones.zoneId, missing))).map(bothNames)
    : [];
  const names = new Map([...zones, ...extra].map((z) => [z.id, z.name]));
  return rows.map((r) => ({
    kind: r.kind, targetId: r.targetId, name: r.kind === 'zone' ? (names.get(r.targetId) ?? null) : null, byDeactivation: r.byDeactivation,
    blockedAt: r.blockedAt, blockedBy: r.blockedBy,
  }));
}

/** The communication services of the plan's zones as the professional network applies them (read only for professional cards). */
async function policyServices(ex: Executor, goodsReleaseId: number | null, zones: { id: number; name: Bilingual }[]): Promise<PolicyService[]> {
  if (goodsReleaseId == null || !zones.length) return [];
  const rows = await ex
    .select({
      zoneId: planZoneServices.zoneId, name: commServices.commservName, nameEn: commServices.commservNameEn, type: commServices.commservType, directional: commServices.directional,
      whitelistCount: sql<number>`coalesce(cardinality(${commServices.whitelist}), 0)`, status: commServices.status,
      qosCount: sql<number>`(select count(*) from ${commServiceQos} where ${commServiceQos.commservId} = ${commServices.commservId})`,
    })
    .from(planZoneServices)
    .innerJoin(commServices, eq(commServices.commservId, planZoneServices.commservId))
    .where(eq(planZoneServices.goodsReleaseId, goodsReleaseId))
    .orderBy(asc(planZoneServices.zoneId), asc(commServices.priority), asc(commServices.commservId));
  return rows.map((r) => ({
    zoneName: zones.find((z) => z.id === r.zoneId)?.name ?? { zh: `#${r.zoneId}`, en: `#${r.zoneId}` }, name: { zh: r.name, en: nameIn('en', r.name, r.nameEn) }, type: r.type, directional: r.directional,
    whitelistCount: Number(r.whitelistCount), status: r.status, qosCount: Number(r.qosCount),
  }));
}

export class DiagnoseService {
  constructor(private deps: DiagnoseDeps) {}

  /** Runs every check on one card and records the diagnosis. */
  async diagnose(ctx: SessionContext, iccid: string, advanced: boolean): Promise<DiagnoseResult> {
    const db = this.deps.db;
    const now = new Date();
    const row = await visibleCard(db, ctx, iccid);
    const snapshot = await snapshotOf(db, row);
    const verdict = transition(snapshot, { type: 'diagnose' }, now);
    if (!verdict.ok) throw new AppError(verdict.error, verdict.params);

    const [planInfo, packs, cust, pendingPlan] = await Promise.all([
      planFacts(db, row.goodsReleaseId),
      packsMb(db, row.iccid, now),
      row.custId != null ? db.select({ name: customers.custName }).from(customers).where(eq(customers.custId, row.custId)) : Promise.resolve([]),
      row.pendingPlanId != null ? db.select({ name: basicPlans.name }).from(basicPlans).where(eq(basicPlans.goodsReleaseId, row.pendingPlanId)) : Promise.resolve([]),
    ]);
    const inCycle = row.cycleStartAt != null && row.cycleEndAt != null && row.cycleStartAt <= now && now < row.cycleEndAt;
    const professional = isProfessionalCard(snapshot.operationMode);
    const [usedMb, session, blocks, operator, services] = await Promise.all([
      inCycle ? cycleUsageMb(db, row.iccid, row.cycleStartAt!, now) : Promise.resolve(0),
      lastSessionOf(db, row.iccid, now),
      zoneBlocks(db, row.iccid, planInfo?.zones ?? []),
      operatorFacts(this.deps, row, advanced),
      professional ? policyServices(db, row.goodsReleaseId, planInfo?.zones ?? []) : Promise.resolve([]),
    ]);

    const card: CardFacts = {
      state: row.state, activatedAt: row.activatedAt, firstUsedAt: row.firstUsedAt, testEndAt: row.testEndAt, silentEndAt: row.silentEndAt,
      online: row.online, lastSessionAt: row.lastSessionAt, cycleStartAt: row.cycleStartAt, cycleEndAt: row.cycleEndAt, contractEndAt: row.contractEndAt,
    };
    const last: SessionFacts | null = session.last;
    const checks = [
      stateCheck(card, now),
      planCheck(card, planInfo?.plan ?? null, { usedMb, packsMb: packs }, pendingPlan[0] ? { name: pendingPlan[0].name, effectiveAt: row.pendingPlanEffectiveAt } : null, now),
      zoneCheck(card, blocks, planInfo?.zones.length ?? 0),
      sessionCheck(card, last, session.recentCount, planInfo?.plan.apns ?? [], now),
      operatorCheck(operator, advanced),
      policyCheck({ operationMode: snapshot.operationMode, zones: (planInfo?.zones ?? []).map((z) => z.name), services }),
    ];
    const overall = overallOf(checks);
    const lastReset = row.lastNetworkResetAt;
    const nextReset = lastReset ? new Date(lastReset.getTime() + NETWORK_RESET_INTERVAL_MS) : null;
    const result: DiagnoseResult = {
      diagnosisId: crypto.randomUUID(),
      iccid: row.iccid, msisdn: row.msisdn, imsi: row.imsi, state: row.state, operatorId: row.operatorId, operationMode: row.operationMode,
      custName: cust[0]?.name ?? null, planName: planInfo?.plan.name ?? null, advanced, overall, checks,
      networkReset: {
        supported: row.state === CardState.Activated || row.state === CardState.Test,
        lastAt: iso(lastReset),
        nextAllowedAt: nextReset && nextReset > now ? nextReset.toISOString() : null,
      },
      stateActions: STATE_ACTIONS.flatMap((action) => {
        const to = targetOf(row.state, action, snapshot.operationMode, snapshot.frozenFrom);
        return to == null || to === row.state ? [] : [{ action, toState: to }];
      }),
      diagnosedBy: ctx.actor.loginName,
      diagnosedAt: now.toISOString(),
    };

    await db.transaction(async (tx) => {
      await tx.insert(cardDiagnoses).values({
        iccid: row.iccid, diagnosisId: result.diagnosisId, advanced, overall, cardState: row.state, result,
        accountId: ctx.actor.accountId, loginName: ctx.actor.loginName, custId: row.custId, rootCustId: row.rootCustId, createdAt: now,
      });
      await audit(tx, ctx, {
        entity: 'cardDiagnosis', entityId: result.diagnosisId, custId: row.custId, rootCustId: row.rootCustId,
        after: { iccid: row.iccid, advanced, overall, state: row.state, verdicts: checks.map((c) => ({ key: c.key, verdict: c.verdict })) },
      });
    });
    return result;
  }

  /** Network reset through the lifecycle engine (test or activated cards, at most once every 3 minutes). */
  async networkReset(ctx: SessionContext, iccid: string): Promise<ResponseOf<typeof diagnose.networkReset>> {
    const now = new Date();
    const r = await applyCardAction(this.deps, { kind: 'user', ctx }, iccid, { type: 'networkReset' }, { now }).catch((e: unknown) => {
      // the card service words an operator refusal as a state change; say what was refused
      if (e instanceof AppError && e.code === ErrorCode.CardGatewayRefused) throw new AppError(ErrorCode.DiagnoseResetRefused, e.params);
      throw e;
    });
    return {
      iccid: r.iccid, sentToOperator: r.sentToOperator, requestId: r.requestId, resetAt: now.toISOString(),
      nextAllowedAt: new Date(now.getTime() + NETWORK_RESET_INTERVAL_MS).toISOString(),
    };
  }

  /**
   * The diagnoses of one card, newest first: only while the caller may see the card, and only those made while
   * the card belonged to the caller's tenant (a card moved to another customer does not take its records along).
   */
  async records(ctx: SessionContext, q: BodyOf<typeof diagnose.getDiagnoseRecordPage>) {
    await visibleCard(this.deps.db, ctx, q.iccid);
    const p = pageOf(q);
    const cond = and(eq(cardDiagnoses.iccid, q.iccid), tenantFilter(ctx.actor, { custId: cardDiagnoses.custId, rootCustId: cardDiagnoses.rootCustId }));
    const [rows, [{ n }]] = await Promise.all([
      this.deps.db
        .select({
          diagnosisId: cardDiagnoses.diagnosisId, iccid: cardDiagnoses.iccid, advanced: cardDiagnoses.advanced, overall: cardDiagnoses.overall,
          state: cardDiagnoses.cardState, checks: sql<{ key: string; verdict: number }[]>`${cardDiagnoses.result} -> 'checks'`,
          loginName: cardDiagnoses.loginName, createdAt: cardDiagnoses.createdAt,
        })
        .from(cardDiagnoses)
        .where(cond)
        .orderBy(desc(cardDiagnoses.createdAt))
        .limit(p.limit)
        .offset(p.offset),
      this.deps.db.select({ n: count() }).from(cardDiagnoses).where(cond),
    ]);
    return {
      list: rows.map((r) => ({
        diagnosisId: r.diagnosisId, iccid: r.iccid, advanced: r.advanced, overall: r.overall, state: r.state,
        verdicts: (r.checks ?? []).map((c) => ({ key: c.key, verdict: c.verdict })), loginName: r.loginName, createdAt: r.createdAt.toISOString(),
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  /** One recorded diagnosis as it was answered. */
  async record(ctx: SessionContext, q: BodyOf<typeof diagnose.getDiagnoseRecordDetail>): Promise<DiagnoseResult> {
    await visibleCard(this.deps.db, ctx, q.iccid);
    const [row] = await this.deps.db
      .select({ result: cardDiagnoses.result })
      .from(cardDiagnoses)
      .where(and(eq(cardDiagnoses.iccid, q.iccid), eq(cardDiagnoses.diagnosisId, q.diagnosisId),
        tenantFilter(ctx.actor, { custId: cardDiagnoses.custId, rootCustId: cardDiagnoses.rootCustId })));
    if (!row) throw notFound();
    return row.result as DiagnoseResult;
  }
}
