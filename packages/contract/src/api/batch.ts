import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Page, PageParams, Nullable, ExportTaskCreated, MoneyText } from './endpoint.ts';
import { defineEnum } from '../enums/define.ts';
import { CardListFilters, CARD_STATE_ACTIONS, CARD_CHANGE_REASON_MAX } from './carddata.ts';

/*
 * Batch operations on cards (issue 5, spec §2 Card / Shortcuts, §9): status change, plan change, zone
 * block / permit, labels, data recovery and standard-card operations for up to 10,000 cards (1,000 per data
 * recovery run). A batch is validated first (nothing changes: every card is classified valid / invalid /
 * already in the target state), then confirmed into a durable job with progress and a per-card result.
 * Four screens share these calls: /card/batchoperate (every type), /shortcuts/batchoperate (status change),
 * /shortcuts/standardsim (standard cards) and /shortcuts/data-recovery.
 */

const tag = 'batch';

export const BatchPerm = {
  /** Card › Batch operations page */
  CardBatch: 2030000,
  /** its button: batch zone change */
  ZoneChange: 2030001,
  /** its button: batch order (plan change) */
  BatchOrder: 2030002,
  /** Shortcuts › Data recovery */
  DataRecovery: 6060000,
  /** Shortcuts › Standard cards operation */
  StandardSim: 6070000,
  /** Card › Pools page, and its button that moves cards in and out of pools */
  Pools: 2060000,
  PoolManage: 2060001,
  /** Shortcuts › Batch change status */
  BatchStatus: 6080000,
  /** its button: batch SMS (issue 15, docs/sms.md) */
  BatchSms: 2030003,
} as const;
const P = BatchPerm;
const ANY = [P.CardBatch, P.DataRecovery, P.StandardSim, P.BatchStatus, P.Pools];

export const BatchType = defineEnum({
  StatusChange: { value: 1, zh: '变更状态', en: 'Status change' },
  PlanChange: { value: 2, zh: '变更套餐', en: 'Plan change' },
  Zone: { value: 3, zh: '区域限制/放开', en: 'Zone block / permit' },
  Labels: { value: 4, zh: '标签', en: 'Labels' },
  DataRecovery: { value: 5, zh: '数据恢复', en: 'Data recovery' },
  StandardCard: { value: 6, zh: '标准卡操作', en: 'Standard-card operation' },
  PoolJoin: { value: 7, zh: '加入流量池', en: 'Join pool' },
  PoolLeave: { value: 8, zh: '移出流量池', en: 'Leave pool' },
  Sms: { value: 9, zh: '批量短信', en: 'Batch SMS' },
  // batches of other modules run by the same engine (docs/batch.md "Batches of other modules"); created on their own
  // screens, listed on the card batch screen too for whoever may see them
  StockIn: { value: 20, zh: '库存入库', en: 'Stock in' },
  StockMatch: { value: 21, zh: '库存配卡', en: 'Stock match' },
  StockOut: { value: 22, zh: '库存出库', en: 'Stock out' },
  StockScrap: { value: 23, zh: '库存报废', en: 'Stock scrap' },
  EuiccDownload: { value: 30, zh: 'eUICC 下载', en: 'eUICC download' },
  EuiccEnable: { value: 31, zh: 'eUICC 启用', en: 'eUICC enable' },
  EuiccDisable: { value: 32, zh: 'eUICC 停用', en: 'eUICC disable' },
  EuiccDelete: { value: 33, zh: 'eUICC 删除', en: 'eUICC delete' },
});
/** The pool change types (the pool change screens list these; pool.ts). */
export const POOL_BATCH_TYPES: readonly number[] = [7, 8];
/** the highest type created through the card batch screens (validateBatch) */
export const BATCH_TYPE_MAX = 9;
/** types created by other modules' screens (stock operations, eUICC profile changes); the engine runs them alike */
export const MODULE_BATCH_TYPES: readonly number[] = [20, 21, 22, 23, 30, 31, 32, 33];
/** the highest type a batch list may filter by */
export const BATCH_TYPE_LIST_MAX = 33;
export type BatchTypeValue = (typeof BatchType.values)[number];

/** Which permission codes allow which batch type (any one is enough); checked by the server on every call. */
export const BATCH_TYPE_PERMS: Readonly<Record<number, readonly number[]>> = {
  [BatchType.StatusChange]: [P.CardBatch, P.BatchStatus],
  [BatchType.PlanChange]: [P.BatchOrder],
  [BatchType.Zone]: [P.ZoneChange],
  [BatchType.Labels]: [P.CardBatch],
  [BatchType.DataRecovery]: [P.CardBatch, P.DataRecovery],
  [BatchType.StandardCard]: [P.CardBatch, P.StandardSim],
  [BatchType.PoolJoin]: [P.PoolManage],
  [BatchType.PoolLeave]: [P.PoolManage],
  [BatchType.Sms]: [P.BatchSms],
  // Stock › Stock operations (staff only, checked again by the stock module) and Card › eUICC changes
  [BatchType.StockIn]: [11030000],
  [BatchType.StockMatch]: [11030000],
  [BatchType.StockOut]: [11030000],
  [BatchType.StockScrap]: [11030000],
  [BatchType.EuiccDownload]: [2040001],
  [BatchType.EuiccEnable]: [2040001],
  [BatchType.EuiccDisable]: [2040001],
  [BatchType.EuiccDelete]: [2040001],
};

