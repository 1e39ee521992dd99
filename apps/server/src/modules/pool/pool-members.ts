// Cards joining and leaving a pool, as batch types 7 and 8 see them (the batch engine validates and runs them;
// card/batch-ops.ts and card/batch-runner.ts call these). One verdict function serves validation and the job's
// re-check under the card locks; the job moves a chunk's cards with one UPDATE and keeps member_count exact in the
// same transaction, with the pool row locked.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { CardState, ErrorCode, batch, errorMessage, pool as api } from '@lynx/contract';
import type { Executor, Tx } from '../../db/client.ts';
import { audit } from '../../platform/audit.ts';
import { canSeeTenant, type SessionContext } from '../../platform/context.ts';
import { cards } from '../card/card-tables.ts';
import { cardPools } from './pool-tables.ts';
import { poolFitsCard, visiblePoolFilter } from './pool-service.ts';

const { BatchType, BatchVerdict, BatchItemStatus } = batch;
const { POOL_CARDS_MAX } = api;

export interface BatchPool {
  poolId: number;
  name: string;
  custId: number;
  rootCustId: number;
  operatorId: number;
}

/** A card as the verdict needs it. */
export interface PoolCardFacts {
  iccid: string;
  poolId: number | null;
  operatorId: number;
  custId: number | null;
  rootCustId: number | null;
  state: number;
  goodsReleaseId: number | null;
}

export interface PoolVerdict {
  verdict: number;
  code?: ErrorCode;
  params?: Record<string, string | number>;
  /** parameters that differ by language (a state's label) */
  localParams?: { zh: Record<string, string | number>; en: Record<string, string | number> };
}

/** States a card cannot join a pool in: closed for good (it will never use data again). */
export const POOL_JOIN_REFUSED_STATES: readonly number[] = [CardState.Invalidated, CardState.Retired];

export const isPoolBatch = (type: number) => type === BatchType.PoolJoin || type === BatchType.PoolLeave;

/** The pool of a batch if the actor may see it. */
export async function poolForBatch(ex: Executor, poolId: number, actor: SessionContext['actor']): Promise<BatchPool | null> {
  const [p] = await ex
    .select({ poolId: cardPools.poolId, name: cardPools.name, custId: cardPools.custId, rootCustId: cardPools.rootCustId, operatorId: cardPools.operatorId })
    .from(cardPools)
    .where(and(eq(cardPools.poolId, poolId), visiblePoolFilter(actor)));
  return p ?? null;
}

