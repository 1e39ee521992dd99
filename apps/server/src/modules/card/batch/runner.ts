// The durable job of a confirmed batch. It claims the batch's pending items in seq order, a chunk at a time
// (FOR UPDATE SKIP LOCKED), applies each card's change through the card service inside the chunk's transaction
// (a savepoint per card) and writes the items' outcomes in the same transaction: a crash or a restart in the
// middle rolls back the open chunks and nothing else, so a resumed job does every remaining card exactly once
// and repeats none. Several chunks run at once on PostgreSQL; PGlite has one connection and runs one.
// Design note: docs/batch.md.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { ErrorCode, batch, errorMessage } from '@lynx/contract';
import type { Db, Tx } from '../../../db/client.ts';
import type { Config } from '../../../config.ts';
import type { Jobs } from '../../../platform/jobs.ts';
import type { SessionStore } from '../../../platform/sessions.ts';
import { AppError } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import { canSeeTenant, type SessionContext } from '../../../platform/context.ts';
import { cardZoneBlocks, cards } from '../card-tables.ts';
import { cardBatches } from './tables.ts';
import { applyCardAction, applyCardActions, loadCardPlan, type CardActionNotes, type CardActor } from '../lifecycle/card-service.ts';
import { labelsSql, mayRun, nextLabels, zoneTarget, type BatchOp } from './ops.ts';
import { labelFitsCard, labelsForBatch, type BatchLabel } from './labels.ts';
import type { CardAction, CardPlan } from '../lifecycle/engine.ts';
import { applyPoolChunk, isPoolBatch } from '../../pool/pool-members.ts';
import { checkPool } from '../../pool/pool-usage.ts';
import { applySmsChunk, isSmsBatch } from '../../sms/batch.ts';
import { BATCH_EVENT_COLUMNS, enqueueBatchFinished, rowsOf, type BatchEventRow } from './events.ts';
import { batchHandlerOf, type BatchItem } from './handlers.ts';

const { BatchType, BatchState, BatchItemStatus } = batch;

export const BATCH_QUEUE = 'card-batch';
export const BATCH_SWEEP_QUEUE = 'card-batch-sweep';
/** items per chunk transaction: small enough that a restart loses little work, large enough to amortise the commit */
const CHUNK = 200;
/**
 * Chunks in flight at once on PostgreSQL (each holds a pool connection; the pool has PG_POOL_MAX, default 10,
 * and the API keeps the rest). CMP_BATCH_CONCURRENCY tunes it to a bigger pool.
 */
export const BATCH_CONCURRENCY = Math.max(1, Math.trunc(Number(process.env.CMP_BATCH_CONCURRENCY)) || 4);
/** a running batch with no sign of life for this long is queued again by the sweep */
const STALE_SECONDS = 90;
/** counts on the batch row are refreshed this often while it runs (the screens poll them) */
const PROGRESS_MS = 1000;

export interface BatchRunnerDeps {
  db: Db;
  config: Pick<Config, 'secretKey' | 'dataDir'>;
  database: { kind: 'pglite' | 'postgres' };
  jobs: Jobs;
  sessions: Pick<SessionStore, 'actorOf'>;
}

interface Outcome {
  seq: number;
  status: number;
  zh: string | null;
  en: string | null;
}

interface Run {
  batchId: string;
  op: BatchOp;
  who: CardActor & { kind: 'user' };
  plan: CardPlan | null;
  labels: Map<number, BatchLabel>;
  /** what the batch's creator typed, and the batch's number in both languages for each card's history */
  notes: CardActionNotes;
  halt: boolean;
}

const failure = (seq: number, code: ErrorCode, params?: Record<string, string | number>): Outcome => ({
  seq, status: BatchItemStatus.Failed, zh: errorMessage(code, 'zh', params), en: errorMessage(code, 'en', params),
});

export class BatchRunner {
  private stopping = false;

  constructor(
    private deps: BatchRunnerDeps,
    private log: { error: (obj: unknown, msg: string) => void },
  ) {
    deps.jobs.define(BATCH_QUEUE, (data: { batchId: string }) => this.run(data.batchId), { retryLimit: 50, expireInSeconds: 3600 });
    deps.jobs.define(BATCH_SWEEP_QUEUE, () => this.sweep(), { retryLimit: 0, expireInSeconds: 300 });
    deps.jobs.schedule(BATCH_SWEEP_QUEUE, '* * * * *');
  }

  async enqueue(batchId: string): Promise<void> {
    await this.deps.jobs.send(BATCH_QUEUE, { batchId });
  }

  /** The server is closing: chunks in flight finish, no new one starts, the job fails and pg-boss retries it. */
  stop(): void {
    this.stopping = true;
  }

