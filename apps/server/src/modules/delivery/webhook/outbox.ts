// The outbox: a producer writes its event in its own transaction, so an event is sent if and only if the change it
// reports commits (docs/webhooks.md "Producing events").
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Value } from '@sinclair/typebox/value';
import { WEBHOOK_EVENT_VERSION, WebhookEventType, webhook } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { rowsOf } from './rows.ts';
import { subscribedCallback } from '../../openapi/subscriptions.ts';

export interface WebhookEventInput<T extends WebhookEventType = WebhookEventType> {
  /** the customer the event is about (its callback address receives it) */
  custId: number;
  type: T;
  payload: webhook.WebhookEventData<T>;
  /** when it happened; now by default */
  at?: Date;
}

export interface EnqueuedEvent {
  eventId: string;
  deliveryId: number;
}

/**
 * Where events of a type go for a customer: its one callback address when it subscribes to the type (the open API
 * module's ability subscription, docs/open-api.md), or null. Read when an event is enqueued and again before each
 * attempt, so a changed address or subscription takes effect at once.
 */
export async function callbackFor(ex: Executor, custId: number, type: WebhookEventType): Promise<string | null> {
  return (await subscribedCallback(ex, custId, type))?.url.trim() || null;
}

/** Refuses a payload that does not match its event type's schema: a producer's bug, caught in its tests. */
function checkPayload(type: WebhookEventType, payload: unknown): void {
  if (!WebhookEventType.has(type)) throw new Error(`unknown webhook event type ${String(type)}`);
  const schema = webhook.WEBHOOK_EVENT_DATA[type];
  if (!Value.Check(schema, payload)) {
    const first = [...Value.Errors(schema, payload)][0];
    throw new Error(`webhook event ${webhook.WEBHOOK_EVENT_NAME[type]}: payload does not match its schema at ${first?.path || '/'}: ${first?.message ?? 'invalid'}`);
  }
}

/**
 * Writes an event and its delivery in the caller's transaction `tx` (an outbox): sent once the caller commits, never if
 * it rolls back. Answers null, writing nothing, when the customer has no callback address for the type. The payload
 * must match the type's schema (packages/contract/src/api/webhook.ts), else it throws and the caller's transaction
 * fails with it.
 */
export async function enqueueEvent<T extends WebhookEventType>(tx: Executor, ev: WebhookEventInput<T>): Promise<EnqueuedEvent | null> {
  const [one] = await enqueueEvents(tx, [ev as WebhookEventInput]);
  return one ?? null;
}

/**
 * Set-based enqueueEvent for many events at once (a batch of cards): one read of the customers and addresses and one
 * insert of each kind, whatever the count. Answers the events written (those of customers with an address), in order.
 */
export async function enqueueEvents(tx: Executor, evs: WebhookEventInput[]): Promise<EnqueuedEvent[]> {
  if (!evs.length) return [];
  for (const ev of evs) checkPayload(ev.type, ev.payload);
  const custIds = [...new Set(evs.map((e) => e.custId))];
  const custs = rowsOf<{ cust_id: number; root_cust_id: number }>(await tx.execute(sql`select cust_id, root_cust_id from customers
    where cust_id = any(${sql.param(custIds)}::int[])`));
  const rootOf = new Map(custs.map((c) => [Number(c.cust_id), Number(c.root_cust_id)]));
  const urlOf = new Map<string, string | null>();
  for (const ev of evs) {
    const k = `${ev.custId}:${ev.type}`;
    if (!urlOf.has(k)) urlOf.set(k, rootOf.has(ev.custId) ? await callbackFor(tx, ev.custId, ev.type) : null);
  }
  const now = new Date();
  const out: { id: string; ev: WebhookEventInput; url: string; root: number; at: string }[] = [];
  for (const ev of evs) {
    const url = urlOf.get(`${ev.custId}:${ev.type}`);
    if (!url) continue;
    out.push({ id: crypto.randomUUID(), ev, url, root: rootOf.get(ev.custId)!, at: (ev.at ?? now).toISOString() });
  }
  if (!out.length) return [];
  const col = <V>(f: (o: (typeof out)[number]) => V) => sql.param(out.map(f));
  await tx.execute(sql`insert into webhook_events (event_id, cust_id, root_cust_id, event_type, version, payload, created_at)
    select id, cust_id, root_cust_id, event_type, version, payload::jsonb, created_at
    from unnest(${col((o) => o.id)}::uuid[], ${col((o) => o.ev.custId)}::int[], ${col((o) => o.root)}::int[],
      ${col((o) => o.ev.type)}::smallint[], ${col((o) => WEBHOOK_EVENT_VERSION[o.ev.type])}::smallint[],
      ${col((o) => JSON.stringify(o.ev.payload))}::text[], ${col((o) => o.at)}::timestamptz[])
      as t (id, cust_id, root_cust_id, event_type, version, payload, created_at)`);
  const ids = rowsOf<{ delivery_id: string; event_id: string }>(await tx.execute(sql`insert into webhook_deliveries
      (event_id, cust_id, root_cust_id, event_type, url, next_at, created_at)
    select id, cust_id, root_cust_id, event_type, url, ${now.toISOString()}::timestamptz, created_at
    from unnest(${col((o) => o.id)}::uuid[], ${col((o) => o.ev.custId)}::int[], ${col((o) => o.root)}::int[],
      ${col((o) => o.ev.type)}::smallint[], ${col((o) => o.url)}::text[], ${col((o) => o.at)}::timestamptz[])
      as t (id, cust_id, root_cust_id, event_type, url, created_at)
    returning delivery_id, event_id`));
  const byEvent = new Map(ids.map((r) => [String(r.event_id), Number(r.delivery_id)]));
  return out.map((o) => ({ eventId: o.id, deliveryId: byEvent.get(o.id)! }));
}
