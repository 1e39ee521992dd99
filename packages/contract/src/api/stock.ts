import { Type } from '@sinclair/typebox';
import { endpoint, ExportTaskCreated, Nullable, Obj, Page, PageParams } from './endpoint.ts';

/**
 * Stock › Stock list (/stock/stocklist/list, /detail/:iccid?, /doublecard-detail/:sn?, page 11010000) and Stock ›
 * Stock operations (/stock/operationList/list/:param?, /detail/:batchId?, page 11030000); spec §4 "Stock", §5
 * (remark ≤ 10 characters), §7 shortcuts "stock (page list, export, locations, batch update, details, change list,
 * three-code export, remarks, balance types)", §9 (10,000 per batch). docs/stock.md.
 *
 * The warehouse is the platform's: only operator staff (role types 1000 / 2000) are served, even when a customer
 * role holds one of the codes (docs/decisions.md "Issue 16: physical stock").
 */
const tag = 'stock';

export const StockPerm = { List: 11010000, Operations: 11030000 } as const;

/** spec §5: an inventory remark has at most 10 characters */
export const STOCK_REMARK_MAX = 10;
export const STOCK_LOCATION_MAX = 32;
/** spec §9: at most 10,000 items per operation; a larger selection is refused ("narrow the filters") */
export const STOCK_BATCH_MAX = 10_000;
/** rows a request may carry before the 10,000 rule answers (more is refused by the schema) */
export const STOCK_ROWS_MAX = 20_000;
/** the list's total is counted up to this many matches (a filter matching a million rows costs what 10,001 do) */
export const STOCK_COUNT_CAP = 10_000;

const Iccid = Type.String({ minLength: 1, maxLength: 24 });
const Digits = (max: number) => Type.String({ maxLength: max, pattern: '^[0-9]*$' });
const BatchId = Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' });

export const StockFilters = {
  /** ICCID: exact, or a prefix of at least 6 digits */
  iccid: Type.Optional(Digits(20)),
  imsi: Type.Optional(Digits(15)),
  msisdn: Type.Optional(Digits(15)),
  sn: Type.Optional(Type.String({ maxLength: 64 })),
  operatorId: Type.Optional(Type.Integer({ minimum: 1 })),
  location: Type.Optional(Type.String({ maxLength: STOCK_LOCATION_MAX })),
  /** StockMatchState */
  matchState: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  /** StockOutState */
  outState: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  /** StockBalanceType */
  balanceType: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
};

export const StockItem = Type.Object({
  iccid: Type.String(),
  imsi: Nullable(Type.String()),
  msisdn: Nullable(Type.String()),
  sn: Nullable(Type.String()),
  operatorId: Type.Integer(),
  location: Type.String(),
  balanceType: Type.Integer(),
  remark: Type.String(),
  matchState: Type.Integer(),
  outState: Type.Integer(),
  receivedAt: Type.String(),
  matchedAt: Nullable(Type.String()),
  outAt: Nullable(Type.String()),
  updatedAt: Type.String(),
});

export const getStockPage = endpoint({
  name: 'core/stock/stock/getStockPage', method: 'POST', auth: 'session', perm: [StockPerm.List], kind: 'query', tag,
  summary: { zh: '库存列表', en: 'Stock list' },
  body: Obj({
    ...PageParams, ...StockFilters,
    /** keyset paging: the rows after this ICCID (the previous page's last); `current` is then ignored */
    afterIccid: Type.Optional(Digits(20)),
  }),
  response: Type.Intersect([Page(StockItem), Type.Object({ totalCapped: Type.Boolean() })]),
});

