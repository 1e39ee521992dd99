import { Type } from '@sinclair/typebox';
import { endpoint, ExportTaskCreated, MoneyText, Nullable, Obj, Page, PageParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import {
  CHANNEL_BILL_COLUMNS, CHANNEL_BILL_ERRORS_KEPT, CHANNEL_BILL_MAX_BYTES, CHANNEL_BILL_MAX_LINES, CHANNEL_BILL_REMARK_MAX, CHANNEL_BILL_SOURCE_NAME_MAX,
  CHANNEL_BILL_TOLERANCE_BYTES, CHANNEL_BILL_TOLERANCE_PERMILLE, ChannelBillLineState, ChannelBillSource, ChannelBillState,
} from '../enums/channelbill.ts';

/**
 * Billing › Channel bills (issue 14; spec §2 /billing/channelbill/list, /billing/channelbill/detail/:billId?; §7 channel
 * bill page, delete, export, save, detail and SIM import "channel bill"; codes 4050000 with 4050001 import).
 *
 * Platform finance imports the bill an operator (or an upstream channel) sent for one operator and one billing period
 * ('YYYY-MM', the month it ends in: China Unicom 26th–25th, the others the natural month). The import and the
 * reconciliation run as a durable job; each line ends matched, differs, missing on platform, or (a card of the operator
 * with usage that the bill lacks) missing in the channel bill. Staff only: docs/channel-bills.md, decisions.md.
 */
const tag = 'channelbill';
export const ChannelBillPerm = { Page: Perm.BillingChannelBill, Import: Perm.BillingChannelBillImport } as const;
const P = ChannelBillPerm;
const PeriodKey = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' });
/** multipart text fields arrive as text */
const IntText = Type.String({ pattern: '^[0-9]{1,9}$' });

/** Counts and sums of one line state on a bill. */
export const ChannelBillStateSummary = Type.Object({
  /** ChannelBillLineState */
  state: Type.Integer(),
  lines: Type.Integer(),
  channelBytes: Type.Integer(),
  platformBytes: Type.Integer(),
  channelSms: Type.Integer(),
  platformSms: Type.Integer(),
  /** what the channel charges for these lines */
  channelAmount: MoneyText,
});

export const ChannelBillRow = Type.Object({
  billId: Type.Integer(),
  periodKey: Type.String(),
  /** the operator's billing period the lines are compared over (business days, inclusive) */
  periodFrom: Type.String(),
  periodTo: Type.String(),
  operatorId: Type.Integer(),
  /** ChannelBillSource */
  sourceType: Type.Integer(),
  sourceName: Type.String(),
  /** also list the platform's cards with usage that the bill lacks */
  findMissing: Type.Boolean(),
  /** ChannelBillState */
  state: Type.Integer(),
  fileName: Type.String(),
  fileSize: Type.Integer(),
  remark: Nullable(Type.String()),
  /** data lines in the file (0 until the file has been read) */
  totalLines: Type.Integer(),
  /** lines stored so far: the import's progress */
  linesDone: Type.Integer(),
  /** lines with errors (a failed import) */
  errorCount: Type.Integer(),
  /** why the import failed when it is not the lines (the file could not be read), in the reader's language */
  failure: Nullable(Type.String()),
  channelAmount: MoneyText,
  /** lines per ChannelBillLineState, and the amount charged on lines that are not matched (to dispute) */
  matched: Type.Integer(),
  differs: Type.Integer(),
  missingOnPlatform: Type.Integer(),
  missingInChannel: Type.Integer(),
  disputedAmount: MoneyText,
  createdBy: Type.String(),
  createdAt: Type.String(),
  reconciledAt: Nullable(Type.String()),
  /**
   * The operating bill (Financial › Operating bills) the lines were copied from, or null for an imported file. Such a
   * bill has no file: fileName is the carrier's bill reference and fileSize 0.
   */
  operatorBill: Nullable(Type.Object({
    operatorBillId: Type.Integer(),
    /** 0: the operator's built-in network simulator */
    operAccountId: Type.Integer(),
    accountName: Type.String(),
    billRef: Nullable(Type.String()),
  })),
});

export const ChannelBillFilters = {
  periodKey: Type.Optional(PeriodKey),
  operatorId: Type.Optional(Type.Integer({ minimum: 1, maximum: 32767 })),
  /** ChannelBillState */
  state: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  sourceName: Type.Optional(Type.String({ maxLength: CHANNEL_BILL_SOURCE_NAME_MAX })),
};

export const getChannelBillPage = endpoint({
  name: 'core/finance/channelBill/page', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '渠道账单列表', en: 'Channel bills' },
  body: Obj({ ...PageParams, ...ChannelBillFilters }),
  response: Page(ChannelBillRow),
});

