import { Type, type TSchema } from '@sinclair/typebox';
import { endpoint, Obj, PageParams, Nullable, ExportTaskCreated } from './endpoint.ts';
import { Perm } from '../permissions.ts';

/*
 * Usage (issue 5): what the operator feed reports — a card's usage this cycle and per day, its recent data
 * sessions and APN online status (card detail, simDetails); the traffic detail query (/shortcuts/queryflow/list:
 * daily and session records, exported through download tasks); and the Home overview dashboard (edge/homepage).
 * Every call is tenant-scoped on the server: staff see everything, a channel customer its customer tree, a
 * second-level customer itself; usage rows belong to the customer that held the card when it was used.
 * Sizes are bytes; the console shows them base 1024 (formatSize).
 */

const tag = 'usage';

export const UsagePerm = {
  CardList: Perm.CardList,
  Home: Perm.Home,
  /** Shortcuts → traffic detail query: the page and its query button */
  QueryFlowPage: 6100000,
  QueryFlow: 6100001,
} as const;
const P = UsagePerm;

/** Longest date range of one traffic query and of a card's daily series (spec: a month of details at a time). */
export const FLOW_QUERY_MAX_DAYS = 31;
export const CARD_USAGE_MAX_DAYS = 92;
/** Session history of a card (spec §9): the last 100 records within 3 days. */
export const CARD_SESSIONS_LIMIT = 100;
export const CARD_SESSIONS_DAYS = 3;
/** Home: how many customers and links the top lists show. */
export const HOME_TOP_N = 5;

const Iccid = Type.String({ pattern: '^[0-9]{19,20}$' });
const DateOnly = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
const Month = Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' });
const Bytes = Type.Number({ minimum: 0 });

// ---------------------------------------------------------------------------------------------------
// One card (card detail)
// ---------------------------------------------------------------------------------------------------

export const UsageDay = Type.Object({
  /** YYYY-MM-DD, the business time zone */
  day: Type.String(),
  bytes: Bytes,
  bytesUp: Bytes,
  bytesDown: Bytes,
  sms: Type.Integer(),
  voiceSeconds: Type.Integer(),
  sessions: Type.Integer(),
});

export const CardUsage = Type.Object({
  iccid: Type.String(),
  /** the current cycle: the card's contract cycle, else its operator's billing period (China Unicom from the 26th) */
  cycleStart: Type.String(),
  cycleEnd: Type.String(),
  cycleKind: Type.Union([Type.Literal('contract'), Type.Literal('billing')]),
  planName: Nullable(Type.String()),
  /** the cycle's quota: plan quota plus running event packs; null = no quota */
  quotaBytes: Nullable(Bytes),
  usedBytes: Bytes,
  remainingBytes: Nullable(Bytes),
  /** PlanUseUpAction of the plan */
  useUpAction: Nullable(Type.Integer()),
  /** when this cycle's quota ran out and the action after use-up was applied */
  exhaustedAt: Nullable(Type.String()),
  /** how far the operator's usage has been fetched (the usage feed's watermark): usage after it is not in yet; null before the first feed */
  fedUntil: Nullable(Type.String()),
  /** the days of the series (default: the cycle's days up to today) */
  from: Type.String(),
  to: Type.String(),
  /** one entry per day of the range, zero on days without usage */
  days: Type.Array(UsageDay),
  total: UsageDay,
});

export const getCardUsage = endpoint({
  name: 'core/sim/simDetails/getUsage', method: 'POST', auth: 'session', perm: [P.CardList], kind: 'query', tag,
  summary: {
    zh: '卡的用量：本周期已用、额度与剩余，以及按日用量（默认本周期，最长 92 天）',
    en: "A card's usage: used, quota and remaining this cycle, and usage per day (default the cycle, at most 92 days)",
  },
  body: Obj({ iccid: Iccid, from: Type.Optional(DateOnly), to: Type.Optional(DateOnly) }),
  response: CardUsage,
});