/** Names of the pools cards are in (for "already in pool X"). */
export async function poolNames(ex: Executor, ids: (number | null)[]): Promise<Map<number, string>> {
  const uniq = [...new Set(ids.filter((v): v is number => v != null))];
  if (!uniq.length) return new Map();
  const rows = await ex.select({ id: cardPools.poolId, name: cardPools.name }).from(cardPools).where(inArray(cardPools.poolId, uniq));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Whether a visible card may join (type 7) or leave (type 8) the pool. */
export function poolVerdict(type: number, pool: BatchPool, card: PoolCardFacts, names: Map<number, string>): PoolVerdict {
  const invalid = (code: ErrorCode, params?: PoolVerdict['params']): PoolVerdict => ({ verdict: BatchVerdict.Invalid, code, params });
  if (type === BatchType.PoolLeave) {
    if (card.poolId === pool.poolId) return { verdict: BatchVerdict.Valid };
    if (card.poolId == null) return { verdict: BatchVerdict.Already, code: ErrorCode.PoolCardNotIn };
    return invalid(ErrorCode.PoolCardNotIn);
  }
  if (card.poolId === pool.poolId) return { verdict: BatchVerdict.Already, code: ErrorCode.PoolCardAlreadyIn };
  if (card.poolId != null) return invalid(ErrorCode.PoolCardInOtherPool, { pool: names.get(card.poolId) ?? String(card.poolId) });
  if (card.operatorId !== pool.operatorId) return invalid(ErrorCode.PoolCardOtherOperator);
  if (!poolFitsCard(pool, card)) return invalid(ErrorCode.PoolCardOtherCustomer);
  if (POOL_JOIN_REFUSED_STATES.includes(card.state)) {
    return { verdict: BatchVerdict.Invalid, code: ErrorCode.PoolCardState, localParams: { zh: { state: CardState.label(card.state, 'zh') }, en: { state: CardState.label(card.state, 'en') } } };
  }
  if (card.goodsReleaseId == null) return invalid(ErrorCode.PoolCardNoPlan);
  return { verdict: BatchVerdict.Valid };
}

export const poolReason = (v: PoolVerdict, lang: 'zh' | 'en') => (v.code === undefined ? null : errorMessage(v.code, lang, v.localParams?.[lang] ?? v.params));

export interface PoolOutcome {
  seq: number;
  status: number;
  zh: string | null;
  en: string | null;
}

/**
 * Moves a chunk of a join / leave batch: the pool row and the chunk's cards locked, each card's verdict again
 * (it may have changed since validation), one UPDATE for the cards that still qualify, member_count moved by as
 * many in the same transaction. The pool's usage rule runs once the batch is done (card/batch/runner.ts).
 */
export async function applyPoolChunk(
  tx: Tx, ctx: SessionContext, batchId: string, op: { type: number; poolId?: number }, items: { seq: number; iccid: string }[],
): Promise<PoolOutcome[]> {
  const fail = (seq: number, code: ErrorCode, params?: Record<string, string | number>): PoolOutcome => ({
    seq, status: BatchItemStatus.Failed, zh: errorMessage(code, 'zh', params), en: errorMessage(code, 'en', params),
  });
  const [pool] = await tx.select().from(cardPools).where(and(eq(cardPools.poolId, op.poolId ?? 0), visiblePoolFilter(ctx.actor))).for('update');
  if (!pool) return items.map((i) => fail(i.seq, ErrorCode.PoolNotFound));
  const rows = await tx
    .select({
      iccid: cards.iccid, poolId: cards.poolId, operatorId: cards.operatorId, custId: cards.custId, rootCustId: cards.rootCustId, state: cards.state,
      goodsReleaseId: cards.goodsReleaseId,
    })
    .from(cards)
    .where(inArray(cards.iccid, items.map((i) => i.iccid)))
    .for('update');
  const byIccid = new Map(rows.map((r) => [r.iccid, r]));
  const names = await poolNames(tx, rows.map((r) => r.poolId));
  const join = op.type === BatchType.PoolJoin;
  let room = POOL_CARDS_MAX - pool.memberCount;
  const out: PoolOutcome[] = [];
  const change: string[] = [];
  for (const item of items) {
    const row = byIccid.get(item.iccid);
    if (!row || !canSeeTenant(ctx.actor, row)) {
      out.push(fail(item.seq, ErrorCode.BatchCardNotFound));
      continue;
    }
    const v = poolVerdict(op.type, pool, row, names);
    if (v.verdict === BatchVerdict.Invalid) {
      out.push({ seq: item.seq, status: BatchItemStatus.Failed, zh: poolReason(v, 'zh'), en: poolReason(v, 'en') });
      continue;
    }
    if (v.verdict === BatchVerdict.Valid) {
      if (join && room <= 0) {
        out.push(fail(item.seq, ErrorCode.PoolFull, { max: POOL_CARDS_MAX }));
        continue;
      }
      if (join) room--;
      change.push(item.iccid);
    }
    // "already" here means a repeated run got there first: the card is where the batch wants it
    out.push({ seq: item.seq, status: BatchItemStatus.Succeeded, zh: null, en: null });
  }
  if (change.length) {
    const list = sql`${sql.param(change)}::text[]`;
    if (join) {
      await tx.execute(sql`update cards set pool_id = ${pool.poolId}, pool_joined_at = now(), updated_at = now() where iccid = any(${list}) and pool_id is null`);
    } else {
      await tx.execute(sql`update cards set pool_id = null, pool_joined_at = null, updated_at = now() where iccid = any(${list}) and pool_id = ${pool.poolId}`);
    }
    await tx.update(cardPools)
      .set({ memberCount: sql`${cardPools.memberCount} + ${join ? change.length : -change.length}`, updatedAt: new Date() })
      .where(eq(cardPools.poolId, pool.poolId));
    await audit(tx, ctx, {
      entity: 'cardPoolMembers', entityId: pool.poolId, custId: pool.custId, rootCustId: pool.rootCustId,
      after: { batchId, action: join ? 'join' : 'leave', poolId: pool.poolId, iccids: change },
    });
  }
  return out;
}
