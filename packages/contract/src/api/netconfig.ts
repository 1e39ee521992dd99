import { Type } from '@sinclair/typebox';
import { endpoint, MoneyText, Obj, Page, PageParams, SortParams, Nothing, Nullable, ExportTaskCreated } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import { validateCidr, validateIp, validateIpRange, validatePortRange, isPort, type ValidationResult } from '../validate/index.ts';
import { FirewallAddressType, FirewallProtocol } from '../enums/netconfig.ts';

/*
 * Network configuration kept by operator staff (issue 4): firewall policies with their source (srcaddr)
 * and target (dstaddr) address books, the operators' own rate plans imported from a file, and China
 * Unicom communication plans. Customers are refused on the server even when a role holds the codes.
 */

const tag = 'netconfig';
const Text = (max: number, min = 0) => Type.String({ minLength: min, maxLength: max });

export const NetconfigPerm = {
  Firewall: 7080000,
  FirewallAdd: 7080001,
  FirewallEdit: 7080002,
  FirewallDelete: 7080003,
  FirewallExport: 7080004,
  FirewallAddressBook: 7080005,
  GoodsImport: 7020000,
  GoodsSwitch: 7020001,
  GoodsDelete: 7020002,
  GoodsUpload: 7020003,
  StockGoodsImport: 11020000,
  StockGoodsSwitch: 11020001,
  StockGoodsDelete: 11020002,
  StockGoodsUpload: 11020003,
  UnicomPlan: 7090000,
  UnicomPlanAdd: 7090001,
  UnicomPlanEdit: 7090002,
  UnicomPlanDelete: 7090003,
} as const;
const P = NetconfigPerm;

// ---------------------------------------------------------------------------------------------------
// Pure rules shared by the forms and the server (spec §5: four-part IPs, end after start, ports numeric)
// ---------------------------------------------------------------------------------------------------

export interface AddressValue {
  addressType: number;
  ipAddress?: string | null;
  startIp?: string | null;
  endIp?: string | null;
}

/** The field an address problem belongs to, and the problem. Null when the entry is well formed. */
export function validateAddressValue(a: AddressValue): { field: 'ipAddress' | 'startIp' | 'endIp' | 'addressType'; error: NonNullable<ValidationResult> } | null {
  if (a.addressType === FirewallAddressType.Single) {
    const error = validateIp(a.ipAddress);
    return error ? { field: 'ipAddress', error } : null;
  }
  if (a.addressType === FirewallAddressType.Range) {
    const start = validateIp(a.startIp);
    if (start) return { field: 'startIp', error: start };
    const end = validateIpRange(a.startIp, a.endIp);
    return end ? { field: 'endIp', error: end } : null;
  }
  if (a.addressType === FirewallAddressType.Cidr) {
    const error = validateCidr(a.ipAddress, { requireNetworkAddress: true });
    return error ? { field: 'ipAddress', error } : null;
  }
  return { field: 'addressType', error: { key: 'required' } };
}

/** How an address reads in lists: '10.0.0.1', '10.0.0.1-10.0.0.9' or '10.0.0.0/24'. */
export const addressText = (a: AddressValue): string =>
  a.addressType === FirewallAddressType.Range ? `${a.startIp ?? ''}-${a.endIp ?? ''}` : (a.ipAddress ?? '');

export const PORT_ITEMS_MAX = 32;

/**
 * A port list such as '80,443,8000-8080': comma-separated ports 1-65535 or ranges whose end is greater
 * than the start (a one-port range is written as the port). Blank is allowed (all ports).
 */
export function validatePortList(s: string | null | undefined): ValidationResult {
  if (s == null || s.trim() === '') return null;
  const items = s.split(',').map((x) => x.trim());
  if (items.some((x) => x === '')) return { key: 'portInvalid' };
  if (items.length > PORT_ITEMS_MAX) return { key: 'listTooMany', params: { max: PORT_ITEMS_MAX } };
  const seen = new Set<string>();
  for (const item of items) {
    const err = item.includes('-') ? validatePortRange(item) : isPort(item) ? null : { key: 'portInvalid' as const };
    if (err) return err.key === 'portInvalid' ? { key: 'portInvalid', params: { value: item } } : err;
    if (seen.has(item)) return { key: 'listDuplicate', params: { value: item } };
    seen.add(item);
  }
  return null;
}

