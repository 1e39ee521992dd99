// The card service: applies the pure lifecycle engine (lifecycle.ts) to stored cards. One card's state change
// runs in one transaction: lock the card row, check the tenant, ask the engine, send the change to the
// operator through the card operator's access configuration, persist `next`, write the card history and the
// audit row. Design note: docs/card-lifecycle.md.
import { and, asc, desc, eq } from 'drizzle-orm';
import { CardChangeSource, CardChangeType, CardState, ErrorCode, PlanOperationMode, PlanRenewalMode } from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { canSeeTenant, type SessionContext } from '../../platform/context.ts';
import { changeCardOnNetwork } from '../network/opconfig-service.ts';
import { secretBoxFor, type SecretBox } from '../network/opconfig-secrets.ts';
import { operatorAccounts } from '../network/opconfig-tables.ts';
import { cardHistory, cards } from './card-tables.ts';
import { contractEndsAt, transition, type CardSnapshot, type Effect, type StateActionType } from './lifecycle.ts';

type CardRow = typeof cards.$inferSelect;

export interface CardServiceDeps {
  db: Db;
  config: Pick<Config, 'secretKey' | 'dataDir'>;
}

export interface CardStateChangeResult {
  iccid: string;
  fromState: number;
  toState: number;
  sentToOperator: boolean;
  requestId: string | null;
}

/** Noted in the card's history when the change could not be sent because the operator has no access configuration. */
export const NOT_SENT_NOTE = '未下发运营商：该运营商没有接入配置 / not sent to the operator: it has no access configuration';

const boxes = new WeakMap<object, SecretBox>();
const boxOf = (deps: CardServiceDeps): SecretBox => {
  let box = boxes.get(deps.config);
  if (!box) boxes.set(deps.config, (box = secretBoxFor(deps.config)));
  return box;
};

/**
 * The engine's view of a stored card. The card row keeps the state, the period ends and the first activation;
 * the state before a forced shutdown comes from the card's history (the last entry into the frozen state).
 */
export async function snapshotOf(ex: Executor, row: CardRow): Promise<CardSnapshot> {
  let frozenFrom: number | null = null;
  if (row.state === CardState.Frozen) {
    const [h] = await ex
      .select({ fromState: cardHistory.fromState })
      .from(cardHistory)
      .where(and(eq(cardHistory.iccid, row.iccid), eq(cardHistory.toState, CardState.Frozen)))
      .orderBy(desc(cardHistory.at))
      .limit(1);
    frozenFrom = h?.fromState ?? null;
  }
  return {
    state: row.state,
    operationMode: row.operationMode ?? PlanOperationMode.Standard,
    renewalMode: row.renewalMode ?? PlanRenewalMode.NoRenew,
    plan: null,
    testEndsAt: row.testEndAt,
    silentEndsAt: row.silentEndAt,
    activatedAt: row.activatedAt,
    contractStartAt: null,
    contractMonths: 0,
    cyclesUsed: 0,
    pendingPlanChange: null,
    pendingPriceChange: false,
    lastPlanChangeAt: null,
    frozenFrom,
    lastNetworkResetAt: null,
  };
}

/** The access configuration a card's changes go through: the operator's first (oldest) one, if any. */
async function accessConfigOf(ex: Executor, operatorId: number): Promise<number | null> {
  const [a] = await ex
    .select({ id: operatorAccounts.operAccountId })
    .from(operatorAccounts)
    .where(eq(operatorAccounts.operatorId, operatorId))
    .orderBy(asc(operatorAccounts.operAccountId))
    .limit(1);
  return a?.id ?? null;
}

type Outcome = { ok: true; result: CardStateChangeResult } | { ok: false; message: string };

/**
 * Changes one card's state by a manual action. Refusals: 20005 for a missing card or one outside the
 * caller's tenant (alike), the engine's error code for an illegal change, 20415 when the operator refuses
 * (the card stays as it was and the refusal is kept as a card change failure).
 */
export async function changeCardState(
  deps: CardServiceDeps, ctx: SessionContext, iccid: string, action: StateActionType, reason: string | null | undefined,
): Promise<CardStateChangeResult> {
  const why = reason?.trim() ? reason.trim() : null;
  const outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
    const [row] = await tx.select().from(cards).where(eq(cards.iccid, iccid)).for('update');
    if (!row || !canSeeTenant(ctx.actor, row)) throw notFound();

    const now = new Date();
    const res = transition(await snapshotOf(tx, row), { type: action }, now);
    if (!res.ok) throw new AppError(res.error, res.params);

    const tenant = { custId: row.custId, rootCustId: row.rootCustId };
    const operAccountId = res.effects.some((e) => e.kind === 'gatewayStatus') ? await accessConfigOf(tx, row.operatorId) : null;
    let requestId: string | null = null;
    if (operAccountId != null) {
      const sent = await changeCardOnNetwork(tx, boxOf(deps), {
        iccid: row.iccid, msisdn: row.msisdn ?? '', operatorId: row.operatorId, operAccountId, ...tenant,
        request: { changeType: CardChangeType.CardState, targetState: res.to }, triggeredBy: ctx.actor.loginName,
      });
      if (!sent.ok) {
        // the refusal is kept (and audited); the card itself is not touched
        await audit(tx, ctx, {
          entity: 'cardChangeFailure', entityId: sent.failureId, ...tenant,
          after: { failureId: sent.failureId, iccid: row.iccid, action, fromState: row.state, targetState: res.to, message: sent.message },
        });
        return { ok: false, message: sent.message };
      }
      requestId = sent.requestId;
    }

    const next = res.next;
    const [after] = await tx
      .update(cards)
      .set({
        state: next.state, activatedAt: next.activatedAt, testEndAt: next.testEndsAt, silentEndAt: next.silentEndsAt,
        contractEndAt: next.contractStartAt ? contractEndsAt(next) : row.contractEndAt, updatedAt: now,
      })
      .where(eq(cards.iccid, row.iccid))
      .returning();

    const note = operAccountId == null ? NOT_SENT_NOTE : null;
    const history = res.effects.filter((e): e is Extract<Effect, { kind: 'history' }> => e.kind === 'history');
    if (history.length > 0) {
      await tx.insert(cardHistory).values(
        history.map((h) => ({
          iccid: row.iccid, fromState: h.from, toState: h.to, action: h.action, source: CardChangeSource.User, actor: ctx.actor.loginName,
          reason: [why, note].filter(Boolean).join(' · ') || null, at: h.at,
        })),
      );
    }
    await audit(tx, ctx, { entity: 'card', entityId: row.iccid, before: row, after: { ...after, action, reason: why }, ...tenant });
    return { ok: true, result: { iccid: row.iccid, fromState: row.state, toState: res.to, sentToOperator: operAccountId != null, requestId } };
  });
  if (!outcome.ok) throw new AppError(ErrorCode.CardGatewayRefused, { reason: outcome.message });
  return outcome.result;
}
