// The card service: applies the pure lifecycle engine (lifecycle.ts) to stored cards. It is the only code that
// writes a card's state, plan and contract. One action on one card runs in one transaction (or a savepoint of
// the caller's): lock the card row, check the tenant, load the engine's snapshot, ask the engine, send what it
// asks to the operator through the card operator's access configuration, persist `next` with the scheduler's
// next deadline, carry out the effects (zone blocks, event packs), write the card history and (for a user) the
// audit row. Design note: docs/card-lifecycle.md.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  CardChangeSource, CardChangeType, CardState, ErrorCode, PlanOperationMode, PlanRenewalMode, WebhookEventType, type Bilingual,
} from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import type { Config } from '../../../config.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { audit, redact } from '../../../platform/audit.ts';
import { auditLog } from '../../../platform/tables.ts';
import { canSeeTenant, type SessionContext } from '../../../platform/context.ts';
import { gatewayOfAccount, recordCardChangeFailure, sendCardChange, type CardChangeRequest } from '../../network/opconfig/service.ts';
import { secretBoxFor, type SecretBox } from '../../network/opconfig/secrets.ts';
import { operatorAccounts } from '../../network/opconfig/tables.ts';
import { apns } from '../../network/tables.ts';
import { basicPlans, planApns, planZones } from '../../plan/plan-tables.ts';
import { plansWithPendingPriceChange } from '../../plan/plan-price.ts';
import { cardEventPacks, cardHistory, cardZoneBlocks, cards } from '../card-tables.ts';
import {
  contractEndsAt, cycleEndsAt, nextDeadline, transition,
  type CardAction, type CardPlan, type CardSnapshot, type Effect, type StateActionType,
} from './engine.ts';
import { cycleBoundary } from './time.ts';
import { refreshCardCycles } from '../../usage/cycle-columns.ts';
import type { ZoneTarget } from './model.ts';
import { rateEventCharges, recordEventCharges, refuseUnaffordable } from '../../billing/charges/charges.ts';
import { enqueueEvents, type WebhookEventInput } from '../../delivery/webhook/outbox.ts';

export type CardRow = typeof cards.$inferSelect;

export interface CardServiceDeps {
  db: Db;
  config: Pick<Config, 'secretKey' | 'dataDir'>;
}

/** Who asks: a signed-in user (tenant-checked on the card row) or the system (a rule, the scheduler, the operator feed). */
export type CardActor =
  | { kind: 'user'; ctx: SessionContext }
  | { kind: 'system'; source: number; actor: string };

export interface CardActionResult {
  iccid: string;
  fromState: number;
  toState: number;
  /** at least one operator call was made (false when the operator has no access configuration or none was needed) */
  sentToOperator: boolean;
  /** the operator's reference of the last accepted call */
  requestId: string | null;
}
/** @deprecated name kept for the single-card status endpoint */
export type CardStateChangeResult = CardActionResult;

/** Noted in the card's history when the change could not be sent because the operator has no access configuration. */
export const NOT_SENT_NOTE: Bilingual = { zh: '未下发运营商：该运营商没有接入配置', en: 'not sent to the operator: it has no access configuration' };
/** Noted in the card's history when a time-driven change was applied although the operator refused it (kept for retry). */
export const SYNC_FAILED_NOTE: Bilingual = { zh: '运营商同步失败，已记入换卡失败记录', en: 'the operator refused the sync; kept in the card change failures for retry' };

/**
 * What a card action records besides the state change: `reason` is what the person typed and stays as typed; `note`
 * is the server's own sentence (batch number, allocation, quota used up), kept in both languages so the history
 * reads in the reader's language (docs/decisions.md: one language, one set of units).
 */
export interface CardActionNotes {
  reason?: string | null;
  note?: Bilingual | null;
  /** the batch making the change: its `card.state_changed` webhook events say source `batch` and name it */
  batchId?: string | null;
}

/** Joins the server's notes of one history entry, each language on its own. */
export function joinNotes(notes: (Bilingual | null | undefined)[]): { noteZh: string | null; noteEn: string | null } {
  const present = notes.filter((n): n is Bilingual => !!n);
  if (present.length === 0) return { noteZh: null, noteEn: null };
  return { noteZh: present.map((n) => n.zh).join(' · '), noteEn: present.map((n) => n.en).join(' · ') };
}

