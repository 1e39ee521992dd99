import { Type, type Static, type TObject } from '@sinclair/typebox';
import { endpoint, MoneyText, Nullable, Obj, Page, PageParams } from './endpoint.ts';
import { Perm } from '../permissions.ts';
import {
  WEBHOOK_EVENT_NAME, WEBHOOK_EVENT_VERSION, WebhookAttemptOutcome, WebhookDeliveryState, WebhookEventType,
} from '../enums/webhook-event.ts';

/**
 * Signed webhook delivery (issue 15; docs/webhooks.md). Events of a customer (a card changed state, an automation
 * rule fired, an SMS arrived, …) are POSTed as JSON to the customer's one callback address, signed with
 * HMAC-SHA256, retried with exponential backoff to a dead letter; every attempt is logged. These endpoints list the
 * deliveries (own tenant; staff all), show one with its attempts, replay a failed one, and manage the signing secret.
 */
const tag = 'webhook';
export const WebhookPerm = {
  /** Automation › Trigger records: the screen that shows what each action delivered */
  Deliveries: 5020000,
  /** the API manager (callback address, keys): the signing secret lives there */
  Secret: Perm.HomeApiManage,
} as const;

const DateOnly = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
const Iso = Type.String({ description: 'ISO 8601 time (UTC)' });
const Uuid = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });
const Bilingual = Type.Object({ zh: Type.String(), en: Type.String() });

// ---------------------------------------------------------------------------------------------------------------
// Event payloads (the `data` of an event), version 1 of each. A change a receiver could break on gets a new version
// (WEBHOOK_EVENT_VERSION) and a schema of its own; adding an optional field does not.
// ---------------------------------------------------------------------------------------------------------------

const Iccid = Type.String({ minLength: 1, maxLength: 32 });

/** card.state_changed v1: a card's lifecycle state changed (CardState numbers). */
export const CardStateChangedV1 = Type.Object({
  iccid: Iccid,
  msisdn: Nullable(Type.String()),
  custId: Type.Integer(),
  /** CardState before and after */
  fromState: Type.Integer(),
  toState: Type.Integer(),
  /** what made the change: a person, a batch, an automation rule, the operator, the platform's own schedule */
  source: Type.Union([Type.Literal('user'), Type.Literal('batch'), Type.Literal('rule'), Type.Literal('operator'), Type.Literal('system')]),
  /** what the person typed with the change (the batch's reason for a batch), or null */
  reason: Nullable(Type.String()),
  /** the batch that made the change (source `batch`); absent otherwise. Added in version 1 (optional). */
  batchId: Type.Optional(Type.String()),
  changedAt: Iso,
}, { additionalProperties: false, $id: 'CardStateChangedV1', description: 'card.state_changed, version 1' });

/** automation.alarm v1: an automation rule triggered for a card. */
export const AutomationAlarmV1 = Type.Object({
  /** the trigger record */
  alarmId: Type.Integer(),
  ruleId: Type.Integer(),
  ruleName: Type.String(),
  /** the rule type and level of the automation catalogue */
  ruleType: Type.Integer(),
  level: Type.Integer(),
  iccid: Iccid,
  msisdn: Nullable(Type.String()),
  custId: Type.Integer(),
  /** the measured value and the rule's threshold, when the rule is a threshold rule (e.g. data used %, 80) */
  metric: Nullable(Type.Object({ name: Type.String(), value: Type.Number(), threshold: Type.Number() }, { additionalProperties: false })),
  /** the alarm sentence in both languages */
  message: Bilingual,
  triggeredAt: Iso,
}, { additionalProperties: false, $id: 'AutomationAlarmV1', description: 'automation.alarm, version 1' });

/** sms.delivery_report v1: the operator's delivery report of a message sent to a card. */
export const SmsDeliveryReportV1 = Type.Object({
  smsId: Type.String(),
  iccid: Iccid,
  msisdn: Nullable(Type.String()),
  custId: Type.Integer(),
  /** the message state after the report (the SMS centre's five states) */
  state: Type.Integer(),
  /** the operator's status code of the report, e.g. DELIVRD, UNDELIV */
  reportCode: Nullable(Type.String()),
  reportedAt: Iso,
}, { additionalProperties: false, $id: 'SmsDeliveryReportV1', description: 'sms.delivery_report, version 1' });