export const getChannelBillDetail = endpoint({
  name: 'core/finance/channelBill/detail', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '渠道账单详情', en: 'A channel bill' },
  body: Obj({ billId: Type.Integer({ minimum: 1 }) }),
  response: Type.Object({ bill: ChannelBillRow, summaries: Type.Array(ChannelBillStateSummary) }),
});

/**
 * Imports a bill file (field file, csv or xlsx; fields operatorId, periodKey, sourceType, sourceName, findMissing
 * '1'/'0', remark). Answers at once with the bill in state Importing; the job reads, checks, stores and reconciles it.
 * A file with any bad line stores no line: the bill ends Failed with the lines' errors.
 */
export const importChannelBill = endpoint({
  name: 'core/finance/channelBill/save', method: 'POST', auth: 'session', perm: [P.Import], kind: 'mutation', tag,
  multipart: { file: 'file', maxBytes: CHANNEL_BILL_MAX_BYTES },
  summary: {
    zh: '导入渠道账单（字段 file，csv 或 xlsx；operatorId、periodKey、sourceType、sourceName，可选 findMissing、remark）：后台导入并对账',
    en: 'Import a channel bill (field file, csv or xlsx; operatorId, periodKey, sourceType, sourceName, optional findMissing, remark): imported and reconciled in the background',
  },
  body: Obj({
    operatorId: IntText,
    periodKey: PeriodKey,
    sourceType: Type.Union([Type.Literal('1'), Type.Literal('2')]),
    sourceName: Type.String({ minLength: 1, maxLength: CHANNEL_BILL_SOURCE_NAME_MAX }),
    findMissing: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('0')])),
    remark: Type.Optional(Type.String({ maxLength: CHANNEL_BILL_REMARK_MAX })),
  }),
  response: ChannelBillRow,
});

export const downloadChannelBillTemplate = endpoint({
  name: 'core/finance/channelBill/template', method: 'GET', auth: 'session', perm: [P.Import], kind: 'query', tag, raw: true,
  summary: { zh: '下载渠道账单模板（csv 或 xlsx，中文或英文表头）', en: 'Download the channel bill template (csv or xlsx, Chinese or English headers)' },
  body: Obj({ format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')])), templateLang: Type.Optional(Type.Union([Type.Literal('zh'), Type.Literal('en')])) }),
  response: Type.Null(),
});

export const ChannelBillLineRow = Type.Object({
  iccid: Type.String(),
  /** the line of the file; null for a card only the platform has */
  lineNo: Nullable(Type.Integer()),
  /** ChannelBillLineState */
  state: Type.Integer(),
  channelBytes: Nullable(Type.Integer()),
  /** null: the card is not the platform's (missing on platform) */
  platformBytes: Nullable(Type.Integer()),
  /** channel − platform */
  diffBytes: Nullable(Type.Integer()),
  channelSms: Nullable(Type.Integer()),
  platformSms: Nullable(Type.Integer()),
  diffSms: Nullable(Type.Integer()),
  channelAmount: Nullable(MoneyText),
});

/**
 * A bill's lines in ICCID order, a page at a time by key (`after` = the `next` of the page before; a bill may hold a
 * million lines). `total`: the state's count from the bill's summary, or (with an ICCID) the matches counted up to
 * 10,000 (`totalCapped` beyond).
 */
export const getChannelBillLines = endpoint({
  name: 'core/finance/channelBill/lines', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '渠道账单明细', en: 'A channel bill\'s lines' },
  body: Obj({
    billId: Type.Integer({ minimum: 1 }),
    state: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
    iccid: Type.Optional(Type.String({ maxLength: 20 })),
    after: Type.Optional(Type.String({ maxLength: 20 })),
    /** a page number, read only without `after` (the export walks pages by number) */
    current: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })),
  }),
  response: Type.Object({ list: Type.Array(ChannelBillLineRow), total: Type.Integer(), totalCapped: Type.Boolean(), pageSize: Type.Integer(), next: Nullable(Type.String()) }),
});

