import { Type } from '@sinclair/typebox';
import { endpoint, Nullable, Obj, Page, PageParams } from './endpoint.ts';
import {
  AUTO_RULE_NAME_MAX, AUTO_RULE_REMARK_MAX, AutoRuleAction, AutoRuleActionResult, AutoRuleChannel, AutoRuleDeliveryState, AutoRuleLevel,
  AutoRuleRunKind, AutoRuleRunState, AutoRuleStatus, AutoRuleSwitch, AutoRuleTargetState, AutoRuleType,
} from '../enums/autorule.ts';

/**
 * Auto rule (issue 15; spec §2 /autorule/autorule-list/list, /detail/:ruleId (5010000: 5010001 add, 5010002 edit,
 * 5010003 delete, 5010004 publish and switch), /autorule/alarm-list/list, /detail/:alarmId, /execute-detail/:ruleId/
 * :actionId (5020000)). Design and catalogue: docs/automation.md.
 *
 * A rule watches the cards in its scope (a customer's rule: only its own cards, its tree's for a first-level customer;
 * a staff rule: any customer's, optionally narrowed to one customer tree, an operator and a plan) and, for each card
 * that meets its condition, records the card once (per cycle for threshold rules), applies its action through the card
 * service and queues a notification per card × channel.
 */
const tag = 'autorule';
export const AutoRulePerm = { Page: 5010000, Add: 5010001, Edit: 5010002, Delete: 5010003, Switch: 5010004, Alarms: 5020000 } as const;
const P = AutoRulePerm;

const Flag = Type.Integer({ minimum: 0, maximum: 1 });
const Id = Type.Integer({ minimum: 1 });
const Contacts = Type.String({ maxLength: 600 });

export const AutoRuleRow = Type.Object({
  ruleId: Type.Integer(),
  name: Type.String(),
  /** AutoRuleType */
  ruleType: Type.Integer(),
  /** AutoRuleLevel */
  level: Type.Integer(),
  /** the type's parameter (AUTO_RULE_THRESHOLDS); null for event types */
  threshold: Nullable(Type.Integer()),
  /** StateChanged: the card states that trigger (empty: any change) */
  states: Type.Array(Type.Integer()),
  /** AutoRuleAction */
  action: Type.Integer(),
  /** AutoRuleTargetState of a ChangeState rule */
  targetState: Nullable(Type.Integer()),
  /** the plan of a ChangePlan rule */
  targetPlanId: Nullable(Type.Integer()),
  targetPlanName: Nullable(Type.String()),
  /** AutoRuleChannel */
  channels: Type.Array(Type.Integer()),
  /** ';'-separated, at most 5 each (spec §5) */
  phones: Nullable(Type.String()),
  emails: Nullable(Type.String()),
  /** whose cards: the owner's (a customer's rule) narrowed by the scope fields; null owner = a platform (staff) rule */
  ownerCustId: Nullable(Type.Integer()),
  ownerCustName: Nullable(Type.String()),
  scopeCustId: Nullable(Type.Integer()),
  scopeCustName: Nullable(Type.String()),
  scopeOperatorId: Nullable(Type.Integer()),
  scopePlanId: Nullable(Type.Integer()),
  scopePlanName: Nullable(Type.String()),
  /** AutoRuleStatus */
  status: Type.Integer(),
  /** AutoRuleSwitch */
  enabled: Type.Integer(),
  remark: Nullable(Type.String()),
  /** cards recorded by the rule so far */
  triggeredCards: Type.Integer(),
  lastTriggeredAt: Nullable(Type.String()),
  publishedAt: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedBy: Nullable(Type.String()),
  updatedAt: Type.String(),
});

export const getRuleListPage = endpoint({
  name: 'core/alarm/rule/getRuleListPage', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '自动化规则列表', en: 'Automation rules' },
  body: Obj({
    ...PageParams,
    name: Type.Optional(Type.String({ maxLength: AUTO_RULE_NAME_MAX })),
    ruleType: Type.Optional(Type.Integer({ minimum: 1, maximum: 8 })),
    level: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
    status: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
    enabled: Type.Optional(Flag),
  }),
  response: Page(AutoRuleRow),
});

export const getRuleDetail = endpoint({
  name: 'core/alarm/rule/getRuleDetail', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '自动化规则详情', en: 'An automation rule' },
  body: Obj({ ruleId: Id }),
  response: AutoRuleRow,
});

