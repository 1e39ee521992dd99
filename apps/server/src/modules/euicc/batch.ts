// Profile state changes as batches of the card batch engine (issue 16, docs/euicc.md "Batches"). The check stores the
// verdicts as a validated batch (types 30-33, one item per profile); confirming it queues the engine's durable job,
// which claims the items in chunks (FOR UPDATE SKIP LOCKED) and calls `apply` below inside the chunk's transaction:
// each profile is read again under its row lock and, when the action is still allowed, the operation is placed on it
// (op_id, op_action, the in-flight state) set-based; the engine writes the items' outcomes in the same transaction, so
// a restart redoes only the open chunks and no profile gets a second operation. After the last chunk `after` wakes the
// dispatcher (euicc-dispatch) that sends the placed operations to the SM-DP+.
import { sql } from 'drizzle-orm';
import { ErrorCode, EuiccAction, EuiccEvent, EuiccProfileState as S, EUICC_TRANSITIONS, batch, errorMessage, euiccNext, type EuiccEventValue } from '@lynx/contract';
import type { Tx } from '../../db/client.ts';
import { audit } from '../../platform/audit.ts';
import { tenantFilter } from '../../platform/context.ts';
import { rowsOf } from '../delivery/webhook/rows.ts';
import { registerBatchHandler, type BatchOutcome } from '../card/batch/handlers.ts';
import { ACTIONS, type EuiccEngine } from './engine.ts';

const { BatchType, BatchItemStatus } = batch;

/** The batch type of each action and back. */
export const BATCH_TYPE_OF: Record<number, number> = {
  [EuiccAction.Download]: BatchType.EuiccDownload,
  [EuiccAction.Enable]: BatchType.EuiccEnable,
  [EuiccAction.Disable]: BatchType.EuiccDisable,
  [EuiccAction.Delete]: BatchType.EuiccDelete,
};
export const ACTION_OF: Record<number, EuiccEventValue> = Object.fromEntries(
  Object.entries(BATCH_TYPE_OF).map(([action, type]) => [type, Number(action) as EuiccEventValue]),
);
export const EUICC_BATCH_TYPES = Object.values(BATCH_TYPE_OF);
/** profiles per chunk transaction (the dispatcher sends 500 per chunk too) */
const CHUNK = 500;

/** The state an action ends in when the SM-DP+ says ok: a profile already there has nothing to do ("already"). */
export const doneStateOf = (event: EuiccEventValue) => EUICC_TRANSITIONS[ACTIONS[event].ok].to;

/** The state a profile shows while the action is in flight (delete has none: the profile keeps its state). */
export const pendingStateOf = (event: EuiccEventValue) => (event === EuiccEvent.Delete ? null : EUICC_TRANSITIONS[event].to);

/** Why a profile cannot take the action now (null: it can), in both languages. */
export function refusalOf(iccid: string, r: { state: number; op_id: string | null } | undefined, event: EuiccEventValue): { code: ErrorCode; params: Record<string, string | number> } | null {
  if (!r) return { code: ErrorCode.EuiccProfileNotFound, params: { iccid } };
  if (r.op_id) return { code: ErrorCode.EuiccOperationPending, params: { iccid } };
  if (euiccNext(Number(r.state), event) == null) {
    return {
      code: ErrorCode.EuiccTransitionRefused,
      params: {
        iccid, stateZh: S.label(Number(r.state), 'zh'), stateEn: S.label(Number(r.state), 'en'),
        actionZh: EuiccEvent.label(event, 'zh'), actionEn: EuiccEvent.label(event, 'en').toLowerCase(),
      },
    };
  }
  return null;
}

/**
 * Registers the handler of types 30-33. `engine` gives the answer time (the deadline of a placed, unsent operation is
 * twice it) and the dispatcher to wake; the last app to register wins (one app per process outside tests).
 */
export function registerEuiccBatches(engine: EuiccEngine): void {
  registerBatchHandler(EUICC_BATCH_TYPES, {
    chunk: CHUNK,
    async apply(tx: Tx, ctx, run, items) {
      const event = ACTION_OF[run.type];
      const iccids = items.map((i) => i.iccid);
      const actor = ctx.actor;
      // under the row lock, within the creator's tenant: the profile may have changed since the check
      const rows = rowsOf<{ iccid: string; state: number; op_id: string | null }>(await tx.execute(sql`
        select p.iccid, p.state, p.op_id from euicc_profiles p
        where p.iccid = any(${sql.param(iccids)}::text[]) and ${tenantFilter(actor, { custId: sql`p.cust_id`, rootCustId: sql`p.root_cust_id` })}
        for update`));
      const byIccid = new Map(rows.map((r) => [r.iccid, r]));
      const out: BatchOutcome[] = [];
      const place: string[] = [];
      for (const item of items) {
        const refusal = refusalOf(item.iccid, byIccid.get(item.iccid), event);
        if (refusal) {
          out.push({ seq: item.seq, status: BatchItemStatus.Failed, zh: errorMessage(refusal.code, 'zh', refusal.params), en: errorMessage(refusal.code, 'en', refusal.params) });
        } else {
          place.push(item.iccid);
          out.push({ seq: item.seq, status: BatchItemStatus.Succeeded, zh: null, en: null });
        }
      }
      if (place.length) {
        const pending = pendingStateOf(event);
        // until the dispatcher sends it the operation has twice the answer time, so an operation no worker ever sends ends too
        await tx.execute(sql`
          update euicc_profiles set op_id = gen_random_uuid(), op_action = ${event}, op_sent = false,
            op_deadline = now() + make_interval(secs => ${engine.timeoutSeconds * 2}),
            state = ${pending ?? sql`state`}, reason_zh = null, reason_en = null, state_at = now()
          where iccid = any(${sql.param(place)}::text[])`);
        await audit(tx, ctx, {
          entity: 'euiccProfileState', entityId: place.length === 1 ? place[0] : run.batchId,
          after: { action: event, batchId: run.batchId, iccids: place },
        });
      }
      return out;
    },
    async after() {
      // send now in this process (the placed operations' deadline runs), and queue a dispatch for a dispatcher that
      // was busy finishing its last chunk when these were placed
      void engine.dispatch().catch(() => {});
      await engine.kick();
    },
  });
}
