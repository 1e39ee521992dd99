// Field schemas of the platform configuration types (spec §2 Operator → platform configuration, §7
// "types lists, schema"). Declared once: the server validates entries against them, the console renders
// its form from them, and secret fields are encrypted at rest and masked on the way out.
import type { Bilingual } from '../i18n.ts';
import { PlatformType } from '../enums/opconfig.ts';
import { Operator } from '../enums/system.ts';
import { isPort } from '../validate/network.ts';

export type PlatformFieldType = 'string' | 'url' | 'host' | 'integer' | 'boolean' | 'select' | 'secret' | 'text';

export interface PlatformField {
  key: string;
  label: Bilingual;
  type: PlatformFieldType;
  required?: boolean;
  /** strings: maximum length in characters */
  maxLength?: number;
  /** integers: inclusive range */
  min?: number;
  max?: number;
  /** strings: a pattern the value must match, with the reason shown when it does not */
  pattern?: string;
  patternHint?: Bilingual;
  options?: { value: string | number; label: Bilingual }[];
  /** the value a new entry starts with */
  defaultValue?: string | number | boolean;
  help?: Bilingual;
}

export interface PlatformSchema {
  platformType: number;
  description: Bilingual;
  fields: PlatformField[];
}

const L = (zh: string, en: string): Bilingual => ({ zh, en });

