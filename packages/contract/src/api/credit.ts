import { Type } from '@sinclair/typebox';
import { endpoint, ExportTaskCreated, MoneyInput, MoneyText, Nullable, Obj, Page, PageParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { CREDIT_REASON_MAX, CreditChangeAction, CreditPaymentUnit, CreditRange, CreditStatus, CreditType } from '../enums/credit.ts';

/**
 * Financial › Credit (issue 13, spec §2 /financial/credit/list and /change-log/:creditId, §3 credit order, §7 credit
 * group, §9 credit ranges; code 9010000). A credit order lets a customer spend below zero: its pre-deposit may fall
 * to minus the sum of its valid orders (customer_balances.credit). Only platform staff create, edit and reset credit
 * (a customer never credits itself: 20802; nor its own sub-customers: 20870); customers see their own orders (a
 * first-level customer its tree) read-only. Every change writes a change-log row and an audit record.
 */
const tag = 'credit';
const P = [Perm.FinancialCredit] as const;
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Reason = Type.String({ minLength: 1, maxLength: CREDIT_REASON_MAX });

export const CreditRow = Type.Object({
  creditId: Type.Integer(),
  /** CR + the business day it was granted + its id */
  creditNo: Type.String(),
  custId: Type.Integer(),
  custName: Type.String(),
  /** CreditType: fixed or provisional */
  creditType: Type.Integer(),
  /** CreditStatus, computed from the dates and the reset at the time of reading */
  status: Type.Integer(),
  amount: MoneyText,
  /** the repayment term ("payment time and unit"): spending on credit is due within paymentTerm paymentUnit */
  paymentTerm: Type.Integer(),
  paymentUnit: Type.Integer(),
  /** validity, business days inclusive; a fixed credit has no end (null) */
  validFrom: Type.String(),
  validTo: Nullable(Type.String()),
  remark: Nullable(Type.String()),
  resetAt: Nullable(Type.String()),
  resetBy: Nullable(Type.String()),
  resetReason: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const CreditFilters = {
  custId: Type.Optional(Type.Integer({ minimum: 1 })),
  custName: Type.Optional(Type.String({ maxLength: 100 })),
  creditNo: Type.Optional(Type.String({ maxLength: 32 })),
  creditType: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
  /** CreditRange: the §9 amount bucket */
  range: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
};

export const getCreditListPage = endpoint({
  name: 'core/finance/credit/getCreditListPage', method: 'POST', auth: 'session', perm: P, kind: 'query', tag,
  summary: { zh: '授信列表', en: 'Credit orders' },
  body: Obj({ ...PageParams, ...CreditFilters }),
  response: Page(CreditRow),
});

export const exportCreditList = endpoint({
  name: 'core/finance/credit/exportCreditList', method: 'POST', auth: 'session', perm: P, kind: 'mutation', tag,
  summary: { zh: '导出授信列表', en: 'Export credit orders' },
  body: Obj({ ...CreditFilters, format: Type.Optional(Type.Integer()) }),
  response: ExportTaskCreated,
});

export const getCreditDetail = endpoint({
  name: 'core/finance/credit/getCreditDetail', method: 'POST', auth: 'session', perm: P, kind: 'query', tag,
  summary: { zh: '授信详情', en: 'A credit order' },
  body: Obj({ creditId: Type.Integer({ minimum: 1 }) }),
  response: CreditRow,
});

/** The terms of a credit order a finance person sets. */
const CreditTerms = {
  creditType: Type.Integer({ minimum: 1, maximum: 2 }),
  /** CNY, more than 0, at most CREDIT_AMOUNT_MAX */
  amount: MoneyInput,
  paymentTerm: Type.Integer({ minimum: 1, maximum: 365 }),
  paymentUnit: Type.Integer({ minimum: 1, maximum: 2 }),
  /** the last valid day of a provisional credit (required for it, ignored for a fixed one) */
  validTo: Type.Optional(Day),
  remark: Type.Optional(Type.String({ maxLength: CREDIT_REASON_MAX })),
};

export const saveCredit = endpoint({
  name: 'core/finance/credit/saveCredit', method: 'POST', auth: 'session', perm: P, kind: 'mutation', tag,
  summary: { zh: '新建授信（平台财务）', en: 'Grant credit (platform finance)' },
  body: Obj({ custId: Type.Integer({ minimum: 1 }), ...CreditTerms }),
  response: CreditRow,
});

export const updateCredit = endpoint({
  name: 'core/finance/credit/updateCredit', method: 'POST', auth: 'session', perm: P, kind: 'mutation', tag,
  summary: { zh: '修改授信（平台财务）', en: 'Change a credit order (platform finance)' },
  body: Obj({ creditId: Type.Integer({ minimum: 1 }), ...CreditTerms, reason: Reason }),
  response: CreditRow,
});

export const resetCredit = endpoint({
  name: 'core/finance/credit/resetCredit', method: 'POST', auth: 'session', perm: P, kind: 'mutation', tag,
  summary: { zh: '重置授信：立即结束，金额不再计入（平台财务）', en: 'Reset a credit order: end it now, its amount no longer counts (platform finance)' },
  body: Obj({ creditId: Type.Integer({ minimum: 1 }), reason: Reason }),
  response: CreditRow,
});

export const CreditChangeRow = Type.Object({
  changeId: Type.Integer(),
  creditId: Type.Integer(),
  /** CreditChangeAction */
  action: Type.Integer(),
  before: Nullable(Type.Record(Type.String(), Type.Unknown())),
  after: Nullable(Type.Record(Type.String(), Type.Unknown())),
  reason: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
});

export const getCreditChangeLog = endpoint({
  name: 'core/finance/credit/getCreditChangeLog', method: 'POST', auth: 'session', perm: P, kind: 'query', tag,
  summary: { zh: '授信变更记录', en: 'A credit order\'s change log' },
  body: Obj({ ...PageParams, creditId: Type.Integer({ minimum: 1 }) }),
  response: Page(CreditChangeRow),
});

export { CreditChangeAction, CreditPaymentUnit, CreditRange, CreditStatus, CreditType };