const boxes = new WeakMap<object, SecretBox>();
const boxOf = (deps: CardServiceDeps): SecretBox => {
  let box = boxes.get(deps.config);
  if (!box) boxes.set(deps.config, (box = secretBoxFor(deps.config)));
  return box;
};

// ---- plans ----------------------------------------------------------------------------------------------------

interface PlanFacts {
  plan: CardPlan;
  code: string;
  operationMode: number;
  renewalMode: number;
}
const PLAN_TTL_MS = 5_000;
const planCache = new Map<number, { facts: PlanFacts; at: number }>();
/** Forgets the cached plan facts (a test process that opens another database next). */
export function resetPlanFactsCache(): void {
  planCache.clear();
}

/** The engine's facts of a basic plan (cycle rule, APN names, test and silent periods), or null if it does not exist. */
export async function loadPlanFacts(ex: Executor, goodsReleaseId: number): Promise<PlanFacts | null> {
  const hit = planCache.get(goodsReleaseId);
  if (hit && Date.now() - hit.at < PLAN_TTL_MS) return hit.facts;
  const [p] = await ex.select().from(basicPlans).where(eq(basicPlans.goodsReleaseId, goodsReleaseId));
  if (!p) return null;
  const apnRows = await ex
    .select({ name: apns.apnName })
    .from(planApns)
    .innerJoin(apns, eq(apns.apnId, planApns.apnId))
    .where(eq(planApns.goodsReleaseId, goodsReleaseId));
  const facts: PlanFacts = {
    plan: {
      id: p.goodsReleaseId, goodsType: p.goodsType, cycleUnit: p.cycleUnit, cycleValue: p.cycleValue, durationMonths: p.durationMonths,
      apns: apnRows.map((a) => a.name), testValidityDays: p.testValidityDays ?? null, testPeriodMonths: p.testPeriodMonths,
      silentPeriodMonths: p.silentPeriodMonths,
    },
    code: p.code, operationMode: p.operationMode, renewalMode: p.renewalMode,
  };
  if (planCache.size > 5_000) planCache.clear();
  planCache.set(goodsReleaseId, { facts, at: Date.now() });
  return facts;
}

/** The plan as the engine needs it for `{ type: 'changePlan', plan }`; 20005 when there is no such plan. */
export async function loadCardPlan(ex: Executor, goodsReleaseId: number): Promise<CardPlan> {
  const f = await loadPlanFacts(ex, goodsReleaseId);
  if (!f) throw notFound();
  return f.plan;
}

// ---- snapshot ---------------------------------------------------------------------------------------------------

/**
 * The engine's view of a stored card. Whether a price change of its plan is pending comes from the plan's
 * price changes, not from the card: `pricePending` is that set for the cards being decided together (loaded
 * once for a set); without it the card's plan is looked up.
 */
export async function snapshotOf(ex: Executor, row: CardRow, pricePending?: ReadonlySet<number>): Promise<CardSnapshot> {
  let frozenFrom: number | null = row.frozenFrom;
  if (row.state === CardState.Frozen && frozenFrom == null) {
    // cards frozen before the column existed: the last entry into the frozen state
    const [h] = await ex
      .select({ fromState: cardHistory.fromState })
      .from(cardHistory)
      .where(and(eq(cardHistory.iccid, row.iccid), eq(cardHistory.toState, CardState.Frozen)))
      .orderBy(desc(cardHistory.at))
      .limit(1);
    frozenFrom = h?.fromState ?? null;
  }
  const plan = row.goodsReleaseId != null ? ((await loadPlanFacts(ex, row.goodsReleaseId))?.plan ?? null) : null;
  const pendingPlan = row.pendingPlanId != null ? ((await loadPlanFacts(ex, row.pendingPlanId))?.plan ?? null) : null;
  const planId = row.goodsReleaseId;
  const pendingPriceChange = planId != null && (pricePending ?? (await plansWithPendingPriceChange(ex, [planId]))).has(planId);
  return {
    state: row.state,
    operationMode: row.operationMode ?? PlanOperationMode.Standard,
    renewalMode: row.renewalMode ?? PlanRenewalMode.NoRenew,
    plan,
    testEndsAt: row.testEndAt,
    silentEndsAt: row.silentEndAt,
    activatedAt: row.activatedAt,
    contractStartAt: plan ? row.contractStartAt : null,
    contractMonths: row.contractMonths,
    cyclesUsed: row.cyclesUsed,
    pendingPlanChange: pendingPlan
      ? {
        plan: pendingPlan, requestedAt: row.pendingPlanRequestedAt ?? row.updatedAt, effectiveAt: row.pendingPlanEffectiveAt,
        onActivation: row.pendingPlanOnActivation,
      }
      : null,
    pendingPriceChange,
    lastPlanChangeAt: row.lastPlanChangeAt,
    frozenFrom,
    lastNetworkResetAt: row.lastNetworkResetAt,
  };
}

