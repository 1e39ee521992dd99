import { Type } from '@sinclair/typebox';
import { endpoint, ExportTaskCreated, MoneyText, Nullable, Obj, Page, PageParams, SortParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { JournalKind, LedgerAccount } from '../enums/money.ts';

/**
 * Business › Capital (issue 13, spec §2 /business/capital, code 8030000; the home tile and the shortcut alias use the
 * same calls): every customer's balances, read from the ledger's projection, and one customer's ledger with the
 * running balance of each account. Staff see every customer, a first-level customer its tree, a second-level one itself.
 */
const tag = 'capital';
const P = [Perm.BusinessCapital, Perm.HomeTileCapital] as const;
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** One customer's money (decimal strings with two decimals). */
export const Balances = Type.Object({
  /** pre-deposit: top-ups less charges; may fall below zero down to minus the valid credit */
  preDeposit: MoneyText,
  /** grants: given by the operator, spendable, never withdrawable */
  grants: MoneyText,
  contractPayment: MoneyText,
  /** the valid credit (fixed and unexpired provisional credit orders) */
  credit: MoneyText,
  /** held by withdrawals in progress */
  withdrawHold: MoneyText,
  /** what can be spent now: pre-deposit + grants + contract payments + valid credit */
  available: MoneyText,
  /** what can be withdrawn now: the positive pre-deposit */
  withdrawable: MoneyText,
});

export const CapitalRow = Type.Intersect([
  Type.Object({
    custId: Type.Integer(),
    custName: Type.String(),
    level: Type.Integer(),
    parentCustName: Nullable(Type.String()),
    paymentModel: Nullable(Type.Integer()),
    /** the last money movement */
    updatedAt: Nullable(Type.String()),
  }),
  Balances,
]);

export const CapitalFilters = {
  custName: Type.Optional(Type.String({ maxLength: 100 })),
  custId: Type.Optional(Type.Integer({ minimum: 1 })),
  level: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
};

export const getCapitalListPage = endpoint({
  name: 'core/finance/capital/getCapitalListPage', method: 'POST', auth: 'session', perm: P, kind: 'query', tag,
  summary: { zh: '资金列表：每个客户的余额', en: 'Capital: every customer\'s balances' },
  body: Obj({ ...PageParams, ...SortParams, ...CapitalFilters }),
  response: Page(CapitalRow),
});

export const exportCapitalList = endpoint({
  name: 'core/finance/capital/exportCapitalList', method: 'POST', auth: 'session', perm: P, kind: 'mutation', tag,
  summary: { zh: '导出资金列表', en: 'Export the capital list' },
  body: Obj({ ...CapitalFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

export const getCapitalDetail = endpoint({
  name: 'core/finance/capital/getCapitalDetail', method: 'POST', auth: 'session', perm: P, kind: 'query', tag,
  summary: { zh: '客户资金详情（不传客户时为本客户）', en: 'A customer\'s balances (without a customer: the caller\'s own)' },
  body: Obj({ custId: Type.Optional(Type.Integer({ minimum: 1 })) }),
  response: Type.Intersect([Type.Object({ custId: Type.Integer(), custName: Type.String(), level: Type.Integer(), paymentModel: Nullable(Type.Integer()) }), Balances]),
});

/** One posting of a customer's account, with that account's balance right after it. */
export const LedgerLine = Type.Object({
  postingId: Type.Integer(),
  journalId: Type.Integer(),
  kind: Type.Integer(),
  account: Type.Integer(),
  /** positive: money in; negative: money out */
  amount: MoneyText,
  balanceAfter: MoneyText,
  refType: Nullable(Type.String()),
  refId: Nullable(Type.String()),
  memo: Nullable(Type.String()),
  createdBy: Nullable(Type.String()),
  createdAt: Type.String(),
});

export const LedgerFilters = {
  custId: Type.Optional(Type.Integer({ minimum: 1 })),
  kind: Type.Optional(Type.Integer({ minimum: 1, maximum: 99 })),
  account: Type.Optional(Type.Integer({ minimum: 1, maximum: 99 })),
  /** business days (the business time zone), inclusive */
  startDate: Type.Optional(Day),
  endDate: Type.Optional(Day),
};

export const getCapitalLedgerPage = endpoint({
  name: 'core/finance/capital/getCapitalLedgerPage', method: 'POST', auth: 'session', perm: P, kind: 'query', tag,
  summary: { zh: '客户资金流水（含变动后余额）', en: 'A customer\'s ledger, with the balance after each movement' },
  body: Obj({ ...PageParams, ...LedgerFilters }),
  response: Page(LedgerLine),
});

export const exportCapitalLedger = endpoint({
  name: 'core/finance/capital/exportCapitalLedger', method: 'POST', auth: 'session', perm: P, kind: 'mutation', tag,
  summary: { zh: '导出客户资金流水', en: 'Export a customer\'s ledger' },
  body: Obj({ ...LedgerFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

/** The last nightly check of the balances against the postings (staff). */
export const getLedgerCheck = endpoint({
  name: 'core/finance/capital/getLedgerCheck', method: 'POST', auth: 'session', perm: P, kind: 'query', tag,
  summary: { zh: '最近一次余额核对', en: 'The last balance check' },
  body: Obj({}),
  response: Nullable(Type.Object({
    checkedAt: Type.String(),
    ok: Type.Boolean(),
    postings: Type.Integer(),
    durationMs: Type.Integer(),
    /** customers (and accounts) whose balance differs from the sum of their postings, and unbalanced journals */
    mismatches: Type.Array(Type.Object({ custId: Nullable(Type.Integer()), account: Nullable(Type.Integer()), journalId: Nullable(Type.Integer()), expected: MoneyText, actual: MoneyText })),
  })),
});

/**
 * The home overview's company balances (spec §7 busCenter/home/companyInfo): the signed-in customer's own money,
 * linking to its capital detail. Staff have no company of their own: null.
 */
export const getCompanyInfo = endpoint({
  name: 'busCenter/home/companyInfo', method: 'POST', auth: 'session', perm: [Perm.Home], kind: 'query', tag,
  summary: { zh: '首页：本公司余额', en: 'Home: the signed-in company\'s balances' },
  body: Obj({}),
  response: Nullable(Type.Intersect([Type.Object({ custId: Type.Integer(), custName: Type.String(), level: Type.Integer() }), Balances])),
});

export { JournalKind, LedgerAccount };
