import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Page, PageParams, SortParams, Nullable, ExportTaskCreated } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { HomeCardFilters } from './home.ts';

/*
 * Card data (issue 5): the card list with its search, and card file imports (simEnter). The card list is
 * tenant-scoped (staff all, a channel customer its tree, a second-level customer itself); imports are kept
 * by operator staff: customers are refused on the server.
 */

const tag = 'card';

export const CardDataPerm = {
  CardList: Perm.CardList,
  ImportInfo: 2070000,
  /** card list button: change status */
  ChangeStatus: 2010005,
  /** diagnosis page button: change status (the same endpoint, reached from /shortcuts/diagnose) */
  DiagnoseChangeStatus: 6050002,
} as const;
const P = CardDataPerm;

/** Largest file and number of cards one import takes. */
export const CARD_IMPORT_MAX_ROWS = 100_000;
export const CARD_IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const CARD_IMPORT_FILE_FIELD = 'file';
/** characters of an import's remark */
export const CARD_IMPORT_REMARK_MAX = 100;

/** Columns of the card import file, in template order; headers are accepted in either language. */
export const CARD_IMPORT_COLUMNS = [
  { key: 'iccid', zh: 'ICCID', en: 'ICCID', required: true, example: '89860123456789012345' },
  { key: 'msisdn', zh: 'MSISDN', en: 'MSISDN', required: true, example: '1064912345678' },
  { key: 'imsi', zh: 'IMSI', en: 'IMSI', required: true, example: '460011234567890' },
  { key: 'operator', zh: '运营商', en: 'Operator', required: true, example: '中国联通' },
  /** a card type name (/card/cardtype/list) in either language; optional */
  { key: 'cardType', zh: '卡类型', en: 'Card type', required: false, example: '' },
  { key: 'batchNo', zh: '批次/备注', en: 'Batch / remark', required: false, example: 'CU-2026-11-A' },
] as const;
export type CardImportColumn = (typeof CARD_IMPORT_COLUMNS)[number]['key'];

/** Digits only: ICCID 19-20 digits, IMSI 15 digits, MSISDN 5-15 digits (IoT numbers are 11-13). */
export const ICCID_RE = /^\d{19,20}$/;
export const IMSI_RE = /^\d{15}$/;
export const MSISDN_RE = /^\d{5,15}$/;

const DateOnly = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
const BatchId = Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' });
const Digits = (max: number) => Type.String({ maxLength: max, pattern: '^[0-9]*$' });
const CustomMatch = Type.Union([Type.Literal('exact'), Type.Literal('prefix'), Type.Literal('contains')]);
/** How a number filter (ICCID, MSISDN, IMSI) matches; "contains" needs at least CARD_FRAGMENT_MIN (search.ts) digits. */
export const NUMBER_MATCHES = ['exact', 'prefix', 'contains'] as const;
export type NumberMatchMode = (typeof NUMBER_MATCHES)[number];
const NumberMatch = Type.Union(NUMBER_MATCHES.map((m) => Type.Literal(m)));

// ---------------------------------------------------------------------------------------------------
// Card list
// ---------------------------------------------------------------------------------------------------

export const CardRow = Type.Object({
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  imsi: Nullable(Type.String()),
  imei: Nullable(Type.String()),
  state: Type.Integer(),
  operatorId: Type.Integer(),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  goodsReleaseId: Nullable(Type.Integer()),
  planName: Nullable(Type.String()),
  batchId: Nullable(Type.String()),
  batchNo: Nullable(Type.String()),
  labelIds: Type.Array(Type.Integer()),
  /** the labels of labelIds the caller may see (platform labels and its own tenant's) */
  labels: Type.Array(Type.Object({ labelId: Type.Integer(), name: Type.String(), colour: Type.String() })),
  cardTypeId: Nullable(Type.Integer()),
  /** the data pool the card is in (pool.ts) */
  poolId: Nullable(Type.Integer()),
  poolName: Nullable(Type.String()),
  cardTypeNameZh: Nullable(Type.String()),
  cardTypeNameEn: Nullable(Type.String()),
  custom1: Nullable(Type.String()),
  custom2: Nullable(Type.String()),
  online: Type.Boolean(),
  euicc: Type.Boolean(),
  lastSessionAt: Nullable(Type.String()),
  activatedAt: Nullable(Type.String()),
  firstUsedAt: Nullable(Type.String()),
  createdAt: Type.String(),
  /**
   * This cycle's data (the card's contract cycle, else its operator's billing period; docs/cards.md "Cycle usage"):
   * used in KB, the quota in KB (the plan's plus the event packs running now; null without a quota) and the share of
   * the quota used in % (null without a quota); the cycle's first and last China day
   */
  cycleUsedKb: Type.Number({ minimum: 0 }),
  cycleQuotaKb: Nullable(Type.Number({ minimum: 0 })),
  cycleUsedPercent: Nullable(Type.Number({ minimum: 0 })),
  cycleFrom: Nullable(Type.String()),
  cycleTo: Nullable(Type.String()),
});