/** Every line of a bill (or of one state) as a file, read by key and streamed. */
export const exportChannelBillLines = endpoint({
  name: 'core/finance/channelBill/export', method: 'POST', auth: 'session', perm: [P.Page], kind: 'mutation', tag,
  summary: { zh: '导出渠道账单明细', en: 'Export a channel bill\'s lines' },
  body: Obj({ billId: Type.Integer({ minimum: 1 }), state: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })), format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

/** The lines a failed import refused, with the column and the reason in the reader's language (line 0: the file). */
export const getChannelBillErrors = endpoint({
  name: 'core/finance/channelBill/errors', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '渠道账单导入错误', en: 'A channel bill\'s import errors' },
  body: Obj({ ...PageParams, billId: Type.Integer({ minimum: 1 }) }),
  response: Page(Type.Object({ lineNo: Type.Integer(), iccid: Nullable(Type.String()), column: Type.String(), reason: Type.String() })),
});

/** Deletes a bill with its lines; refused while it is importing or reconciling (20930). */
export const deleteChannelBill = endpoint({
  name: 'core/finance/channelBill/delete', method: 'POST', auth: 'session', perm: [P.Import], kind: 'mutation', tag,
  summary: { zh: '删除渠道账单', en: 'Delete a channel bill' },
  body: Obj({ billId: Type.Integer({ minimum: 1 }) }),
  response: Type.Null(),
});

/** Reconciles a reconciled bill again (after late usage arrived); refused while it is busy (20930) or failed (20931). */
export const reconcileChannelBill = endpoint({
  name: 'core/finance/channelBill/reconcile', method: 'POST', auth: 'session', perm: [P.Import], kind: 'mutation', tag,
  summary: { zh: '重新对账', en: 'Reconcile again' },
  body: Obj({ billId: Type.Integer({ minimum: 1 }) }),
  response: ChannelBillRow,
});

/**
 * Reconciles a fetched or confirmed operating bill without a file (needs the operating bills page 9030000 as well): a
 * channel bill from the operator (issuer = the operator account's name, the carrier's period, missing in channel bill
 * on) whose lines are the operator bill's per-card charges (ICCID, data in bytes, SMS, amount tax excluded), then
 * reconciled by the job as an imported bill is. Answers at once with the bill in state Reconciling. One channel bill
 * per operator bill (20935, data.billId names it); refused for a bill not fetched (20936), a bill that charges no card
 * (20937) and when the issuer has a live bill of the period already (20932).
 */
export const reconcileOperatorBill = endpoint({
  name: 'core/finance/channelBill/reconcileOperatorBill', method: 'POST', auth: 'session', perm: [P.Import], kind: 'mutation', tag,
  summary: { zh: '运营账单对账：由运营账单生成渠道账单并对账', en: 'Reconcile an operating bill: a channel bill from it, reconciled' },
  body: Obj({
    operatorBillId: Type.Integer({ minimum: 1 }),
    remark: Type.Optional(Type.String({ maxLength: CHANNEL_BILL_REMARK_MAX })),
  }),
  response: ChannelBillRow,
});

export {
  ChannelBillLineState, ChannelBillSource, ChannelBillState, CHANNEL_BILL_COLUMNS, CHANNEL_BILL_ERRORS_KEPT, CHANNEL_BILL_MAX_BYTES, CHANNEL_BILL_MAX_LINES,
  CHANNEL_BILL_REMARK_MAX, CHANNEL_BILL_SOURCE_NAME_MAX, CHANNEL_BILL_TOLERANCE_BYTES, CHANNEL_BILL_TOLERANCE_PERMILLE,
};
