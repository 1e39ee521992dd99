// The batch.finished webhook event (docs/webhooks.md "Producers"): written in the transaction that moves a batch to its
// final state (done by the runner, cancelled by hand or by the sweep), to the customer the batch was made in.
import { sql } from 'drizzle-orm';
import { WebhookEventType } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { enqueueEvents } from '../../delivery/webhook/outbox.ts';

export const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

/** What the event needs of a card_batches row (`returning ${BATCH_EVENT_COLUMNS}` of the statement that ends it). */
export interface BatchEventRow {
  batch_id: string;
  type: number;
  state: number;
  cust_id: number | null;
  total_count: number;
  succeeded_count: number;
  failed_count: number;
  created_by: string;
  finished_at: Date | string | null;
  cancelled_at: Date | string | null;
}

export const BATCH_EVENT_COLUMNS = sql.raw('batch_id, type, state, cust_id, total_count, succeeded_count, failed_count, created_by, finished_at, cancelled_at');

/** Enqueues one batch.finished event per batch that just reached its final state (one outbox call). */
export async function enqueueBatchFinished(tx: Executor, rows: BatchEventRow[]): Promise<void> {
  const events = rows.filter((b) => b.cust_id != null).map((b) => {
    const at = new Date(b.finished_at ?? b.cancelled_at ?? Date.now());
    const custId = Number(b.cust_id);
    return {
      custId, type: WebhookEventType.BatchFinished, at,
      payload: {
        batchId: String(b.batch_id), batchType: Number(b.type), state: Number(b.state), custId, totalCount: Number(b.total_count),
        succeededCount: Number(b.succeeded_count), failedCount: Number(b.failed_count), createdBy: String(b.created_by), finishedAt: at.toISOString(),
      },
    };
  });
  if (events.length > 0) await enqueueEvents(tx, events);
}