  /** The job: works through the pending items until none is left. Safe to run twice at once or again after a crash. */
  async run(batchId: string): Promise<void> {
    const db = this.deps.db;
    const [b] = await db.select().from(cardBatches).where(eq(cardBatches.batchId, batchId));
    if (!b || b.state !== BatchState.Running) return;
    const op = b.params as BatchOp;
    const actor = await this.deps.sessions.actorOf(b.creatorAccountId);
    // the job acts as the batch's creator, within the creator's tenant as it was when the batch was made
    if (!actor || !mayRun(actor, op.type) || actor.custId !== b.custId || actor.rootCustId !== b.rootCustId) {
      await this.failPending(batchId, ErrorCode.BatchCreatorInactive);
      await this.finish(batchId);
      return;
    }
    let plan: CardPlan | null = null;
    if (op.type === BatchType.PlanChange) {
      plan = await loadCardPlan(db, op.goodsReleaseId!).catch(() => null);
      if (!plan) {
        await this.failPending(batchId, ErrorCode.BatchPlanUnknown);
        await this.finish(batchId);
        return;
      }
    }
    const ctx: SessionContext = { actor, lang: 'zh', ip: '-', endpoint: `job:${BATCH_QUEUE}`, tokenHash: null, audited: false };
    const short = batchId.slice(0, 8);
    const run: Run = {
      batchId, op, who: { kind: 'user', ctx }, plan,
      labels: op.type === BatchType.Labels ? await labelsForBatch(db, op.labelIds ?? [], actor) : new Map(),
      notes: { reason: op.reason, note: { zh: `批量操作 ${short}`, en: `batch ${short}` }, batchId },
      halt: false,
    };

    const timer = setInterval(() => void this.refreshCounts(batchId).catch(() => {}), PROGRESS_MS);
    try {
      const workers = this.deps.database.kind === 'pglite' ? 1 : BATCH_CONCURRENCY;
      await Promise.all(Array.from({ length: workers }, async () => {
        try {
          while (!this.stopping && !run.halt && (await this.chunk(run)) > 0) {
            // PGlite runs in this thread: let timers and requests in between chunks, or the API stalls while a batch runs
            await new Promise((resolve) => setImmediate(resolve));
          }
        } catch (err) {
          run.halt = true;
          throw err;
        }
      }));
    } finally {
      clearInterval(timer);
      await this.refreshCounts(batchId).catch(() => {});
    }
    if (this.stopping) throw new Error(`batch ${batchId} interrupted by shutdown; the retry continues it`);
    // the pool's usage rule once the cards have moved (joins raise the quota and may lift a quota block); its own
    // transaction, after the chunks: a chunk only moves member_count, it does not re-count a large pool 50 times.
    // Before the batch shows "done": the pool page refreshes when it does and must then show the new quota.
    if (isPoolBatch(run.op.type) && run.op.poolId) {
      await checkPool(this.deps, run.op.poolId).catch((err) => this.log.error({ err, batchId }, 'pool usage check after a pool batch failed'));
    }
    const handler = batchHandlerOf(run.op.type);
    if (handler?.after) {
      await handler.after({ batchId, type: run.op.type, params: run.op as unknown as Record<string, unknown> })
        .catch((err) => this.log.error({ err, batchId }, 'after-batch step of a module batch failed'));
    }
    await this.finish(batchId);
  }

  /** Claims the next pending items and applies them; answers how many were claimed (0: nothing left to claim). */
  private chunk(run: Run): Promise<number> {
    // another module's batch type (stock operations, eUICC changes): its handler applies the chunk (handlers.ts)
    const handler = batchHandlerOf(run.op.type);
    return this.deps.db.transaction(async (tx) => {
      const res = (await tx.execute(sql`
        select seq, iccid, ${handler ? sql`payload` : sql`null::jsonb as payload`} from card_batch_items
        where batch_id = ${run.batchId}::uuid and status = ${BatchItemStatus.Pending}
        order by seq limit ${handler?.chunk ?? CHUNK} for update skip locked`)) as unknown as { rows: BatchItem[] };
      const items = res.rows;
      if (!items.length) return 0;
      const outcomes = handler ? await handler.apply(tx, run.who.ctx, { batchId: run.batchId, type: run.op.type, params: run.op as unknown as Record<string, unknown> }, items)
        : run.op.type === BatchType.Labels ? await this.labels(tx, run, items)
        : isPoolBatch(run.op.type) ? await applyPoolChunk(tx, run.who.ctx, run.batchId, run.op, items)
        : isSmsBatch(run.op.type) ? await applySmsChunk(tx, this.deps, run.who.ctx, run.batchId, run.op, items)
        : await this.cards(tx, run, items);
      const col = (f: (o: Outcome) => unknown) => sql.param(outcomes.map(f));
      await tx.execute(sql`
        update card_batch_items i set status = t.status, error_zh = t.zh, error_en = t.en, done_at = now()
        from unnest(${col((o) => o.seq)}::int[], ${col((o) => o.status)}::smallint[], ${col((o) => o.zh)}::text[], ${col((o) => o.en)}::text[])
          as t (seq, status, zh, en)
        where i.batch_id = ${run.batchId}::uuid and i.seq = t.seq`);
      return items.length;
    });
  }

