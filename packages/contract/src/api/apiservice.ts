import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Page, PageParams, Nothing, Nullable } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { changeCardStatus, getSimListPage } from './carddata.ts';
import { getCardCycle, getCardDetail, getCardHistoryPage } from './carddetail.ts';
import { getCardSessions, getCardUsage } from './usage.ts';

const tag = 'apiservice';
const perm = [Perm.HomeApiManage];
/** Staff act for a customer they choose; customers always for themselves. */
const CustParam = { custId: Type.Optional(Type.Integer()) };

export const ApiKey = Type.Object({
  custId: Type.Integer(),
  custName: Type.String(),
  appKey: Nullable(Type.String()),
  secretHint: Nullable(Type.String()),
  createdAt: Nullable(Type.String()),
  rotatedAt: Nullable(Type.String()),
  /** false for a key created before signed calls (only its hash was kept): it cannot sign until rotated */
  canSign: Type.Boolean(),
});

export const getApiKey = endpoint({
  name: 'openapi/key/query', method: 'POST', auth: 'session', perm, kind: 'query', tag,
  summary: { zh: '查询 API 密钥（密钥只显示末 4 位）', en: 'API key (only the last 4 characters of the secret are shown)' },
  body: Obj(CustParam), response: ApiKey,
});

export const rotateApiKey = endpoint({
  name: 'openapi/key/rotate', method: 'POST', auth: 'session', perm, kind: 'mutation', tag,
  summary: { zh: '生成或轮换 API 密钥（新密钥仅显示这一次）', en: 'Create or rotate the API key (the new secret is shown only this once)' },
  body: Obj(CustParam), response: Type.Object({ appKey: Type.String(), appSecret: Type.String() }),
});

export const ApiConfig = Type.Object({
  custId: Type.Integer(),
  callbackUrl: Nullable(Type.String()),
  callLimitPerMinute: Type.Integer(),
  ipWhitelistEnabled: Type.Boolean(),
});

export const getApiConfig = endpoint({
  name: 'openapi/config/query', method: 'POST', auth: 'session', perm, kind: 'query', tag,
  summary: { zh: '客户 API 配置', en: 'Customer API configuration' },
  body: Obj(CustParam), response: ApiConfig,
});

export const saveApiConfig = endpoint({
  name: 'openapi/config/save', method: 'POST', auth: 'session', perm, kind: 'mutation', tag,
  summary: { zh: '保存客户 API 配置（回调地址）', en: 'Save the customer API configuration (callback address)' },
  body: Obj({ ...CustParam, callbackUrl: Type.Optional(Nullable(Type.String({ maxLength: 300 }))), ipWhitelistEnabled: Type.Optional(Type.Boolean()) }),
  response: Nothing,
});

export const UserIp = Type.Object({
  id: Type.Integer(),
  custId: Type.Integer(),
  startIp: Type.String(),
  endIp: Nullable(Type.String()),
  remark: Nullable(Type.String()),
  open: Type.Boolean(),
  createdBy: Type.String(),
  createdAt: Type.String(),
});

export const getUserIpListPage = endpoint({
  name: 'openapi/userIp/list', method: 'POST', auth: 'session', perm, kind: 'query', tag,
  summary: { zh: 'IP 白名单', en: 'IP whitelist' },
  body: Obj({ ...PageParams, ...CustParam }), response: Page(UserIp),
});

export const saveUserIp = endpoint({
  name: 'openapi/userIp/save', method: 'POST', auth: 'session', perm, kind: 'mutation', tag,
  summary: {
    zh: '新增白名单：IPv4 或 IPv6 地址、地址段（结束 IP 须大于起始 IP，同一协议族）或 CIDR 网段',
    en: 'Add a whitelist entry: an IPv4 or IPv6 address, a range (end IP after start IP, one family) or a CIDR block',
  },
  // the longest form: an IPv6 address with an embedded IPv4 tail and a prefix ('ffff:…:255.255.255.255/128')
  body: Obj({ ...CustParam, startIp: Type.String({ maxLength: 50 }), endIp: Type.Optional(Type.String({ maxLength: 50 })), remark: Type.Optional(Type.String({ maxLength: 40 })) }),
  response: Type.Object({ id: Type.Integer() }),
});

const byId = Obj({ id: Type.Integer() });
export const deleteUserIp = endpoint({
  name: 'openapi/userIp/delete', method: 'POST', auth: 'session', perm, kind: 'mutation', tag,
  summary: { zh: '删除白名单 IP', en: 'Delete a whitelisted IP' }, body: byId, response: Nothing,
});
export const openUserIp = endpoint({
  name: 'openapi/userIp/open', method: 'POST', auth: 'session', perm, kind: 'mutation', tag,
  summary: { zh: '启用白名单 IP', en: 'Enable a whitelisted IP' }, body: byId, response: Nothing,
});
export const stopUserIp = endpoint({
  name: 'openapi/userIp/stop', method: 'POST', auth: 'session', perm, kind: 'mutation', tag,
  summary: { zh: '停用白名单 IP', en: 'Disable a whitelisted IP' }, body: byId, response: Nothing,
});