/** Start of the card's current cycle, or null without a contract. */
export function cycleStartsAt(card: CardSnapshot): Date | null {
  if (!card.plan || !card.contractStartAt) return null;
  return card.cyclesUsed <= 1 ? card.contractStartAt : cycleBoundary(card.plan, card.contractStartAt, card.cyclesUsed - 1);
}

/** The card columns that store a snapshot (plus what is derived from it: contract and cycle ends, next deadline). */
export function rowOfSnapshot(next: CardSnapshot): Partial<CardRow> {
  const pending = next.pendingPlanChange;
  return {
    state: next.state,
    goodsReleaseId: next.plan?.id ?? null,
    operationMode: next.operationMode,
    renewalMode: next.renewalMode,
    testEndAt: next.testEndsAt,
    silentEndAt: next.silentEndsAt,
    activatedAt: next.activatedAt,
    contractStartAt: next.contractStartAt,
    contractMonths: next.contractMonths,
    cyclesUsed: next.cyclesUsed,
    contractEndAt: contractEndsAt(next),
    cycleStartAt: cycleStartsAt(next),
    cycleEndAt: cycleEndsAt(next),
    pendingPlanId: pending?.plan.id ?? null,
    pendingPlanRequestedAt: pending?.requestedAt ?? null,
    pendingPlanEffectiveAt: pending?.effectiveAt ?? null,
    pendingPlanOnActivation: pending?.onActivation ?? false,
    lastPlanChangeAt: next.lastPlanChangeAt,
    frozenFrom: next.frozenFrom,
    lastNetworkResetAt: next.lastNetworkResetAt,
    nextDeadlineAt: nextDeadline(next),
  };
}

// ---- the operator ------------------------------------------------------------------------------------------------

type AccountRow = typeof operatorAccounts.$inferSelect;
/** The access configuration a card's changes go through: the operator's first (oldest) one, if any. */
async function accessConfigOf(ex: Executor, operatorId: number): Promise<AccountRow | null> {
  const [a] = await ex
    .select()
    .from(operatorAccounts)
    .where(eq(operatorAccounts.operatorId, operatorId))
    .orderBy(asc(operatorAccounts.operAccountId))
    .limit(1);
  return a ?? null;
}

/** The operator calls the effects ask for: one status call (the final state), one plan call, each zone call, a reset. */
async function operatorCalls(ex: Executor, effects: Effect[], finalState: number, fromState: number): Promise<CardChangeRequest[]> {
  const calls: CardChangeRequest[] = [];
  const plans = effects.filter((e): e is Extract<Effect, { kind: 'gatewayPlan' }> => e.kind === 'gatewayPlan');
  if (plans.length > 0) {
    const f = await loadPlanFacts(ex, plans[plans.length - 1].planId);
    if (f) calls.push({ changeType: CardChangeType.Plan, planCode: f.code, effective: 'now' });
  }
  for (const e of effects) {
    if (e.kind === 'gatewayZone') calls.push({ changeType: CardChangeType.Zone, op: e.op, kind: e.target.kind, targetId: e.target.id });
    if (e.kind === 'gatewayNetworkReset') calls.push({ changeType: CardChangeType.NetworkReset });
  }
  if (effects.some((e) => e.kind === 'gatewayStatus') && finalState !== fromState) {
    calls.push({ changeType: CardChangeType.CardState, targetState: finalState });
  }
  return calls;
}

// ---- applying an action ------------------------------------------------------------------------------------------

/** What happened to one card of a set: its result, or why it was refused (nothing changed on it). */
export type CardOutcome = { ok: true; result: CardActionResult } | { ok: false; error: AppError };

const sourceOf = (who: CardActor) => (who.kind === 'user' ? CardChangeSource.User : who.source);