/** Canonical form of a valid port list: trimmed items joined by ',' (or null when blank). */
export const normalizePortList = (s: string | null | undefined): string | null =>
  s == null || s.trim() === '' ? null : s.split(',').map((x) => x.trim()).join(',');

/** Ports only mean something for TCP and UDP. */
export const protocolHasPorts = (protocol: number) => protocol === FirewallProtocol.Tcp || protocol === FirewallProtocol.Udp;

// ---------------------------------------------------------------------------------------------------
// Firewall address books
// ---------------------------------------------------------------------------------------------------

export const AddressScopeSchema = Type.Union([Type.Literal('srcaddr'), Type.Literal('dstaddr')]);

export const FirewallAddress = Type.Object({
  addressId: Type.Integer(),
  addressScope: AddressScopeSchema,
  addressName: Type.String(),
  addressType: Type.Integer(),
  ipAddress: Nullable(Type.String()),
  startIp: Nullable(Type.String()),
  endIp: Nullable(Type.String()),
  /** the address as one line of text, e.g. 10.0.0.1-10.0.0.9 */
  address: Type.String(),
  description: Nullable(Type.String()),
  /** how many policies use it (an address in use cannot be deleted) */
  policyCount: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const AddressFields = {
  addressName: Text(64, 1),
  addressType: Type.Integer({ minimum: 1, maximum: 3 }),
  ipAddress: Type.Optional(Nullable(Text(18))),
  startIp: Type.Optional(Nullable(Text(15))),
  endIp: Type.Optional(Nullable(Text(15))),
  description: Type.Optional(Nullable(Text(500))),
};

export const getFirewallAddressPage = endpoint({
  name: 'network/firewall/address/page', method: 'POST', auth: 'session', perm: [P.Firewall], kind: 'query', tag,
  summary: { zh: '防火墙地址簿（源地址 srcaddr / 目标地址 dstaddr）', en: 'Firewall address book (source srcaddr / target dstaddr)' },
  body: Obj({
    ...PageParams, ...SortParams,
    addressScope: AddressScopeSchema,
    addressName: Type.Optional(Text(64)),
    addressType: Type.Optional(Type.Integer()),
    ip: Type.Optional(Text(15)),
  }),
  response: Page(FirewallAddress),
});

export const addFirewallAddress = endpoint({
  name: 'network/firewall/address/add', method: 'POST', auth: 'session', perm: [P.FirewallAddressBook], kind: 'mutation', tag,
  summary: { zh: '新增地址（名称在地址簿内唯一）', en: 'Add an address (names are unique within a book)' },
  body: Obj({ addressScope: AddressScopeSchema, ...AddressFields }),
  response: Type.Object({ addressId: Type.Integer() }),
});

export const updateFirewallAddress = endpoint({
  name: 'network/firewall/address/update', method: 'POST', auth: 'session', perm: [P.FirewallAddressBook], kind: 'mutation', tag,
  summary: { zh: '修改地址（所属地址簿不可变）', en: 'Update an address (its book cannot change)' },
  body: Obj({ addressId: Type.Integer(), ...AddressFields }),
  response: Nothing,
});

export const deleteFirewallAddress = endpoint({
  name: 'network/firewall/address/delete', method: 'POST', auth: 'session', perm: [P.FirewallAddressBook], kind: 'mutation', tag,
  summary: { zh: '删除地址（被策略使用时不可删除）', en: 'Delete an address (refused while a policy uses it)' },
  body: Obj({ addressId: Type.Integer() }),
  response: Nothing,
});

// ---------------------------------------------------------------------------------------------------
// Firewall policies
// ---------------------------------------------------------------------------------------------------

const AddressRef = Type.Object({ addressId: Type.Integer(), addressName: Type.String(), address: Type.String() });

export const FirewallPolicy = Type.Object({
  policyId: Type.Integer(),
  policyName: Type.String(),
  operatorId: Type.Integer(),
  direction: Type.Integer(),
  action: Type.Integer(),
  protocol: Type.Integer(),
  ports: Nullable(Type.String()),
  priority: Type.Integer(),
  status: Type.Integer(),
  description: Nullable(Type.String()),
  sourceAddresses: Type.Array(AddressRef),
  targetAddresses: Type.Array(AddressRef),
  /** source and target addresses as text, for lists and exports */
  sourceText: Type.String(),
  targetText: Type.String(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const POLICY_ADDRESSES_MAX = 50;
export const PRIORITY_MIN = 1;
export const PRIORITY_MAX = 1000;

const PolicyFields = {
  policyName: Text(64, 1),
  operatorId: Type.Integer(),
  direction: Type.Integer({ minimum: 1, maximum: 3 }),
  action: Type.Integer({ minimum: 1, maximum: 2 }),
  protocol: Type.Integer({ minimum: 1, maximum: 4 }),
  srcAddressIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: POLICY_ADDRESSES_MAX }),
  dstAddressIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: POLICY_ADDRESSES_MAX }),
  ports: Type.Optional(Nullable(Text(500))),
  priority: Type.Integer({ minimum: PRIORITY_MIN, maximum: PRIORITY_MAX }),
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
  description: Type.Optional(Nullable(Text(500))),
};

export const getFirewallPolicyPage = endpoint({
  name: 'network/firewall/policy/page', method: 'POST', auth: 'session', perm: [P.Firewall], kind: 'query', tag,
  summary: { zh: '防火墙策略列表', en: 'Firewall policies' },
  body: Obj({
    ...PageParams, ...SortParams,
    policyName: Type.Optional(Text(64)),
    operatorId: Type.Optional(Type.Integer()),
    action: Type.Optional(Type.Integer()),
    protocol: Type.Optional(Type.Integer()),
    status: Type.Optional(Type.Integer()),
  }),
  response: Page(FirewallPolicy),
});

export const getFirewallPolicyDetail = endpoint({
  name: 'network/firewall/policy/detail', method: 'POST', auth: 'session', perm: [P.Firewall], kind: 'query', tag,
  summary: { zh: '防火墙策略详情', en: 'Firewall policy detail' },
  body: Obj({ policyId: Type.Integer() }),
  response: FirewallPolicy,
});

export const addFirewallPolicy = endpoint({
  name: 'network/firewall/policy/add', method: 'POST', auth: 'session', perm: [P.FirewallAdd], kind: 'mutation', tag,
  summary: {
    zh: '新增防火墙策略（源地址取自 srcaddr，目标地址取自 dstaddr；端口为 1-65535 的数字或范围）',
    en: 'Add a firewall policy (sources from srcaddr, targets from dstaddr; ports are numbers 1-65535 or ranges)',
  },
  body: Obj(PolicyFields),
  response: Type.Object({ policyId: Type.Integer() }),
});

export const updateFirewallPolicy = endpoint({
  name: 'network/firewall/policy/update', method: 'POST', auth: 'session', perm: [P.FirewallEdit], kind: 'mutation', tag,
  summary: { zh: '修改防火墙策略', en: 'Update a firewall policy' },
  body: Obj({ policyId: Type.Integer(), ...PolicyFields }),
  response: Nothing,
});

export const deleteFirewallPolicy = endpoint({
  name: 'network/firewall/policy/delete', method: 'POST', auth: 'session', perm: [P.FirewallDelete], kind: 'mutation', tag,
  summary: { zh: '删除防火墙策略', en: 'Delete a firewall policy' },
  body: Obj({ policyId: Type.Integer() }),
  response: Nothing,
});

// ---------------------------------------------------------------------------------------------------
// Operator rate plan import (operatorsGoods)
// ---------------------------------------------------------------------------------------------------

export const IMPORT_MAX_ROWS = 5000;
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** The multipart field carrying the file. */
export const IMPORT_FILE_FIELD = 'file';

/** Columns of the import file, in template order; headers are accepted in either language. */
export const GOODS_IMPORT_COLUMNS = [
  { key: 'goodsCode', zh: '运营商套餐编码', en: 'Operator plan code', example: 'CUCC-DATA-1G-30' },
  { key: 'goodsName', zh: '套餐名称', en: 'Plan name', example: '联通 1GB 月包' },
  { key: 'operator', zh: '运营商', en: 'Operator', example: '中国联通' },
  { key: 'goodsType', zh: '套餐类型', en: 'Plan type', example: '流量' },
  { key: 'quota', zh: '额度', en: 'Quota', example: '1' },
  { key: 'quotaUnit', zh: '额度单位', en: 'Quota unit', example: 'GB' },
  { key: 'validityDays', zh: '有效期（天）', en: 'Validity (days)', example: '30' },
  { key: 'price', zh: '价格（元）', en: 'Price (CNY)', example: '9.90' },
] as const;
export type GoodsImportColumn = (typeof GOODS_IMPORT_COLUMNS)[number]['key'];

export const ImportRowError = Type.Object({
  /** row number in the file, the header being row 1 */
  row: Type.Integer(),
  /** column title in the caller's language */
  column: Type.String(),
  reason: Type.String(),
});

/** `data` of the refusal 20254: every problem found, nothing imported. */
export const ImportErrors = Type.Object({ errors: Type.Array(ImportRowError), total: Type.Integer() });

export const OperatorGoods = Type.Object({
  goodsId: Type.Integer(),
  goodsCode: Type.String(),
  goodsName: Type.String(),
  operatorId: Type.Integer(),
  goodsType: Type.Integer(),
  /** quota as given in the file, in quotaUnit */
  quota: Type.Number(),
  quotaUnit: Type.Integer(),
  /** quota in the base unit: MB for data (1 GB = 1024 MB), messages for SMS, minutes for voice */
  quotaBase: Type.Number(),
  validityDays: Type.Integer(),
  price: MoneyText,
  status: Type.Integer(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const GoodsFilters = {
  goodsCode: Type.Optional(Text(64)),
  goodsName: Type.Optional(Text(100)),
  operatorId: Type.Optional(Type.Integer()),
  goodsType: Type.Optional(Type.Integer()),
};

export const getOperatorGoodsList = endpoint({
  name: 'network/operatorsGoods/list', method: 'POST', auth: 'session', perm: [P.GoodsImport, P.StockGoodsImport], kind: 'query', tag,
  summary: { zh: '已导入的运营商套餐', en: 'Imported operator rate plans' },
  body: Obj({ ...PageParams, ...SortParams, ...GoodsFilters, status: Type.Optional(Type.Integer()) }),
  response: Page(OperatorGoods),
});

export const importOperatorGoods = endpoint({
  name: 'network/operatorsGoods/add', method: 'POST', auth: 'session', perm: [P.GoodsUpload, P.StockGoodsUpload], kind: 'mutation', tag,
  multipart: { file: IMPORT_FILE_FIELD, maxBytes: IMPORT_MAX_BYTES },
  summary: {
    zh: '导入运营商套餐文件（字段 file，xlsx 或 csv）：全部行校验通过才导入，否则返回逐行错误（20254）',
    en: 'Import the operator plan file (field file, xlsx or csv): all rows or none; otherwise the per-row errors are returned (20254)',
  },
  body: Obj({}),
  response: Type.Object({ imported: Type.Integer() }),
});

export const downloadOperatorGoodsTemplate = endpoint({
  name: 'network/operatorsGoods/template', method: 'GET', auth: 'session', perm: [P.GoodsUpload, P.StockGoodsUpload], kind: 'query', tag,
  raw: true,
  summary: { zh: '下载导入模板（templateLang 或 lang 决定中文或英文表头）', en: 'Download the import template (headers in templateLang, else in lang)' },
  body: Obj({
    format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')])),
    /** language of the headers; the caller's language when absent */
    templateLang: Type.Optional(Type.Union([Type.Literal('zh'), Type.Literal('en')])),
  }),
  response: Type.Unknown(),
});

export const switchOperatorGoods = endpoint({
  name: 'network/operatorsGoods/status', method: 'POST', auth: 'session', perm: [P.GoodsSwitch, P.StockGoodsSwitch], kind: 'mutation', tag,
  summary: { zh: '开启或关闭运营商套餐（1 开启，0 关闭）', en: 'Switch an operator plan on (1) or off (0)' },
  body: Obj({ goodsId: Type.Integer(), status: Type.Integer({ minimum: 0, maximum: 1 }) }),
  response: Nothing,
});

export const deleteOperatorGoods = endpoint({
  name: 'network/operatorsGoods/delete', method: 'POST', auth: 'session', perm: [P.GoodsDelete, P.StockGoodsDelete], kind: 'mutation', tag,
  summary: { zh: '删除运营商套餐', en: 'Delete operator plans' },
  body: Obj({ goodsIds: Type.Array(Type.Integer(), { minItems: 1, maxItems: 500 }) }),
  response: Type.Object({ deleted: Type.Integer() }),
});

export const OperatorPackageOption = Type.Object({
  goodsId: Type.Integer(),
  goodsCode: Type.String(),
  goodsName: Type.String(),
  operatorId: Type.Integer(),
  goodsType: Type.Integer(),
  quota: Type.Number(),
  quotaUnit: Type.Integer(),
  quotaBase: Type.Number(),
  validityDays: Type.Integer(),
  price: MoneyText,
  status: Type.Integer(),
});

export const PACKAGE_OPTIONS_MAX = 500;

export const getOperatorPackageList = endpoint({
  name: 'network/operatorsGoods/packageNameList', method: 'POST', auth: 'session',
  perm: [P.GoodsImport, P.StockGoodsImport, Perm.PackageManage], kind: 'query', tag,
  summary: {
    zh: '运营商套餐选择列表（供其他模块选择；无论传入什么，status 固定为 1）',
    en: 'Operator packages for selection by other modules (status is forced to 1 whatever is sent)',
  },
  body: Obj({ ...GoodsFilters, status: Type.Optional(Type.Integer()) }),
  response: Type.Array(OperatorPackageOption),
});

// ---------------------------------------------------------------------------------------------------
// China Unicom communication plans
// ---------------------------------------------------------------------------------------------------

export const UnicomCommPlan = Type.Object({
  planId: Type.Integer(),
  planName: Type.String(),
  planCode: Type.String(),
  dataEnabled: Type.Boolean(),
  smsEnabled: Type.Boolean(),
  voiceEnabled: Type.Boolean(),
  apnId: Nullable(Type.Integer()),
  apnName: Nullable(Type.String()),
  roamingZone: Type.Integer(),
  /** MB per billing period; null = not limited */
  dataLimitMb: Nullable(Type.Number()),
  smsLimit: Nullable(Type.Integer()),
  /** kbit/s; null = not limited */
  speedLimitKbps: Nullable(Type.Integer()),
  /** China Unicom's billing period starts on the 26th (spec §9); taken from the operator, not editable */
  billingDay: Type.Integer(),
  description: Nullable(Type.String()),
  status: Type.Integer(),
  copiedFrom: Nullable(Type.Integer()),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const SPEED_LIMIT_MAX_KBPS = 1_000_000;
export const DATA_LIMIT_MAX_MB = 10_485_760;
export const SMS_LIMIT_MAX = 100_000;

const UnicomFields = {
  planName: Text(64, 1),
  planCode: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' }),
  dataEnabled: Type.Boolean(),
  smsEnabled: Type.Boolean(),
  voiceEnabled: Type.Boolean(),
  apnId: Type.Optional(Nullable(Type.Integer())),
  roamingZone: Type.Integer({ minimum: 1, maximum: 4 }),
  dataLimitMb: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: DATA_LIMIT_MAX_MB }))),
  smsLimit: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: SMS_LIMIT_MAX }))),
  speedLimitKbps: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: SPEED_LIMIT_MAX_KBPS }))),
  description: Type.Optional(Nullable(Text(500))),
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
};

