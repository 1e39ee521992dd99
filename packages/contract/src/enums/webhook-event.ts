// Enums of signed webhook delivery (issue 15; docs/webhooks.md).
import { defineEnum } from './define.ts';

/**
 * The event-type catalogue: what a customer's callback address can subscribe to. The number is stored; the
 * wire name (`WEBHOOK_EVENT_NAME`) is the `type` field of the JSON a receiver gets.
 */
export const WebhookEventType = defineEnum({
  CardStateChanged: { value: 1, zh: '卡状态变更', en: 'Card state changed' },
  AutomationAlarm: { value: 2, zh: '自动化规则告警', en: 'Automation alarm' },
  SmsDeliveryReport: { value: 3, zh: '短信状态报告', en: 'SMS delivery report' },
  SmsReceived: { value: 4, zh: '收到上行短信', en: 'SMS received' },
  BatchFinished: { value: 5, zh: '批量任务完成', en: 'Batch finished' },
  BillPublished: { value: 6, zh: '账单已发布', en: 'Bill published' },
});
export type WebhookEventType = (typeof WebhookEventType.values)[number];

/** The `type` string a receiver sees for each event type (stable; never renamed). */
export const WEBHOOK_EVENT_NAME: Readonly<Record<WebhookEventType, string>> = {
  1: 'card.state_changed',
  2: 'automation.alarm',
  3: 'sms.delivery_report',
  4: 'sms.received',
  5: 'batch.finished',
  6: 'bill.published',
};

/** The event type of a wire name, or undefined. */
export function webhookEventTypeOfName(name: string): WebhookEventType | undefined {
  for (const v of WebhookEventType.values) if (WEBHOOK_EVENT_NAME[v] === name) return v;
  return undefined;
}

/** The payload schema version of each event type (the `version` field; raised only on an incompatible change). */
export const WEBHOOK_EVENT_VERSION: Readonly<Record<WebhookEventType, number>> = {
  1: 1,
  2: 1,
  3: 1,
  4: 1,
  5: 1,
  6: 1,
};

/** Where one delivery (one event to one callback address) stands. */
export const WebhookDeliveryState = defineEnum({
  /** waiting for its first attempt */
  Pending: { value: 1, zh: '待发送', en: 'Pending' },
  /** an attempt failed; the next one is scheduled */
  Retrying: { value: 2, zh: '重试中', en: 'Retrying' },
  /** a 2xx answer was received */
  Delivered: { value: 3, zh: '已送达', en: 'Delivered' },
  /** every attempt failed (dead letter); can be replayed by hand */
  Dead: { value: 4, zh: '投递失败', en: 'Dead letter' },
});
export type WebhookDeliveryState = (typeof WebhookDeliveryState.values)[number];

/** How one attempt ended. */
export const WebhookAttemptOutcome = defineEnum({
  /** 2xx */
  Success: { value: 1, zh: '成功', en: 'Success' },
  /** the receiver answered with a status other than 2xx */
  HttpError: { value: 2, zh: 'HTTP 错误', en: 'HTTP error' },
  /** connection refused, reset or closed, DNS failure */
  NetworkError: { value: 3, zh: '网络错误', en: 'Network error' },
  /** no answer within the timeout */
  Timeout: { value: 4, zh: '超时', en: 'Timeout' },
  /** the customer has no callback address for this event type any more */
  NoAddress: { value: 5, zh: '无回调地址', en: 'No callback address' },
  /** the sending process stopped before the answer was recorded (the attempt may or may not have arrived) */
  Interrupted: { value: 6, zh: '发送中断', en: 'Interrupted' },
});
export type WebhookAttemptOutcome = (typeof WebhookAttemptOutcome.values)[number];