/** sms.received v1: a card sent a message (mobile originated). */
export const SmsReceivedV1 = Type.Object({
  smsId: Type.String(),
  iccid: Iccid,
  msisdn: Nullable(Type.String()),
  custId: Type.Integer(),
  content: Type.String(),
  receivedAt: Iso,
}, { additionalProperties: false, $id: 'SmsReceivedV1', description: 'sms.received, version 1' });

/** batch.finished v1: a batch operation finished (BatchType, BatchState numbers). */
export const BatchFinishedV1 = Type.Object({
  batchId: Type.String(),
  batchType: Type.Integer(),
  state: Type.Integer(),
  custId: Type.Integer(),
  totalCount: Type.Integer(),
  succeededCount: Type.Integer(),
  failedCount: Type.Integer(),
  createdBy: Type.String(),
  finishedAt: Iso,
}, { additionalProperties: false, $id: 'BatchFinishedV1', description: 'batch.finished, version 1' });

/** bill.published v1: a customer's bill was published. */
export const BillPublishedV1 = Type.Object({
  billId: Type.Integer(),
  billNo: Type.String(),
  custId: Type.Integer(),
  /** the billing period, e.g. 2026-10 */
  periodKey: Type.String(),
  /** the amount due, an exact decimal string in yuan (CNY) */
  amountDue: MoneyText,
  currency: Type.Literal('CNY'),
  publishedAt: Iso,
}, { additionalProperties: false, $id: 'BillPublishedV1', description: 'bill.published, version 1' });

/** The payload schema of each event type at its current version. */
export const WEBHOOK_EVENT_DATA = {
  [WebhookEventType.CardStateChanged]: CardStateChangedV1,
  [WebhookEventType.AutomationAlarm]: AutomationAlarmV1,
  [WebhookEventType.SmsDeliveryReport]: SmsDeliveryReportV1,
  [WebhookEventType.SmsReceived]: SmsReceivedV1,
  [WebhookEventType.BatchFinished]: BatchFinishedV1,
  [WebhookEventType.BillPublished]: BillPublishedV1,
} as const satisfies Record<WebhookEventType, TObject>;

/** The `data` of an event of type T, as the producer writes it. */
export type WebhookEventData<T extends WebhookEventType> = Static<(typeof WEBHOOK_EVENT_DATA)[T]>;

/** The JSON a receiver gets (the request body), with the `data` of one event type. */
export const webhookEnvelope = (t: WebhookEventType) => Type.Object({
  /** the event id (UUID): the same on every attempt and on a replay; receivers dedupe by it */
  id: Uuid,
  type: Type.Literal(WEBHOOK_EVENT_NAME[t]),
  version: Type.Literal(WEBHOOK_EVENT_VERSION[t]),
  /** when the event happened (ISO 8601, UTC) */
  createdAt: Iso,
  data: WEBHOOK_EVENT_DATA[t],
}, { additionalProperties: false });

/** Request headers of every delivery. */
export const WEBHOOK_HEADERS = {
  keyId: 'X-Lynx-Key-Id',
  timestamp: 'X-Lynx-Timestamp',
  signature: 'X-Lynx-Signature',
  eventId: 'X-Lynx-Event-Id',
  eventType: 'X-Lynx-Event-Type',
  attempt: 'X-Lynx-Attempt',
} as const;
/** A receiver refuses a timestamp further than this from its clock (replay window). */
export const WEBHOOK_REPLAY_WINDOW_SECONDS = 300;

/**
 * The OpenAPI 3.1 `webhooks` section and the payload schemas for `components.schemas`: one POST per event type, the
 * headers a receiver checks, and the answer expected (any 2xx).
 */
