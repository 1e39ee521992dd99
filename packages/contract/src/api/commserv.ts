// Communication services (spec §3, §5, §9; Operator → /operator/commserv-list/*): services, their QoS
// profiles, and the speed-limit and redirect configurations they may use. Operator staff only.
import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Page, PageParams, SortParams, Nothing, Nullable } from './endpoint.ts';
import {
  COMMSERV_PRIORITY_MAX, COMMSERV_PRIORITY_MIN, QOS_ARP_MAX, QOS_ARP_MIN, QOS_KBPS_MAX, QOS_QCI_MAX, QOS_QCI_MIN,
} from '../enums/commserv.ts';

const tag = 'network';
const PAGE = 7030000;
const ADD = 7030001;
const EDIT = 7030002;
const DELETE = 7030003;
const CONFIG = 7030004;

const Kbps = (extra: Record<string, unknown> = {}) => Type.Integer({ minimum: 1, maximum: QOS_KBPS_MAX, ...extra });
const Id = Type.Integer({ minimum: 1 });

// ---- communication services ----

export const CommServ = Type.Object({
  commservId: Type.Integer(),
  commservName: Type.String(),
  /** the English name, when the service has one (a reader in English sees it) */
  commservNameEn: Nullable(Type.String()),
  commservType: Type.Integer(),
  directional: Type.Boolean(),
  priority: Type.Integer(),
  description: Nullable(Type.String()),
  whitelist: Type.Array(Type.String()),
  redirectAddress: Nullable(Type.String()),
  speedLimitId: Nullable(Type.Integer()),
  speedLimitName: Nullable(Type.String()),
  redirectId: Nullable(Type.Integer()),
  redirectName: Nullable(Type.String()),
  status: Type.Integer(),
  qosCount: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const CommServDetail = Type.Object({
  ...CommServ.properties,
  /** basic plans using the service (a used service cannot be deleted nor lose its last QoS) */
  planCount: Type.Integer(),
});

const CommServFields = {
  commservName: Type.String({ minLength: 1, maxLength: 64 }),
  /** the English name shown to English readers (optional; blank clears it) */
  commservNameEn: Type.Optional(Type.String({ maxLength: 64 })),
  commservType: Type.Integer({ minimum: 1, maximum: 3 }),
  directional: Type.Boolean(),
  priority: Type.Integer({ minimum: COMMSERV_PRIORITY_MIN, maximum: COMMSERV_PRIORITY_MAX }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  /** domain names, IPv4 addresses or IPv4 CIDRs; the 32-entry limit is checked with its own message */
  whitelist: Type.Optional(Type.Array(Type.String({ maxLength: 253 }), { maxItems: 256 })),
  redirectAddress: Type.Optional(Type.String({ maxLength: 500 })),
  speedLimitId: Type.Optional(Nullable(Id)),
  redirectId: Type.Optional(Nullable(Id)),
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
};

export const getCommServListPage = endpoint({
  name: 'network/commserv/getListPage', method: 'POST', auth: 'session', perm: [PAGE], kind: 'query', tag,
  summary: { zh: '通信服务列表（名称、类型、定向、是否已配置 QoS）', en: 'Communication services (name, type, directional, has QoS)' },
  body: Obj({
    ...PageParams, ...SortParams,
    commservName: Type.Optional(Type.String({ maxLength: 64 })),
    commservType: Type.Optional(Type.Integer()),
    directional: Type.Optional(Type.Boolean()),
    hasQos: Type.Optional(Type.Boolean()),
    status: Type.Optional(Type.Integer()),
  }),
  response: Page(CommServ),
});

export const getCommServDetail = endpoint({
  name: 'network/commserv/getDetail', method: 'POST', auth: 'session', perm: [PAGE], kind: 'query', tag,
  summary: { zh: '通信服务详情', en: 'Communication service detail' },
  body: Obj({ commservId: Id }), response: CommServDetail,
});

export const saveCommServ = endpoint({
  name: 'network/commserv/save', method: 'POST', auth: 'session', perm: [ADD], kind: 'mutation', tag,
  summary: {
    zh: '新增通信服务（名称唯一；白名单最多 32 个域名或地址；定向服务至少一个白名单）',
    en: 'Add a communication service (unique name; at most 32 whitelist entries; directional services need one)',
  },
  body: Obj(CommServFields), response: Type.Object({ commservId: Type.Integer() }),
});

export const updateCommServ = endpoint({
  name: 'network/commserv/update', method: 'POST', auth: 'session', perm: [EDIT], kind: 'mutation', tag,
  summary: { zh: '修改通信服务', en: 'Update a communication service' },
  body: Obj({ commservId: Id, ...Type.Partial(Type.Object(CommServFields)).properties }), response: Nothing,
});

export const deleteCommServ = endpoint({
  name: 'network/commserv/delete', method: 'POST', auth: 'session', perm: [DELETE], kind: 'mutation', tag,
  summary: { zh: '删除通信服务（被基础套餐使用时不能删除）', en: 'Delete a communication service (refused while a basic plan uses it)' },
  body: Obj({ commservId: Id }), response: Nothing,
});

// ---- QoS profiles ----

export const Qos = Type.Object({
  qosId: Type.Integer(),
  commservId: Type.Integer(),
  qosName: Type.String(),
  qci: Type.Integer(),
  maxUplinkKbps: Type.Integer(),
  maxDownlinkKbps: Type.Integer(),
  gbrUplinkKbps: Nullable(Type.Integer()),
  gbrDownlinkKbps: Nullable(Type.Integer()),
  arpPriority: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const QosFields = {
  qosName: Type.String({ minLength: 1, maxLength: 64 }),
  qci: Type.Integer({ minimum: QOS_QCI_MIN, maximum: QOS_QCI_MAX }),
  maxUplinkKbps: Kbps(),
  maxDownlinkKbps: Kbps(),
  gbrUplinkKbps: Type.Optional(Nullable(Kbps())),
  gbrDownlinkKbps: Type.Optional(Nullable(Kbps())),
  arpPriority: Type.Integer({ minimum: QOS_ARP_MIN, maximum: QOS_ARP_MAX }),
};

export const getQosList = endpoint({
  name: 'network/commserv/qos/getList', method: 'POST', auth: 'session', perm: [PAGE], kind: 'query', tag,
  summary: { zh: '通信服务的 QoS 列表', en: 'QoS profiles of a communication service' },
  body: Obj({ commservId: Id }), response: Type.Array(Qos),
});

export const saveQos = endpoint({
  name: 'network/commserv/qos/save', method: 'POST', auth: 'session', perm: [EDIT], kind: 'mutation', tag,
  summary: { zh: '新增 QoS（保证速率不超过最大速率）', en: 'Add a QoS profile (guaranteed rates at most the maximum)' },
  body: Obj({ commservId: Id, ...QosFields }), response: Type.Object({ qosId: Type.Integer() }),
});

export const updateQos = endpoint({
  name: 'network/commserv/qos/update', method: 'POST', auth: 'session', perm: [EDIT], kind: 'mutation', tag,
  summary: { zh: '修改 QoS', en: 'Update a QoS profile' },
  body: Obj({ qosId: Id, ...Type.Partial(Type.Object(QosFields)).properties }), response: Nothing,
});

export const deleteQos = endpoint({
  name: 'network/commserv/qos/delete', method: 'POST', auth: 'session', perm: [EDIT], kind: 'mutation', tag,
  summary: {
    zh: '删除 QoS（被基础套餐使用的通信服务不能删除最后一个 QoS）',
    en: 'Delete a QoS profile (a service used by a basic plan keeps at least one)',
  },
  body: Obj({ qosId: Id }), response: Nothing,
});

// ---- speed-limit configurations ----

export const SpeedLimit = Type.Object({
  speedLimitId: Type.Integer(),
  speedLimitName: Type.String(),
  uplinkKbps: Type.Integer(),
  downlinkKbps: Type.Integer(),
  description: Nullable(Type.String()),
  /** communication services using it */
  serviceCount: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const SpeedLimitFields = {
  speedLimitName: Type.String({ minLength: 1, maxLength: 64 }),
  uplinkKbps: Kbps(),
  downlinkKbps: Kbps(),
  description: Type.Optional(Type.String({ maxLength: 500 })),
};

export const getSpeedLimitListPage = endpoint({
  name: 'network/commserv/speedLimit/getListPage', method: 'POST', auth: 'session', perm: [PAGE, CONFIG], kind: 'query', tag,
  summary: { zh: '限速配置列表', en: 'Speed-limit configurations' },
  body: Obj({ ...PageParams, speedLimitName: Type.Optional(Type.String({ maxLength: 64 })) }),
  response: Page(SpeedLimit),
});

export const saveSpeedLimit = endpoint({
  name: 'network/commserv/speedLimit/save', method: 'POST', auth: 'session', perm: [CONFIG], kind: 'mutation', tag,
  summary: { zh: '新增限速配置', en: 'Add a speed-limit configuration' },
  body: Obj(SpeedLimitFields), response: Type.Object({ speedLimitId: Type.Integer() }),
});

export const updateSpeedLimit = endpoint({
  name: 'network/commserv/speedLimit/update', method: 'POST', auth: 'session', perm: [CONFIG], kind: 'mutation', tag,
  summary: { zh: '修改限速配置', en: 'Update a speed-limit configuration' },
  body: Obj({ speedLimitId: Id, ...Type.Partial(Type.Object(SpeedLimitFields)).properties }), response: Nothing,
});

export const deleteSpeedLimit = endpoint({
  name: 'network/commserv/speedLimit/delete', method: 'POST', auth: 'session', perm: [CONFIG], kind: 'mutation', tag,
  summary: { zh: '删除限速配置（被通信服务使用时不能删除）', en: 'Delete a speed-limit configuration (refused while a service uses it)' },
  body: Obj({ speedLimitId: Id }), response: Nothing,
});

// ---- redirect configurations ----

export const Redirect = Type.Object({
  redirectId: Type.Integer(),
  redirectName: Type.String(),
  redirectUrl: Type.String(),
  targetContent: Nullable(Type.String()),
  serviceCount: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const RedirectFields = {
  redirectName: Type.String({ minLength: 1, maxLength: 64 }),
  redirectUrl: Type.String({ minLength: 1, maxLength: 500 }),
  targetContent: Type.Optional(Type.String({ maxLength: 500 })),
};

export const getRedirectListPage = endpoint({
  name: 'network/commserv/redirect/getListPage', method: 'POST', auth: 'session', perm: [PAGE, CONFIG], kind: 'query', tag,
  summary: { zh: '重定向配置列表', en: 'Redirect configurations' },
  body: Obj({ ...PageParams, redirectName: Type.Optional(Type.String({ maxLength: 64 })) }),
  response: Page(Redirect),
});

export const saveRedirect = endpoint({
  name: 'network/commserv/redirect/save', method: 'POST', auth: 'session', perm: [CONFIG], kind: 'mutation', tag,
  summary: { zh: '新增重定向配置（http:// 或 https:// 地址）', en: 'Add a redirect configuration (http:// or https:// address)' },
  body: Obj(RedirectFields), response: Type.Object({ redirectId: Type.Integer() }),
});

export const updateRedirect = endpoint({
  name: 'network/commserv/redirect/update', method: 'POST', auth: 'session', perm: [CONFIG], kind: 'mutation', tag,
  summary: { zh: '修改重定向配置', en: 'Update a redirect configuration' },
  body: Obj({ redirectId: Id, ...Type.Partial(Type.Object(RedirectFields)).properties }), response: Nothing,
});

export const deleteRedirect = endpoint({
  name: 'network/commserv/redirect/delete', method: 'POST', auth: 'session', perm: [CONFIG], kind: 'mutation', tag,
  summary: { zh: '删除重定向配置（被通信服务使用时不能删除）', en: 'Delete a redirect configuration (refused while a service uses it)' },
  body: Obj({ redirectId: Id }), response: Nothing,
});