/** The `source` of a card.state_changed webhook event (docs/webhooks.md "Producers"). */
const WEBHOOK_SOURCE: Record<number, 'user' | 'rule' | 'operator' | 'system'> = {
  [CardChangeSource.User]: 'user', [CardChangeSource.Rule]: 'rule', [CardChangeSource.Schedule]: 'system', [CardChangeSource.Operator]: 'operator',
};
const actorName = (who: CardActor) => (who.kind === 'user' ? who.ctx.actor.loginName : who.actor);

const TARGET_KIND: Record<ZoneTarget['kind'], Bilingual> = { zone: { zh: '区域', en: 'zone' }, region: { zh: '地区', en: 'region' }, network: { zh: '网络', en: 'network' } };

function targetNote(action: CardAction): Bilingual | null {
  if (action.type === 'block' || action.type === 'permit') {
    const kind = TARGET_KIND[action.target.kind];
    return { zh: `${kind.zh} ${action.target.id}`, en: `${kind.en} ${action.target.id}` };
  }
  if (action.type === 'releaseZone') return { zh: `区域 ${action.zoneId}`, en: `zone ${action.zoneId}` };
  if (action.type === 'orderEventPack') return { zh: `加油包 ${action.packId}`, en: `pack ${action.packId}` };
  if (action.type === 'renew') return { zh: `续费 ${action.periods ?? 1} 期`, en: `${action.periods ?? 1} period(s)` };
  return null;
}

/** The stored columns of a snapshot, for the set-based update (name in SQL, array type, value). */
/** The card columns the cycle usage and quota depend on (plan, contract cycle). */
const CYCLE_COLUMNS: ((r: Partial<CardRow>) => unknown)[] = [(r) => r.goodsReleaseId, (r) => r.cycleStartAt, (r) => r.cycleEndAt];

const COLUMNS: [string, string, (r: Partial<CardRow>) => unknown][] = [
  ['state', 'smallint', (r) => r.state],
  ['goods_release_id', 'integer', (r) => r.goodsReleaseId],
  ['operation_mode', 'smallint', (r) => r.operationMode],
  ['renewal_mode', 'smallint', (r) => r.renewalMode],
  ['test_end_at', 'timestamptz', (r) => r.testEndAt],
  ['silent_end_at', 'timestamptz', (r) => r.silentEndAt],
  ['activated_at', 'timestamptz', (r) => r.activatedAt],
  ['contract_start_at', 'timestamptz', (r) => r.contractStartAt],
  ['contract_months', 'integer', (r) => r.contractMonths],
  ['cycles_used', 'integer', (r) => r.cyclesUsed],
  ['contract_end_at', 'timestamptz', (r) => r.contractEndAt],
  ['cycle_start_at', 'timestamptz', (r) => r.cycleStartAt],
  ['cycle_end_at', 'timestamptz', (r) => r.cycleEndAt],
  ['pending_plan_id', 'integer', (r) => r.pendingPlanId],
  ['pending_plan_requested_at', 'timestamptz', (r) => r.pendingPlanRequestedAt],
  ['pending_plan_effective_at', 'timestamptz', (r) => r.pendingPlanEffectiveAt],
  ['pending_plan_on_activation', 'boolean', (r) => r.pendingPlanOnActivation],
  ['last_plan_change_at', 'timestamptz', (r) => r.lastPlanChangeAt],
  ['frozen_from', 'smallint', (r) => r.frozenFrom],
  ['last_network_reset_at', 'timestamptz', (r) => r.lastNetworkResetAt],
  ['next_deadline_at', 'timestamptz', (r) => r.nextDeadlineAt],
];

const sameValue = (a: unknown, b: unknown) =>
  a instanceof Date || b instanceof Date ? (a as Date | null)?.getTime() === (b as Date | null)?.getTime() : (a ?? null) === (b ?? null);
const arrayValue = (v: unknown) => (v instanceof Date ? v.toISOString() : (v ?? null));

/** Runs `fn` over `items`, at most `limit` at a time. */
async function pooled<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let i = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (i < items.length) {
      const k = i++;
      out[k] = await fn(items[k]);
    }
  }));
  return out;
}

interface Decided {
  row: CardRow;
  res: Extract<ReturnType<typeof transition>, { ok: true }>;
  calls: CardChangeRequest[];
}

/**
 * The heart of the card service: applies `action` to locked card rows in the caller's transaction, set-based.
 * Per card: tenant (users), engine, operator calls (concurrently across cards, through one gateway per operator);
 * then one UPDATE for every changed card, one history INSERT and one audit INSERT for the whole set.
 */