export const getUnicomCommPlanPage = endpoint({
  name: 'network/unicomCommPlan/page', method: 'POST', auth: 'session', perm: [P.UnicomPlan], kind: 'query', tag,
  summary: { zh: '联通通信计划列表', en: 'China Unicom communication plans' },
  body: Obj({
    ...PageParams, ...SortParams,
    planName: Type.Optional(Text(64)),
    planCode: Type.Optional(Text(32)),
    roamingZone: Type.Optional(Type.Integer()),
    status: Type.Optional(Type.Integer()),
  }),
  response: Page(UnicomCommPlan),
});

export const getUnicomCommPlanDetail = endpoint({
  name: 'network/unicomCommPlan/detail', method: 'POST', auth: 'session', perm: [P.UnicomPlan], kind: 'query', tag,
  summary: { zh: '联通通信计划详情', en: 'China Unicom communication plan detail' },
  body: Obj({ planId: Type.Integer() }),
  response: UnicomCommPlan,
});

export const addUnicomCommPlan = endpoint({
  name: 'network/unicomCommPlan/add', method: 'POST', auth: 'session', perm: [P.UnicomPlanAdd], kind: 'mutation', tag,
  summary: {
    zh: '新增或复制联通通信计划（名称唯一；复制时传 copyFrom）',
    en: 'Add or copy a China Unicom communication plan (unique name; copyFrom when copying)',
  },
  body: Obj({ ...UnicomFields, copyFrom: Type.Optional(Type.Integer()) }),
  response: Type.Object({ planId: Type.Integer() }),
});