/** Export of the three codes (ICCID, IMSI, MSISDN) of the filtered stock: a download task (xlsx or csv). */
export const exportStockCodes = endpoint({
  name: 'core/stock/stock/exportThreeCodes', method: 'POST', auth: 'session', perm: [StockPerm.List], kind: 'mutation', tag,
  summary: { zh: '导出三码（ICCID、IMSI、MSISDN）', en: 'Export the three codes (ICCID, IMSI, MSISDN)' },
  body: Obj({ ...StockFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

export const getStockLocations = endpoint({
  name: 'core/stock/stock/getLocations', method: 'POST', auth: 'session', perm: [StockPerm.List, StockPerm.Operations], kind: 'query', tag,
  summary: { zh: '库位列表', en: 'Stock locations' },
  body: Obj({}),
  response: Type.Array(Type.String()),
});

export const StockCard = Type.Object({
  state: Type.Integer(),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
});

export const getStockDetail = endpoint({
  name: 'core/stock/stock/getStockDetail', method: 'POST', auth: 'session', perm: [StockPerm.List], kind: 'query', tag,
  summary: { zh: '库存详情', en: 'Stock item detail' },
  body: Obj({ iccid: Iccid }),
  response: Type.Object({ item: StockItem, card: Nullable(StockCard) }),
});

export const getStockDoubleCard = endpoint({
  name: 'core/stock/stock/getDoubleCardDetail', method: 'POST', auth: 'session', perm: [StockPerm.List], kind: 'query', tag,
  summary: { zh: '双卡/超级 SIM 的库存（按 SN）', en: 'Stock items of one dual / super SIM (by SN)' },
  body: Obj({ sn: Type.String({ minLength: 1, maxLength: 64 }) }),
  response: Type.Object({ sn: Type.String(), items: Type.Array(StockItem) }),
});

export const batchUpdateStock = endpoint({
  name: 'core/stock/stock/batchUpdate', method: 'POST', auth: 'session', perm: [StockPerm.List], kind: 'mutation', tag,
  summary: { zh: '批量修改库位、备注、余额类型', en: 'Batch update location, remark, balance type' },
  body: Obj({
    iccids: Type.Array(Iccid, { minItems: 1, maxItems: STOCK_ROWS_MAX }),
    location: Type.Optional(Type.String({ maxLength: 64 })),
    remark: Type.Optional(Type.String({ maxLength: 64 })),
    balanceType: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
  }),
  response: Type.Object({ updated: Type.Integer() }),
});

export const StockChange = Type.Object({
  changeId: Type.String(),
  at: Type.String(),
  /** StockChangeKind */
  kind: Type.Integer(),
  batchId: Nullable(Type.String()),
  loginName: Type.String(),
  before: Nullable(Type.Record(Type.String(), Type.Unknown())),
  after: Nullable(Type.Record(Type.String(), Type.Unknown())),
});

export const getStockChangePage = endpoint({
  name: 'core/stock/stock/getChangePage', method: 'POST', auth: 'session', perm: [StockPerm.List], kind: 'query', tag,
  summary: { zh: '库存变更记录', en: 'Stock item change list' },
  body: Obj({ ...PageParams, iccid: Iccid }),
  response: Page(StockChange),
});

// ---------------------------------------------------------------------------------------------------
// Stock operations
// ---------------------------------------------------------------------------------------------------

export const StockInRow = Obj({
  iccid: Iccid,
  imsi: Type.Optional(Type.String({ maxLength: 20 })),
  msisdn: Type.Optional(Type.String({ maxLength: 20 })),
  sn: Type.Optional(Type.String({ maxLength: 64 })),
});

export const validateStockOp = endpoint({
  name: 'core/stock/operation/validate', method: 'POST', auth: 'session', perm: [StockPerm.Operations], kind: 'mutation', tag,
  summary: { zh: '校验库存操作（不做任何变更）', en: 'Validate a stock operation (changes nothing)' },
  body: Obj({
    /** StockOpType */
    type: Type.Integer({ minimum: 1, maximum: 4 }),
    /** stock in: the rows received (ICCID, IMSI, MSISDN, SN) */
    rows: Type.Optional(Type.Array(StockInRow, { maxItems: STOCK_ROWS_MAX })),
    /** match, out, scrap: the items by ICCID … */
    iccids: Type.Optional(Type.Array(Iccid, { maxItems: STOCK_ROWS_MAX })),
    /** … or every item the stock list's filters match */
    filter: Type.Optional(Obj(StockFilters)),
    /** stock in: the operator, location and balance type of the received items */
    operatorId: Type.Optional(Type.Integer({ minimum: 1 })),
    location: Type.Optional(Type.String({ maxLength: 64 })),
    balanceType: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
    remark: Type.Optional(Type.String({ maxLength: 64 })),
  }),
  response: Type.Object({
    batchId: Type.String(), total: Type.Integer(), valid: Type.Integer(), invalid: Type.Integer(), duplicates: Type.Integer(),
  }),
});

/** Stock in from a file (xlsx or csv, Chinese or English header): at most STOCK_BATCH_MAX rows, 5 MB. */
export const STOCK_IN_FILE_MAX_BYTES = 5 * 1024 * 1024;
export const STOCK_IN_FILE_FIELD = 'file';
/** wrong rows listed in a refused file's answer (all are counted) */
export const STOCK_IN_ERRORS_LISTED = 500;
/** The stock-in file's columns: the codes of each SIM, and its location / balance type when they differ from the form's. */
export const STOCK_IN_COLUMNS = [
  { key: 'iccid', zh: 'ICCID', en: 'ICCID', example: '89860020260000000001' },
  { key: 'imsi', zh: 'IMSI', en: 'IMSI', example: '460002026000001' },
  { key: 'msisdn', zh: 'MSISDN', en: 'MSISDN', example: '1064920260001' },
  { key: 'sn', zh: 'SN（双卡/超级 SIM）', en: 'SN (dual / super SIM)', example: '' },
  { key: 'location', zh: '库位', en: 'Location', example: 'A-01-03' },
  { key: 'balanceType', zh: '余额类型', en: 'Balance type', example: '后付费' },
] as const;
export const STOCK_IN_REQUIRED = ['iccid'] as const;

const OperatorDigits = Type.String({ pattern: '^[0-9]{1,4}$' });

export const validateStockInFile = endpoint({
  name: 'core/stock/operation/validateFile', method: 'POST', auth: 'session', perm: [StockPerm.Operations], kind: 'mutation', tag,
  multipart: { file: STOCK_IN_FILE_FIELD, maxBytes: STOCK_IN_FILE_MAX_BYTES },
  summary: {
    zh: '校验从文件入库（字段 file 为 xlsx 或 csv；不做任何变更）：格式有误的行逐行列出，整个文件不校验',
    en: 'Validate a stock-in from a file (field file, xlsx or csv; changes nothing): rows with a wrong format are listed and the file is refused',
  },
  /** the form's fields: the operator (required), and the location, balance type and remark of rows that give none */
  body: Obj({
    operatorId: Type.Optional(OperatorDigits),
    location: Type.Optional(Type.String({ maxLength: 64 })),
    balanceType: Type.Optional(Type.String({ pattern: '^[12]$' })),
    remark: Type.Optional(Type.String({ maxLength: 64 })),
  }),
  /** a file with wrong rows is refused with 21350, its `data` being { errors: { row, iccid, column, reason }[] (at most 500), errorCount } */
  response: Type.Object({
    batchId: Type.String(), total: Type.Integer(), valid: Type.Integer(), invalid: Type.Integer(), duplicates: Type.Integer(),
  }),
});

export const downloadStockInTemplate = endpoint({
  name: 'core/stock/operation/template', method: 'GET', auth: 'session', perm: [StockPerm.Operations], kind: 'query', tag, raw: true,
  summary: { zh: '下载入库模板（xlsx 或 csv，中文或英文表头）', en: 'Download the stock-in template (xlsx or csv, Chinese or English headers)' },
  body: Obj({ format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')])), templateLang: Type.Optional(Type.Union([Type.Literal('zh'), Type.Literal('en')])) }),
  response: Type.Null(),
});

export const confirmStockOp = endpoint({
  name: 'core/stock/operation/confirm', method: 'POST', auth: 'session', perm: [StockPerm.Operations], kind: 'mutation', tag,
  summary: { zh: '确认执行库存操作', en: 'Confirm a stock operation' },
  body: Obj({ batchId: BatchId }),
  response: Type.Object({ batchId: Type.String(), state: Type.Integer() }),
});

export const cancelStockOp = endpoint({
  name: 'core/stock/operation/cancel', method: 'POST', auth: 'session', perm: [StockPerm.Operations], kind: 'mutation', tag,
  summary: { zh: '取消待确认的库存操作', en: 'Cancel a validated stock operation' },
  body: Obj({ batchId: BatchId }),
  response: Type.Object({ batchId: Type.String(), state: Type.Integer() }),
});

export const StockOp = Type.Object({
  batchId: Type.String(),
  type: Type.Integer(),
  state: Type.Integer(),
  params: Type.Record(Type.String(), Type.Unknown()),
  createdBy: Type.String(),
  total: Type.Integer(),
  valid: Type.Integer(),
  invalid: Type.Integer(),
  duplicates: Type.Integer(),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  processed: Type.Integer(),
  createdAt: Type.String(),
  confirmedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  /** stock in from a file: its name */
  fileName: Type.Optional(Nullable(Type.String())),
});

export const getStockOpPage = endpoint({
  name: 'core/stock/operation/getPage', method: 'POST', auth: 'session', perm: [StockPerm.Operations], kind: 'query', tag,
  summary: { zh: '库存操作列表', en: 'Stock operations' },
  body: Obj({ ...PageParams, type: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })), state: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })) }),
  response: Page(StockOp),
});

