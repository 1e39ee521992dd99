import type { Lang } from '../format/datetime.ts';

// `as const` keeps the literal keys so ValidationKey catches typos at compile time.
const messages = {
  required: { zh: '请选择或输入', en: 'Please select or enter' },
  uploadRequired: { zh: '请上传文件', en: 'Please upload a file' },
  noSpaces: { zh: '不能包含空格', en: 'Spaces are not allowed' },
  listEmptyItem: { zh: '分号之间不能为空', en: 'Empty entries between semicolons are not allowed' },
  listTooMany: { zh: '最多填写 {max} 个', en: 'At most {max} entries are allowed' },
  listDuplicate: { zh: '不能重复填写：{value}', en: 'Duplicate entry: {value}' },
  phoneInvalid: { zh: '手机号格式错误：{value}', en: 'Invalid phone number: {value}' },
  emailInvalid: { zh: '邮箱格式错误：{value}', en: 'Invalid e-mail address: {value}' },
  passwordLength: { zh: '密码长度为 {min}-{max} 位', en: 'Password must be {min}-{max} characters long' },
  passwordChars: {
    zh: '密码只能包含英文字母、数字和英文标点符号',
    en: 'Password may only contain letters, digits and ASCII punctuation',
  },
  passwordWeak: { zh: '密码必须同时包含字母和数字', en: 'Password must contain both letters and digits' },
  passwordMismatch: { zh: '两次输入的密码不一致', en: 'The two passwords do not match' },
  ipInvalid: { zh: 'IP 地址格式错误：{value}', en: 'Invalid IP address: {value}' },
  ipRangeOrder: { zh: '结束 IP 必须大于起始 IP', en: 'End IP must be after start IP' },
  cidrInvalid: { zh: 'CIDR 格式错误，例如 10.0.0.0/24', en: 'Invalid CIDR, e.g. 10.0.0.0/24' },
  cidrNotNetwork: { zh: '网络地址应为 {network}', en: 'Network address should be {network}' },
  whitelistIpInvalid: {
    zh: 'IP 地址或网段格式错误：{value}（例如 203.0.113.8、203.0.113.0/24、2001:db8::1 或 2001:db8::/48）',
    en: 'Invalid IP address or CIDR block: {value} (e.g. 203.0.113.8, 203.0.113.0/24, 2001:db8::1 or 2001:db8::/48)',
  },
  whitelistCidrWithEnd: { zh: '网段（CIDR）本身即是范围，请不要填写结束 IP', en: 'A CIDR block is a range already: leave the end IP empty' },
  ipFamilyMismatch: { zh: '起始 IP 与结束 IP 须同为 IPv4 或同为 IPv6', en: 'The start and end IP must both be IPv4 or both IPv6' },
  portInvalid: { zh: '端口须为 1-65535 的整数', en: 'Port must be an integer from 1 to 65535' },
  portRangeInvalid: { zh: '端口范围格式错误，例如 1000-2000', en: 'Invalid port range, e.g. 1000-2000' },
  portRangeOrder: { zh: '结束端口必须大于起始端口', en: 'End port must be greater than start port' },
  tooLong: { zh: '不能超过 {max} 个字符', en: 'At most {max} characters' },
  amountInvalid: { zh: '请输入有效的金额', en: 'Please enter a valid amount' },
  amountDecimals: { zh: '最多保留 {max} 位小数', en: 'At most {max} decimal places' },
  amountNegative: { zh: '金额不能为负数', en: 'Amount cannot be negative' },
  amountZero: { zh: '金额必须大于 0', en: 'Amount must be greater than 0' },
  amountMin: { zh: '金额不能小于 {min}', en: 'Amount must be at least {min}' },
  amountMax: { zh: '金额不能大于 {max}', en: 'Amount must be at most {max}' },
  proportionInvalid: {
    zh: '分润比例须为 0-100 之间的数字，最多 2 位小数',
    en: 'Proportion must be a number from 0 to 100 with at most 2 decimals',
  },
  // '{host}' here is literal text: it has no param, so it is never substituted.
  jumpUrlInvalid: {
    zh: '跳转地址须以 http://、https:// 或 {host} 开头',
    en: 'Jump address must start with http://, https:// or {host}',
  },
  fileType: { zh: '文件类型错误', en: 'File type error' },
  fileTooBig: { zh: '文件过大，须小于 {max}', en: 'File too big: it must be under {max}' },
  logoTooBig: { zh: 'Logo 须小于 1500KB', en: 'Logo must be smaller than 1500 KB' },
  callbackOneAddress: { zh: '只能填写一个回调地址', en: 'Enter one callback address only' },
} as const;

export type ValidationKey = keyof typeof messages;

export interface ValidationError {
  key: ValidationKey;
  params?: Record<string, number | string>;
}

export type ValidationResult = ValidationError | null;

export const validationMessages: Record<string, { zh: string; en: string }> = messages;

/** Renders an error in the UI language; null renders as '' so it can feed form helpers directly. */
export function formatValidationMessage(err: { key: string; params?: Record<string, number | string> } | null, lang: Lang): string {
  if (!err) return '';
  if (!Object.hasOwn(validationMessages, err.key)) return err.key;
  const template = validationMessages[err.key][lang];
  const params = err.params ?? {};
  // Only known params are replaced so literal braces like '{host}' survive.
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
