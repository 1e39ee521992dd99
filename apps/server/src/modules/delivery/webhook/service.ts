// Deliveries as the console and the API see them: list, one with its attempts, replay by hand (docs/webhooks.md).
import { sql, type SQL } from 'drizzle-orm';
import {
  ErrorCode, WEBHOOK_EVENT_NAME, WebhookDeliveryState, businessDayEnd, businessDayStart, type BodyOf, type Lang,
  type WebhookEventType, type webhook as api,
} from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { isChannel, isStaff, type Actor, type SessionContext } from '../../../platform/context.ts';
import { pageOf } from '../../../platform/paging.ts';
import { isoOf, numOrNull, rowsOf } from './rows.ts';
import { callbackFor } from './outbox.ts';
import { eventBody } from './worker.ts';
import { maxAttemptsOf, type WebhookSettings } from './settings.ts';
import { attemptErrorText } from './attempt-text.ts';

/** The tenant predicate on a delivery (alias d): staff all, a channel customer its tree, a second-level customer itself. */
function scope(actor: Actor): SQL {
  if (isStaff(actor)) return sql`true`;
  if (isChannel(actor)) return actor.rootCustId == null ? sql`false` : sql`d.root_cust_id = ${actor.rootCustId}`;
  return actor.custId == null ? sql`false` : sql`d.cust_id = ${actor.custId}`;
}

const SELECT = sql`select d.*, c.cust_name, e.version from webhook_deliveries d
  join webhook_events e on e.event_id = d.event_id
  left join customers c on c.cust_id = d.cust_id`;

export type DeliveryOut = ReturnType<WebhookDeliveryService['rowOut']>;

export class WebhookDeliveryService {
  constructor(private db: Db, private settings: WebhookSettings) {}

  rowOut(r: Record<string, unknown>, lang: Lang) {
    const state = Number(r.state) as WebhookDeliveryState;
    const open = state === WebhookDeliveryState.Pending || state === WebhookDeliveryState.Retrying;
    return {
      deliveryId: Number(r.delivery_id), eventId: String(r.event_id), eventType: Number(r.event_type),
      eventName: WEBHOOK_EVENT_NAME[Number(r.event_type) as WebhookEventType] ?? String(r.event_type), eventVersion: Number(r.version),
      custId: Number(r.cust_id), custName: String(r.cust_name ?? r.cust_id), url: String(r.url), state,
      attempts: Number(r.attempts), totalAttempts: Number(r.total_attempts), maxAttempts: maxAttemptsOf(this.settings), series: Number(r.series),
      nextAt: open ? isoOf(r.next_at) : null, lastAttemptAt: isoOf(r.last_attempt_at), lastOutcome: numOrNull(r.last_outcome),
      lastHttpStatus: numOrNull(r.last_http_status), lastError: attemptErrorText(numOrNull(r.last_outcome), (r.last_error as string | null) ?? null, lang),
      deliveredAt: isoOf(r.delivered_at), deadAt: isoOf(r.dead_at), createdAt: isoOf(r.created_at)!,
    };
  }