export const getStockOpDetail = endpoint({
  name: 'core/stock/operation/getDetail', method: 'POST', auth: 'session', perm: [StockPerm.Operations], kind: 'query', tag,
  summary: { zh: '库存操作详情', en: 'Stock operation detail' },
  body: Obj({ batchId: BatchId }),
  response: StockOp,
});

export const StockOpItem = Type.Object({
  seq: Type.Integer(),
  iccid: Type.String(),
  imsi: Nullable(Type.String()),
  msisdn: Nullable(Type.String()),
  sn: Nullable(Type.String()),
  verdict: Type.Integer(),
  status: Type.Integer(),
  /** why invalid at validation or why it failed, in the caller's language */
  reason: Nullable(Type.String()),
  doneAt: Nullable(Type.String()),
});

export const getStockOpItemPage = endpoint({
  name: 'core/stock/operation/getItemPage', method: 'POST', auth: 'session', perm: [StockPerm.Operations], kind: 'query', tag,
  summary: { zh: '库存操作明细（含失败原因）', en: 'Stock operation items (with failure reasons)' },
  body: Obj({
    ...PageParams, batchId: BatchId,
    /** StockItemStatus; omitted: all */
    status: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
    /** only the failed and skipped items */
    failedOnly: Type.Optional(Type.Boolean()),
  }),
  response: Page(StockOpItem),
});