export const updateUnicomCommPlan = endpoint({
  name: 'network/unicomCommPlan/update', method: 'POST', auth: 'session', perm: [P.UnicomPlanEdit], kind: 'mutation', tag,
  summary: { zh: '修改联通通信计划', en: 'Update a China Unicom communication plan' },
  body: Obj({ planId: Type.Integer(), ...UnicomFields }),
  response: Nothing,
});

export const deleteUnicomCommPlan = endpoint({
  name: 'network/unicomCommPlan/delete', method: 'POST', auth: 'session', perm: [P.UnicomPlanDelete], kind: 'mutation', tag,
  summary: { zh: '删除联通通信计划', en: 'Delete a China Unicom communication plan' },
  body: Obj({ planId: Type.Integer() }),
  response: Nothing,
});

export const UnicomApnOption = Type.Object({ apnId: Type.Integer(), apnName: Type.String(), status: Type.Integer() });

export const getUnicomApnOptions = endpoint({
  name: 'network/unicomCommPlan/apnList', method: 'POST', auth: 'session', perm: [P.UnicomPlan], kind: 'query', tag,
  summary: { zh: '中国联通的 APN（供通信计划选择）', en: 'APNs of China Unicom (for communication plans)' },
  body: Obj({}),
  response: Type.Object({ billingDay: Type.Integer(), apns: Type.Array(UnicomApnOption) }),
});

