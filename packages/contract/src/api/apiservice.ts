import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Page, PageParams, Nothing, Nullable } from './endpoint.ts';
import { Perm } from '../permissions.ts';

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
  summary: { zh: '新增白名单 IP 或 IP 段（结束 IP 须大于起始 IP）', en: 'Add a whitelisted IP or range (end IP after start IP)' },
  body: Obj({ ...CustParam, startIp: Type.String({ maxLength: 15 }), endIp: Type.Optional(Type.String({ maxLength: 15 })), remark: Type.Optional(Type.String({ maxLength: 40 })) }),
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