async function applyRows(
  deps: CardServiceDeps, tx: Executor, who: CardActor, rows: CardRow[], action: CardAction, why: string | null, now: Date,
  extra: Bilingual | null = null, batchId: string | null = null,
): Promise<Map<string, CardOutcome>> {
  const out = new Map<string, CardOutcome>();
  const by = actorName(who);
  const decided: Decided[] = [];
  const pricePending = await plansWithPendingPriceChange(tx, rows.map((r) => r.goodsReleaseId));
  for (const row of rows) {
    if (who.kind === 'user' && !canSeeTenant(who.ctx.actor, row)) {
      out.set(row.iccid, { ok: false, error: notFound() });
      continue;
    }
    const res = transition(await snapshotOf(tx, row, pricePending), action, now);
    if (!res.ok) {
      out.set(row.iccid, { ok: false, error: new AppError(res.error, res.params) });
      continue;
    }
    decided.push({ row, res, calls: await operatorCalls(tx, res.effects, res.to, row.state) });
  }

  // charges at the event (prepaid terms, packs; billing/charges): rated now; a person's change that a prepaid
  // customer's balance cannot pay is refused before the operator is asked
  let charges = await rateEventCharges(tx, decided.map((d) => ({ row: d.row, next: d.res.next, effects: d.res.effects })), now);
  if (who.kind === 'user' && charges.length > 0) {
    const refused = await refuseUnaffordable(tx, charges);
    for (const [iccid, error] of refused) out.set(iccid, { ok: false, error });
    if (refused.size > 0) {
      decided.splice(0, decided.length, ...decided.filter((d) => !refused.has(d.row.iccid)));
      charges = charges.filter((c) => !refused.has(c.iccid));
    }
  }

  // the operator first: a user's change that the operator refuses leaves the card as it was
  const gateways = new Map<number, { account: AccountRow; gateway: ReturnType<typeof gatewayOfAccount> } | null>();
  // an access configuration whose credentials no longer open (the installation key changed): a user's change is
  // refused with the message that says to enter them again; a time-driven one happens, marked as not sent
  const unopenable = new Map<number, AppError>();
  for (const d of decided) {
    if (d.calls.length === 0 || gateways.has(d.row.operatorId)) continue;
    const account = await accessConfigOf(tx, d.row.operatorId);
    try {
      gateways.set(d.row.operatorId, account ? { account, gateway: gatewayOfAccount(boxOf(deps), account) } : null);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== ErrorCode.SecretUndecryptable) throw err;
      gateways.set(d.row.operatorId, null);
      unopenable.set(d.row.operatorId, err);
    }
  }
  const sent = await pooled(decided, 50, async (d) => {
    const g = d.calls.length > 0 ? gateways.get(d.row.operatorId) : null;
    if (!g) return { requestId: null as string | null, refused: [] as { request: CardChangeRequest; code: string; message: string; latencyMs: number }[] };
    let requestId: string | null = null;
    const refused: { request: CardChangeRequest; code: string; message: string; latencyMs: number }[] = [];
    for (const request of d.calls) {
      const r = g.gateway
        ? await sendCardChange(g.gateway, { iccid: d.row.iccid, msisdn: d.row.msisdn ?? '' }, request)
        : { ok: false as const, code: 'NO_GATEWAY', message: 'the access configuration or its gateway adapter is not available', latencyMs: 0, retryable: false };
      if (r.ok) requestId = r.data.requestId;
      else {
        refused.push({ request, code: r.code, message: r.message, latencyMs: r.latencyMs });
        if (who.kind === 'user') break;
      }
    }
    return { requestId, refused };
  });

  const applied: { d: Decided; requestId: string | null; note: Bilingual | null }[] = [];
  for (const [k, d] of decided.entries()) {
    const s = sent[k];
    const tenant = { custId: d.row.custId, rootCustId: d.row.rootCustId };
    const g = gateways.get(d.row.operatorId);
    const sealed = d.calls.length > 0 ? unopenable.get(d.row.operatorId) : undefined;
    if (who.kind === 'user' && sealed) {
      out.set(d.row.iccid, { ok: false, error: sealed });
      continue;
    }
    for (const f of s.refused) {
      const failureId = await recordCardChangeFailure(tx, {
        iccid: d.row.iccid, msisdn: d.row.msisdn ?? '', operatorId: d.row.operatorId, operAccountId: g?.account.operAccountId ?? null, ...tenant,
        request: f.request, failure: { code: f.code, message: f.message, latencyMs: f.latencyMs }, triggeredBy: by,
      });
      if (who.kind === 'user') {
        await audit(tx, who.ctx, {
          entity: 'cardChangeFailure', entityId: failureId, ...tenant,
          after: { failureId, iccid: d.row.iccid, action: action.type, fromState: d.row.state, request: f.request, message: f.message },
        });
      }
    }
    if (who.kind === 'user' && s.refused.length > 0) {
      out.set(d.row.iccid, { ok: false, error: new AppError(ErrorCode.CardGatewayRefused, { reason: s.refused[0].message }) });
      continue;
    }
    // a time-driven change happens anyway (the contract says so); a refused sync waits in the failure list
    const note = d.calls.length > 0 && !g ? NOT_SENT_NOTE : s.refused.length > 0 ? SYNC_FAILED_NOTE : null;
    applied.push({ d, requestId: s.requestId, note });
    out.set(d.row.iccid, {
      ok: true,
      result: { iccid: d.row.iccid, fromState: d.row.state, toState: d.res.to, sentToOperator: !!g && d.calls.length > 0, requestId: s.requestId },
    });
  }
  if (applied.length === 0) return out;

  // one UPDATE for the cards whose stored columns change
  const changed = applied
    .map(({ d }) => ({ iccid: d.row.iccid, before: d.row, cols: rowOfSnapshot(d.res.next) }))
    .filter((c) => COLUMNS.some(([, , get]) => !sameValue(get(c.cols), get(c.before))));
  if (changed.length > 0) {
    const sets = COLUMNS.map(([name]) => sql.raw(`${name} = t.${name}`));
    const arrays = COLUMNS.map(([, type, get]) => sql`${sql.param(changed.map((c) => arrayValue(get(c.cols))))}::${sql.raw(type)}[]`);
    await tx.execute(sql`
      update cards c set ${sql.join(sets, sql`, `)}, updated_at = ${now}
      from unnest(${sql.param(changed.map((c) => c.iccid))}::text[], ${sql.join(arrays, sql`, `)})
        as t (iccid, ${sql.raw(COLUMNS.map(([name]) => name).join(', '))})
      where c.iccid = t.iccid`);
  }

  // effects beyond the card row
  const zonesOf = new Map<number, number[]>();
  for (const { d } of applied) {
    const next = d.res.next;
    for (const e of d.res.effects) {
      if (e.kind === 'blockAllZones' && next.plan) {
        let zones = zonesOf.get(next.plan.id);
        if (!zones) {
          zones = (await tx.select({ id: planZones.zoneId }).from(planZones).where(eq(planZones.goodsReleaseId, next.plan.id))).map((z) => z.id);
          zonesOf.set(next.plan.id, zones);
        }
        if (zones.length > 0) {
          await tx
            .insert(cardZoneBlocks)
            .values(zones.map((id) => ({ iccid: d.row.iccid, kind: 'zone' as const, targetId: id, byDeactivation: true, blockedAt: e.at, blockedBy: by })))
            .onConflictDoNothing();
        }
      } else if (e.kind === 'restoreZones') {
        await tx.delete(cardZoneBlocks).where(and(eq(cardZoneBlocks.iccid, d.row.iccid), eq(cardZoneBlocks.byDeactivation, true)));
      } else if (e.kind === 'gatewayZone') {
        if (e.op === 'block') {
          await tx
            .insert(cardZoneBlocks)
            .values({ iccid: d.row.iccid, kind: e.target.kind, targetId: e.target.id, byDeactivation: false, blockedAt: now, blockedBy: by })
            .onConflictDoUpdate({ target: [cardZoneBlocks.iccid, cardZoneBlocks.kind, cardZoneBlocks.targetId], set: { byDeactivation: false, blockedAt: now, blockedBy: by } });
        } else {
          await tx
            .delete(cardZoneBlocks)
            .where(and(eq(cardZoneBlocks.iccid, d.row.iccid), eq(cardZoneBlocks.kind, e.target.kind), eq(cardZoneBlocks.targetId, e.target.id)));
        }
      } else if (e.kind === 'eventPackAdded') {
        await tx.insert(cardEventPacks).values({ iccid: d.row.iccid, packId: e.packId, startsAt: e.startsAt, endsAt: e.endsAt, orderedBy: by, orderedAt: now });
      }
    }
  }

  // the cards' maintained cycle usage and quota follow a new plan, contract cycle or event pack (usage/cycle-columns.ts)
  const cycleMoved = new Set(changed
    .filter((c) => CYCLE_COLUMNS.some((get) => !sameValue(get(c.cols), get(c.before))))
    .map((c) => c.iccid));
  for (const { d } of applied) if (d.res.effects.some((e) => e.kind === 'eventPackAdded')) cycleMoved.add(d.row.iccid);
  await refreshCardCycles(tx, [...cycleMoved], now);

  // the charges of the cards changed, and a prepaid customer's withholding, in this transaction
  const appliedIccids = new Set(applied.map(({ d }) => d.row.iccid));
  await recordEventCharges(tx, charges.filter((c) => appliedIccids.has(c.iccid)), {
    accountId: who.kind === 'user' ? (who.ctx.actor.accountId ?? null) : null, loginName: by,
  });

  const detail = targetNote(action);
  const history = applied.flatMap(({ d, note }) =>
    d.res.effects
      .filter((e): e is Extract<Effect, { kind: 'history' }> => e.kind === 'history')
      .map((h) => ({
        iccid: d.row.iccid, fromState: h.from, toState: h.to, action: h.action, source: sourceOf(who), actor: by,
        reason: why, ...joinNotes([extra, detail, note]), planId: h.planId ?? null, at: h.at,
      })));
  if (history.length > 0) await tx.insert(cardHistory).values(history);

  // each state step is a card.state_changed webhook event for the card's customer (docs/webhooks.md "Producers"), in this
  // transaction and with one outbox call for the whole set: sent if and only if the change commits
  const source = batchId ? 'batch' : (WEBHOOK_SOURCE[sourceOf(who)] ?? 'system');
  const events: WebhookEventInput[] = [];
  for (const { d } of applied) {
    const custId = d.row.custId;
    if (custId == null) continue;
    for (const e of d.res.effects) {
      if (e.kind !== 'history' || e.from === e.to) continue;
      events.push({
        custId, type: WebhookEventType.CardStateChanged, at: e.at,
        payload: {
          iccid: d.row.iccid, msisdn: d.row.msisdn ?? null, custId, fromState: e.from, toState: e.to, source, reason: why,
          ...(batchId ? { batchId } : {}), changedAt: e.at.toISOString(),
        },
      });
    }
  }
  if (events.length > 0) await enqueueEvents(tx, events);

  if (who.kind === 'user') {
    const ctx = who.ctx;
    const changedCols = new Map(changed.map((c) => [c.iccid, c.cols]));
    const audits = applied
      .filter(({ d }) => changedCols.has(d.row.iccid) || d.res.effects.length > 0)
      .map(({ d }) => ({
        accountId: ctx.actor.accountId ?? null, loginName: ctx.actor.loginName, custId: d.row.custId, rootCustId: d.row.rootCustId,
        endpoint: ctx.endpoint, entity: 'card', entityId: d.row.iccid, before: redact(d.row),
        after: redact({ ...(changedCols.get(d.row.iccid) ?? {}), action: action.type, reason: why }), ip: ctx.ip,
      }));
    if (audits.length > 0) {
      ctx.audited = true;
      await tx.insert(auditLog).values(audits);
    }
  }
  return out;
}