export const CardSession = Type.Object({
  sessionId: Type.String(),
  startedAt: Type.String(),
  /** null while open */
  endedAt: Nullable(Type.String()),
  durationSeconds: Type.Integer(),
  apn: Type.String(),
  /** NetworkType */
  rat: Nullable(Type.Integer()),
  cell: Nullable(Type.String()),
  bytesUp: Bytes,
  bytesDown: Bytes,
  bytes: Bytes,
});

export const CardSessions = Type.Object({
  online: Type.Boolean(),
  lastSessionAt: Nullable(Type.String()),
  /** APN online status: each APN of the card's plan and of its recent sessions */
  apns: Type.Array(Type.Object({
    apn: Type.String(),
    online: Type.Boolean(),
    lastSessionAt: Nullable(Type.String()),
  })),
  /** newest first: at most CARD_SESSIONS_LIMIT sessions started within CARD_SESSIONS_DAYS days */
  list: Type.Array(CardSession),
});

export const getCardSessions = endpoint({
  name: 'core/sim/simDetails/getSessions', method: 'POST', auth: 'session', perm: [P.CardList], kind: 'query', tag,
  summary: {
    zh: '卡的会话记录：最近 3 天内最多 100 条数据会话，以及 APN 在线状态',
    en: "A card's session history: at most the last 100 data sessions within 3 days, and APN online status",
  },
  body: Obj({ iccid: Iccid }),
  response: CardSessions,
});

// ---------------------------------------------------------------------------------------------------
// Traffic detail query (/shortcuts/queryflow/list)
// ---------------------------------------------------------------------------------------------------

export const FlowFilters = {
  iccid: Type.Optional(Type.String({ maxLength: 20, pattern: '^[0-9]{19,20}$' })),
  msisdn: Type.Optional(Type.String({ maxLength: 15, pattern: '^[0-9]{5,15}$' })),
  /** China days, both included; default the last 7 days; at most FLOW_QUERY_MAX_DAYS */
  startDate: Type.Optional(DateOnly),
  endDate: Type.Optional(DateOnly),
  /** a customer with its second-level customers (within the caller's scope) */
  custId: Type.Optional(Type.Integer({ minimum: 1 })),
};

export const FlowDailyRow = Type.Object({
  day: Type.String(),
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  operatorId: Type.Integer(),
  apn: Type.String(),
  bytes: Bytes,
  bytesUp: Bytes,
  bytesDown: Bytes,
  sms: Type.Integer(),
  voiceSeconds: Type.Integer(),
  sessions: Type.Integer(),
});

export const FlowSessionRow = Type.Object({
  sessionId: Type.String(),
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  operatorId: Type.Integer(),
  apn: Type.String(),
  startedAt: Type.String(),
  endedAt: Nullable(Type.String()),
  durationSeconds: Type.Integer(),
  rat: Nullable(Type.Integer()),
  cell: Nullable(Type.String()),
  bytes: Bytes,
  bytesUp: Bytes,
  bytesDown: Bytes,
});

const FlowPage = <T extends TSchema>(row: T) =>
  Type.Object({
    list: Type.Array(row),
    total: Type.Integer(),
    current: Type.Integer(),
    pageSize: Type.Integer(),
    /** the range actually searched (defaults filled in) */
    startDate: Type.String(),
    endDate: Type.String(),
    /** totals of the whole result */
    totalBytes: Bytes,
  });

export const getFlowDailyPage = endpoint({
  name: 'shortcuts/queryFlow/getFlowDailyPage', method: 'POST', auth: 'session', perm: [P.QueryFlow], kind: 'query', tag,
  summary: {
    zh: '流量详单（按日）：按 ICCID/MSISDN、日期范围（最长 31 天）、客户查询每张卡每天的用量',
    en: 'Traffic details by day: each card\'s usage per day, by ICCID/MSISDN, date range (at most 31 days) and customer',
  },
  body: Obj({ ...PageParams, ...FlowFilters }),
  response: FlowPage(FlowDailyRow),
});