export const BatchSource = defineEnum({
  Selection: { value: 1, zh: '卡列表勾选', en: 'Card list selection' },
  File: { value: 2, zh: '上传文件', en: 'Uploaded file' },
  Filter: { value: 3, zh: '卡列表筛选条件', en: 'Card list filter' },
  Pasted: { value: 4, zh: '粘贴 ICCID', en: 'Pasted ICCIDs' },
});

export const BatchState = defineEnum({
  Validated: { value: 1, zh: '待确认', en: 'Validated' },
  Running: { value: 2, zh: '执行中', en: 'Running' },
  Done: { value: 3, zh: '已完成', en: 'Done' },
  Cancelled: { value: 4, zh: '已取消', en: 'Cancelled' },
});

export const BatchVerdict = defineEnum({
  Valid: { value: 1, zh: '可执行', en: 'Valid' },
  Invalid: { value: 2, zh: '无效', en: 'Invalid' },
  Already: { value: 3, zh: '已处于目标状态', en: 'Already in state' },
});

export const BatchItemStatus = defineEnum({
  Pending: { value: 1, zh: '待执行', en: 'Pending' },
  Succeeded: { value: 2, zh: '成功', en: 'Succeeded' },
  Failed: { value: 3, zh: '失败', en: 'Failed' },
  Skipped: { value: 4, zh: '未执行', en: 'Skipped' },
});

/** Spec §9: 10,000 cards per batch (and per selection), 1,000 per data restoration run. */
export const BATCH_MAX_CARDS = 10_000;
export const DATA_RECOVERY_MAX_CARDS = 1_000;
export const batchMaxOf = (type: number) => (type === BatchType.DataRecovery ? DATA_RECOVERY_MAX_CARDS : BATCH_MAX_CARDS);
/** A request may carry more ICCIDs than a batch takes, so that "too many" is answered with the spec's message. */
export const BATCH_REQUEST_MAX_ICCIDS = 20_000;
export const BATCH_FILE_MAX_BYTES = 5 * 1024 * 1024;
export const BATCH_FILE_FIELD = 'file';
export const BATCH_LABELS_MAX = 20;

export const ZONE_OPS = ['block', 'permit'] as const;
/** Zone targets a batch can name: a zone of the card's plan, or a network type (NetworkType). */
export const ZONE_TARGET_KINDS = ['zone', 'network'] as const;
export const LABEL_OPS = ['add', 'remove', 'replace'] as const;

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** The operation of a batch; which fields are needed depends on `type` (the server names a missing one). */
export const BatchParams = Obj({
  type: Type.Integer({ minimum: 1, maximum: BATCH_TYPE_MAX }),
  /** pool join / leave: the pool */
  poolId: Type.Optional(Type.Integer({ minimum: 1 })),
  /** status change and standard-card operation: the lifecycle action */
  action: Type.Optional(lit(CARD_STATE_ACTIONS)),
  /** plan change: the basic plan release to change to */
  goodsReleaseId: Type.Optional(Type.Integer({ minimum: 1 })),
  /** zone block / permit */
  zoneOp: Type.Optional(lit(ZONE_OPS)),
  targetKind: Type.Optional(lit(ZONE_TARGET_KINDS)),
  targetId: Type.Optional(Type.Integer({ minimum: 1 })),
  /** labels */
  labelOp: Type.Optional(lit(LABEL_OPS)),
  labelIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: BATCH_LABELS_MAX })),
  /** written to each card's history */
  reason: Type.Optional(Type.String({ maxLength: CARD_CHANGE_REASON_MAX })),
  /** batch SMS: the message (one part: 160 GSM 7-bit characters or 70 others; sms.smsLength) */
  content: Type.Optional(Type.String({ maxLength: 160 })),
});

