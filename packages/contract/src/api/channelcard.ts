import { Type } from '@sinclair/typebox';
import { endpoint, MoneyText, Nullable, Obj, Page, PageParams } from './endpoint.ts';

/**
 * Channel card (渠道卡; spec §2 "Channel card", §7 "SIM import (channelSim)"; docs/channel-cards.md): cards bought through
 * an upstream channel. §6 gives no code: the page is 16000000 with imports 16010000 (import 16010001), the list 16020000
 * (change state 16020001) and the bills 16030000 (generate / delete 16030001).
 *
 * A channel card is a card of the platform (a `cards` row, imported through card import first) plus its channel, sales
 * order, monthly cost and its own state; its tenant is the card's. A bill is what one channel charges for the channel
 * cards of one first-level customer in one calendar month, one line per card.
 */
const tag = 'channelcard';
const Perm = { Import: 16010000, ImportAdd: 16010001, List: 16020000, State: 16020001, Bill: 16030000, Generate: 16030001 } as const;

/** Spec §9: at most 10,000 rows per import. */
export const CHANNEL_CARD_IMPORT_MAX_ROWS = 10_000;
export const CHANNEL_CARD_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const CHANNEL_CARD_IMPORT_ERRORS_LISTED = 500;
export const CHANNEL_NAME_MAX = 40;
export const SALES_ORDER_PATTERN = '^[0-9A-Za-z_-]{1,32}$';
/** The import file's columns (Chinese or English header). */
export const CHANNEL_CARD_IMPORT_COLUMNS = [
  { key: 'iccid', zh: 'ICCID', en: 'ICCID', example: '89860020260000000001' },
  { key: 'channel', zh: '渠道', en: 'Channel', example: '华南物联渠道' },
  { key: 'cost', zh: '月成本(元)', en: 'Monthly cost (CNY)', example: '3.50' },
] as const;
export const CHANNEL_CARD_IMPORT_REQUIRED = ['iccid', 'channel', 'cost'] as const;
const Period = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' });
const SalesOrder = Type.String({ pattern: SALES_ORDER_PATTERN });

export const ChannelCardImport = Type.Object({
  batchId: Type.String(),
  salesOrder: Type.String(),
  fileName: Type.String(),
  fileSize: Type.Integer(),
  remark: Nullable(Type.String()),
  cardCount: Type.Integer(),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
});

export const ChannelCardRowError = Type.Object({ row: Type.Integer(), iccid: Nullable(Type.String()), column: Type.String(), reason: Type.String() });

export const importChannelCards = endpoint({
  name: 'core/sim/channelSim/insert', method: 'POST', auth: 'session', perm: [Perm.ImportAdd], kind: 'mutation', tag,
  multipart: { file: 'file', maxBytes: CHANNEL_CARD_IMPORT_MAX_BYTES },
  summary: {
    zh: '导入渠道卡文件（字段 file，xlsx 或 csv）：全部行正确才导入，否则逐行列出错误且不导入任何数据',
    en: 'Import a channel card file (field file, xlsx or csv): all rows or nothing; wrong rows are listed and nothing is stored',
  },
  body: Obj({ salesOrder: SalesOrder, remark: Type.Optional(Type.String({ maxLength: 64 })) }),
  /** a file with wrong rows is refused with 21311, its `data` being { errors: ChannelCardRowError[] (at most 500), errorCount } */
  response: ChannelCardImport,
});

export const downloadChannelCardTemplate = endpoint({
  name: 'core/sim/channelSim/template', method: 'GET', auth: 'session', perm: [Perm.ImportAdd], kind: 'query', tag, raw: true,
  summary: { zh: '下载渠道卡导入模板（xlsx 或 csv，中文或英文表头）', en: 'Download the channel card import template (xlsx or csv, Chinese or English headers)' },
  body: Obj({ format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')])), templateLang: Type.Optional(Type.Union([Type.Literal('zh'), Type.Literal('en')])) }),
  response: Type.Null(),
});

export const getChannelCardImportPage = endpoint({
  name: 'core/sim/channelSim/getImportPage', method: 'POST', auth: 'session', perm: [Perm.Import], kind: 'query', tag,
  summary: { zh: '渠道卡导入记录（可按销售订单筛选）', en: 'Channel card imports (by sales order)' },
  body: Obj({ ...PageParams, salesOrder: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })) }),
  response: Page(ChannelCardImport),
});

export const ChannelCard = Type.Object({
  id: Type.Integer(),
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  operatorId: Nullable(Type.Integer()),
  /** CardState of the card */
  cardState: Nullable(Type.Integer()),
  channelName: Type.String(),
  salesOrder: Type.String(),
  monthlyCost: MoneyText,
  /** ChannelCardState */
  state: Type.Integer(),
  stoppedAt: Nullable(Type.String()),
  batchId: Type.String(),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  createdAt: Type.String(),
});