  /**
   * The chunk's cards through the card service's set-based path (one locked read, one update, one history and one
   * audit insert for the chunk); data recovery, a sequence of changes per card, goes card by card.
   */
  private async cards(tx: Tx, run: Run, items: { seq: number; iccid: string }[]): Promise<Outcome[]> {
    const { op } = run;
    if (op.type !== BatchType.DataRecovery) {
      const action: CardAction = op.type === BatchType.PlanChange ? { type: 'changePlan', plan: run.plan! }
        : op.type === BatchType.Zone ? { type: op.zoneOp!, target: zoneTarget(op) }
        : { type: op.action! };
      const outcomes = await applyCardActions(this.deps, run.who, items.map((i) => i.iccid), action, { tx, ...run.notes });
      return items.map((item) => {
        const o = outcomes.get(item.iccid)!;
        return o.ok
          ? { seq: item.seq, status: BatchItemStatus.Succeeded, zh: null, en: null }
          : { seq: item.seq, status: BatchItemStatus.Failed, zh: o.error.message_('zh'), en: o.error.message_('en') };
      });
    }
    const out: Outcome[] = [];
    for (const item of items) {
      try {
        await this.applyOne(tx, run, item.iccid);
        out.push({ seq: item.seq, status: BatchItemStatus.Succeeded, zh: null, en: null });
      } catch (err) {
        if (err instanceof AppError) {
          out.push({ seq: item.seq, status: BatchItemStatus.Failed, zh: err.message_('zh'), en: err.message_('en') });
        } else {
          // a bug or a database error of this card: its savepoint is rolled back; the batch goes on
          this.log.error({ err, batchId: run.batchId, iccid: item.iccid }, 'batch item failed');
          out.push(failure(item.seq, ErrorCode.ServerError));
        }
      }
    }
    return out;
  }

  private async applyOne(tx: Tx, run: Run, iccid: string): Promise<void> {
    const { op, who, notes } = run;
    const apply = (action: CardAction) => applyCardAction(this.deps, who, iccid, action, { tx, ...notes });
    switch (op.type) {
      case BatchType.PlanChange:
        await apply({ type: 'changePlan', plan: run.plan! });
        return;
      case BatchType.Zone:
        await apply({ type: op.zoneOp!, target: zoneTarget(op) });
        return;
      case BatchType.DataRecovery: {
        // restore data service: permit what is blocked on the card (not by a deactivation), then reset its session.
        // Each step is its own recorded change; a refusal stops the card there and is reported on the item.
        const blocks = await tx
          .select({ kind: cardZoneBlocks.kind, targetId: cardZoneBlocks.targetId })
          .from(cardZoneBlocks)
          .where(and(eq(cardZoneBlocks.iccid, iccid), eq(cardZoneBlocks.byDeactivation, false)));
        for (const b of blocks) await apply({ type: 'permit', target: { kind: b.kind as 'zone' | 'region' | 'network', id: b.targetId } });
        await apply({ type: 'networkReset' });
        return;
      }
      default:
        await apply({ type: op.action! });
    }
  }

