import { sql } from 'drizzle-orm';
import { CustomerStatus, WebhookEventType } from '@lynx/contract';
import type { Executor } from '../../db/client.ts';

const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

/** Whether a number is an event type of the catalogue (packages/contract/src/enums/webhook-event.ts). */
export const isWebhookEventType = (v: number): v is WebhookEventType => (WebhookEventType.values as readonly number[]).includes(v);

/**
 * Where an event of `eventType` for customer `custId` goes (ability subscription, docs/open-api.md): the customer's
 * one callback address when it has one and subscribes to the type, with the customer's AppKey as the key id (null
 * when it has no key); null when the event goes nowhere (no address, not subscribed, customer or its first-level
 * customer exited). Read by the webhook delivery (modules/delivery/webhook) when it enqueues and again before each
 * attempt, so a changed subscription takes effect at once.
 */
export async function subscribedCallback(
  ex: Executor, custId: number, eventType: WebhookEventType,
): Promise<{ url: string; keyId: string | null } | null> {
  const [row] = rowsOf<{ url: string; key_id: string | null }>(await ex.execute(sql`
    select cfg.callback_url as url, k.app_key as key_id
      from api_configs cfg
      left join api_keys k on k.cust_id = cfg.cust_id
     where cfg.cust_id = ${custId}
       and cfg.callback_url is not null
       and ${eventType}::smallint = any (cfg.event_types)
       and not exists (select 1 from customers c where c.cust_id in (cfg.cust_id, cfg.root_cust_id) and c.status = ${CustomerStatus.Exited})`));
  return row ? { url: row.url, keyId: row.key_id } : null;
}