const RuleFields = {
  name: Type.String({ minLength: 1, maxLength: AUTO_RULE_NAME_MAX }),
  ruleType: Type.Integer({ minimum: 1, maximum: 8 }),
  level: Type.Integer({ minimum: 1, maximum: 3 }),
  threshold: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 }))),
  states: Type.Optional(Type.Array(Type.Integer({ minimum: 60, maximum: 68 }), { maxItems: 9 })),
  action: Type.Integer({ minimum: 1, maximum: 4 }),
  targetState: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 3 }))),
  targetPlanId: Type.Optional(Nullable(Id)),
  channels: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 3 }), { maxItems: 3 })),
  phones: Type.Optional(Nullable(Contacts)),
  emails: Type.Optional(Nullable(Contacts)),
  scopeCustId: Type.Optional(Nullable(Id)),
  scopeOperatorId: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 32767 }))),
  scopePlanId: Type.Optional(Nullable(Id)),
  remark: Type.Optional(Nullable(Type.String({ maxLength: AUTO_RULE_REMARK_MAX }))),
};

/** A new rule, as a draft (publishing switches it on). */
export const saveRule = endpoint({
  name: 'core/alarm/rule/saveRule', method: 'POST', auth: 'session', perm: [P.Add], kind: 'mutation', tag,
  summary: { zh: '新增自动化规则', en: 'Add an automation rule' },
  body: Obj(RuleFields),
  response: AutoRuleRow,
});

/** Changes a rule (its records stay; a changed condition applies from the next evaluation). */
export const updateRule = endpoint({
  name: 'core/alarm/rule/updateRule', method: 'POST', auth: 'session', perm: [P.Edit], kind: 'mutation', tag,
  summary: { zh: '编辑自动化规则', en: 'Edit an automation rule' },
  body: Obj({ ruleId: Id, ...RuleFields }),
  response: AutoRuleRow,
});

/** Deletes a rule (kept as deleted so its trigger records stay readable). */
export const deleteRule = endpoint({
  name: 'core/alarm/rule/deleteRule', method: 'POST', auth: 'session', perm: [P.Delete], kind: 'mutation', tag,
  summary: { zh: '删除自动化规则', en: 'Delete an automation rule' },
  body: Obj({ ruleId: Id }),
  response: Type.Null(),
});

/** Publishes a draft and switches it on; it acts from the next evaluation. */
export const publishRule = endpoint({
  name: 'core/alarm/rule/publishRule', method: 'POST', auth: 'session', perm: [P.Switch], kind: 'mutation', tag,
  summary: { zh: '发布自动化规则', en: 'Publish an automation rule' },
  body: Obj({ ruleId: Id }),
  response: AutoRuleRow,
});

/** Switches a published rule on or off (a draft: 21105). The same state again changes nothing. */
export const switchRule = endpoint({
  name: 'core/alarm/rule/switchRule', method: 'POST', auth: 'session', perm: [P.Switch], kind: 'mutation', tag,
  summary: { zh: '开启/关闭自动化规则', en: 'Switch an automation rule on or off' },
  body: Obj({ ruleId: Id, enabled: Flag }),
  response: AutoRuleRow,
});

export const DryRunHit = Type.Object({ iccid: Type.String(), day: Type.String(), value: Nullable(Type.String()) });

/**
 * "Had this rule been on during the last 30 days, these cards would have triggered, on these days": replayed from the
 * stored daily usage and card history, nothing recorded or sent. Types without stored history: 21104.
 */
export const dryRunRule = endpoint({
  name: 'core/alarm/rule/dryRunRule', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '规则试运行', en: 'Dry-run an automation rule' },
  body: Obj({ ruleId: Id }),
  response: Type.Object({
    from: Type.String(),
    to: Type.String(),
    cards: Type.Integer(),
    /** triggers per day, every day of the range */
    days: Type.Array(Type.Object({ day: Type.String(), cards: Type.Integer() })),
    /** the first 500 triggers, by day then ICCID */
    hits: Type.Array(DryRunHit),
    truncated: Type.Boolean(),
  }),
});

export const AlarmRow = Type.Object({
  alarmId: Type.Integer(),
  ruleId: Type.Integer(),
  ruleName: Type.String(),
  ruleType: Type.Integer(),
  level: Type.Integer(),
  action: Type.Integer(),
  runId: Type.Integer(),
  /** AutoRuleRunKind */
  runKind: Type.Integer(),
  cards: Type.Integer(),
  actionsDone: Type.Integer(),
  actionsRefused: Type.Integer(),
  triggeredAt: Type.String(),
});