  async list(q: BodyOf<typeof api.getWebhookDeliveryListPage>, actor: Actor, lang: Lang) {
    if (q.createdFrom && q.createdTo && q.createdFrom > q.createdTo) throw new AppError(ErrorCode.WebhookDateRange);
    const p = pageOf(q);
    const where: SQL[] = [scope(actor)];
    if (q.state !== undefined) where.push(sql`d.state = ${q.state}`);
    if (q.eventType !== undefined) where.push(sql`d.event_type = ${q.eventType}`);
    if (q.eventId !== undefined) where.push(sql`d.event_id = ${q.eventId.toLowerCase()}::uuid`);
    if (q.custId !== undefined) where.push(sql`d.cust_id = ${q.custId}`);
    if (q.createdFrom) where.push(sql`d.created_at >= ${businessDayStart(q.createdFrom).toISOString()}::timestamptz`);
    if (q.createdTo) where.push(sql`d.created_at < ${businessDayEnd(q.createdTo).toISOString()}::timestamptz`);
    const cond = sql.join(where, sql` and `);
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`${SELECT} where ${cond}
      order by d.created_at desc, d.delivery_id desc limit ${p.limit} offset ${p.offset}`));
    const [{ n }] = rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from webhook_deliveries d where ${cond}`));
    return { list: rows.map((r) => this.rowOut(r, lang)), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  /** One delivery as the actor may see it (NotFound otherwise, whether it exists or not). */
  async one(ex: Executor, deliveryId: number, actor: Actor, lock = false) {
    const [r] = rowsOf<Record<string, unknown>>(await ex.execute(sql`${SELECT} where d.delivery_id = ${deliveryId} and ${scope(actor)}
      ${lock ? sql`for update of d` : sql``}`));
    if (!r) throw notFound();
    return r;
  }

  async detail(deliveryId: number, actor: Actor, lang: Lang) {
    const r = await this.one(this.db, deliveryId, actor);
    const [e] = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select * from webhook_events where event_id = ${String(r.event_id)}::uuid`));
    const attempts = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select * from webhook_attempts where delivery_id = ${deliveryId}
      order by series desc, attempt_no desc`));
    return {
      delivery: this.rowOut(r, lang),
      event: JSON.parse(eventBody({ eventId: String(e.event_id), type: Number(e.event_type), version: Number(e.version), createdAt: e.created_at as string, data: e.payload })),
      attempts: attempts.map((a) => ({
        attemptId: Number(a.attempt_id), series: Number(a.series), attemptNo: Number(a.attempt_no), url: String(a.url),
        keyId: (a.key_id as string | null) ?? null, startedAt: isoOf(a.started_at)!, finishedAt: isoOf(a.finished_at),
        latencyMs: numOrNull(a.latency_ms), outcome: numOrNull(a.outcome), httpStatus: numOrNull(a.http_status),
        error: attemptErrorText(numOrNull(a.outcome), (a.error as string | null) ?? null, lang), responseExcerpt: (a.response_excerpt as string | null) ?? null,
      })),
    };
  }

  /**
   * A new attempt series for a retrying or dead-letter delivery: due now, attempts back to 0, to the customer's current
   * address, same event (and id). Refused for a delivered or never-tried one, and while an attempt is in flight.
   */
  async replay(deliveryId: number, ctx: SessionContext, now = new Date()) {
    return this.db.transaction(async (tx) => {
      const before = await this.one(tx, deliveryId, ctx.actor, true);
      const state = Number(before.state) as WebhookDeliveryState;
      const replayable = state === WebhookDeliveryState.Dead || state === WebhookDeliveryState.Retrying;
      if (!replayable) throw new AppError(ErrorCode.WebhookNotReplayable, { state: WebhookDeliveryState.label(state, ctx.lang) });
      if (before.lease_until != null && new Date(before.lease_until as string).getTime() > now.getTime()) throw new AppError(ErrorCode.WebhookInFlight);
      const url = await callbackFor(tx, Number(before.cust_id), Number(before.event_type) as WebhookEventType);
      if (!url) throw new AppError(ErrorCode.WebhookNoCallback);
      await tx.execute(sql`update webhook_deliveries set state = ${WebhookDeliveryState.Pending}, series = series + 1, attempts = 0,
          next_at = ${now.toISOString()}::timestamptz, lease_until = null, lease_token = null, url = ${url}, dead_at = null, updated_at = now()
        where delivery_id = ${deliveryId}`);
      const after = this.rowOut(await this.one(tx, deliveryId, ctx.actor), ctx.lang);
      await audit(tx, ctx, {
        entity: 'webhookDelivery', entityId: deliveryId, custId: Number(before.cust_id), rootCustId: Number(before.root_cust_id),
        before: auditView(this.rowOut(before, ctx.lang)), after: { ...auditView(after), replayed: true },
      });
      return after;
    });
  }
}

const auditView = (d: DeliveryOut) => ({
  eventId: d.eventId, eventName: d.eventName, custId: d.custId, url: d.url, state: d.state, series: d.series, attempts: d.attempts,
  totalAttempts: d.totalAttempts, lastOutcome: d.lastOutcome, lastHttpStatus: d.lastHttpStatus,
});