/**
 * Applies one action to one card. Refusals (thrown AppError): 20005 for a missing card or, for a user, one
 * outside the caller's tenant (alike); the engine's error code for an illegal action; 20415 when the operator
 * refuses a user's change (the card stays as it was; the refusal is kept as a card change failure).
 * With `opts.tx` it runs in the caller's transaction.
 */
export async function applyCardAction(
  deps: CardServiceDeps, who: CardActor, iccid: string, action: CardAction,
  opts: CardActionNotes & { tx?: Executor; now?: Date } = {},
): Promise<CardActionResult> {
  const outcome = (await applyCardActions(deps, who, [iccid], action, opts)).get(iccid)!;
  if (!outcome.ok) throw outcome.error;
  return outcome.result;
}

/**
 * Applies one action to many cards at once (batches, allocation): the rows are locked in ICCID order, decided
 * one by one, and written set-based, in one transaction (the caller's, with `opts.tx`). Every ICCID gets an
 * outcome; a refused card (missing or outside the tenant: 20005; the engine's refusal; the operator's 20415) is
 * left unchanged while the others go on. Database errors abort the whole set.
 */
export async function applyCardActions(
  deps: CardServiceDeps, who: CardActor, iccids: string[], action: CardAction,
  opts: CardActionNotes & { tx?: Executor; now?: Date } = {},
): Promise<Map<string, CardOutcome>> {
  const why = opts.reason?.trim() ? opts.reason.trim() : null;
  const unique = [...new Set(iccids)].sort();
  const work = async (tx: Executor) => {
    const rows = unique.length === 1
      ? await tx.select().from(cards).where(eq(cards.iccid, unique[0])).for('update')
      : await tx.select().from(cards).where(inArray(cards.iccid, unique)).orderBy(asc(cards.iccid)).for('update');
    const out = await applyRows(deps, tx, who, rows, action, why, opts.now ?? new Date(), opts.note ?? null, opts.batchId ?? null);
    for (const iccid of unique) if (!out.has(iccid)) out.set(iccid, { ok: false, error: notFound() });
    return out;
  };
  return opts.tx ? work(opts.tx) : deps.db.transaction(work);
}

