import { Type } from '@sinclair/typebox';
import { endpoint, Obj, Page, PageParams, Nullable } from './endpoint.ts';
import { defineEnum } from '../enums/define.ts';
import { CARD_STATE_ACTIONS } from './carddata.ts';

/*
 * Card diagnosis (issue 5, spec §2 Shortcuts: /shortcuts/diagnose/detail/:iccId?). The server runs a set of
 * checks on one card (state through the lifecycle engine, plan and quota, zone/region/network limits, the last
 * session and its APN, the operator's access configuration and gateway) and answers each with a verdict, an
 * explanation and a suggested action in both languages. Every diagnosis is recorded (who, card, verdicts,
 * when). Standard-version cards get every check that needs no professional network (issue 12); the
 * professional-only checks answer "not applicable" and say why. Start-state cards are unsupported. Network reset goes
 * through the lifecycle engine (at most once per 3 minutes).
 */

const tag = 'diagnose';

export const DiagnosePerm = {
  /** the diagnosis page: intelligent diagnosis and the card's diagnosis records */
  Page: 6050000,
  /** advanced diagnosis (live checks with the operator) and network reset */
  Advanced: 6050001,
  /** change the card's state from the diagnosis page (carddata.changeCardStatus) */
  ChangeStatus: 6050002,
} as const;
const P = DiagnosePerm;

/** The verdict of one check; a diagnosis's overall verdict is its worst check. */
export const DiagnoseVerdict = defineEnum({
  /** a professional-only check of a standard-version card: it cannot run, and says so */
  NotApplicable: { value: 0, zh: '不适用', en: 'Not applicable' },
  Ok: { value: 1, zh: '正常', en: 'OK' },
  Warning: { value: 2, zh: '注意', en: 'Warning' },
  Problem: { value: 3, zh: '异常', en: 'Problem' },
});

/** The checks, in the order they are shown. */
export const DIAGNOSE_CHECKS = ['cardState', 'planQuota', 'zoneLimits', 'session', 'operator', 'policy'] as const;
/** Checks that need the professional network (the platform runs the card's access itself): "not applicable" for standard cards. */
export const PROFESSIONAL_ONLY_CHECKS: readonly DiagnoseCheckKey[] = ['policy'];
export type DiagnoseCheckKey = (typeof DIAGNOSE_CHECKS)[number];

/**
 * What the suggested action asks the user to do, so the page can offer the matching button or link:
 * changeStatus / networkReset / advancedDiagnosis on the diagnosis page; changePlan / renew / orderEventPack /
 * permitZones on the card detail; accessConfig / changeFailures / commservConfig for operator staff; contactOperator /
 * checkDevice outside the platform.
 */
export const DIAGNOSE_ACTIONS = [
  'none', 'changeStatus', 'networkReset', 'changePlan', 'renew', 'orderEventPack', 'permitZones', 'accessConfig', 'changeFailures',
  'advancedDiagnosis', 'contactOperator', 'checkDevice', 'commservConfig',
] as const;
export type DiagnoseActionKind = (typeof DIAGNOSE_ACTIONS)[number];

/** How the page formats a fact's value. */
export const DIAGNOSE_FACT_KINDS = ['text', 'datetime', 'mb', 'percent', 'number', 'flag', 'state', 'operator', 'operationMode'] as const;

const Text2 = Type.Object({ zh: Type.String(), en: Type.String() });

export const DiagnoseFact = Type.Object({
  key: Type.String(),
  label: Text2,
  kind: Type.Union(DIAGNOSE_FACT_KINDS.map((k) => Type.Literal(k))),
  /** ISO date-time for datetime; a number as text for mb / percent / number / state / operator / operationMode; 'true' or 'false' for flag */
  value: Nullable(Type.String()),
});

export const DiagnoseCheck = Type.Object({
  key: Type.Union(DIAGNOSE_CHECKS.map((k) => Type.Literal(k))),
  verdict: Type.Integer(),
  title: Text2,
  explanation: Text2,
  /** the suggested action; null when nothing needs doing */
  action: Nullable(Text2),
  actionKind: Type.Union(DIAGNOSE_ACTIONS.map((k) => Type.Literal(k))),
  facts: Type.Array(DiagnoseFact),
});