// ---------------------------------------------------------------------------------------------------
// Exports (spec §7 names them per list): each starts a download task with the list's filters, the same
// as core/downloadTask/createExport with the list as source; the file appears under download tasks.
// ---------------------------------------------------------------------------------------------------

const ExportFormatField = { format: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })) };
const ExportTask = ExportTaskCreated;
const filtersOf = (e: { body: { properties: Record<string, import('@sinclair/typebox').TSchema> } }) => {
  const { current: _c, pageSize: _p, sortField: _f, sortOrder: _o, ...rest } = e.body.properties;
  return rest;
};

export const exportFirewallPolicies = endpoint({
  name: 'network/firewall/policy/export', method: 'POST', auth: 'session', perm: [P.FirewallExport], kind: 'mutation', tag,
  summary: { zh: '导出防火墙策略（生成下载任务）', en: 'Export firewall policies (creates a download task)' },
  body: Obj({ ...filtersOf(getFirewallPolicyPage), ...ExportFormatField }),
  response: ExportTask,
});

export const exportFirewallAddresses = endpoint({
  name: 'network/firewall/address/export', method: 'POST', auth: 'session', perm: [P.FirewallExport], kind: 'mutation', tag,
  summary: { zh: '导出源/目标地址簿（生成下载任务）', en: 'Export a source or target address book (creates a download task)' },
  body: Obj({ ...filtersOf(getFirewallAddressPage), ...ExportFormatField }),
  response: ExportTask,
});

export const exportOperatorGoods = endpoint({
  name: 'network/operatorsGoods/export', method: 'POST', auth: 'session', perm: [P.GoodsImport, P.StockGoodsImport], kind: 'mutation', tag,
  summary: { zh: '导出运营商套餐（生成下载任务）', en: 'Export operator rate plans (creates a download task)' },
  body: Obj({ ...filtersOf(getOperatorGoodsList), ...ExportFormatField }),
  response: ExportTask,
});

export const exportUnicomCommPlans = endpoint({
  name: 'network/unicomCommPlan/export', method: 'POST', auth: 'session', perm: [P.UnicomPlan], kind: 'mutation', tag,
  summary: { zh: '导出联通通信计划（生成下载任务）', en: 'Export China Unicom communication plans (creates a download task)' },
  body: Obj({ ...filtersOf(getUnicomCommPlanPage), ...ExportFormatField }),
  response: ExportTask,
});