export const getFlowSessionPage = endpoint({
  name: 'shortcuts/queryFlow/getFlowSessionPage', method: 'POST', auth: 'session', perm: [P.QueryFlow], kind: 'query', tag,
  summary: {
    zh: '流量详单（按会话）：按 ICCID/MSISDN、日期范围（最长 31 天）、客户查询数据会话记录',
    en: 'Traffic details by session: data session records by ICCID/MSISDN, date range (at most 31 days) and customer',
  },
  body: Obj({ ...PageParams, ...FlowFilters }),
  response: FlowPage(FlowSessionRow),
});

const ExportBody = Obj({ ...FlowFilters, format: Type.Optional(Type.Integer()) });

export const exportFlowDaily = endpoint({
  name: 'shortcuts/queryFlow/exportFlowDaily', method: 'POST', auth: 'session', perm: [P.QueryFlow], kind: 'mutation', tag,
  summary: { zh: '导出流量详单（按日，下载任务）', en: 'Export traffic details by day (download task)' },
  body: ExportBody,
  response: ExportTaskCreated,
});

export const exportFlowSessions = endpoint({
  name: 'shortcuts/queryFlow/exportFlowSessions', method: 'POST', auth: 'session', perm: [P.QueryFlow], kind: 'mutation', tag,
  summary: { zh: '导出流量详单（按会话，下载任务）', en: 'Export traffic details by session (download task)' },
  body: ExportBody,
  response: ExportTaskCreated,
});

// ---------------------------------------------------------------------------------------------------
// Home overview (edge/homepage)
// ---------------------------------------------------------------------------------------------------

const MonthBody = Obj({ month: Type.Optional(Month) });

export const getHomeCardStates = endpoint({
  name: 'edge/homepage/cardStateCount', method: 'POST', auth: 'session', perm: [P.Home], kind: 'query', tag,
  summary: { zh: '首页：各状态的卡数', en: 'Home: number of cards in each state' },
  body: Obj({}),
  response: Type.Object({
    total: Type.Integer(),
    /** every card state, zero included, in state order */
    states: Type.Array(Type.Object({ state: Type.Integer(), count: Type.Integer() })),
  }),
});

export const getHomeMonthUsage = endpoint({
  name: 'edge/homepage/usedInfo', method: 'POST', auth: 'session', perm: [P.Home], kind: 'query', tag,
  summary: { zh: '首页：本月（或指定月份）用量合计与每日用量', en: "Home: this (or the given) month's usage total and usage per day" },
  body: MonthBody,
  response: Type.Object({
    month: Type.String(),
    bytes: Bytes,
    sms: Type.Integer(),
    voiceSeconds: Type.Integer(),
    sessions: Type.Integer(),
    /** the month before, for comparison */
    previousBytes: Bytes,
    /** every day of the month up to today, zero included */
    days: Type.Array(Type.Object({ day: Type.String(), bytes: Bytes })),
  }),
});

export const getHomeTopCustomers = endpoint({
  name: 'edge/homepage/top5CustomerUsage', method: 'POST', auth: 'session', perm: [P.Home], kind: 'query', tag,
  summary: {
    zh: '首页：本月用量前 5 的客户（运营人员按一级客户汇总，客户按自身及其二级客户）',
    en: "Home: the 5 customers with the most usage this month (staff: first-level customers with their trees; a customer: itself and its second-level customers)",
  },
  body: MonthBody,
  response: Type.Object({
    month: Type.String(),
    list: Type.Array(Type.Object({ custId: Type.Integer(), custName: Type.String(), bytes: Bytes })),
  }),
});

export const getHomeTopLinks = endpoint({
  name: 'edge/homepage/linkTop5', method: 'POST', auth: 'session', perm: [P.Home], kind: 'query', tag,
  summary: {
    zh: '首页：本月用量前 5 的链路（运营商 + APN）',
    en: 'Home: the 5 links (operator + APN) with the most usage this month',
  },
  body: MonthBody,
  response: Type.Object({
    month: Type.String(),
    list: Type.Array(Type.Object({ operatorId: Type.Integer(), apn: Type.String(), bytes: Bytes, sessions: Type.Integer() })),
  }),
});