  /** Labels are not a lifecycle change: one set-based UPDATE per chunk for the cards that still qualify. */
  private async labels(tx: Tx, run: Run, items: { seq: number; iccid: string }[]): Promise<Outcome[]> {
    const actor = run.who.ctx.actor;
    const rows = await tx
      .select({ iccid: cards.iccid, custId: cards.custId, rootCustId: cards.rootCustId, labelIds: cards.labelIds })
      .from(cards)
      .where(inArray(cards.iccid, items.map((i) => i.iccid)))
      .for('update');
    const byIccid = new Map(rows.map((r) => [r.iccid, r]));
    const op = { ...run.op, labelIds: (run.op.labelIds ?? []).filter((id) => run.labels.has(id)) };
    const out: Outcome[] = [];
    const change: string[] = [];
    for (const item of items) {
      const row = byIccid.get(item.iccid);
      if (!row || !canSeeTenant(actor, row)) {
        out.push(failure(item.seq, ErrorCode.BatchCardNotFound));
        continue;
      }
      const unfit = op.labelOp === 'remove' ? undefined : op.labelIds.find((id) => !labelFitsCard(run.labels.get(id)!, row));
      if (unfit !== undefined) {
        out.push(failure(item.seq, ErrorCode.BatchLabelUnknown, { ids: String(unfit) }));
        continue;
      }
      if (nextLabels(row.labelIds, op).length > batch.BATCH_LABELS_MAX) {
        out.push(failure(item.seq, ErrorCode.BatchLabelsTooMany, { max: batch.BATCH_LABELS_MAX }));
        continue;
      }
      change.push(item.iccid);
      out.push({ seq: item.seq, status: BatchItemStatus.Succeeded, zh: null, en: null });
    }
    if (change.length) {
      await tx.execute(sql`update cards set label_ids = ${labelsSql(op)}, updated_at = now() where iccid = any(${sql.param(change)}::text[])`);
      await audit(tx, run.who.ctx, {
        entity: 'cardLabels', entityId: run.batchId, custId: actor.custId, rootCustId: actor.rootCustId,
        after: { batchId: run.batchId, labelOp: op.labelOp, labelIds: op.labelIds, iccids: change },
      });
    }
    return out;
  }

  /** The batch's run counts from its items (and a heartbeat for the sweep). */
  private async refreshCounts(batchId: string): Promise<void> {
    await this.deps.db.execute(sql`
      update card_batches b set succeeded_count = c.s, failed_count = c.f, processed_count = c.s + c.f, heartbeat_at = now()
      from (select count(*) filter (where status = ${BatchItemStatus.Succeeded})::int s, count(*) filter (where status = ${BatchItemStatus.Failed})::int f
            from card_batch_items where batch_id = ${batchId}::uuid) c
      where b.batch_id = ${batchId}::uuid and b.state = ${BatchState.Running}`);
  }

  /**
   * Running → done once no item is pending (another worker may still hold the last chunk: then it finishes it), with its
   * batch.finished webhook event in the same transaction: only the worker that makes the change writes it.
   */
  private async finish(batchId: string): Promise<void> {
    await this.refreshCounts(batchId);
    await this.deps.db.transaction(async (tx) => {
      const done = await tx.execute(sql`
        update card_batches set state = ${BatchState.Done}, finished_at = now()
        where batch_id = ${batchId}::uuid and state = ${BatchState.Running}
          and not exists (select 1 from card_batch_items where batch_id = ${batchId}::uuid and status = ${BatchItemStatus.Pending})
        returning ${BATCH_EVENT_COLUMNS}`);
      await enqueueBatchFinished(tx, rowsOf<BatchEventRow>(done));
    });
  }

  private async failPending(batchId: string, code: ErrorCode): Promise<void> {
    await this.deps.db.execute(sql`
      update card_batch_items set status = ${BatchItemStatus.Failed}, error_zh = ${errorMessage(code, 'zh')}, error_en = ${errorMessage(code, 'en')}, done_at = now()
      where batch_id = ${batchId}::uuid and status = ${BatchItemStatus.Pending}`);
  }

  /**
   * Every minute: a running batch nobody works on (its job was lost with a crashed process) is queued again;
   * batches validated but not confirmed within a day are cancelled; the items of batches cancelled a week ago
   * are dropped (the batch row keeps its counts).
   */
  async sweep(): Promise<void> {
    const db = this.deps.db;
    const stale = await db
      .update(cardBatches)
      .set({ heartbeatAt: new Date() })
      .where(and(eq(cardBatches.state, BatchState.Running), sql`(${cardBatches.heartbeatAt} is null or ${cardBatches.heartbeatAt} < now() - make_interval(secs => ${STALE_SECONDS}))`))
      .returning({ batchId: cardBatches.batchId });
    for (const s of stale) await this.enqueue(s.batchId);
    await db.transaction(async (tx) => {
      const cancelled = await tx.execute(sql`
        update card_batches set state = ${BatchState.Cancelled}, cancelled_at = now()
        where state = ${BatchState.Validated} and created_at < now() - interval '1 day'
        returning ${BATCH_EVENT_COLUMNS}`);
      await enqueueBatchFinished(tx, rowsOf<BatchEventRow>(cancelled));
    });
    await db.execute(sql`
      delete from card_batch_items where batch_id in (
        select b.batch_id from card_batches b
        where b.state = ${BatchState.Cancelled} and b.cancelled_at < now() - interval '7 days'
          and exists (select 1 from card_batch_items i where i.batch_id = b.batch_id)
        limit 20)`);
  }
}