export const platformSchemas: PlatformSchema[] = [
  {
    platformType: PlatformType.SmsGateway,
    description: L('下发与接收短信的网关（CMPP / SMGP / SGIP / HTTP）', 'Gateway that sends and receives SMS (CMPP / SMGP / SGIP / HTTP)'),
    fields: [
      {
        key: 'protocol', label: L('协议', 'Protocol'), type: 'select', required: true, defaultValue: 'cmpp3',
        options: [
          { value: 'cmpp2', label: L('CMPP 2.0（移动）', 'CMPP 2.0 (China Mobile)') },
          { value: 'cmpp3', label: L('CMPP 3.0（移动）', 'CMPP 3.0 (China Mobile)') },
          { value: 'sgip', label: L('SGIP 1.2（联通）', 'SGIP 1.2 (China Unicom)') },
          { value: 'smgp', label: L('SMGP 3.0（电信）', 'SMGP 3.0 (China Telecom)') },
          { value: 'http', label: L('HTTP 接口', 'HTTP API') },
        ],
      },
      { key: 'host', label: L('网关地址', 'Gateway host'), type: 'host', required: true, maxLength: 253 },
      { key: 'port', label: L('端口', 'Port'), type: 'integer', required: true, min: 1, max: 65535, defaultValue: 7890 },
      { key: 'spId', label: L('企业代码（SP ID）', 'Enterprise code (SP ID)'), type: 'string', required: true, maxLength: 32, pattern: '^[A-Za-z0-9]+$', patternHint: L('只能包含字母和数字', 'letters and digits only') },
      { key: 'password', label: L('登录密码', 'Login password'), type: 'secret', required: true, maxLength: 128 },
      { key: 'serviceCode', label: L('服务代码（接入号）', 'Service code (access number)'), type: 'string', required: true, maxLength: 21, pattern: '^[0-9]+$', patternHint: L('只能包含数字', 'digits only') },
      { key: 'signature', label: L('短信签名', 'SMS signature'), type: 'string', maxLength: 20, help: L('显示在短信开头，最多 20 个字符', 'Shown at the start of each message, at most 20 characters') },
      { key: 'maxPerSecond', label: L('每秒最大下发条数', 'Maximum messages per second'), type: 'integer', required: true, min: 1, max: 1000, defaultValue: 50 },
    ],
  },
  {
    platformType: PlatformType.RealName,
    description: L('物联网卡个人实名认证（身份证核验与人脸比对）', 'Personal real-name verification of cards (ID check and face match)'),
    fields: [
      { key: 'apiUrl', label: L('接口地址', 'API URL'), type: 'url', required: true, maxLength: 255 },
      { key: 'appId', label: L('应用 ID', 'App ID'), type: 'string', required: true, maxLength: 64 },
      { key: 'appSecret', label: L('应用密钥', 'App secret'), type: 'secret', required: true, maxLength: 256 },
      { key: 'callbackUrl', label: L('结果回调地址', 'Result callback URL'), type: 'url', maxLength: 255 },
      { key: 'faceMatchThreshold', label: L('人脸比对阈值', 'Face match threshold'), type: 'integer', required: true, min: 50, max: 100, defaultValue: 80, help: L('相似度达到该值（50-100）即认为是本人', 'A similarity at or above this value (50-100) counts as a match') },
    ],
  },
  {
    platformType: PlatformType.EsimSmdp,
    description: L('eSIM 远程配置服务器（SGP.22 ES2+ 接口）', 'eSIM remote provisioning server (SGP.22 ES2+ interface)'),
    fields: [
      { key: 'smdpAddress', label: L('SM-DP+ 地址', 'SM-DP+ address'), type: 'host', required: true, maxLength: 253 },
      { key: 'es2PlusUrl', label: L('ES2+ 接口地址', 'ES2+ URL'), type: 'url', required: true, maxLength: 255 },
      { key: 'functionRequesterId', label: L('功能请求方标识', 'Function requester identifier'), type: 'string', required: true, maxLength: 64 },
      { key: 'apiKey', label: L('接口密钥', 'API key'), type: 'secret', required: true, maxLength: 256 },
      { key: 'clientKeyPassphrase', label: L('客户端证书私钥口令', 'Client key passphrase'), type: 'secret', maxLength: 128 },
      { key: 'confirmationCodeRequired', label: L('下载需确认码', 'Confirmation code required'), type: 'boolean', defaultValue: false },
    ],
  },
  {
    platformType: PlatformType.OperatorOpenApi,
    description: L('运营商能力开放平台（卡状态、用量、套餐接口）', 'Operator open platform (card state, usage and plan APIs)'),
    fields: [
      {
        key: 'operatorId', label: L('运营商', 'Operator'), type: 'select', required: true,
        options: Operator.values.map((v) => ({ value: v, label: L(Operator.label(v, 'zh'), Operator.label(v, 'en')) })),
      },
      { key: 'baseUrl', label: L('接口根地址', 'Base URL'), type: 'url', required: true, maxLength: 255 },
      {
        key: 'apiVersion', label: L('接口版本', 'API version'), type: 'select', required: true, defaultValue: 'v2',
        options: [{ value: 'v1', label: L('v1', 'v1') }, { value: 'v2', label: L('v2', 'v2') }, { value: 'v3', label: L('v3', 'v3') }],
      },
      { key: 'appKey', label: L('应用 Key', 'App key'), type: 'string', required: true, maxLength: 64 },
      { key: 'appSecret', label: L('应用密钥', 'App secret'), type: 'secret', required: true, maxLength: 256 },
      { key: 'rateLimitPerSecond', label: L('每秒调用上限', 'Calls per second'), type: 'integer', required: true, min: 1, max: 500, defaultValue: 20 },
    ],
  },
  {
    platformType: PlatformType.Payment,
    description: L('零售套餐在线支付渠道（支付宝 / 微信支付）', 'Online payment channel for retail plans (Alipay / WeChat Pay)'),
    fields: [
      {
        key: 'channel', label: L('支付渠道', 'Channel'), type: 'select', required: true, defaultValue: 'alipay',
        options: [{ value: 'alipay', label: L('支付宝', 'Alipay') }, { value: 'wechat', label: L('微信支付', 'WeChat Pay') }],
      },
      { key: 'merchantId', label: L('商户号', 'Merchant ID'), type: 'string', required: true, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$', patternHint: L('只能包含字母、数字、下划线和连字符', 'letters, digits, underscores and hyphens only') },
      { key: 'appId', label: L('应用 ID', 'App ID'), type: 'string', required: true, maxLength: 64 },
      { key: 'privateKey', label: L('商户私钥', 'Merchant private key'), type: 'secret', required: true, maxLength: 4096 },
      { key: 'platformPublicKey', label: L('平台公钥', 'Platform public key'), type: 'text', maxLength: 4096 },
      { key: 'notifyUrl', label: L('支付结果通知地址', 'Payment notification URL'), type: 'url', required: true, maxLength: 255 },
      { key: 'sandbox', label: L('沙箱环境', 'Sandbox'), type: 'boolean', defaultValue: false },
    ],
  },
];

export const platformSchemaOf = (platformType: number): PlatformSchema | undefined => platformSchemas.find((s) => s.platformType === platformType);

export const secretKeysOf = (schema: PlatformSchema): string[] => schema.fields.filter((f) => f.type === 'secret').map((f) => f.key);

/** A host name (RFC 1123 labels) or an IPv4 address. */
const HOST_RE = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && !/\s/.test(s);
  } catch {
    return false;
  }
}