/**
 * The card list's sort fields (sortField): ICCID (the default), activation time, this cycle's usage and % of the quota
 * used. Sorting by usage or % keeps the ICCID as the tie-break in the same direction; sorting by % puts the cards
 * without a quota last when sorting down (most used first) and first when sorting up.
 */
export const CARD_LIST_SORT_FIELDS = ['iccid', 'activatedAt', 'cycleUsedKb', 'cycleUsedPercent'] as const;

export const CardListFilters = {
  /**
   * ICCID: exact, the beginning (prefix) or anywhere inside it (contains, at least CARD_FRAGMENT_MIN digits, e.g. the
   * last digits printed on the SIM); without iccidMatch a full ICCID (19-20 digits) is exact and a shorter one a prefix
   */
  iccid: Type.Optional(Digits(20)),
  iccidMatch: Type.Optional(NumberMatch),
  /** an ICCID range: both ends, same length */
  iccidStart: Type.Optional(Digits(20)),
  iccidEnd: Type.Optional(Digits(20)),
  /** MSISDN and IMSI: exact unless msisdnMatch / imsiMatch say prefix or contains */
  msisdn: Type.Optional(Digits(15)),
  msisdnMatch: Type.Optional(NumberMatch),
  imsi: Type.Optional(Digits(15)),
  imsiMatch: Type.Optional(NumberMatch),
  states: Type.Optional(Type.Array(Type.Integer(), { maxItems: 9 })),
  /** staff only: a customer (with its second-level customers) */
  custId: Type.Optional(Type.Integer()),
  goodsReleaseId: Type.Optional(Type.Integer()),
  operatorId: Type.Optional(Type.Integer()),
  /** the import's batch id or the supplier batch number written in the file */
  batch: Type.Optional(Type.String({ maxLength: 64 })),
  activatedFrom: Type.Optional(DateOnly),
  activatedTo: Type.Optional(DateOnly),
  online: Type.Optional(Type.Boolean()),
  /** cards carrying any (labelMatch any, the default) or all of these labels */
  labelIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 20 })),
  labelMatch: Type.Optional(Type.Union([Type.Literal('any'), Type.Literal('all')])),
  cardTypeId: Type.Optional(Type.Integer()),
  /** the cards of one data pool */
  poolId: Type.Optional(Type.Integer({ minimum: 1 })),
  firstUsedFrom: Type.Optional(DateOnly),
  firstUsedTo: Type.Optional(DateOnly),
  /** custom fields: exact (default) or prefix are index-served; contains reads the other filters' matches */
  custom1: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  custom1Match: Type.Optional(CustomMatch),
  custom2: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  custom2Match: Type.Optional(CustomMatch),
  /** the sales order of the route /card/card-list/list/:salesorder? (kept for the URL, not a filter yet) */
  salesOrder: Type.Optional(Type.String({ maxLength: 64 })),
  /** the Home overview's deep links: quota level, recent alerts, batch failures (home.ts) */
  ...HomeCardFilters,
};

/**
 * The card list counts matches up to this many: with more, `total` is this cap and `totalCapped` is true, and the
 * screen shows "10,000+" (counting a million matching cards would dominate every call; docs/performance.md).
 */
export const CARD_LIST_COUNT_CAP = 10_000;
export const CardListPage = Type.Object({ ...Page(CardRow).properties, totalCapped: Type.Boolean() });

export const getSimListPage = endpoint({
  name: 'core/sim/simQuery/getSimListPage', method: 'POST', auth: 'session', perm: [P.CardList], kind: 'query', tag,
  summary: {
    zh: '卡列表：按 ICCID（精确、前缀、包含、号段）、MSISDN、IMSI（精确、前缀、包含）、状态、客户、套餐、运营商、批次、激活日期、首次使用日期、在线状态、标签、卡类型、自定义字段查询',
    en: 'Card list: search by ICCID (exact, prefix, contains, range), MSISDN, IMSI (exact, prefix, contains), state, customer, plan, operator, batch, activation date, first-use date, online, label, card type, custom fields',
  },
  body: Obj({ ...PageParams, ...SortParams, ...CardListFilters }),
  response: CardListPage,
});