export const getChannelCardPage = endpoint({
  name: 'core/sim/channelCard/getPage', method: 'POST', auth: 'session', perm: [Perm.List], kind: 'query', tag,
  summary: { zh: '渠道卡列表', en: 'Channel cards' },
  body: Obj({
    ...PageParams,
    iccid: Type.Optional(Type.String({ minLength: 1, maxLength: 22 })),
    channelName: Type.Optional(Type.String({ minLength: 1, maxLength: CHANNEL_NAME_MAX })),
    salesOrder: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    batchId: Type.Optional(Type.String({ format: 'uuid' })),
    state: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
  }),
  response: Page(ChannelCard),
});

export const getChannelCardDetail = endpoint({
  name: 'core/sim/channelCard/detail', method: 'POST', auth: 'session', perm: [Perm.List], kind: 'query', tag,
  summary: { zh: '渠道卡详情及其账单行', en: 'A channel card with its bill lines' },
  body: Obj({ id: Type.Integer({ minimum: 1 }) }),
  response: Type.Object({
    card: ChannelCard,
    bills: Type.Array(Type.Object({ billId: Type.Integer(), periodKey: Type.String(), amount: MoneyText })),
  }),
});

export const changeChannelCardState = endpoint({
  name: 'core/sim/channelCard/changeState', method: 'POST', auth: 'session', perm: [Perm.State], kind: 'mutation', tag,
  summary: { zh: '停用或恢复渠道卡（停用后下一账期起渠道不再计费）', en: 'Stop or resume a channel card (a stopped card is not billed from the next period)' },
  body: Obj({ id: Type.Integer({ minimum: 1 }), state: Type.Integer({ minimum: 1, maximum: 2 }) }),
  response: ChannelCard,
});

export const ChannelCardBill = Type.Object({
  billId: Type.Integer(),
  channelName: Type.String(),
  periodKey: Type.String(),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  cardCount: Type.Integer(),
  totalAmount: MoneyText,
  createdBy: Type.String(),
  createdAt: Type.String(),
  /** Billing › Channel bills: the upstream channel's bill file of the same channel and period (reconciled against usage), if imported */
  reconcileBillId: Nullable(Type.Integer()),
});

export const getChannelCardBillPage = endpoint({
  name: 'core/finance/channelCardBill/getPage', method: 'POST', auth: 'session', perm: [Perm.Bill], kind: 'query', tag,
  summary: { zh: '渠道卡账单', en: 'Channel card bills' },
  body: Obj({
    ...PageParams,
    channelName: Type.Optional(Type.String({ minLength: 1, maxLength: CHANNEL_NAME_MAX })),
    periodKey: Type.Optional(Period),
  }),
  response: Page(ChannelCardBill),
});

export const getChannelCardBillDetail = endpoint({
  name: 'core/finance/channelCardBill/detail', method: 'POST', auth: 'session', perm: [Perm.Bill], kind: 'query', tag,
  summary: { zh: '渠道卡账单详情', en: 'A channel card bill' },
  body: Obj({ billId: Type.Integer({ minimum: 1 }) }),
  response: ChannelCardBill,
});

export const ChannelCardBillLine = Type.Object({ iccid: Type.String(), monthlyCost: MoneyText, amount: MoneyText, channelCardId: Nullable(Type.Integer()) });

export const getChannelCardBillLinePage = endpoint({
  name: 'core/finance/channelCardBill/getLinePage', method: 'POST', auth: 'session', perm: [Perm.Bill], kind: 'query', tag,
  summary: { zh: '渠道卡账单明细（每卡一行）', en: 'The lines of a channel card bill (one per card)' },
  body: Obj({ ...PageParams, billId: Type.Integer({ minimum: 1 }), iccid: Type.Optional(Type.String({ minLength: 1, maxLength: 22 })) }),
  response: Page(ChannelCardBillLine),
});

export const generateChannelCardBills = endpoint({
  name: 'core/finance/channelCardBill/generate', method: 'POST', auth: 'session', perm: [Perm.Generate], kind: 'mutation', tag,
  summary: {
    zh: '生成渠道在某月的渠道卡账单（每个一级客户一张，月份须已结束）',
    en: "Generate a channel's bills for a month (one per first-level customer; the month must have ended)",
  },
  body: Obj({ channelName: Type.String({ minLength: 1, maxLength: CHANNEL_NAME_MAX }), periodKey: Period }),
  response: Type.Object({ bills: Type.Integer(), cards: Type.Integer() }),
});

export const deleteChannelCardBill = endpoint({
  name: 'core/finance/channelCardBill/delete', method: 'POST', auth: 'session', perm: [Perm.Generate], kind: 'mutation', tag,
  summary: { zh: '删除渠道卡账单', en: 'Delete a channel card bill' },
  body: Obj({ billId: Type.Integer({ minimum: 1 }) }),
  response: Type.Null(),
});

export const getChannelNames = endpoint({
  name: 'core/sim/channelCard/channelNames', method: 'POST', auth: 'session', perm: [Perm.List, Perm.Bill], kind: 'query', tag,
  summary: { zh: '渠道名称（筛选用）', en: 'Channel names (for filters)' },
  body: Obj({}),
  response: Type.Array(Type.String()),
});
