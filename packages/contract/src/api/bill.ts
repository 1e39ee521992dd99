import { Type } from '@sinclair/typebox';
import { endpoint, ExportTaskCreated, MoneyInput, MoneyText, Nullable, Obj, Page, PageParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { BILL_DUE_DAYS, BillLineCategory, BillPublishState, BillRunState, BillStatus, BillSummaryDim, OneOffFeeState } from '../enums/billing.ts';

/**
 * Billing › Bills and Financial › Write-off (issue 14; spec §2 /billing/bill/list/:tab?, /billing/bill/spending/detail/
 * :billId, /financial/cancel-bill/list/:tab?; §3 bill fields; §4 bill status; §5 write-off rules; §7 consume bill and
 * cancel bill calls; codes 4020000 with 4020001 publish, 4020002 run, 4020003 export; 9020000 with 9020001 write off;
 * the one-off fees of 6090000 with 6090001 add).
 *
 * A bill is one customer's charges for one billing period ('YYYY-MM', the month it ends in: China Unicom cards
 * 26th–25th, the others the natural month; docs/billing.md). Platform finance runs the bills once a period has closed
 * and the T+1 usage feed delivered its last day, checks them, re-runs an unpublished one and publishes it. A published
 * bill is due BILL_DUE_DAYS days later; the customer (or finance) writes it off from pre-deposit and grants. Staff see
 * every bill; a first-level customer its tree's published bills; a second-level customer its own published bills.
 */
const tag = 'bill';
export const BillPerm = {
  Page: Perm.BillingBill,
  Publish: Perm.BillingBillPublish,
  Run: Perm.BillingBillRun,
  Export: Perm.BillingBillExport,
  WriteOff: Perm.FinancialWriteOff,
  WriteOffDo: Perm.FinancialWriteOffDo,
  OneOff: Perm.ShortcutsOneOffFee,
  OneOffAdd: Perm.ShortcutsOneOffFeeAdd,
} as const;
const P = BillPerm;
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
/** a billing period, named by the month it ends in */
export const PeriodKey = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' });
const Iccid = Type.String({ pattern: '^[0-9A-Fa-f]{19,20}$' });

export const WRITE_OFF_REMARK_MAX = 200;
export const ONE_OFF_REASON_MAX = 100;

/** Per-category amounts of a bill (spec §3 "per-category expenses"), tax included. */
export const BillCategoryAmounts = Type.Object({
  planFee: MoneyText,
  prepaidFee: MoneyText,
  overageFee: MoneyText,
  testFee: MoneyText,
  downtimeFee: MoneyText,
  packFee: MoneyText,
  oneOffFee: MoneyText,
});

export const BillRow = Type.Object({
  billId: Type.Integer(),
  billNo: Type.String(),
  periodKey: Type.String(),
  /** the business days covered (the earliest start and latest end of its operators' periods) */
  periodFrom: Type.String(),
  periodTo: Type.String(),
  custId: Type.Integer(),
  custName: Type.String(),
  /** BillStatus, overdue computed at the time of reading */
  status: Type.Integer(),
  /** BillPublishState */
  published: Type.Integer(),
  publishedAt: Nullable(Type.String()),
  publishedBy: Nullable(Type.String()),
  dueDate: Nullable(Type.String()),
  cardCount: Type.Integer(),
  /** total expense, tax included */
  total: MoneyText,
  tax: MoneyText,
  categories: BillCategoryAmounts,
  /** paid at the event (withheld prepaid fees and packs): listed, not due again */
  withheld: MoneyText,
  /** total − withheld */
  amountDue: MoneyText,
  writtenOff: MoneyText,
  /** arrears: amountDue − writtenOff */
  arrears: MoneyText,
  writtenOffAt: Nullable(Type.String()),
  ratedAt: Nullable(Type.String()),
});

export const BillFilters = {
  periodKey: Type.Optional(PeriodKey),
  custId: Type.Optional(Type.Integer({ minimum: 1 })),
  custName: Type.Optional(Type.String({ maxLength: 100 })),
  billNo: Type.Optional(Type.String({ maxLength: 32 })),
  /** BillStatus */
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
  /** BillPublishState */
  published: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
};

export const getBillListPage = endpoint({
  name: 'core/finance/bill/getBillListPage', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '账单列表', en: 'Bills' },
  body: Obj({ ...PageParams, ...BillFilters }),
  response: Page(BillRow),
});