export const exportSimList = endpoint({
  name: 'core/sim/simQuery/exportSimList', method: 'POST', auth: 'session', perm: [P.CardList], kind: 'mutation', tag,
  summary: { zh: '导出卡列表（下载任务）', en: 'Export the card list (download task)' },
  body: Obj({ ...SortParams, ...CardListFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

// ---------------------------------------------------------------------------------------------------
// Card import (simEnter)
// ---------------------------------------------------------------------------------------------------

export const CardImportBatch = Type.Object({
  batchId: Type.String(),
  fileName: Type.String(),
  fileSize: Type.Integer(),
  remark: Nullable(Type.String()),
  totalRows: Type.Integer(),
  successRows: Type.Integer(),
  failedRows: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
});

export const CardImportError = Type.Object({
  row: Type.Integer(),
  iccid: Nullable(Type.String()),
  msisdn: Nullable(Type.String()),
  imsi: Nullable(Type.String()),
  /** column title in the caller's language */
  column: Type.String(),
  reason: Type.String(),
});

export const importCards = endpoint({
  name: 'core/sim/simEnter/insert', method: 'POST', auth: 'session', perm: [P.ImportInfo], kind: 'mutation', tag,
  multipart: { file: CARD_IMPORT_FILE_FIELD, maxBytes: CARD_IMPORT_MAX_BYTES },
  summary: {
    zh: '导入卡文件（字段 file，xlsx 或 csv；可选字段 remark）：合格的行入库，有误的行逐行记录；已存在的卡不会被覆盖',
    en: 'Import a card file (field file, xlsx or csv; optional field remark): valid rows are stored, bad rows are listed; existing cards are never overwritten',
  },
  body: Obj({ remark: Type.Optional(Type.String({ maxLength: CARD_IMPORT_REMARK_MAX })) }),
  response: CardImportBatch,
});

export const downloadCardImportTemplate = endpoint({
  name: 'core/sim/simEnter/template', method: 'GET', auth: 'session', perm: [P.ImportInfo], kind: 'query', tag, raw: true,
  summary: { zh: '下载卡导入模板（xlsx 或 csv，中文或英文表头）', en: 'Download the card import template (xlsx or csv, Chinese or English headers)' },
  body: Obj({ format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')])), templateLang: Type.Optional(Type.Union([Type.Literal('zh'), Type.Literal('en')])) }),
  response: Type.Null(),
});

export const getCardImportPage = endpoint({
  name: 'core/sim/simEnter/getImportBatchPage', method: 'POST', auth: 'session', perm: [P.ImportInfo], kind: 'query', tag,
  summary: { zh: '卡导入记录', en: 'Card import records' },
  body: Obj({
    ...PageParams, ...SortParams,
    fileName: Type.Optional(Type.String({ maxLength: 100 })),
    createdFrom: Type.Optional(DateOnly),
    createdTo: Type.Optional(DateOnly),
    /** only imports with failed rows */
    withErrors: Type.Optional(Type.Boolean()),
  }),
  response: Page(CardImportBatch),
});

export const getCardImportDetail = endpoint({
  name: 'core/sim/simEnter/getImportBatchDetail', method: 'POST', auth: 'session', perm: [P.ImportInfo], kind: 'query', tag,
  summary: { zh: '卡导入详情', en: 'Card import detail' },
  body: Obj({ batchId: BatchId }),
  response: CardImportBatch,
});

export const getCardImportErrorPage = endpoint({
  name: 'core/sim/simEnter/getImportErrorPage', method: 'POST', auth: 'session', perm: [P.ImportInfo], kind: 'query', tag,
  summary: { zh: '卡导入失败的行', en: 'Rows of a card import that failed' },
  body: Obj({ ...PageParams, batchId: BatchId }),
  response: Page(CardImportError),
});

export const exportCardImportErrors = endpoint({
  name: 'core/sim/simEnter/exportImportErrors', method: 'POST', auth: 'session', perm: [P.ImportInfo], kind: 'mutation', tag,
  summary: { zh: '导出卡导入失败的行（下载任务）', en: 'Export the failed rows of a card import (download task)' },
  body: Obj({ batchId: BatchId, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

// ---------------------------------------------------------------------------------------------------
// One card's state (card detail / card list "change status")
// ---------------------------------------------------------------------------------------------------

/** The manual state actions of the card lifecycle engine (server modules/card/lifecycle-model.ts STATE_ACTIONS). */
export const CARD_STATE_ACTIONS = [
  'activate', 'deactivate', 'startTest', 'endTest', 'toActivationReady', 'toInventory', 'invalidate', 'retire', 'freeze', 'unfreeze',
] as const;
export type CardStateAction = (typeof CARD_STATE_ACTIONS)[number];
export const CARD_CHANGE_REASON_MAX = 200;

export const CardStateChange = Type.Object({
  iccid: Type.String(),
  fromState: Type.Integer(),
  toState: Type.Integer(),
  /** true when the operator's gateway accepted the change; false when the operator has no access configuration */
  sentToOperator: Type.Boolean(),
  requestId: Nullable(Type.String()),
});

export const changeCardStatus = endpoint({
  name: 'core/sim/singleCard/changeStatus', method: 'POST', auth: 'session', perm: [P.ChangeStatus, P.DiagnoseChangeStatus], kind: 'mutation', tag,
  summary: {
    zh: '变更单张卡的状态：按卡生命周期规则校验，记录卡历史，并通过卡所属运营商的接入配置下发；运营商拒绝时状态不变',
    en: "Change one card's state: checked by the card lifecycle rules, recorded in the card's history and sent through the access configuration of the card's operator; unchanged if the operator refuses",
  },
  body: Obj({
    iccid: Type.String({ pattern: '^[0-9]{19,20}$' }),
    action: Type.Union(CARD_STATE_ACTIONS.map((a) => Type.Literal(a))),
    reason: Type.Optional(Type.String({ maxLength: CARD_CHANGE_REASON_MAX })),
  }),
  response: CardStateChange,
});