export const BatchSummary = Type.Object({
  batchId: Type.String(),
  type: Type.Integer(),
  params: Type.Object({
    action: Type.Optional(Type.String()),
    goodsReleaseId: Type.Optional(Type.Integer()),
    planName: Type.Optional(Type.String()),
    zoneOp: Type.Optional(Type.String()),
    targetKind: Type.Optional(Type.String()),
    targetId: Type.Optional(Type.Integer()),
    targetName: Type.Optional(Type.String()),
    labelOp: Type.Optional(Type.String()),
    labelIds: Type.Optional(Type.Array(Type.Integer())),
    labelNames: Type.Optional(Type.Array(Type.String())),
    reason: Type.Optional(Type.String()),
    poolId: Type.Optional(Type.Integer()),
    poolName: Type.Optional(Type.String()),
    content: Type.Optional(Type.String()),
  }),
  source: Type.Integer(),
  /** the uploaded file's name, when the cards came from a file */
  fileName: Nullable(Type.String()),
  state: Type.Integer(),
  createdBy: Type.String(),
  totalCount: Type.Integer(),
  validCount: Type.Integer(),
  invalidCount: Type.Integer(),
  alreadyCount: Type.Integer(),
  duplicateCount: Type.Integer(),
  succeededCount: Type.Integer(),
  failedCount: Type.Integer(),
  processedCount: Type.Integer(),
  createdAt: Type.String(),
  confirmedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  cancelledAt: Nullable(Type.String()),
});

export const BatchItem = Type.Object({
  seq: Type.Integer(),
  iccid: Type.String(),
  verdict: Type.Integer(),
  /** why the card is invalid or already in the target state (caller's language) */
  reason: Nullable(Type.String()),
  status: Type.Integer(),
  /** why the card's change failed while the batch ran (caller's language) */
  error: Nullable(Type.String()),
  doneAt: Nullable(Type.String()),
});

const BatchId = Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' });
const DateOnly = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
const IccidText = Type.String({ maxLength: 40 });

export const validateBatch = endpoint({
  name: 'core/sim/batchOperate/validate', method: 'POST', auth: 'session', perm: ANY, kind: 'mutation', tag,
  summary: {
    zh: '校验批量操作：按卡列表勾选、粘贴的 ICCID 或卡列表筛选条件选卡，逐卡检查（不改变任何卡），返回可执行 / 无效 / 已处于目标状态的数量；每批最多 10000 张（数据恢复 1000 张）',
    en: 'Validate a batch operation: cards from a card list selection, pasted ICCIDs or the card list filters are each checked (nothing changes); answers the valid / invalid / already-in-state counts. At most 10,000 cards per batch (1,000 for data recovery)',
  },
  body: Obj({
    params: BatchParams,
    /** 'selection' (ticked on the card list) or 'paste' (typed or pasted ICCIDs): the ICCIDs; 'filter': the card list filters */
    sourceKind: lit(['selection', 'paste', 'filter'] as const),
    iccids: Type.Optional(Type.Array(IccidText, { maxItems: BATCH_REQUEST_MAX_ICCIDS })),
    filters: Type.Optional(Obj(CardListFilters)),
  }),
  response: BatchSummary,
});

export const validateBatchFile = endpoint({
  name: 'core/sim/batchOperate/validateFile', method: 'POST', auth: 'session', perm: ANY, kind: 'mutation', tag,
  multipart: { file: BATCH_FILE_FIELD, maxBytes: BATCH_FILE_MAX_BYTES },
  summary: {
    zh: '校验批量操作（上传文件）：字段 file 为 xlsx 或 csv（ICCID 列），字段 params 为操作参数（JSON）',
    en: 'Validate a batch operation from a file: field file is an xlsx or csv with an ICCID column, field params the operation (JSON)',
  },
  // the operation as JSON text (BatchParams), parsed and checked by the batch service
  body: Obj({ params: Type.Optional(Type.String({ maxLength: 10_000 })) }),
  response: BatchSummary,
});

export const downloadBatchTemplate = endpoint({
  name: 'core/sim/batchOperate/template', method: 'GET', auth: 'session', perm: ANY, kind: 'query', tag, raw: true,
  summary: { zh: '下载批量操作模板（ICCID 列，xlsx 或 csv）', en: 'Download the batch template (ICCID column, xlsx or csv)' },
  body: Obj({
    format: Type.Optional(lit(['xlsx', 'csv'] as const)),
    templateLang: Type.Optional(lit(['zh', 'en'] as const)),
  }),
  response: Type.Null(),
});

export const confirmBatch = endpoint({
  name: 'core/sim/batchOperate/process', method: 'POST', auth: 'session', perm: ANY, kind: 'mutation', tag,
  summary: {
    zh: '确认执行已校验的批次：创建持久化任务，逐卡执行并记录结果；重启后从中断处继续，不会重复处理任何卡',
    en: 'Confirm a validated batch: a durable job changes the cards one by one and records each result; after a restart it continues where it stopped and never repeats a card',
  },
  body: Obj({ batchId: BatchId }),
  response: BatchSummary,
});

export const cancelBatch = endpoint({
  name: 'core/sim/batchOperate/cancel', method: 'POST', auth: 'session', perm: ANY, kind: 'mutation', tag,
  summary: { zh: '取消未确认的批次', en: 'Cancel a batch that has not been confirmed' },
  body: Obj({ batchId: BatchId }),
  response: BatchSummary,
});