export const exportBills = endpoint({
  name: 'core/finance/bill/exportBills', method: 'POST', auth: 'session', perm: [P.Export], kind: 'mutation', tag,
  summary: { zh: '导出账单列表', en: 'Export bills' },
  body: Obj({ ...BillFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

export const BillSummaryRow = Type.Object({
  /** BillSummaryDim */
  dim: Type.Integer(),
  /** goods release id, operator id or card type id (0: none) */
  key: Type.Integer(),
  /** the plan, operator or card type name in the reader's language */
  name: Type.String(),
  /** BillLineCategory */
  category: Type.Integer(),
  cards: Type.Integer(),
  quantity: Type.Integer(),
  amount: MoneyText,
  tax: MoneyText,
  usedBytes: Type.Integer(),
});

export const BillWriteOffRow = Type.Object({
  writeOffId: Type.Integer(),
  billId: Type.Integer(),
  amount: MoneyText,
  fromGrants: MoneyText,
  fromPreDeposit: MoneyText,
  overdue: Type.Boolean(),
  journalId: Type.Integer(),
  remark: Nullable(Type.String()),
  /** 1 by a person, 2 by an automated ledger rule */
  source: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
});

export const BillDetail = Type.Object({
  bill: BillRow,
  /** by plan, operator and card type × category */
  summaries: Type.Array(BillSummaryRow),
  writeOffs: Type.Array(BillWriteOffRow),
  /** the one-off fees this bill charged */
  oneOffFees: Type.Array(Type.Object({ feeId: Type.Integer(), iccid: Nullable(Type.String()), amount: MoneyText, reason: Type.String(), feeDay: Type.String() })),
  /** usage beyond quotas that plans not overdrawing did not charge (bytes), for the reconciliation with the operator */
  unbilledOverBytes: Type.Integer(),
});

export const getBillDetail = endpoint({
  name: 'core/finance/bill/getBillDetail', method: 'POST', auth: 'session', perm: [P.Page, P.WriteOff], kind: 'query', tag,
  summary: { zh: '账单详情', en: 'A bill' },
  body: Obj({ billId: Type.Integer({ minimum: 1 }) }),
  response: BillDetail,
});

export const BillLineRow = Type.Object({
  iccid: Type.String(),
  /** BillLineCategory */
  category: Type.Integer(),
  fromDay: Type.String(),
  toDay: Type.String(),
  goodsReleaseId: Nullable(Type.Integer()),
  planName: Nullable(Type.String()),
  operatorId: Nullable(Type.Integer()),
  cardTypeId: Nullable(Type.Integer()),
  quantity: Type.Integer(),
  unitPrice: MoneyText,
  amount: MoneyText,
  tax: MoneyText,
  usedBytes: Nullable(Type.Integer()),
  quotaBytes: Nullable(Type.Integer()),
  withheld: Type.Boolean(),
});

/**
 * A bill's card lines, in ICCID order, a page at a time by key (a bill may hold a million lines: no offset). `after`
 * is the `next` of the page before; `total` is the count of lines matching when filtered by ICCID (counted up to
 * BILL_LINES_COUNT_CAP: beyond it `totalCapped` is true and `total` is the cap, so a short prefix over a million lines
 * costs no full count), else the bill's line count.
 */

export const getBillCardLines = endpoint({
  name: 'core/finance/bill/getBillCardLines', method: 'POST', auth: 'session', perm: [P.Page, P.WriteOff], kind: 'query', tag,
  summary: { zh: '账单卡明细', en: 'A bill\'s card lines' },
  body: Obj({
    billId: Type.Integer({ minimum: 1 }),
    iccid: Type.Optional(Type.String({ maxLength: 20 })),
    category: Type.Optional(Type.Integer({ minimum: 1, maximum: 7 })),
    after: Type.Optional(Type.String({ maxLength: 80 })),
    /** a page number, read only without `after` (the export walks pages by number; the screen goes by `after`) */
    current: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })),
  }),
  response: Type.Object({ list: Type.Array(BillLineRow), total: Type.Integer(), totalCapped: Type.Boolean(), pageSize: Type.Integer(), next: Nullable(Type.String()) }),
});

/** Every line of a bill as a file (streamed; the server's memory does not grow with the bill). */
export const exportBillCardLines = endpoint({
  name: 'core/finance/bill/exportBillCardLines', method: 'POST', auth: 'session', perm: [P.Export], kind: 'mutation', tag,
  summary: { zh: '导出账单卡明细', en: 'Export a bill\'s card lines' },
  body: Obj({ billId: Type.Integer({ minimum: 1 }), format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

export const publishBill = endpoint({
  name: 'core/finance/bill/publishBill', method: 'POST', auth: 'session', perm: [P.Publish], kind: 'mutation', tag,
  summary: { zh: `发布账单（发布后 ${BILL_DUE_DAYS} 天到期）`, en: `Publish a bill (due ${BILL_DUE_DAYS} days later)` },
  body: Obj({ billId: Type.Integer({ minimum: 1 }) }),
  response: BillRow,
});

export const BillRunRow = Type.Object({
  runId: Type.Integer(),
  periodKey: Type.String(),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  /** BillRunState */
  state: Type.Integer(),
  /** 1 rating cards, 2 totals, 3 done */
  step: Type.Integer(),
  cardsDone: Type.Integer(),
  /** the cards the run has to rate (known when it starts) */
  cardsTotal: Type.Integer(),
  linesWritten: Type.Integer(),
  startedBy: Type.String(),
  startedAt: Type.String(),
  finishedAt: Nullable(Type.String()),
  error: Nullable(Type.String()),
});

/**
 * Starts a bill run: every customer's bill of a closed period, or (custId) a re-run of one customer's unpublished
 * bill. Refused while the period has not closed or the usage feed has not delivered its last day (20900), while a run
 * of the same scope is running (20901), and for a published bill (20902).
 */
export const runBills = endpoint({
  name: 'core/finance/bill/runBills', method: 'POST', auth: 'session', perm: [P.Run], kind: 'mutation', tag,
  summary: { zh: '出账 / 重新出账', en: 'Run or re-run bills' },
  body: Obj({ periodKey: PeriodKey, custId: Type.Optional(Type.Integer({ minimum: 1 })) }),
  response: BillRunRow,
});

export const getBillRuns = endpoint({
  name: 'core/finance/bill/getBillRuns', method: 'POST', auth: 'session', perm: [P.Run], kind: 'query', tag,
  summary: { zh: '出账记录', en: 'Bill runs' },
  body: Obj({ ...PageParams, periodKey: Type.Optional(PeriodKey) }),
  response: Page(BillRunRow),
});

/** Periods a run may start for now (closed, usage delivered), newest first, with whether bills exist for them. */
export const getBillPeriods = endpoint({
  name: 'core/finance/bill/getBillPeriods', method: 'POST', auth: 'session', perm: [P.Run], kind: 'query', tag,
  summary: { zh: '可出账账期', en: 'Periods ready to bill' },
  body: Obj({}),
  response: Type.Array(Type.Object({
    periodKey: Type.String(),
    ready: Type.Boolean(),
    /** why not ready, in the reader's language */
    reason: Nullable(Type.String()),
    bills: Type.Integer(),
    published: Type.Integer(),
  })),
});

// ---- write-off (9020000) ----

/** The write-off screen's tabs: published bills with money due, written off, and overdue (due date passed, unpaid). */
export const WriteOffTab = { ToWriteOff: 1, WrittenOff: 2, Overdue: 3 } as const;

export const WriteOffBillRow = Type.Object({
  ...BillRow.properties,
  /** what the customer can write off with now: pre-deposit above zero + grants */
  payable: MoneyText,
});

export const getWriteOffListPage = endpoint({
  name: 'core/finance/cancelBill/getWriteOffListPage', method: 'POST', auth: 'session', perm: [P.WriteOff], kind: 'query', tag,
  summary: { zh: '核销列表', en: 'Bills to write off' },
  body: Obj({
    ...PageParams,
    tab: Type.Integer({ minimum: 1, maximum: 3 }),
    periodKey: Type.Optional(PeriodKey),
    custId: Type.Optional(Type.Integer({ minimum: 1 })),
    custName: Type.Optional(Type.String({ maxLength: 100 })),
  }),
  response: Page(WriteOffBillRow),
});

/**
 * Writes off (part of) a published bill from the customer's grants first, then pre-deposit (spec §5: not 0, not above
 * what is still due, not above pre-deposit + grants; credit is not used). One WriteOff journal; the bill's status
 * follows (written off, or overdue written off after its due date).
 */
export const writeOffBill = endpoint({
  name: 'core/finance/cancelBill/writeOffBill', method: 'POST', auth: 'session', perm: [P.WriteOffDo], kind: 'mutation', tag,
  summary: { zh: '核销账单', en: 'Write off a bill' },
  body: Obj({ billId: Type.Integer({ minimum: 1 }), amount: MoneyInput, remark: Type.Optional(Type.String({ maxLength: WRITE_OFF_REMARK_MAX })) }),
  response: Type.Object({ bill: BillRow, writeOff: BillWriteOffRow }),
});

// ---- card detail: a card's bill lines ----

export const getCardBillLines = endpoint({
  name: 'core/finance/bill/getCardBillLines', method: 'POST', auth: 'session', perm: [Perm.CardList], kind: 'query', tag,
  summary: { zh: '单卡账单明细', en: 'A card\'s bill lines' },
  body: Obj({ ...PageParams, iccid: Iccid }),
  response: Page(Type.Object({
    billId: Type.Integer(), billNo: Type.String(), periodKey: Type.String(), published: Type.Integer(), ...BillLineRow.properties,
  })),
});

// ---- one-off fees (6090000) ----

export const OneOffFeeRow = Type.Object({
  feeId: Type.Integer(),
  custId: Type.Integer(),
  custName: Type.String(),
  iccid: Nullable(Type.String()),
  amount: MoneyText,
  taxRate: Type.Number(),
  reason: Type.String(),
  feeDay: Type.String(),
  /** OneOffFeeState */
  state: Type.Integer(),
  billId: Nullable(Type.Integer()),
  billNo: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
});

export const getOneOffFeeListPage = endpoint({
  name: 'core/finance/oneOffFee/getOneOffFeeListPage', method: 'POST', auth: 'session', perm: [P.OneOff], kind: 'query', tag,
  summary: { zh: '一次性费用', en: 'One-off fees' },
  body: Obj({ ...PageParams, custId: Type.Optional(Type.Integer({ minimum: 1 })), iccid: Type.Optional(Type.String({ maxLength: 20 })), state: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })) }),
  response: Page(OneOffFeeRow),
});

/** Puts a one-off fee on a customer or one of its cards; the customer's next bill run charges it. */
export const addOneOffFee = endpoint({
  name: 'core/finance/oneOffFee/addOneOffFee', method: 'POST', auth: 'session', perm: [P.OneOffAdd], kind: 'mutation', tag,
  summary: { zh: '新增一次性费用', en: 'Add a one-off fee' },
  body: Obj({
    custId: Type.Integer({ minimum: 1 }),
    iccid: Type.Optional(Iccid),
    amount: MoneyInput,
    reason: Type.String({ minLength: 1, maxLength: ONE_OFF_REASON_MAX }),
    feeDay: Type.Optional(Day),
  }),
  response: OneOffFeeRow,
});

/** Cancels a fee no bill has charged yet. */
export const cancelOneOffFee = endpoint({
  name: 'core/finance/oneOffFee/cancelOneOffFee', method: 'POST', auth: 'session', perm: [P.OneOffAdd], kind: 'mutation', tag,
  summary: { zh: '取消一次性费用', en: 'Cancel a one-off fee' },
  body: Obj({ feeId: Type.Integer({ minimum: 1 }) }),
  response: OneOffFeeRow,
});

export { BillLineCategory, BillPublishState, BillRunState, BillStatus, BillSummaryDim, OneOffFeeState, BILL_DUE_DAYS };
