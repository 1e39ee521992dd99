import type { TFunction } from 'i18next';
import { batch, type ResponseOf } from '@lynx/contract';

const { BatchType, BatchState, BatchItemStatus, BatchVerdict } = batch;

export type BatchSummary = ResponseOf<typeof batch.getBatchDetail>;
export type BatchItemRow = ResponseOf<typeof batch.getBatchItemPage>['list'][number];

/** The four batch screens share one list, one detail and one new-batch flow; a scope says which types they show. */
export type BatchScope = 'card' | 'status' | 'standard' | 'recovery';

export const SCOPES: Record<BatchScope, { types: readonly number[]; base: string; perm: number; max: number }> = {
  card: { types: BatchType.values, base: '/card/batchoperate', perm: batch.BatchPerm.CardBatch, max: batch.BATCH_MAX_CARDS },
  status: { types: [BatchType.StatusChange], base: '/shortcuts/batchoperate', perm: batch.BatchPerm.BatchStatus, max: batch.BATCH_MAX_CARDS },
  standard: { types: [BatchType.StandardCard], base: '/shortcuts/standardsim', perm: batch.BatchPerm.StandardSim, max: batch.BATCH_MAX_CARDS },
  recovery: { types: [BatchType.DataRecovery], base: '/shortcuts/data-recovery', perm: batch.BatchPerm.DataRecovery, max: batch.DATA_RECOVERY_MAX_CARDS },
};

/** The item filters of the detail route's :state segment. */
export const ITEM_TABS = ['all', 'succeeded', 'failed', 'invalid', 'already', 'pending'] as const;
export type ItemTab = (typeof ITEM_TABS)[number];
export const tabFilter = (tab: ItemTab): { status?: number; verdict?: number } =>
  ({
    all: {},
    succeeded: { status: BatchItemStatus.Succeeded },
    failed: { status: BatchItemStatus.Failed },
    invalid: { verdict: BatchVerdict.Invalid },
    already: { verdict: BatchVerdict.Already },
    pending: { status: BatchItemStatus.Pending },
  })[tab];

export const detailPath = (scope: BatchScope, batchId: string, tab: ItemTab = 'all') => `${SCOPES[scope].base}/detail/${batchId}/${tab}`;

/** The scope a batch of this type is best shown in, for a user holding these codes. */
export function scopeFor(type: number, has: (perm: number) => boolean): BatchScope {
  if (has(batch.BatchPerm.CardBatch)) return 'card';
  if (type === BatchType.StandardCard) return 'standard';
  if (type === BatchType.DataRecovery) return 'recovery';
  return 'status';
}

/** Types of a scope the user may run (the server checks the same codes). */
export const typesFor = (scope: BatchScope, has: (perm: number) => boolean) =>
  SCOPES[scope].types.filter((t) => (batch.BATCH_TYPE_PERMS[t] ?? []).some(has));

/** ICCIDs typed or pasted: split on white space, commas and semicolons (also full-width), each once. */
export function parseIccids(text: string): string[] {
  return [...new Set(text.split(/[\s,;，；、]+/).map((s) => s.trim()).filter(Boolean))];
}

export const STATE_COLORS: Record<number, string> = {
  [BatchState.Validated]: 'gold', [BatchState.Running]: 'processing', [BatchState.Done]: 'success', [BatchState.Cancelled]: 'default',
};
export const ITEM_COLORS: Record<number, string> = {
  [BatchItemStatus.Pending]: 'processing', [BatchItemStatus.Succeeded]: 'success', [BatchItemStatus.Failed]: 'error', [BatchItemStatus.Skipped]: 'default',
};
export const VERDICT_COLORS: Record<number, string> = {
  [BatchVerdict.Valid]: 'success', [BatchVerdict.Invalid]: 'error', [BatchVerdict.Already]: 'default',
};

/** What a batch does, in words (its type is shown beside it). */
export function operationText(b: Pick<BatchSummary, 'type' | 'params'>, t: TFunction): string {
  const p = b.params;
  const O = (k: string, o?: Record<string, unknown>) => t(`batch.op.${k}`, o);
  switch (b.type) {
    case BatchType.PlanChange:
      return O('plan', { plan: p.planName ?? p.goodsReleaseId });
    case BatchType.Zone:
      return O(p.zoneOp === 'permit' ? 'zonePermit' : 'zoneBlock', { kind: O(`zoneKind.${p.targetKind ?? 'zone'}`), target: p.targetName ?? p.targetId });
    case BatchType.Labels:
      return p.labelNames?.length ? O(`labels.${p.labelOp ?? 'add'}`, { names: p.labelNames.join('、') }) : O('labels.none');
    case BatchType.DataRecovery:
      return O('recovery');
    default:
      return p.action ? t(`batch.action.${p.action}`) : '-';
  }
}