/** Changes one card's state by a manual action (the single-card status screen). */
export function changeCardState(
  deps: CardServiceDeps, ctx: SessionContext, iccid: string, action: StateActionType, reason: string | null | undefined,
): Promise<CardActionResult> {
  return applyCardAction(deps, { kind: 'user', ctx }, iccid, { type: action }, { reason });
}

// ---- time-driven changes ----------------------------------------------------------------------------------------

/**
 * Applies every time-driven change due on one card (test end, silent end, cycle end, contract end, pending plan
 * change), catching up in time order. Claims the card with SKIP LOCKED and re-checks that it is still due, so
 * two processes never apply the same deadline twice: answers false when another process holds the card or it
 * is no longer due.
 */
export async function tickCard(deps: CardServiceDeps, iccid: string, now = new Date()): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(cards)
      .where(and(eq(cards.iccid, iccid), sql`${cards.nextDeadlineAt} <= ${now}`))
      .for('update', { skipLocked: true });
    if (!row) return false;
    const outcome = (await applyRows(deps, tx, { kind: 'system', source: CardChangeSource.Schedule, actor: 'scheduler' }, [row], { type: 'tick' }, null, now)).get(iccid);
    if (!outcome?.ok) return false;
    // a tick that changed nothing (a stale deadline) must not be picked again
    const [after] = await tx.select({ d: cards.nextDeadlineAt }).from(cards).where(eq(cards.iccid, iccid));
    if (after?.d && after.d <= now) await tx.update(cards).set({ nextDeadlineAt: null }).where(eq(cards.iccid, iccid));
    return true;
  });
}

