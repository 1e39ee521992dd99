// Enums of the automation rules (Auto rule 5000000; issue 15; docs/automation.md).
import { defineEnum } from './define.ts';

/**
 * What a rule watches. Threshold types are also checked right after every usage feed window; every type is checked by
 * the scheduled scans on the 5th, 15th and 25th (spec §9). `threshold` means, per type: days before the contract
 * ends (cycle due), percent of the quota (data, pool), hours without a session, SMS in the cycle; unused otherwise.
 */
export const AutoRuleType = defineEnum({
  CycleDue: { value: 1, zh: '周期到期', en: 'Cycle due' },
  DataUsage: { value: 2, zh: '流量使用率', en: 'Data usage of the quota' },
  PoolUsage: { value: 3, zh: '流量池使用率', en: 'Pool usage' },
  NoSession: { value: 4, zh: '长时间无会话', en: 'No session' },
  ImeiChanged: { value: 5, zh: 'IMEI 变更', en: 'IMEI changed' },
  StateChanged: { value: 6, zh: '卡状态变更', en: 'State changed' },
  PlanChanged: { value: 7, zh: '套餐变更', en: 'Plan changed' },
  SmsOver: { value: 8, zh: '短信用量超限', en: 'SMS usage over' },
});
export type AutoRuleType = (typeof AutoRuleType.values)[number];

/** Types whose `threshold` is required, with its bounds and unit. */
export const AUTO_RULE_THRESHOLDS: Record<number, { min: number; max: number; unit: { zh: string; en: string } }> = {
  [AutoRuleType.CycleDue]: { min: 1, max: 60, unit: { zh: '天', en: 'days' } },
  [AutoRuleType.DataUsage]: { min: 1, max: 1000, unit: { zh: '%', en: '%' } },
  [AutoRuleType.PoolUsage]: { min: 1, max: 1000, unit: { zh: '%', en: '%' } },
  [AutoRuleType.NoSession]: { min: 1, max: 720, unit: { zh: '小时', en: 'hours' } },
  [AutoRuleType.SmsOver]: { min: 0, max: 1_000_000, unit: { zh: '条', en: 'messages' } },
};

/** Types checked after every usage feed window as well as on the scan days. */
export const AUTO_RULE_THRESHOLD_TYPES: readonly number[] = [
  AutoRuleType.DataUsage, AutoRuleType.PoolUsage, AutoRuleType.NoSession, AutoRuleType.SmsOver,
  AutoRuleType.ImeiChanged, AutoRuleType.StateChanged, AutoRuleType.PlanChanged,
];

/** Types the dry run can replay from stored usage and history. */
export const AUTO_RULE_DRY_RUN_TYPES: readonly number[] = [
  AutoRuleType.DataUsage, AutoRuleType.SmsOver, AutoRuleType.StateChanged, AutoRuleType.PlanChanged, AutoRuleType.ImeiChanged,
];

export const AutoRuleLevel = defineEnum({
  Info: { value: 1, zh: '提示', en: 'Info' },
  Warning: { value: 2, zh: '警告', en: 'Warning' },
  Critical: { value: 3, zh: '严重', en: 'Critical' },
});
export type AutoRuleLevel = (typeof AutoRuleLevel.values)[number];

/** What a rule does to each card that triggers it (besides the notifications it sends). */
export const AutoRuleAction = defineEnum({
  NotifyOnly: { value: 1, zh: '仅通知', en: 'Notify only' },
  ChangeState: { value: 2, zh: '变更卡状态', en: 'Change card state' },
  NetworkReset: { value: 3, zh: '网络重置', en: 'Network reset' },
  ChangePlan: { value: 4, zh: '变更套餐', en: 'Move to a plan' },
});
export type AutoRuleAction = (typeof AutoRuleAction.values)[number];

/** The state change a ChangeState rule asks of the card service. */
export const AutoRuleTargetState = defineEnum({
  Deactivate: { value: 1, zh: '停机', en: 'Deactivate' },
  Activate: { value: 2, zh: '激活', en: 'Activate' },
  Freeze: { value: 3, zh: '强制停机', en: 'Forced shutdown' },
});
export type AutoRuleTargetState = (typeof AutoRuleTargetState.values)[number];

/** Notification channels (push methods). */
export const AutoRuleChannel = defineEnum({
  Sms: { value: 1, zh: '短信', en: 'SMS' },
  Email: { value: 2, zh: '邮件', en: 'E-mail' },
  Webhook: { value: 3, zh: 'Webhook 推送', en: 'Webhook' },
});
export type AutoRuleChannel = (typeof AutoRuleChannel.values)[number];

/** A rule's publication: a draft is never evaluated; publishing switches it on. */
export const AutoRuleStatus = defineEnum({
  Draft: { value: 1, zh: '未发布', en: 'Draft' },
  Published: { value: 2, zh: '已发布', en: 'Published' },
});
export type AutoRuleStatus = (typeof AutoRuleStatus.values)[number];

export const AutoRuleSwitch = defineEnum({
  Off: { value: 0, zh: '已关闭', en: 'Off' },
  On: { value: 1, zh: '已开启', en: 'On' },
});

/** One evaluation run. */
export const AutoRuleRunKind = defineEnum({
  Scan: { value: 1, zh: '定期扫描', en: 'Scheduled scan' },
  FeedWindow: { value: 2, zh: '用量窗口检查', en: 'After a usage window' },
  Manual: { value: 3, zh: '手动执行', en: 'Run by hand' },
});

export const AutoRuleRunState = defineEnum({
  Running: { value: 1, zh: '执行中', en: 'Running' },
  Done: { value: 2, zh: '已完成', en: 'Done' },
  Failed: { value: 3, zh: '失败', en: 'Failed' },
});

/** What the rule's card action came to for one triggered card. */
export const AutoRuleActionResult = defineEnum({
  None: { value: 0, zh: '无动作', en: 'No action' },
  Done: { value: 1, zh: '已执行', en: 'Done' },
  Refused: { value: 2, zh: '被拒绝', en: 'Refused' },
});

/** One notification of one card on one channel. */
export const AutoRuleDeliveryState = defineEnum({
  /** waiting for the dispatcher */
  Pending: { value: 1, zh: '待发送', en: 'Pending' },
  /** the channel is not available in this installation yet: kept, sent once it is */
  NoChannel: { value: 2, zh: '渠道未接入', en: 'Channel not available' },
  /** handed to the channel (the webhook outbox, the SMTP server); the channel's own record says what became of it */
  Sent: { value: 3, zh: '已提交渠道', en: 'Handed to the channel' },
  Failed: { value: 4, zh: '发送失败', en: 'Failed' },
});

export const AUTO_RULE_NAME_MAX = 64;
export const AUTO_RULE_REMARK_MAX = 200;
/** The dry run looks back this many days. */
export const AUTO_RULE_DRY_RUN_DAYS = 30;
/** Scan days of the month (spec §9). */
export const AUTO_RULE_SCAN_DAYS: readonly number[] = [5, 15, 25];
/** Plans whose prepaid cycle is shorter than this many days are excluded from every rule (spec §9). */
export const AUTO_RULE_MIN_PREPAID_CYCLE_DAYS = 10;
/** Cards per evaluation chunk (one transaction per chunk, the cursor saved with it). */
export const AUTO_RULE_CHUNK_CARDS = 50_000;
