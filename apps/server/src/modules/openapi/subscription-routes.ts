import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { apiservice as api, ErrorCode, validateCallbackUrl } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import type { AppDeps } from '../../app.ts';
import { AppError, FieldError } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import type { SessionContext } from '../../platform/context.ts';
import { iso } from '../../platform/paging.ts';
import { blankToNull, check } from '../../platform/validate.ts';
import { apiConfigs } from './tables.ts';
import { isWebhookEventType } from './subscriptions.ts';

type CustomerFor = (ctx: SessionContext, custId: number | undefined) => Promise<{ custId: number; rootCustId: number }>;

/**
 * Ability subscription: which events the customer's one callback address receives (spec §7 "ability subscribe",
 * §9 "one API address"). The address itself is the API configuration's; this screen may set it too.
 */
export function subscriptionRoutes(app: FastifyInstance, deps: AppDeps, customerFor: CustomerFor) {
  const { db } = deps;

  bind(app, deps, api.getApiSubscription, async (b, ctx) => {
    const c = await customerFor(ctx, b.custId);
    const [cfg] = await db.select().from(apiConfigs).where(eq(apiConfigs.custId, c.custId));
    return { custId: c.custId, callbackUrl: cfg?.callbackUrl ?? null, eventTypes: [...(cfg?.eventTypes ?? [])].sort((x, y) => x - y), updatedAt: iso(cfg?.updatedAt) };
  });

  bind(app, deps, api.saveApiSubscription, async (b, ctx) => {
    const c = await customerFor(ctx, b.custId);
    const unknown = b.eventTypes.find((t) => !isWebhookEventType(t));
    if (unknown !== undefined) throw new FieldError('eventTypes', { zh: `不支持的事件类型：${unknown}`, en: `unknown event type: ${unknown}` });
    const eventTypes = [...new Set(b.eventTypes)].sort((x, y) => x - y);
    const callbackUrl = b.callbackUrl === undefined ? undefined : blankToNull(b.callbackUrl);
    if (callbackUrl) check('callbackUrl', validateCallbackUrl(callbackUrl));
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(apiConfigs).where(eq(apiConfigs.custId, c.custId)).for('update');
      const address = callbackUrl !== undefined ? callbackUrl : (before?.callbackUrl ?? null);
      if (eventTypes.length > 0 && !address) throw new AppError(ErrorCode.OpenApiSubscribeNoAddress, undefined, 400, { field: 'callbackUrl' });
      const set = { ...(callbackUrl !== undefined && { callbackUrl }), eventTypes, updatedAt: new Date() };
      const [after] = before
        ? await tx.update(apiConfigs).set(set).where(eq(apiConfigs.custId, c.custId)).returning()
        : await tx.insert(apiConfigs).values({ custId: c.custId, rootCustId: c.rootCustId, ...set }).returning();
      await audit(tx, ctx, { entity: 'apiSubscription', entityId: c.custId, before, after, custId: c.custId, rootCustId: c.rootCustId });
    });
    return null;
  });
}
