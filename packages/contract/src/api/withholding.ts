import { Type } from '@sinclair/typebox';
import { endpoint, ExportTaskCreated, MoneyText, Nullable, Obj, Page, PageParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { ChargeEvent, ChargeState } from '../enums/billing.ts';

/**
 * Charges at the event (issue 14; docs/billing.md "Charges at the event"): a prepaid plan's term when its contract
 * starts or is renewed, and a supplementary pack when it is ordered, rated by the card change that causes it and, for a
 * prepaid customer, withheld from its balance in that change's transaction. One charge record is one customer's
 * charges of one kind (event × plan or pack × billing period) made by one card change or batch: its cards are the
 * record's items. The period's bill lists them (withheld ones are not due again).
 *
 * Screens: Reports › Prepaid cost withholding (spec §2 /report/prepaidCost/list and /detail/:recordId/:channelCustId?,
 * code 10020000; §7 "withhold cost lists and exports") and Business › Capital's prepaid detail (/business/capital/
 * detail/prepay-card/:goodsReleaseId/:elementId/:cycle/:contractType, 8030000: elementId is the charge category, 2
 * prepaid plan fee or 6 pack; cycle the billing period; contractType the ChargeEvent). Staff see every customer; a
 * first-level customer its tree; a second-level customer itself.
 */
const tag = 'withholding';
const PeriodKey = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' });
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
/** the categories charged at the event: 2 prepaid plan fee, 6 supplementary pack fee */
const ChargeCategory = Type.Union([Type.Literal(2), Type.Literal(6)]);

export const ChargeRow = Type.Object({
  chargeId: Type.Integer(),
  /** 'W' + the id in 10 digits */
  chargeNo: Type.String(),
  custId: Type.Integer(),
  custName: Type.String(),
  /** the first-level customer of the charged one */
  rootCustId: Type.Integer(),
  /** ChargeEvent */
  event: Type.Integer(),
  /** BillLineCategory: 2 prepaid plan fee, 6 pack */
  category: Type.Integer(),
  goodsReleaseId: Type.Integer(),
  goodsName: Type.String(),
  /** the billing period whose bill lists it */
  periodKey: Type.String(),
  cards: Type.Integer(),
  /** terms or packs, over its cards */
  quantity: Type.Integer(),
  amount: MoneyText,
  tax: MoneyText,
  /** ChargeState */
  state: Type.Integer(),
  /** the withholding journal in the ledger (state 1) */
  journalId: Nullable(Type.Integer()),
  /** who caused it: a login name, or the platform's scheduler */
  actor: Type.String(),
  createdAt: Type.String(),
});

const ListFilters = {
  custId: Type.Optional(Type.Integer({ minimum: 1 })),
  periodKey: Type.Optional(PeriodKey),
  event: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  state: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
  category: Type.Optional(ChargeCategory),
  /** business days, inclusive */
  from: Type.Optional(Day),
  to: Type.Optional(Day),
};

export const getChargeListPage = endpoint({
  name: 'core/finance/withhold/getChargeListPage', method: 'POST', auth: 'session', perm: [Perm.ReportPrepaidCost], kind: 'query', tag,
  summary: { zh: '预付费用扣缴记录', en: 'Prepaid cost withholding records' },
  body: Obj({ ...PageParams, ...ListFilters }),
  response: Type.Intersect([
    Page(ChargeRow),
    Type.Object({ sum: Type.Object({ amount: MoneyText, withheld: MoneyText, onBill: MoneyText, cards: Type.Integer() }) }),
  ]),
});

export const exportChargeList = endpoint({
  name: 'core/finance/withhold/exportChargeList', method: 'POST', auth: 'session', perm: [Perm.ReportPrepaidCost], kind: 'mutation', tag,
  summary: { zh: '导出扣缴记录', en: 'Export withholding records' },
  body: Obj({ ...ListFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

export const getChargeDetail = endpoint({
  name: 'core/finance/withhold/getChargeDetail', method: 'POST', auth: 'session', perm: [Perm.ReportPrepaidCost, Perm.BusinessCapital], kind: 'query', tag,
  summary: { zh: '扣缴记录详情', en: 'A withholding record' },
  body: Obj({ chargeId: Type.Integer({ minimum: 1 }) }),
  response: ChargeRow,
});

export const ChargeCardRow = Type.Object({
  chargeId: Type.Integer(),
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  /** the business days the charge pays for */
  fromDay: Type.String(),
  toDay: Type.String(),
  quantity: Type.Integer(),
  unitPrice: MoneyText,
  amount: MoneyText,
  tax: MoneyText,
  /** ChargeEvent and ChargeState of its record, for lists across records */
  event: Type.Integer(),
  state: Type.Integer(),
  createdAt: Type.String(),
});

const CardsPage = Type.Object({ list: Type.Array(ChargeCardRow), total: Type.Integer(), pageSize: Type.Integer(), next: Nullable(Type.String()) });

/** A record's cards, paged by key (`after` = the last ICCID). */
export const getChargeCards = endpoint({
  name: 'core/finance/withhold/getChargeCards', method: 'POST', auth: 'session', perm: [Perm.ReportPrepaidCost], kind: 'query', tag,
  summary: { zh: '扣缴记录的卡', en: 'The cards of a withholding record' },
  body: Obj({
    chargeId: Type.Integer({ minimum: 1 }),
    iccid: Type.Optional(Type.String({ maxLength: 20 })),
    after: Type.Optional(Type.String({ maxLength: 40 })),
    /** a page number, read only without `after` (the export walks pages by number; the screen goes by `after`) */
    current: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })),
  }),
  response: CardsPage,
});

export const exportChargeCards = endpoint({
  name: 'core/finance/withhold/exportChargeCards', method: 'POST', auth: 'session', perm: [Perm.ReportPrepaidCost], kind: 'mutation', tag,
  summary: { zh: '导出扣缴记录的卡', en: 'Export the cards of a withholding record' },
  body: Obj({ chargeId: Type.Integer({ minimum: 1 }), format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

// ---- Business › Capital: a customer's prepaid charges grouped (8030000) ----

export const PrepayGroupRow = Type.Object({
  goodsReleaseId: Type.Integer(),
  goodsName: Type.String(),
  /** the route's elementId: BillLineCategory 2 or 6 */
  category: Type.Integer(),
  /** the route's cycle: the billing period */
  periodKey: Type.String(),
  /** the route's contractType: ChargeEvent */
  event: Type.Integer(),
  records: Type.Integer(),
  cards: Type.Integer(),
  quantity: Type.Integer(),
  amount: MoneyText,
  withheld: MoneyText,
  onBill: MoneyText,
  lastAt: Type.String(),
});

export const getPrepayGroups = endpoint({
  name: 'core/finance/capital/getPrepayGroups', method: 'POST', auth: 'session', perm: [Perm.BusinessCapital], kind: 'query', tag,
  summary: { zh: '客户预付费扣缴汇总', en: 'A customer\'s prepaid charges by plan, period and event' },
  body: Obj({ ...PageParams, custId: Type.Optional(Type.Integer({ minimum: 1 })), periodKey: Type.Optional(PeriodKey) }),
  response: Page(PrepayGroupRow),
});

/** The cards of one group of a customer's prepaid charges (the prepay-card route), paged by key. */
export const getPrepayCards = endpoint({
  name: 'core/finance/capital/getPrepayCards', method: 'POST', auth: 'session', perm: [Perm.BusinessCapital], kind: 'query', tag,
  summary: { zh: '预付费扣缴的卡', en: 'The cards of a customer\'s prepaid charges' },
  body: Obj({
    custId: Type.Optional(Type.Integer({ minimum: 1 })),
    goodsReleaseId: Type.Integer({ minimum: 1 }),
    category: ChargeCategory,
    periodKey: PeriodKey,
    event: Type.Integer({ minimum: 1, maximum: 4 }),
    iccid: Type.Optional(Type.String({ maxLength: 20 })),
    /** `chargeId|iccid` of the last row */
    after: Type.Optional(Type.String({ maxLength: 60 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })),
  }),
  response: CardsPage,
});


// ---- card detail › Billing: a card's charges at the event ----

export const getCardCharges = endpoint({
  name: 'core/finance/withhold/getCardCharges', method: 'POST', auth: 'session', perm: [Perm.CardList], kind: 'query', tag,
  summary: { zh: '单卡扣费记录', en: 'A card\'s charges at the event' },
  body: Obj({ ...PageParams, iccid: Type.String({ pattern: '^[0-9A-Fa-f]{19,20}$' }) }),
  response: Page(Type.Intersect([
    ChargeCardRow,
    Type.Object({ chargeNo: Type.String(), category: Type.Integer(), goodsName: Type.String(), periodKey: Type.String() }),
  ])),
});

export { ChargeEvent, ChargeState };
