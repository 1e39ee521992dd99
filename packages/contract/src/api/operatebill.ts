import { Type } from '@sinclair/typebox';
import { endpoint, ExportTaskCreated, MoneyText, Nullable, Obj, Page, PageParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { defineEnum } from '../enums/define.ts';

/**
 * Financial › Operating bills (issue 14; spec §2 /financial/operate-bill/list, code 9030000 with 9030001 fetch again,
 * 9030002 export, 9030003 confirm; §7 consume bill "operator bill"). Platform staff only: customers never see what
 * the platform pays the carriers.
 *
 * An operator bill is what a carrier charges one operator account (an access configuration; 0 = the operator's
 * built-in network simulator) for one closed period ('YYYY-MM', the month it ends in: China Unicom 26th–25th, the
 * others the natural month). A job fetches it through the operator gateway once the period has closed and the usage
 * feed has delivered its last day; a failed fetch is retried. Revenue is what our bills of that period charged for
 * the account's cards (bill breakdowns by operator; docs/decisions.md "Issue 14: operator bills"), tax excluded on
 * both sides, so margin = revenue − cost.
 */
const tag = 'operatebill';
export const OperateBillPerm = {
  Page: Perm.FinancialOperateBill,
  Refetch: Perm.FinancialOperateBillRefetch,
  Export: Perm.FinancialOperateBillExport,
  Confirm: Perm.FinancialOperateBillConfirm,
} as const;
const P = OperateBillPerm;
const PeriodKey = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' });

/** Where an operator bill is: waiting for its period or its turn, being fetched, fetched, failed (retried), confirmed by finance. */
export const OperatorBillState = defineEnum({
  Pending: { value: 1, zh: '待获取', en: 'Pending' },
  Fetching: { value: 2, zh: '获取中', en: 'Fetching' },
  Fetched: { value: 3, zh: '已获取', en: 'Fetched' },
  Failed: { value: 4, zh: '获取失败', en: 'Failed' },
  Confirmed: { value: 5, zh: '已确认', en: 'Confirmed' },
});
export type OperatorBillState = (typeof OperatorBillState.values)[number];

/** The carrier's wholesale prices as it stated them on the bill (tax excluded). */
export const WholesaleTariffOut = Type.Object({
  cardFee: MoneyText,
  dataPerGb: MoneyText,
  sms: MoneyText,
  /** percent, e.g. '6.00' */
  taxRate: Type.String(),
});

/** What a carrier charged: cards billed, their usage, the charges by kind and the cost (tax excluded) and its tax. */
const CarrierCharges = {
  cards: Type.Integer(),
  dataBytes: Type.Integer(),
  billedMb: Type.Integer(),
  sms: Type.Integer(),
  cardFee: MoneyText,
  dataFee: MoneyText,
  smsFee: MoneyText,
  /** the carrier's charges, tax excluded */
  cost: MoneyText,
  costTax: MoneyText,
};

export const OperatorBillRow = Type.Object({
  operatorBillId: Type.Integer(),
  /** 0: the operator's built-in network simulator (no access configuration) */
  operAccountId: Type.Integer(),
  operatorId: Type.Integer(),
  accountName: Type.String(),
  periodKey: Type.String(),
  periodFrom: Type.String(),
  periodTo: Type.String(),
  /** OperatorBillState */
  state: Type.Integer(),
  billRef: Nullable(Type.String()),
  tariff: Nullable(WholesaleTariffOut),
  ...CarrierCharges,
  /** our bills' charges for the account's cards in the period, tax excluded */
  revenue: MoneyText,
  revenueTax: MoneyText,
  /** bills of the period with charges for the account's cards, and how many of them are published */
  revenueBills: Type.Integer(),
  revenuePublished: Type.Integer(),
  /** whether the period has been billed (a bill run wrote bills of it): until then revenue is not known */
  periodBilled: Type.Boolean(),
  /** revenue − cost; null until the bill is fetched and the period billed */
  margin: Nullable(MoneyText),
  /** margin ÷ revenue in percent, two decimals; null without revenue or before the fetch */
  marginPct: Nullable(Type.String()),
  attempts: Type.Integer(),
  lastError: Nullable(Type.String()),
  nextAttemptAt: Nullable(Type.String()),
  fetchedAt: Nullable(Type.String()),
  confirmedAt: Nullable(Type.String()),
  confirmedBy: Nullable(Type.String()),
  /**
   * The channel bill this bill was reconciled as (Billing › Channel bills), with its result per line state; null when
   * it has not been. `stale`: the bill was fetched again after it, so the channel bill compares the older charges.
   */
  channelBill: Nullable(Type.Object({
    billId: Type.Integer(),
    /** ChannelBillState */
    state: Type.Integer(),
    matched: Type.Integer(),
    differs: Type.Integer(),
    missingOnPlatform: Type.Integer(),
    missingInChannel: Type.Integer(),
    reconciledAt: Nullable(Type.String()),
    stale: Type.Boolean(),
  })),
});

export const OperatorBillFilters = {
  operatorId: Type.Optional(Type.Integer({ minimum: 1, maximum: 32767 })),
  /** 0: the built-in network simulator */
  operAccountId: Type.Optional(Type.Integer({ minimum: 0 })),
  periodFrom: Type.Optional(PeriodKey),
  periodTo: Type.Optional(PeriodKey),
  /** OperatorBillState */
  state: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
};

export const getOperatorBillListPage = endpoint({
  name: 'core/finance/operateBill/getOperatorBillListPage', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '运营账单列表', en: 'Operating bills' },
  body: Obj({ ...PageParams, ...OperatorBillFilters }),
  response: Page(OperatorBillRow),
});

