import { Type } from '@sinclair/typebox';
import { endpoint, Nullable, Obj, Page, PageParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { PoolEventType } from './pool.ts';

/**
 * Shortcuts › China Unicom account operation (/shortcuts/cust-operation/list and
 * /detail/:accountName/:ratePlanName/:zoneName/:queryDate, 6030000; spec §7 network group "operatorsAccount" and
 * "pooled Unicom alarm messages"; docs/decisions.md "Issue 15: Unicom account operation").
 *
 * One row = one China Unicom account × rate plan × zone × business day, summed from the stored daily usage of the
 * China Unicom cards on that plan. The account is the one that serves the operator's cards (its first access
 * configuration, else the built-in network); the zone is the plan's first zone (the daily counters carry no zone).
 * Staff see every card; a customer holding the code sees only its own cards (first level: its tree).
 */
const tag = 'custoperation';
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** The longest date range of one query (days, inclusive); the default is the last 7 days. */
export const CUST_OPERATION_MAX_DAYS = 31;
export const CUST_OPERATION_DEFAULT_DAYS = 7;
/** Alarm messages shown on one detail (newest first). */
export const CUST_OPERATION_ALARMS_MAX = 100;
/** The pool events that are pooled-usage alarms (the pool rule's, not a person's manual block). */
export const POOL_ALARM_TYPES: readonly number[] = [
  PoolEventType.ThresholdReached, PoolEventType.QuotaBlocked, PoolEventType.QuotaUnblocked, PoolEventType.CycleUnblocked,
];

export const CustOperationAmounts = Type.Object({
  /** cards of the plan with a usage row that day (for a total: the sum over the rows) */
  cards: Type.Integer(),
  /** bytes up + down */
  bytes: Type.Integer(),
  sms: Type.Integer(),
  voiceSeconds: Type.Integer(),
  sessions: Type.Integer(),
  /** pooled-usage alarm messages of the day (pools holding cards of the plan) */
  alarms: Type.Integer(),
});

export const CustOperationRow = Type.Intersect([
  Type.Object({
    /** 0 = the operator's built-in network (no access configuration) */
    operAccountId: Type.Integer(),
    accountName: Type.String(),
    goodsReleaseId: Type.Integer(),
    ratePlanName: Type.String(),
    ratePlanCode: Type.String(),
    /** the plan's quota per card per cycle, MB (0 = none) */
    quotaMb: Type.Number(),
    zoneName: Nullable(Type.String()),
    zoneNameEn: Nullable(Type.String()),
    /** the business day 'YYYY-MM-DD' */
    queryDate: Day,
  }),
  CustOperationAmounts,
]);

export const CustOperationFilters = {
  /** an access configuration id; 0 = the built-in network */
  operAccountId: Type.Optional(Type.Integer({ minimum: 0 })),
  goodsReleaseId: Type.Optional(Type.Integer({ minimum: 1 })),
  /** the zone's name in either language, as a part of it */
  zoneName: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  startDate: Type.Optional(Day),
  endDate: Type.Optional(Day),
};

export const getCustOperationPage = endpoint({
  name: 'core/network/operatorsAccount/getCustOperationPage', method: 'POST', auth: 'session', perm: [Perm.ShortcutsCustOperation], kind: 'query', tag,
  summary: { zh: '联通账户运营：账户 × 资费计划 × 区域 × 日的用量', en: 'China Unicom account operation: usage per account × rate plan × zone × day' },
  body: Obj({ ...PageParams, ...CustOperationFilters }),
  response: Type.Intersect([
    Page(CustOperationRow),
    Type.Object({ startDate: Day, endDate: Day, totals: CustOperationAmounts }),
  ]),
});

/** The options of the filters: the China Unicom accounts and the rate plans with cards in the viewer's scope. */
export const getCustOperationOptions = endpoint({
  name: 'core/network/operatorsAccount/getCustOperationOptions', method: 'POST', auth: 'session', perm: [Perm.ShortcutsCustOperation], kind: 'query', tag,
  summary: { zh: '联通账户运营：筛选项', en: 'China Unicom account operation: filter options' },
  body: Obj({}),
  response: Type.Object({
    accounts: Type.Array(Type.Object({ operAccountId: Type.Integer(), accountName: Type.String(), servesCards: Type.Boolean() })),
    plans: Type.Array(Type.Object({ goodsReleaseId: Type.Integer(), name: Type.String(), code: Type.String() })),
  }),
});

/** A detail is named by the names of its row, as the route is (spec §2). */
const DetailKey = {
  accountName: Type.String({ minLength: 1, maxLength: 128 }),
  ratePlanName: Type.String({ minLength: 1, maxLength: 128 }),
  zoneName: Type.String({ minLength: 1, maxLength: 64 }),
  queryDate: Day,
};

export const PoolAlarm = Type.Object({
  eventId: Type.Integer(),
  poolId: Type.Integer(),
  poolName: Type.String(),
  /** PoolEventType */
  type: Type.Integer(),
  at: Type.String(),
  usedBytes: Nullable(Type.Integer()),
  quotaBytes: Nullable(Type.Integer()),
  memberCount: Nullable(Type.Integer()),
  /** the pool's alert threshold, % of its quota */
  alertPercent: Type.Integer(),
});

export const getCustOperationDetail = endpoint({
  name: 'core/network/operatorsAccount/getCustOperationDetail', method: 'POST', auth: 'session', perm: [Perm.ShortcutsCustOperation], kind: 'query', tag,
  summary: { zh: '联通账户运营：流量池详情与告警消息', en: 'China Unicom account operation: pool detail and alarm messages' },
  body: Obj(DetailKey),
  response: Type.Object({
    row: CustOperationRow,
    /** the China Unicom billing period holding the day (from the 26th, spec §9) */
    periodFrom: Day,
    periodTo: Day,
    /** the plan's cards that used data in the period up to the day, and their pooled usage */
    periodCards: Type.Integer(),
    periodBytes: Type.Integer(),
    /** the pool the plan's cards share in the period: Σ the plan's quota over those cards (0 = no quota) */
    pooledQuotaBytes: Type.Integer(),
    /** the period's pooled-usage alarm messages up to the day's end, newest first (at most CUST_OPERATION_ALARMS_MAX) */
    alarms: Type.Array(PoolAlarm),
  }),
});

export const CustOperationCard = Type.Object({
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  bytes: Type.Integer(),
  sms: Type.Integer(),
  sessions: Type.Integer(),
  /** the card's usage in the billing period up to the day */
  periodBytes: Type.Integer(),
});

export const getCustOperationCardPage = endpoint({
  name: 'core/network/operatorsAccount/getCustOperationCardPage', method: 'POST', auth: 'session', perm: [Perm.ShortcutsCustOperation], kind: 'query', tag,
  summary: { zh: '联通账户运营：当日各卡用量', en: 'China Unicom account operation: the day\'s usage per card' },
  body: Obj({ ...PageParams, ...DetailKey }),
  response: Page(CustOperationCard),
});