export const getBatchPage = endpoint({
  name: 'core/sim/batchOperate/getBatchListPage', method: 'POST', auth: 'session', perm: ANY, kind: 'query', tag,
  summary: { zh: '批量操作记录（仅本租户，按权限可见的类型）', en: 'Batch operations (own tenant only, the types the caller may run)' },
  body: Obj({
    ...PageParams,
    types: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: BATCH_TYPE_LIST_MAX }), { maxItems: BATCH_TYPE_LIST_MAX })),
    /** pool changes: the batches of one pool */
    poolId: Type.Optional(Type.Integer({ minimum: 1 })),
    state: Type.Optional(Type.Integer()),
    source: Type.Optional(Type.Integer()),
    createdBy: Type.Optional(Type.String({ maxLength: 64 })),
    createdFrom: Type.Optional(DateOnly),
    createdTo: Type.Optional(DateOnly),
  }),
  response: Page(BatchSummary),
});

export const getBatchDetail = endpoint({
  name: 'core/sim/batchOperate/getBatchDetail', method: 'POST', auth: 'session', perm: ANY, kind: 'query', tag,
  summary: { zh: '批次详情与进度', en: 'A batch with its progress' },
  body: Obj({ batchId: BatchId }),
  response: BatchSummary,
});

/** The lifecycle action that deactivates a card (state 65): the one batch action that starts a downtime maintenance fee. */
export const DEACTIVATE_ACTION = 'deactivate';
/** A batch deactivates its cards: a status change or a standard-card operation with the deactivate action. */
export const isDeactivation = (b: { type: number; params: { action?: string } }) =>
  (b.type === BatchType.StatusChange || b.type === BatchType.StandardCard) && b.params.action === DEACTIVATE_ACTION;

/** One plan among the cards a deactivation batch takes down: what their downtime costs (rating's rule, docs/billing.md). */
export const BatchDowntimeFeePlan = Type.Object({
  /** null: cards without a plan (nothing to charge) */
  goodsReleaseId: Nullable(Type.Integer()),
  planName: Nullable(Type.String()),
  cards: Type.Integer(),
  /** the plan's own downtime maintenance fee per card and month ('0.00': free) */
  downtimeFee: MoneyText,
  /** months of each deactivation that are free */
  freeMonths: Type.Integer(),
  /** cards × fee: charged for each later month the cards stay deactivated */
  monthlyTotal: MoneyText,
});

export const getBatchShutDownFee = endpoint({
  name: 'core/sim/batchOperate/shutDownFee', method: 'POST', auth: 'session', perm: ANY, kind: 'query', tag,
  summary: {
    zh: '停机保号费：停机批次中可执行（未执行失败）的卡按套餐汇总——卡数、每月停机保号费、免费月数、免费期后每月合计；停机期间按月收取，自停机时刻起算，前 N 个月免费，计入该月开始所在账期的账单。其他操作的批次 applies 为 false、列表为空',
    en: 'Downtime ("shut down") fee of a deactivation batch: its valid cards (not failed) per plan — cards, monthly downtime fee, free months and the monthly total after the free months; charged per month while deactivated, counted from the deactivation, after the plan\'s free months, on the bill of the period the month starts in. For other operations applies is false and the list empty',
  },
  body: Obj({ batchId: BatchId }),
  response: Type.Object({
    /** false: the batch does not deactivate cards (no fee, empty list) */
    applies: Type.Boolean(),
    list: Type.Array(BatchDowntimeFeePlan),
    cards: Type.Integer(),
    /** the sum of the plans' monthly totals */
    monthlyTotal: MoneyText,
  }),
});

const ItemFilters = {
  batchId: BatchId,
  verdict: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  iccid: Type.Optional(Type.String({ maxLength: 20, pattern: '^[0-9]*$' })),
};

export const getBatchItemPage = endpoint({
  name: 'core/sim/batchOperate/getItemPage', method: 'POST', auth: 'session', perm: ANY, kind: 'query', tag,
  summary: {
    zh: '批次的逐卡结果：按校验结论（无效等）或执行结果（成功 / 失败）筛选',
    en: 'Per-card results of a batch, by verdict (e.g. invalid) or by outcome (succeeded / failed)',
  },
  body: Obj({ ...PageParams, ...ItemFilters }),
  response: Page(BatchItem),
});

export const exportBatchItems = endpoint({
  name: 'core/sim/batchOperate/exportItems', method: 'POST', auth: 'session', perm: ANY, kind: 'mutation', tag,
  summary: { zh: '导出批次的逐卡结果（下载任务）', en: 'Export the per-card results of a batch (download task)' },
  body: Obj({ ...ItemFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});