export function webhookOpenApi(): { webhooks: Record<string, unknown>; schemas: Record<string, unknown> } {
  const clean = (s: unknown) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
  const webhooks: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const header = (name: string, description: string) => ({ name, in: 'header', required: true, schema: { type: 'string' }, description });
  for (const t of WebhookEventType.values) {
    const name = WEBHOOK_EVENT_NAME[t];
    const data = clean(WEBHOOK_EVENT_DATA[t]);
    const schemaName = String(data.$id);
    delete data.$id;
    schemas[schemaName] = data;
    const env = clean(webhookEnvelope(t));
    (env.properties as Record<string, unknown>).data = { $ref: `#/components/schemas/${schemaName}` };
    schemas[`${schemaName}Event`] = env;
    webhooks[name] = {
      post: {
        summary: `${WebhookEventType.label(t, 'en')} (${name}, version ${WEBHOOK_EVENT_VERSION[t]})`,
        description: `${WebhookEventType.label(t, 'zh')}。Sent to the customer's callback address; see docs/webhooks.md for verifying the signature.`,
        parameters: [
          header(WEBHOOK_HEADERS.keyId, 'id of the signing secret used (changes when the secret is rotated)'),
          header(WEBHOOK_HEADERS.timestamp, 'Unix time in seconds when this attempt was signed; refuse one more than 300 s from your clock'),
          header(WEBHOOK_HEADERS.signature, 'hex HMAC-SHA256 of `<timestamp>.<raw request body>` with the signing secret'),
          header(WEBHOOK_HEADERS.eventId, 'the event id (also `id` in the body): dedupe by it'),
          header(WEBHOOK_HEADERS.eventType, 'the event type (also `type` in the body)'),
          header(WEBHOOK_HEADERS.attempt, 'attempt number within the current attempt series, from 1'),
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName}Event` } } } },
        responses: { '2XX': { description: 'received: the delivery is done. Anything else (or no answer within the timeout) is retried' } },
      },
    };
  }
  return { webhooks, schemas };
}

// ---------------------------------------------------------------------------------------------------------------
// Deliveries
// ---------------------------------------------------------------------------------------------------------------

export const WebhookDeliveryRow = Type.Object({
  deliveryId: Type.Integer(),
  eventId: Type.String(),
  /** WebhookEventType */
  eventType: Type.Integer(),
  /** the wire name, e.g. card.state_changed */
  eventName: Type.String(),
  eventVersion: Type.Integer(),
  custId: Type.Integer(),
  custName: Type.String(),
  /** the callback address of the current attempt series */
  url: Type.String(),
  /** WebhookDeliveryState */
  state: Type.Integer(),
  /** attempts of the current series, and of every series */
  attempts: Type.Integer(),
  totalAttempts: Type.Integer(),
  maxAttempts: Type.Integer(),
  /** 1 at first, +1 per replay by hand */
  series: Type.Integer(),
  /** the next attempt (pending and retrying deliveries) */
  nextAt: Nullable(Type.String()),
  lastAttemptAt: Nullable(Type.String()),
  /** WebhookAttemptOutcome of the last attempt */
  lastOutcome: Nullable(Type.Integer()),
  lastHttpStatus: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  deliveredAt: Nullable(Type.String()),
  deadAt: Nullable(Type.String()),
  /** when the event happened */
  createdAt: Type.String(),
});

export const WebhookAttemptRow = Type.Object({
  attemptId: Type.Integer(),
  series: Type.Integer(),
  attemptNo: Type.Integer(),
  url: Type.String(),
  keyId: Nullable(Type.String()),
  startedAt: Type.String(),
  /** null while in flight */
  finishedAt: Nullable(Type.String()),
  latencyMs: Nullable(Type.Integer()),
  /** WebhookAttemptOutcome; null while in flight */
  outcome: Nullable(Type.Integer()),
  httpStatus: Nullable(Type.Integer()),
  /** the network error or timeout, in words */
  error: Nullable(Type.String()),
  /** the first 500 characters of the receiver's answer */
  responseExcerpt: Nullable(Type.String()),
});

export const getWebhookDeliveryListPage = endpoint({
  name: 'core/alarm/webhook/getWebhookDeliveryListPage', method: 'POST', auth: 'session', perm: [WebhookPerm.Deliveries], kind: 'query', tag,
  summary: { zh: 'Webhook 投递记录（仅本租户，平台人员可见全部）', en: 'Webhook deliveries (own tenant; staff see all)' },
  body: Obj({
    ...PageParams,
    /** WebhookDeliveryState */
    state: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
    /** WebhookEventType */
    eventType: Type.Optional(Type.Integer({ minimum: 1, maximum: 6 })),
    eventId: Type.Optional(Uuid),
    custId: Type.Optional(Type.Integer({ minimum: 1 })),
    /** event time, business days (inclusive) */
    createdFrom: Type.Optional(DateOnly),
    createdTo: Type.Optional(DateOnly),
  }),
  response: Page(WebhookDeliveryRow),
});

export const getWebhookDeliveryDetail = endpoint({
  name: 'core/alarm/webhook/getWebhookDeliveryDetail', method: 'POST', auth: 'session', perm: [WebhookPerm.Deliveries], kind: 'query', tag,
  summary: { zh: 'Webhook 投递详情：事件内容与每次尝试', en: 'A webhook delivery: the event and every attempt' },
  body: Obj({ deliveryId: Type.Integer({ minimum: 1 }) }),
  response: Type.Object({
    delivery: WebhookDeliveryRow,
    /** the JSON body as sent (without the per-attempt headers) */
    event: Type.Object({ id: Type.String(), type: Type.String(), version: Type.Integer(), createdAt: Type.String(), data: Type.Unknown() }),
    /** newest first */
    attempts: Type.Array(WebhookAttemptRow),
  }),
});

/** A failed (retrying) or dead-letter delivery gets a new attempt series now, to the current callback address; same event id. */
export const replayWebhookDelivery = endpoint({
  name: 'core/alarm/webhook/replayWebhookDelivery', method: 'POST', auth: 'session', perm: [WebhookPerm.Deliveries], kind: 'mutation', tag,
  summary: { zh: '重新投递失败的 Webhook（事件 ID 不变）', en: 'Replay a failed webhook delivery (same event id)' },
  body: Obj({ deliveryId: Type.Integer({ minimum: 1 }) }),
  response: WebhookDeliveryRow,
});

/** Staff name a customer; customers their own (or one of their tree). */
const CustParam = { custId: Type.Optional(Type.Integer({ minimum: 1 })) };

export const WebhookSecretInfo = Type.Object({
  custId: Type.Integer(),
  /** null: no secret yet (one is made with the first delivery, or by rotating) */
  keyId: Nullable(Type.String()),
  secretHint: Nullable(Type.String()),
  createdAt: Nullable(Type.String()),
  rotatedAt: Nullable(Type.String()),
});

export const getWebhookSecret = endpoint({
  name: 'openapi/webhook/secret/query', method: 'POST', auth: 'session', perm: [WebhookPerm.Secret], kind: 'query', tag,
  summary: { zh: 'Webhook 签名密钥（只显示末 4 位）', en: 'Webhook signing secret (only the last 4 characters are shown)' },
  body: Obj(CustParam), response: WebhookSecretInfo,
});

export const rotateWebhookSecret = endpoint({
  name: 'openapi/webhook/secret/rotate', method: 'POST', auth: 'session', perm: [WebhookPerm.Secret], kind: 'mutation', tag,
  summary: { zh: '生成或轮换 Webhook 签名密钥（新密钥仅显示这一次）', en: 'Create or rotate the webhook signing secret (the new secret is shown only this once)' },
  body: Obj(CustParam), response: Type.Object({ custId: Type.Integer(), keyId: Type.String(), secret: Type.String() }),
});

export const WEBHOOK_URL_MAX = 300;
export { WebhookEventType, WebhookDeliveryState, WebhookAttemptOutcome, WEBHOOK_EVENT_NAME, WEBHOOK_EVENT_VERSION };