/*
 * The open API (docs/open-api.md): these endpoints also accept a call signed with the customer's AppKey instead of
 * a session token. A signed call acts as the key's customer (a first-level customer's key sees its tree, a
 * second-level customer's only itself) with OPEN_API_PERMISSIONS, narrowed to what the platform's built-in role of
 * that kind of customer holds; each endpoint still checks its permission code and the tenant.
 */
export const OPEN_API_ENDPOINTS = [getSimListPage, getCardDetail, getCardHistoryPage, getCardCycle, getCardUsage, getCardSessions, changeCardStatus] as const;
/** Names (after /api/cmp/) of the endpoints a signed call may reach. */
export const OPEN_API_ENDPOINT_NAMES: ReadonlySet<string> = new Set(OPEN_API_ENDPOINTS.map((e) => e.name));
/** The permission codes of the open API's role: exactly what its endpoints need. */
export const OPEN_API_PERMISSIONS: readonly number[] = [...new Set(OPEN_API_ENDPOINTS.flatMap((e) => e.perm ?? []))];

/** Signed-call headers and limits (docs/open-api.md, "Signed calls"). */
export const OPEN_API_SIGNING = {
  appKeyHeader: 'x-app-key',
  timestampHeader: 'x-timestamp',
  nonceHeader: 'x-nonce',
  signatureHeader: 'x-signature',
  /** a call's X-Timestamp (Unix milliseconds) may differ from the server's clock by at most this */
  windowMs: 5 * 60_000,
  /** X-Nonce: 16 to 64 characters of A-Z a-z 0-9 _ - */
  noncePattern: '^[A-Za-z0-9_-]{16,64}$',
} as const;

/** Days one usage query may span. */
export const API_USAGE_MAX_DAYS = 366;
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 });

export const ApiUsageDay = Type.Object({
  day: Type.String(),
  custId: Type.Integer(),
  custName: Type.String(),
  appKey: Type.String(),
  /** signed calls that named this key */
  calls: Type.Integer(),
  /** of those, calls that passed the signature and whitelist but were answered with an error */
  errors: Type.Integer(),
  /** of those, calls refused before they ran: bad signature, stale time, replayed nonce, IP outside the whitelist, closed endpoint */
  refused: Type.Integer(),
});

export const getApiUsagePage = endpoint({
  name: 'openapi/usage/list', method: 'POST', auth: 'session', perm, kind: 'query', tag,
  summary: {
    zh: '开放 API 用量：按密钥和日期的调用、错误和拒绝次数（默认最近 30 天，最多 366 天）',
    en: 'Open API usage: calls, errors and refusals per key and day (the last 30 days unless told, at most 366 days)',
  },
  body: Obj({ ...PageParams, ...CustParam, startDay: Type.Optional(Day), endDay: Type.Optional(Day) }),
  response: Type.Object({
    list: Type.Array(ApiUsageDay),
    total: Type.Integer(),
    current: Type.Integer(),
    pageSize: Type.Integer(),
    /** totals over the whole range (every page) */
    sum: Type.Object({ calls: Type.Integer(), errors: Type.Integer(), refused: Type.Integer() }),
    startDay: Type.String(),
    endDay: Type.String(),
  }),
});

export const ApiSubscription = Type.Object({
  custId: Type.Integer(),
  callbackUrl: Nullable(Type.String()),
  /** WebhookEventType values the callback address receives */
  eventTypes: Type.Array(Type.Integer()),
  updatedAt: Nullable(Type.String()),
});

export const getApiSubscription = endpoint({
  name: 'openapi/subscribe/query', method: 'POST', auth: 'session', perm, kind: 'query', tag,
  summary: { zh: '能力订阅：回调地址接收哪些事件', en: 'Ability subscription: which events the callback address receives' },
  body: Obj(CustParam), response: ApiSubscription,
});

export const saveApiSubscription = endpoint({
  name: 'openapi/subscribe/save', method: 'POST', auth: 'session', perm, kind: 'mutation', tag,
  summary: {
    zh: '保存能力订阅（一个客户一个回调地址；订阅事件前须有回调地址）',
    en: 'Save the ability subscription (one callback address per customer; events need an address)',
  },
  body: Obj({
    ...CustParam,
    callbackUrl: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
    eventTypes: Type.Array(Type.Integer({ minimum: 1, maximum: 99 }), { maxItems: 20 }),
  }),
  response: Nothing,
});