export const DiagnoseResult = Type.Object({
  diagnosisId: Type.String(),
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  imsi: Nullable(Type.String()),
  state: Type.Integer(),
  operatorId: Type.Integer(),
  operationMode: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  planName: Nullable(Type.String()),
  /** true when the live operator checks ran (advanced diagnosis) */
  advanced: Type.Boolean(),
  overall: Type.Integer(),
  checks: Type.Array(DiagnoseCheck),
  networkReset: Type.Object({
    /** the card's state allows a reset (test or activated) */
    supported: Type.Boolean(),
    lastAt: Nullable(Type.String()),
    /** when the next reset is allowed (3 minutes after the last); null = now */
    nextAllowedAt: Nullable(Type.String()),
  }),
  /** manual state changes the lifecycle rules allow from the card's state, for "change status" */
  stateActions: Type.Array(Type.Object({ action: Type.Union(CARD_STATE_ACTIONS.map((a) => Type.Literal(a))), toState: Type.Integer() })),
  diagnosedBy: Type.String(),
  diagnosedAt: Type.String(),
});

const IccidBody = Obj({ iccid: Type.String({ pattern: '^[0-9]{19,20}$' }) });

export const diagnoseCard = endpoint({
  name: 'shortcuts/diagnose/intelligent', method: 'POST', auth: 'session', perm: [P.Page], kind: 'mutation', tag,
  summary: {
    zh: '诊断一张卡：卡状态、套餐与用量、区域限制、最近会话与 APN、运营商接入，专业版卡还检查通信策略；每次诊断都会记录。标准版卡的专业版检查项显示“不适用”',
    en: "Diagnose one card: state, plan and usage, zone limits, last session and APN, operator access, and for professional-version cards the communication policy; every diagnosis is recorded. A standard card's professional-only checks answer 'not applicable'",
  },
  body: IccidBody,
  response: DiagnoseResult,
});

export const diagnoseCardAdvanced = endpoint({
  name: 'shortcuts/diagnose/advanced', method: 'POST', auth: 'session', perm: [P.Advanced], kind: 'mutation', tag,
  summary: {
    zh: '高级诊断：在智能诊断之上实时连接卡所属运营商的网关（接入认证与响应时间）',
    en: "Advanced diagnosis: the intelligent checks plus a live call to the gateway of the card's operator (authentication and response time)",
  },
  body: IccidBody,
  response: DiagnoseResult,
});

export const NetworkResetResult = Type.Object({
  iccid: Type.String(),
  /** false when the operator has no access configuration (nothing was sent) */
  sentToOperator: Type.Boolean(),
  requestId: Nullable(Type.String()),
  resetAt: Type.String(),
  nextAllowedAt: Type.String(),
});

export const networkReset = endpoint({
  name: 'shortcuts/diagnose/networkReset', method: 'POST', auth: 'session', perm: [P.Advanced], kind: 'mutation', tag,
  summary: {
    zh: '网络重置：让卡断开并重新附着网络（测试期或已激活的卡；两次重置至少间隔 3 分钟）',
    en: 'Network reset: detach the card and let it attach again (test or activated cards; at most once every 3 minutes)',
  },
  body: IccidBody,
  response: NetworkResetResult,
});

export const DiagnoseRecord = Type.Object({
  diagnosisId: Type.String(),
  iccid: Type.String(),
  advanced: Type.Boolean(),
  overall: Type.Integer(),
  state: Nullable(Type.Integer()),
  verdicts: Type.Array(Type.Object({ key: Type.String(), verdict: Type.Integer() })),
  loginName: Type.String(),
  createdAt: Type.String(),
});

export const getDiagnoseRecordPage = endpoint({
  name: 'shortcuts/diagnose/getRecordPage', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '诊断记录（按卡查询，最新在前）', en: 'Diagnosis records (by card, newest first)' },
  body: Obj({ ...PageParams, iccid: Type.String({ pattern: '^[0-9]{19,20}$' }) }),
  response: Page(DiagnoseRecord),
});

export const getDiagnoseRecordDetail = endpoint({
  name: 'shortcuts/diagnose/getRecordDetail', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '一次诊断的完整结果', en: 'The full result of one diagnosis' },
  body: Obj({ iccid: Type.String({ pattern: '^[0-9]{19,20}$' }), diagnosisId: Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' }) }),
  response: DiagnoseResult,
});
