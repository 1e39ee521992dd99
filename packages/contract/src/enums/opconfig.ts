// Enums of the opconfig area (issue 4): operator access configuration, platform configuration,
// communication plans and card change failure records.
import { defineEnum } from './define.ts';

/**
 * Operator gateway adapters an access configuration can use. Only the built-in network simulator ships
 * with the product; the carrier adapters are named so an installation can add them behind the
 * OperatorGateway interface (apps/server/src/operators/registry.ts) — until then they are refused.
 */
export const GATEWAY_ADAPTERS = [
  { code: 'simulator', zh: '内置网络模拟器', en: 'Built-in network simulator', available: true },
  { code: 'cmcc-onelink', zh: '中国移动 OneLink（未安装）', en: 'China Mobile OneLink (not installed)', available: false },
  { code: 'cucc-jasper', zh: '中国联通 Jasper（未安装）', en: 'China Unicom Jasper (not installed)', available: false },
  { code: 'ctcc-cmp', zh: '中国电信 CMP（未安装）', en: 'China Telecom CMP (not installed)', available: false },
] as const;
export type GatewayAdapterCode = (typeof GATEWAY_ADAPTERS)[number]['code'];
export const DEFAULT_GATEWAY_ADAPTER: GatewayAdapterCode = 'simulator';

/** API versions an access configuration may declare (what the operator OpenAPIs publish). */
export const OPERATOR_API_VERSIONS = ['v1', 'v2', 'v3'] as const;

/** Platform configuration types; each has a field schema (contract `platformSchemas`). */
export const PlatformType = defineEnum({
  SmsGateway: { value: 1, zh: '短信网关', en: 'SMS gateway' },
  RealName: { value: 2, zh: '实名认证平台', en: 'Real-name platform' },
  EsimSmdp: { value: 3, zh: 'eSIM SM-DP+', en: 'eSIM SM-DP+' },
  OperatorOpenApi: { value: 4, zh: '运营商 OpenAPI', en: 'Operator OpenAPI' },
  Payment: { value: 5, zh: '支付平台', en: 'Payment platform' },
});

/** On/off state of a platform configuration entry. */
export const PlatformConfigState = defineEnum({
  On: { value: 1, zh: '启用', en: 'On' },
  Off: { value: 2, zh: '停用', en: 'Off' },
});

/** Services a communication plan carries. */
export const CommServiceKind = defineEnum({
  Data: { value: 1, zh: '数据', en: 'Data' },
  Sms: { value: 2, zh: '短信', en: 'SMS' },
  Voice: { value: 3, zh: '语音', en: 'Voice' },
});

export const CommPlanStatus = defineEnum({
  Enabled: { value: 1, zh: '启用', en: 'Enabled' },
  Disabled: { value: 2, zh: '停用', en: 'Disabled' },
});

/** What kind of card change the operator gateway refused. */
export const CardChangeType = defineEnum({
  CardState: { value: 1, zh: '状态变更', en: 'Status change' },
  Plan: { value: 2, zh: '套餐变更', en: 'Plan change' },
  Zone: { value: 3, zh: '区域限制/放开', en: 'Zone block / permit' },
  NetworkReset: { value: 4, zh: '网络重置', en: 'Network reset' },
});

/** State of a card change failure record. */
export const CardChangeFailureState = defineEnum({
  Pending: { value: 1, zh: '待处理', en: 'Pending' },
  Handled: { value: 2, zh: '已处理', en: 'Handled' },
  RetriedOk: { value: 3, zh: '重试成功', en: 'Retry succeeded' },
  RetryFailed: { value: 4, zh: '重试失败', en: 'Retry failed' },
});

/** A failure record can still be acted upon (handled or retried) only in these states. */
export const OPEN_FAILURE_STATES: readonly number[] = [CardChangeFailureState.Pending, CardChangeFailureState.RetryFailed];
