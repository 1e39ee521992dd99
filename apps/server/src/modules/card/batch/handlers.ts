// Batches of other modules run by the card batch engine (docs/batch.md "Batches of other modules"). A module that has
// items to change in bulk (stock operations, eUICC profile changes) does not copy the engine: it validates its items
// itself and stores them with `storeValidatedBatch` (one card_batches row in state validated, one card_batch_items row
// per item, with a payload when the ICCID is not enough), registers a handler for its batch types, and confirms,
// cancels, lists and pages through the card batch service. The runner then claims the items in chunks (FOR UPDATE SKIP
// LOCKED), calls the handler inside the chunk's transaction and writes the outcomes in the same transaction: the same
// validate-first, progress, restart-safe and never-twice guarantees as card batches, with one implementation.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { batch } from '@lynx/contract';
import type { Executor, Tx } from '../../../db/client.ts';
import { audit } from '../../../platform/audit.ts';
import { tenantOf, type SessionContext } from '../../../platform/context.ts';
import { cardBatches } from './tables.ts';

const { BatchState, BatchVerdict, BatchItemStatus } = batch;
const INSERT_CHUNK = 5000;

/** One claimed item: its ICCID and the payload it was stored with. */
export interface BatchItem {
  seq: number;
  iccid: string;
  payload: Record<string, unknown> | null;
}

/** What became of an item (BatchItemStatus Succeeded or Failed, with the reason in both languages). */
export interface BatchOutcome {
  seq: number;
  status: number;
  zh: string | null;
  en: string | null;
}

export interface BatchHandler {
  /**
   * Applies a chunk of items inside the chunk's transaction, acting as the batch's creator (`ctx`); answers one outcome
   * per item. Throwing rolls the chunk back (its items stay pending and are claimed again).
   */
  apply(tx: Tx, ctx: SessionContext, run: { batchId: string; type: number; params: Record<string, unknown> }, items: BatchItem[]): Promise<BatchOutcome[]>;
  /** items per chunk (default: the engine's) */
  chunk?: number;
  /** after the last chunk, before the batch shows done (e.g. wake a dispatcher) */
  after?(run: { batchId: string; type: number; params: Record<string, unknown> }): Promise<void>;
}

const handlers = new Map<number, BatchHandler>();

/** Registers the handler of a module's batch types (at module load; a second registration replaces the first). */
export function registerBatchHandler(types: readonly number[], handler: BatchHandler): void {
  for (const t of types) handlers.set(t, handler);
}

export const batchHandlerOf = (type: number): BatchHandler | undefined => handlers.get(type);

/** An item a module validated: its verdict, the reason when it is not valid, and what the handler will need. */
export interface ValidatedItem {
  iccid: string;
  verdict: number;
  reason?: { zh: string; en: string } | null;
  payload?: Record<string, unknown> | null;
}

/**
 * Stores a module's validated batch (state validated, nothing changed yet) with its items and the audit row, in the
 * caller's transaction; answers the batch row. The caller checked the limits and the permission.
 */
export async function storeValidatedBatch(
  tx: Executor,
  ctx: SessionContext,
  b: { type: number; params: Record<string, unknown>; source: number; sourceDetail?: unknown; duplicateCount?: number; items: ValidatedItem[] },
) {
  const actor = ctx.actor;
  const batchId = crypto.randomUUID();
  const tally = (v: number) => b.items.filter((x) => x.verdict === v).length;
  const [row] = await tx
    .insert(cardBatches)
    .values({
      batchId, type: b.type, params: b.params, source: b.source, sourceDetail: b.sourceDetail ?? null, state: BatchState.Validated,
      creatorAccountId: actor.accountId, createdBy: actor.loginName, ...tenantOf(actor), totalCount: b.items.length,
      validCount: tally(BatchVerdict.Valid), invalidCount: tally(BatchVerdict.Invalid), alreadyCount: tally(BatchVerdict.Already),
      duplicateCount: b.duplicateCount ?? 0,
    })
    .returning();
  for (let i = 0; i < b.items.length; i += INSERT_CHUNK) {
    const part = b.items.slice(i, i + INSERT_CHUNK);
    const col = (f: (p: ValidatedItem, k: number) => unknown) => sql.param(part.map(f));
    await tx.execute(sql`
      insert into card_batch_items (batch_id, seq, iccid, verdict, reason_zh, reason_en, status, payload)
      select ${batchId}::uuid, t.seq, t.iccid, t.verdict, t.zh, t.en, t.status, t.payload::jsonb
      from unnest(${col((_p, k) => i + k + 1)}::int[], ${col((p) => p.iccid.slice(0, 40))}::text[], ${col((p) => p.verdict)}::smallint[],
        ${col((p) => p.reason?.zh ?? null)}::text[], ${col((p) => p.reason?.en ?? null)}::text[],
        ${col((p) => (p.verdict === BatchVerdict.Valid ? BatchItemStatus.Pending : BatchItemStatus.Skipped))}::smallint[],
        ${col((p) => (p.payload == null ? null : JSON.stringify(p.payload)))}::text[])
        as t (seq, iccid, verdict, zh, en, status, payload)`);
  }
  await audit(tx, ctx, { entity: 'cardBatch', entityId: batchId, after: { batchId, type: b.type, params: b.params, totalCount: b.items.length, action: 'validate' } });
  return row;
}
