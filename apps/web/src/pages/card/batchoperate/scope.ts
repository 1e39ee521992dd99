import type { TFunction } from 'i18next';
import { batch, moneyToFen, type ResponseOf } from '@lynx/contract';
import { stockBatchText } from '../../stock/operationList/shared.tsx';

const { BatchType, BatchState, BatchItemStatus, BatchVerdict } = batch;

export type BatchSummary = ResponseOf<typeof batch.getBatchDetail>;
export type BatchItemRow = ResponseOf<typeof batch.getBatchItemPage>['list'][number];
export type BatchDowntimeFee = ResponseOf<typeof batch.getBatchShutDownFee>;
export type DowntimeFeePlan = BatchDowntimeFee['list'][number];

/**
 * The batch screens share one list, one detail and one new-batch flow; a scope says which types they show. Pool
 * changes (join / leave a pool) have their own screens under Card › Pools, not the card batch screen.
 */
export type BatchScope = 'card' | 'status' | 'standard' | 'recovery' | 'pool';
const isPoolType = (type: number) => batch.POOL_BATCH_TYPES.includes(type);
/** types other modules create (stock operations, eUICC changes): listed on the card batch screen, not created there */
export const isModuleType = (type: number) => batch.MODULE_BATCH_TYPES.includes(type);

export const SCOPES: Record<BatchScope, { types: readonly number[]; base: string; perm: number; max: number }> = {
  card: { types: BatchType.values.filter((v) => !isPoolType(v)), base: '/card/batchoperate', perm: batch.BatchPerm.CardBatch, max: batch.BATCH_MAX_CARDS },
  status: { types: [BatchType.StatusChange], base: '/shortcuts/batchoperate', perm: batch.BatchPerm.BatchStatus, max: batch.BATCH_MAX_CARDS },
  standard: { types: [BatchType.StandardCard], base: '/shortcuts/standardsim', perm: batch.BatchPerm.StandardSim, max: batch.BATCH_MAX_CARDS },
  recovery: { types: [BatchType.DataRecovery], base: '/shortcuts/data-recovery', perm: batch.BatchPerm.DataRecovery, max: batch.DATA_RECOVERY_MAX_CARDS },
  pool: { types: batch.POOL_BATCH_TYPES, base: '/card/pool/change', perm: batch.BatchPerm.Pools, max: batch.BATCH_MAX_CARDS },
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

/** A batch's page; a pool change opens on its fail log (spec: /card/pool/change/fail-log/:batchId, the tab as ?state=). */
export const detailPath = (scope: BatchScope, batchId: string, tab: ItemTab = 'all') =>
  scope === 'pool' ? `${SCOPES.pool.base}/fail-log/${batchId}${tab === 'failed' ? '' : `?state=${tab}`}` : `${SCOPES[scope].base}/detail/${batchId}/${tab}`;

/** The scope a batch of this type is best shown in, for a user holding these codes. */
export function scopeFor(type: number, has: (perm: number) => boolean): BatchScope {
  if (isPoolType(type)) return 'pool';
  if (has(batch.BatchPerm.CardBatch)) return 'card';
  if (type === BatchType.StandardCard) return 'standard';
  if (type === BatchType.DataRecovery) return 'recovery';
  return 'status';
}

/** Types of a scope the user may start here (the server checks the same codes); other modules' types start on their screens. */
export const typesFor = (scope: BatchScope, has: (perm: number) => boolean) =>
  SCOPES[scope].types.filter((t) => !isModuleType(t) && (batch.BATCH_TYPE_PERMS[t] ?? []).some(has));

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
    case BatchType.PoolJoin:
    case BatchType.PoolLeave:
      return O(b.type === BatchType.PoolJoin ? 'poolJoin' : 'poolLeave', { pool: p.poolName ?? p.poolId ?? '-' });
    case BatchType.Sms:
      return t('sms.batchOp', { content: p.content ?? '' });
    // stock operations (issue 16): run by this engine, opened on the stock operations screen
    case BatchType.StockIn:
    case BatchType.StockMatch:
    case BatchType.StockOut:
    case BatchType.StockScrap:
      return stockBatchText(b.type, p, t);
    // eUICC profile changes (issue 16): run by this engine, started on the eUICC list
    case BatchType.EuiccDownload:
    case BatchType.EuiccEnable:
    case BatchType.EuiccDisable:
    case BatchType.EuiccDelete:
      return t(`euicc.batchOp.${b.type}`);
    default:
      return p.action ? t(`batch.action.${p.action}`) : '-';
  }
}

/** A plan charges a downtime fee (compared exactly, never as a float). */
export const chargesDowntime = (p: Pick<DowntimeFeePlan, 'downtimeFee'>) => (moneyToFen(p.downtimeFee) ?? 0n) > 0n;

/**
 * Which wording of the downtime rule fits the plans that charge: none charges (the empty state), they all give the
 * same free months (said as a number; one month and none have their own sentence), or their free months differ.
 */
export function downtimeRule(list: readonly DowntimeFeePlan[]): { key: 'none' | 'rule' | 'ruleOne' | 'ruleNoFree' | 'ruleMixed'; n: number } {
  const months = new Set(list.filter(chargesDowntime).map((p) => p.freeMonths));
  if (!months.size) return { key: 'none', n: 0 };
  if (months.size > 1) return { key: 'ruleMixed', n: 0 };
  const [n] = months;
  return { key: n === 0 ? 'ruleNoFree' : n === 1 ? 'ruleOne' : 'rule', n };
}
