import { Type } from '@sinclair/typebox';
import { endpoint, ExportTaskCreated, MoneyText, Nullable, Obj, Page, PageParams, SortParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { ReportPeriod } from '../enums/money.ts';

/**
 * Financial › Accounting reports (issue 14, spec §2 /financial/report/list and /financial/report/detail/:id/:type,
 * §7 "day and month business reports with detail and export"; code 9050000). A statement of the customers' money per
 * business day and per business month, read from the ledger (docs/money.md, docs/accounting-reports.md): a customer's
 * money is the sum of its accounts (pre-deposit, grants, contract payments, held for withdrawal), so moves between its
 * own accounts net to zero and only money coming in or going out shows. Every row: opening + the movements = closing.
 *
 * Daily reports are built by a job once a business day has closed; a month is the sum of its built days (its opening
 * the first day's, its closing the last day's). Staff see the platform and every customer; a first-level customer its
 * tree (the totals are its tree's); a second-level customer itself.
 */
const tag = 'report';
const P = [Perm.FinancialReport] as const;
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
/** a business day 'YYYY-MM-DD' (daily) or a business month 'YYYY-MM' (monthly) */
export const ReportId = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\\d|3[01]))?$' });
const PeriodType = Type.Integer({ minimum: 1, maximum: 2 });

/**
 * The money of a report row, signed: money in is positive, money out negative, so opening + every movement = closing.
 * Decimal strings with two decimals.
 */
export const AccountingAmounts = Type.Object({
  /** the money at 00:00 of the period's first day (the previous day's closing) */
  opening: MoneyText,
  /** opening balances brought into the ledger (JournalKind.Opening) */
  carriedIn: MoneyText,
  /** top-ups, online and public transfers */
  recharge: MoneyText,
  /** grants given by the operator */
  grant: MoneyText,
  /** top-ups refunded (negative) */
  refund: MoneyText,
  /** refunds the channel refused, given back (positive) */
  refundReversal: MoneyText,
  /** charges (negative) */
  spend: MoneyText,
  /** bills written off from pre-deposit and grants (negative) */
  writeOff: MoneyText,
  /** withdrawals paid out to the customer's bank (negative) */
  withdrawPaid: MoneyText,
  /** adjustments by finance (either sign) */
  adjust: MoneyText,
  /** any other movement (none today; kept so the sum always holds) */
  other: MoneyText,
  /** the money at the end of the period's last day */
  closing: MoneyText,
});

/** One report: a business day or month, over the viewer's scope. */
export const ReportRow = Type.Intersect([
  Type.Object({
    /** the day 'YYYY-MM-DD' or the month 'YYYY-MM' (the detail's id) */
    id: Type.String(),
    /** ReportPeriod */
    type: Type.Integer(),
    /** the first and last business day it covers (a month not yet over: up to the last built day) */
    periodStart: Day,
    periodEnd: Day,
    /** false for the current month (its days so far) */
    complete: Type.Boolean(),
    /** customers with money or a movement in the period */
    customers: Type.Integer(),
    /** when its last day was built */
    builtAt: Type.String(),
  }),
  AccountingAmounts,
]);

export const ReportFilters = {
  /** ReportPeriod: daily or monthly */
  type: PeriodType,
  /** business days, inclusive; a monthly report lists the months that overlap them */
  startDate: Type.Optional(Day),
  endDate: Type.Optional(Day),
  /** one customer in the viewer's scope (staff, a first-level customer) */
  custId: Type.Optional(Type.Integer({ minimum: 1 })),
};

export const getAccountingReportListPage = endpoint({
  name: 'core/finance/report/getAccountingReportListPage', method: 'POST', auth: 'session', perm: P, kind: 'query', tag,
  summary: { zh: '对账报表：日报与月报', en: 'Accounting reports: daily and monthly' },
  body: Obj({ ...PageParams, ...ReportFilters }),
  response: Type.Intersect([
    Page(ReportRow),
    Type.Object({
      /** the whole filtered range: the first period's opening, the sums, the last period's closing; null without reports */
      totals: Nullable(AccountingAmounts),
      /** the last business day built (null: none yet; reports are built after each day closes) */
      builtThrough: Nullable(Day),
    }),
  ]),
});

export const exportAccountingReportList = endpoint({
  name: 'core/finance/report/exportAccountingReportList', method: 'POST', auth: 'session', perm: P, kind: 'mutation', tag,
  summary: { zh: '导出对账报表', en: 'Export accounting reports' },
  body: Obj({ ...ReportFilters, format: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })) }),
  response: ExportTaskCreated,
});

/** One customer's statement for the period. */
export const ReportCustomerRow = Type.Intersect([
  Type.Object({
    custId: Type.Integer(),
    custName: Type.String(),
    /** CustomerLevel */
    level: Type.Integer(),
    parentCustName: Nullable(Type.String()),
  }),
  AccountingAmounts,
]);

export const ReportDetailFilters = {
  /** the day 'YYYY-MM-DD' (daily) or the month 'YYYY-MM' (monthly) */
  id: ReportId,
  type: PeriodType,
  custName: Type.Optional(Type.String({ maxLength: 100 })),
  custId: Type.Optional(Type.Integer({ minimum: 1 })),
};

export const getAccountingReportDetail = endpoint({
  name: 'core/finance/report/getAccountingReportDetail', method: 'POST', auth: 'session', perm: P, kind: 'query', tag,
  summary: { zh: '对账报表详情：每个客户的对账单', en: 'An accounting report: each customer\'s statement' },
  body: Obj({ ...PageParams, ...SortParams, ...ReportDetailFilters }),
  response: Type.Intersect([Page(ReportCustomerRow), Type.Object({ report: ReportRow })]),
});

export const exportAccountingReportDetail = endpoint({
  name: 'core/finance/report/exportAccountingReportDetail', method: 'POST', auth: 'session', perm: P, kind: 'mutation', tag,
  summary: { zh: '导出对账报表详情', en: 'Export an accounting report\'s statements' },
  body: Obj({ ...ReportDetailFilters, format: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })) }),
  response: ExportTaskCreated,
});

export { ReportPeriod };