export const exportOperatorBills = endpoint({
  name: 'core/finance/operateBill/exportOperatorBills', method: 'POST', auth: 'session', perm: [P.Export], kind: 'mutation', tag,
  summary: { zh: '导出运营账单', en: 'Export operating bills' },
  body: Obj({ ...OperatorBillFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

/** The carrier's breakdown by its plan, with our plan's name where the code is one of ours. */
export const OperatorBillPlanRow = Type.Object({
  planCode: Type.String(),
  planName: Nullable(Type.String()),
  ...CarrierCharges,
});

/** Revenue of the account's cards by bill line category (BillLineCategory), tax excluded. */
export const OperatorRevenueRow = Type.Object({ category: Type.Integer(), cards: Type.Integer(), revenue: MoneyText, revenueTax: MoneyText });

export const getOperatorBillDetail = endpoint({
  name: 'core/finance/operateBill/getOperatorBillDetail', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '运营账单详情', en: 'An operating bill' },
  body: Obj({ operatorBillId: Type.Integer({ minimum: 1 }) }),
  response: Type.Object({ bill: OperatorBillRow, plans: Type.Array(OperatorBillPlanRow), revenue: Type.Array(OperatorRevenueRow) }),
});

/** The accounts the screen can filter by and fetch for: every access configuration, and built-in networks with bills. */
export const getOperatorBillAccounts = endpoint({
  name: 'core/finance/operateBill/getOperatorBillAccounts', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '运营商账户', en: 'Operator accounts' },
  body: Obj({}),
  response: Type.Array(Type.Object({ operAccountId: Type.Integer(), operatorId: Type.Integer(), accountName: Type.String() })),
});

/**
 * Fetches an operator bill again (or for the first time, for a closed period the job has not reached): a fetched or
 * failed one is replaced; refused when confirmed (20970), while it is being fetched (20971) and before the period has
 * closed and its usage been delivered (20972).
 */
export const refetchOperatorBill = endpoint({
  name: 'core/finance/operateBill/refetchOperatorBill', method: 'POST', auth: 'session', perm: [P.Refetch], kind: 'mutation', tag,
  summary: { zh: '重新获取运营商账单', en: 'Fetch an operator bill again' },
  body: Obj({ operatorId: Type.Integer({ minimum: 1, maximum: 32767 }), operAccountId: Type.Integer({ minimum: 0 }), periodKey: PeriodKey }),
  response: OperatorBillRow,
});

/** Finance has checked the bill against the carrier's invoice: it is kept as it is (never fetched again). */
export const confirmOperatorBill = endpoint({
  name: 'core/finance/operateBill/confirmOperatorBill', method: 'POST', auth: 'session', perm: [P.Confirm], kind: 'mutation', tag,
  summary: { zh: '确认运营商账单', en: 'Confirm an operator bill' },
  body: Obj({ operatorBillId: Type.Integer({ minimum: 1 }) }),
  response: OperatorBillRow,
});

/**
 * A customer bill's cards on the carriers' bills (staff only): per operator, what the carriers charged for the cards
 * of this bill in the period (the sum of their per-card charges), against what the bill charged for them.
 */
export const BillOperatorCostRow = Type.Object({
  operatorId: Type.Integer(),
  /** cards of the bill with lines of this operator */
  billCards: Type.Integer(),
  /** of them, cards the carriers' fetched bills charge */
  costCards: Type.Integer(),
  /** the carriers' charges for those cards, tax excluded */
  cost: MoneyText,
  costTax: MoneyText,
  /** what this bill charged for the operator's cards, tax excluded */
  revenue: MoneyText,
  margin: MoneyText,
  /** the carriers' bills of the period behind the cost (OperatorBillState of each), empty when none is fetched yet */
  operatorBills: Type.Array(Type.Object({ operatorBillId: Type.Integer(), operAccountId: Type.Integer(), accountName: Type.String(), state: Type.Integer() })),
});

export const getBillOperatorCost = endpoint({
  name: 'core/finance/operateBill/getBillOperatorCost', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '账单的运营商账单', en: 'The operator bill of a customer bill' },
  body: Obj({ billId: Type.Integer({ minimum: 1 }) }),
  response: Type.Array(BillOperatorCostRow),
});