/** Trigger records: one per rule and evaluation run that recorded cards, newest first. */
export const getAlarmListPage = endpoint({
  name: 'core/alarm/alarm/getAlarmListPage', method: 'POST', auth: 'session', perm: [P.Alarms, P.Page], kind: 'query', tag,
  summary: { zh: '触发记录', en: 'Trigger records' },
  body: Obj({
    ...PageParams,
    ruleId: Type.Optional(Id),
    ruleType: Type.Optional(Type.Integer({ minimum: 1, maximum: 8 })),
    level: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
    startDate: Type.Optional(Type.String({ format: 'date' })),
    endDate: Type.Optional(Type.String({ format: 'date' })),
  }),
  response: Page(AlarmRow),
});

export const getAlarmDetail = endpoint({
  name: 'core/alarm/alarm/getAlarmDetail', method: 'POST', auth: 'session', perm: [P.Alarms, P.Page], kind: 'query', tag,
  summary: { zh: '触发记录详情', en: 'A trigger record' },
  body: Obj({ alarmId: Id }),
  response: AlarmRow,
});

export const AlarmCardRow = Type.Object({
  iccid: Type.String(),
  msisdn: Nullable(Type.String()),
  custId: Nullable(Type.Integer()),
  custName: Nullable(Type.String()),
  /** once-per key: the cycle, the change or the silence it was recorded for */
  periodKey: Type.String(),
  /** what was measured (bytes, %, hours, messages, the new IMEI or state) */
  value: Nullable(Type.String()),
  /** AutoRuleActionResult */
  actionResult: Type.Integer(),
  actionError: Nullable(Type.String()),
  triggeredAt: Type.String(),
});

/** The cards of a trigger record. */
export const getAlarmCardPage = endpoint({
  name: 'core/alarm/alarm/getAlarmCardPage', method: 'POST', auth: 'session', perm: [P.Alarms, P.Page], kind: 'query', tag,
  summary: { zh: '触发卡片', en: 'Cards of a trigger record' },
  body: Obj({ ...PageParams, alarmId: Id, iccid: Type.Optional(Type.String({ maxLength: 20 })) }),
  response: Page(AlarmCardRow),
});

export const DeliveryRow = Type.Object({
  deliveryId: Type.Integer(),
  alarmId: Type.Integer(),
  iccid: Type.String(),
  /** AutoRuleChannel */
  channel: Type.Integer(),
  /** AutoRuleDeliveryState */
  state: Type.Integer(),
  attempts: Type.Integer(),
  lastError: Nullable(Type.String()),
  createdAt: Type.String(),
  sentAt: Nullable(Type.String()),
  /**
   * A webhook notification handed to the webhook outbox: that delivery (its attempts and replay are
   * core/alarm/webhook/*, docs/webhooks.md) and where it stands; null for other channels, before it was handed over,
   * or once the delivery was pruned (retention)
   */
  webhook: Nullable(Type.Object({
    deliveryId: Type.Integer(),
    /** WebhookDeliveryState */
    state: Type.Integer(),
    totalAttempts: Type.Integer(),
    lastHttpStatus: Nullable(Type.Integer()),
  })),
});

/**
 * What each action did per card and per delivery (execute detail). The spec names a GET; it is a POST here like every
 * list, because its filters are integers and query strings are not coerced (docs/automation.md).
 */
export const getActionRecords = endpoint({
  name: 'core/alarm/alarm/getActionRecords', method: 'POST', auth: 'session', perm: [P.Alarms, P.Page], kind: 'query', tag,
  summary: { zh: '动作执行记录', en: 'Action records' },
  body: Obj({
    ...PageParams,
    alarmId: Id,
    iccid: Type.Optional(Type.String({ maxLength: 20 })),
    channel: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
    state: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  }),
  response: Page(DeliveryRow),
});

export const RunRow = Type.Object({
  runId: Type.Integer(),
  kind: Type.Integer(),
  state: Type.Integer(),
  asOf: Type.String(),
  cardsTriggered: Type.Integer(),
  startedAt: Type.String(),
  finishedAt: Nullable(Type.String()),
  error: Nullable(Type.String()),
});

/** The evaluation runs that looked at a rule (its detail's "runs"), newest first, with what each recorded for it. */
export const getRuleRunPage = endpoint({
  name: 'core/alarm/rule/getRuleRunPage', method: 'POST', auth: 'session', perm: [P.Page], kind: 'query', tag,
  summary: { zh: '规则执行记录', en: 'Runs of a rule' },
  body: Obj({ ...PageParams, ruleId: Id }),
  response: Page(RunRow),
});

export {
  AutoRuleAction, AutoRuleActionResult, AutoRuleChannel, AutoRuleDeliveryState, AutoRuleLevel, AutoRuleRunKind, AutoRuleRunState, AutoRuleStatus,
  AutoRuleSwitch, AutoRuleTargetState, AutoRuleType,
};