/** ICCIDs whose next deadline has passed, oldest first (the scheduler's index). */
export async function dueCards(ex: Executor, now: Date, limit: number, after?: { at: Date; iccid: string }): Promise<{ iccid: string; at: Date }[]> {
  const rows = await ex
    .select({ iccid: cards.iccid, at: cards.nextDeadlineAt })
    .from(cards)
    .where(
      after
        ? sql`${cards.nextDeadlineAt} <= ${now} and (${cards.nextDeadlineAt}, ${cards.iccid}) > (${after.at}, ${after.iccid})`
        : sql`${cards.nextDeadlineAt} <= ${now}`,
    )
    .orderBy(asc(cards.nextDeadlineAt), asc(cards.iccid))
    .limit(limit);
  return rows.map((r) => ({ iccid: r.iccid, at: r.at! }));
}

/**
 * Recomputes the stored lifecycle columns (next deadline, contract and cycle ends) of cards written outside the engine
 * (imports, seeds), and their maintained cycle usage and quota.
 */
export async function refreshDeadlines(ex: Executor, iccids: string[]): Promise<void> {
  if (iccids.length === 0) return;
  const rows = await ex.select().from(cards).where(inArray(cards.iccid, iccids));
  const pricePending = await plansWithPendingPriceChange(ex, rows.map((r) => r.goodsReleaseId));
  for (const row of rows) {
    const cols = rowOfSnapshot(await snapshotOf(ex, row, pricePending));
    await ex.update(cards).set({
      nextDeadlineAt: cols.nextDeadlineAt, contractEndAt: cols.contractEndAt, cycleStartAt: cols.cycleStartAt, cycleEndAt: cols.cycleEndAt,
    }).where(eq(cards.iccid, row.iccid));
  }
  await refreshCardCycles(ex, iccids, new Date());
}