/**
 * True when an address carries a user name or password (https://user:pass@host/). Addresses are listed,
 * exported and audited in clear, so credentials must go in the secret fields instead.
 */
export function urlHasCredentials(s: string): boolean {
  try {
    const u = new URL(s);
    return u.username !== '' || u.password !== '';
  } catch {
    return false;
  }
}
export const URL_CREDENTIALS_REASON = L(
  '地址中不能包含用户名或密码，请填写在密钥字段中',
  'must not contain a user name or password; put credentials in the secret fields',
);

export interface PlatformFieldError {
  field: string;
  reason: Bilingual;
}

const chars = (s: string) => [...s].length;

/**
 * Checks one field value against its schema entry. `keepSecret` means a secret is already stored and an
 * empty value keeps it. Returns null when the value is acceptable.
 */
export function checkPlatformField(f: PlatformField, value: unknown, opts: { keepSecret?: boolean } = {}): Bilingual | null {
  const empty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  if (empty) {
    if (f.required && !(f.type === 'secret' && opts.keepSecret) && f.type !== 'boolean') return L('必填', 'is required');
    return null;
  }
  switch (f.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : L('应为是或否', 'must be true or false');
    case 'integer': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return L('应为整数', 'must be a whole number');
      if (f.key === 'port' && !isPort(value)) return L('端口应为 1-65535 的数字', 'the port must be a number from 1 to 65535');
      if (f.min !== undefined && value < f.min) return L(`不能小于 ${f.min}`, `must not be less than ${f.min}`);
      if (f.max !== undefined && value > f.max) return L(`不能大于 ${f.max}`, `must not be greater than ${f.max}`);
      return null;
    }
    case 'select':
      return f.options?.some((o) => o.value === value) ? null : L('取值不在可选范围内', 'is not one of the allowed values');
    default: {
      if (typeof value !== 'string') return L('应为文本', 'must be text');
      if (f.maxLength !== undefined && chars(value) > f.maxLength) return L(`最多 ${f.maxLength} 个字符`, `allows at most ${f.maxLength} characters`);
      if (f.type === 'url' && !isHttpUrl(value)) return L('应为以 http:// 或 https:// 开头的地址', 'must be an address starting with http:// or https://');
      if (f.type === 'url' && urlHasCredentials(value)) return URL_CREDENTIALS_REASON;
      if (f.type === 'host' && !HOST_RE.test(value)) return L('应为域名或 IP 地址', 'must be a domain name or an IP address');
      if (f.pattern && !new RegExp(f.pattern).test(value)) return f.patternHint ?? L('格式不正确', 'has an invalid format');
      return null;
    }
  }
}

/**
 * Validates an entry's values against its type's schema: unknown fields, required fields, types, ranges,
 * formats. `storedSecrets` lists secret fields already stored (an empty value then keeps them).
 */
export function validatePlatformFields(schema: PlatformSchema, values: Record<string, unknown>, storedSecrets: readonly string[] = []): PlatformFieldError | null {
  const known = new Set(schema.fields.map((f) => f.key));
  const unknown = Object.keys(values).find((k) => !known.has(k));
  if (unknown) return { field: unknown, reason: L('不是该平台类型的字段', 'is not a field of this platform type') };
  for (const f of schema.fields) {
    const reason = checkPlatformField(f, values[f.key], { keepSecret: storedSecrets.includes(f.key) });
    if (reason) return { field: f.key, reason };
  }
  return null;
}
