import { Type } from '@sinclair/typebox';
import { endpoint, ExportTaskCreated, MoneyText, Nullable, Obj, Page, PageParams, SortParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { CardState } from '../enums/card.ts';
import { ReportPeriod } from '../enums/money.ts';

/**
 * Report › Monthly SIM report (/report/cardreport/list, 10010000) and Report › Data usage
 * (/report/communicationUsage/list, 10030000; spec §7 `edge/es/report` monthFlow, dayFlow, exportFile).
 * Months and days are those of the business time zone (UTC+8 by default). Staff see every customer and the
 * platform's stock (custId 0); a first-level customer its tree; a second-level customer itself.
 */
const tag = 'simreport';
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
/** a business month 'YYYY-MM' */
export const BusinessMonth = Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$' });

/**
 * How the monthly SIM report groups the card states (spec §4): before use (start, test, activation ready,
 * inventory), activated, deactivated (by the customer or forced), and closed (invalidated, retired).
 */
export const CARD_REPORT_STATE_GROUPS = {
  beforeUse: [CardState.Start, CardState.Test, CardState.ActivationReady, CardState.Inventory],
  activated: [CardState.Activated],
  deactivated: [CardState.Deactivated, CardState.Frozen],
  closed: [CardState.Invalidated, CardState.Retired],
} as const satisfies Record<string, readonly number[]>;
/** The states that close a card in the month (a card_history change into one of them). */
export const CARD_REPORT_CLOSING_STATES: readonly number[] = CARD_REPORT_STATE_GROUPS.closed;

export const CardReportCounts = Type.Object({
  /** cards the customer holds now, by state group (the state is the card's current one) */
  cards: Type.Integer(),
  beforeUse: Type.Integer(),
  activated: Type.Integer(),
  deactivated: Type.Integer(),
  closed: Type.Integer(),
  /** cards created (imported) in the month */
  newCards: Type.Integer(),
  /** cards first activated in the month (activation time) */
  activatedInMonth: Type.Integer(),
  /** cards that went to invalidated or retired in the month (card history) */
  closedInMonth: Type.Integer(),
  /** data used in the month, bytes (up + down) */
  bytes: Type.Integer(),
  sms: Type.Integer(),
  /** the total of the month's bills (published bills only for customers); null: no bill for the month */
  fee: Nullable(MoneyText),
});

export const CardReportRow = Type.Intersect([
  Type.Object({
    /** 0: cards in the platform's stock (staff only) */
    custId: Type.Integer(),
    custName: Nullable(Type.String()),
    /** CustomerLevel; 0 for the stock */
    level: Type.Integer(),
    parentCustName: Nullable(Type.String()),
  }),
  CardReportCounts,
]);

export const CardReportFilters = {
  /** the business month; the current one when absent */
  month: Type.Optional(BusinessMonth),
  /** one customer in the viewer's scope (staff, a first-level customer); 0 = the platform's stock (staff) */
  custId: Type.Optional(Type.Integer({ minimum: 0 })),
};

export const getCardReportPage = endpoint({
  name: 'core/report/cardReport/getCardReportPage', method: 'POST', auth: 'session', perm: [Perm.ReportCard], kind: 'query', tag,
  summary: { zh: '月度卡报表：每个客户的卡与用量', en: 'Monthly SIM report: cards and usage per customer' },
  body: Obj({ ...PageParams, ...SortParams, ...CardReportFilters }),
  response: Type.Intersect([
    Page(CardReportRow),
    Type.Object({ month: BusinessMonth, totals: CardReportCounts }),
  ]),
});

export const exportCardReport = endpoint({
  name: 'core/report/cardReport/exportCardReport', method: 'POST', auth: 'session', perm: [Perm.ReportCard], kind: 'mutation', tag,
  summary: { zh: '导出月度卡报表', en: 'Export the monthly SIM report' },
  body: Obj({ ...SortParams, ...CardReportFilters, format: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })) }),
  response: ExportTaskCreated,
});

/** The longest ranges of the data usage report: 31 days by day, 12 months by month. */
export const USAGE_REPORT_MAX_DAYS = 31;
export const USAGE_REPORT_MAX_MONTHS = 12;

export const UsageReportAmounts = Type.Object({
  /** bytes up + down */
  bytes: Type.Integer(),
  sms: Type.Integer(),
  voiceSeconds: Type.Integer(),
  /** data sessions started */
  sessions: Type.Integer(),
  /** cards with usage: that day's; for a month or a total, the busiest day's */
  cards: Type.Integer(),
});

export const UsageReportRow = Type.Intersect([
  Type.Object({
    /** 'YYYY-MM-DD' (by day) or 'YYYY-MM' (by month) */
    period: Type.String(),
    /** 0: cards in the platform's stock (staff only) */
    custId: Type.Integer(),
    custName: Nullable(Type.String()),
    operatorId: Type.Integer(),
    /** the operator's name in both languages */
    operatorName: Type.Object({ zh: Type.String(), en: Type.String() }),
  }),
  UsageReportAmounts,
]);

export const UsageReportFilters = {
  /** business days, inclusive; by month, the whole months they touch. Default: this month so far (by day), the last 6 months (by month) */
  startDate: Type.Optional(Day),
  endDate: Type.Optional(Day),
  custId: Type.Optional(Type.Integer({ minimum: 0 })),
  operatorId: Type.Optional(Type.Integer({ minimum: 1, maximum: 32767 })),
  apn: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
};

const usageResponse = Type.Intersect([
  Page(UsageReportRow),
  Type.Object({ startDate: Day, endDate: Day, totals: UsageReportAmounts }),
]);

export const getDayFlow = endpoint({
  name: 'edge/es/report/dayFlow', method: 'POST', auth: 'session', perm: [Perm.ReportUsage], kind: 'query', tag,
  summary: { zh: '流量使用：按日', en: 'Data usage by day' },
  body: Obj({ ...PageParams, ...UsageReportFilters }),
  response: usageResponse,
});

export const getMonthFlow = endpoint({
  name: 'edge/es/report/monthFlow', method: 'POST', auth: 'session', perm: [Perm.ReportUsage], kind: 'query', tag,
  summary: { zh: '流量使用：按月', en: 'Data usage by month' },
  body: Obj({ ...PageParams, ...UsageReportFilters }),
  response: usageResponse,
});

export const exportFile = endpoint({
  name: 'edge/es/report/exportFile', method: 'POST', auth: 'session', perm: [Perm.ReportUsage], kind: 'mutation', tag,
  summary: { zh: '导出流量使用', en: 'Export data usage' },
  body: Obj({ ...UsageReportFilters, type: Type.Integer({ minimum: 1, maximum: 2 }), format: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })) }),
  response: ExportTaskCreated,
});

export { ReportPeriod };
