import type { FastifyInstance } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { ErrorCode, webhook as api } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import type { AppDeps } from '../../../app.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import { tenantFilter, type SessionContext } from '../../../platform/context.ts';
import { customers } from '../../account/tables.ts';
import { secretBoxFor } from '../../network/opconfig/secrets.ts';
import { WebhookDeliveryService } from './service.ts';
import { WebhookWorker } from './worker.ts';
import { webhookSettingsFrom, type WebhookSettings } from './settings.ts';
import { rotateSecret, secretRow } from './signing.ts';
import { isoOf, rowsOf } from './rows.ts';

export const WEBHOOK_RETENTION_QUEUE = 'webhook-retention';

/**
 * Webhook delivery (issue 15, docs/webhooks.md): the deliveries' routes, the signing secret's routes, the nightly
 * retention job, and the delivery worker (answered to app.ts, which starts it with the background jobs and stops it on
 * close).
 */
export function webhookRoutes(app: FastifyInstance, deps: AppDeps, settings: WebhookSettings = webhookSettingsFrom()): WebhookWorker {
  const { db } = deps;
  const box = secretBoxFor(deps.config);
  const service = new WebhookDeliveryService(db, settings);
  const worker = new WebhookWorker(db, box, settings, { log: app.log });
  const ctxOf = (c: unknown) => c as SessionContext;

  bind(app, deps, api.getWebhookDeliveryListPage, (b, c) => service.list(b, ctxOf(c).actor, c.lang));
  bind(app, deps, api.getWebhookDeliveryDetail, (b, c) => service.detail(b.deliveryId, ctxOf(c).actor, c.lang));
  bind(app, deps, api.replayWebhookDelivery, (b, c) => service.replay(b.deliveryId, ctxOf(c)));

  /** The customer named (within the caller's tenant; NotFound otherwise) or the caller's own. */
  const customerFor = async (ctx: SessionContext, custId: number | undefined) => {
    const id = custId ?? ctx.actor.custId;
    if (id == null) {
      throw new AppError(ErrorCode.Validation, { field: 'custId', reason: ctx.lang === 'zh' ? '请选择客户' : 'choose a customer' }, 400, { field: 'custId' });
    }
    const [c] = await db.select({ custId: customers.custId, rootCustId: customers.rootCustId }).from(customers)
      .where(and(eq(customers.custId, id), tenantFilter(ctx.actor, customers)));
    if (!c) throw notFound();
    return c;
  };

  bind(app, deps, api.getWebhookSecret, async (b, ctx) => {
    const c = await customerFor(ctx, b.custId);
    const row = await secretRow(db, c.custId);
    return {
      custId: c.custId, keyId: row?.key_id ?? null, secretHint: row ? `****${row.secret_hint}` : null,
      createdAt: isoOf(row?.created_at), rotatedAt: isoOf(row?.rotated_at),
    };
  });

  bind(app, deps, api.rotateWebhookSecret, async (b, ctx) => {
    const c = await customerFor(ctx, b.custId);
    return db.transaction(async (tx) => {
      const { keyId, secret, before } = await rotateSecret(tx, box, c);
      await audit(tx, ctx, {
        entity: 'webhookSecret', entityId: c.custId, custId: c.custId, rootCustId: c.rootCustId,
        before: before ? { keyId: before.key_id, secretHint: before.secret_hint } : null, after: { keyId, secretHint: secret.slice(-4) },
      });
      return { custId: c.custId, keyId, secret };
    });
  });

  // delivered deliveries go after CMP_WEBHOOK_RETENTION_DAYS, dead letters after three times as long (someone may still
  // replay them); an event goes with its last delivery
  deps.jobs.define(WEBHOOK_RETENTION_QUEUE, async () => {
    const removed = await pruneDeliveries(deps, settings.retentionDays);
    if (removed) app.log.info({ removed }, 'old webhook deliveries removed');
  }, { retryLimit: 1, expireInSeconds: 30 * 60 });
  deps.jobs.schedule(WEBHOOK_RETENTION_QUEUE, '41 3 * * *');

  return worker;
}

/** Deletes finished deliveries past retention with their attempts and events, in chunks; answers how many. */
export async function pruneDeliveries(deps: Pick<AppDeps, 'db'>, retentionDays: number, now = new Date()): Promise<number> {
  const delivered = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  const dead = new Date(now.getTime() - 3 * retentionDays * 86_400_000).toISOString();
  let total = 0;
  for (;;) {
    const n = await deps.db.transaction(async (tx) => {
      const ids = rowsOf<{ delivery_id: string; event_id: string }>(await tx.execute(sql`select delivery_id, event_id from webhook_deliveries
        where (state = 3 and delivered_at < ${delivered}::timestamptz) or (state = 4 and dead_at < ${dead}::timestamptz)
        limit 2000 for update skip locked`));
      if (!ids.length) return 0;
      const d = sql.param(ids.map((r) => Number(r.delivery_id)));
      const e = sql.param(ids.map((r) => String(r.event_id)));
      await tx.execute(sql`delete from webhook_attempts where delivery_id = any(${d}::bigint[])`);
      await tx.execute(sql`delete from webhook_deliveries where delivery_id = any(${d}::bigint[])`);
      await tx.execute(sql`delete from webhook_events ev where ev.event_id = any(${e}::uuid[])
        and not exists (select 1 from webhook_deliveries x where x.event_id = ev.event_id)`);
      return ids.length;
    });
    total += n;
    if (n === 0) return total;
  }
}
