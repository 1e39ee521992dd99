import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, count, desc, eq } from 'drizzle-orm';
import { apiservice as api, canonicalWhitelistIp, ErrorCode, validateCallbackUrl, validateWhitelistEnd, validateWhitelistStart } from '@lynx/contract';
import { bind } from '../../platform/http.ts';
import type { AppDeps } from '../../app.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { isStaff, tenantFilter, type SessionContext } from '../../platform/context.ts';
import { pageOf, iso } from '../../platform/paging.ts';
import { check, blankToNull } from '../../platform/validate.ts';
import { customers } from '../account/tables.ts';
import { apiConfigs, apiKeys, userIps } from './tables.ts';
import { secretBoxFor } from '../network/opconfig/secrets.ts';
import { secretPurpose } from './signed-calls.ts';
import { usageRoutes } from './usage-routes.ts';
import { subscriptionRoutes } from './subscription-routes.ts';

/**
 * The customer a call about open API access is for: staff name one; customers act for their own customer, or one of
 * their tree they name (a second-level customer only itself). One outside the caller's scope is "not found".
 */
export async function customerInScope(db: AppDeps['db'], ctx: Pick<SessionContext, 'actor' | 'lang'>, custId: number | undefined) {
  const actor = ctx.actor;
  // a named customer outside the caller's scope is refused below like a missing one, never replaced by its own
  const id = custId ?? actor.custId;
  if (id == null) {
    throw new AppError(ErrorCode.Validation, { field: 'custId', reason: ctx.lang === 'zh' ? '请选择客户' : 'choose a customer' }, 400, { field: 'custId' });
  }
  const [c] = await db
    .select({ custId: customers.custId, rootCustId: customers.rootCustId, custName: customers.custName })
    .from(customers)
    .where(and(eq(customers.custId, id), tenantFilter(actor, customers)));
  if (!c) throw notFound();
  return c;
}

/**
 * The customer's open API access: key (secret shown once; kept sealed, so signed calls can be verified, and hashed),
 * callback address, and the IP whitelist, enforced on signed calls (signed-calls.ts); usage per key and day
 * (usage-routes.ts) and the ability subscription (subscription-routes.ts).
 */
export function openApiRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;
  const customerFor = (ctx: Pick<SessionContext, 'actor' | 'lang'>, custId: number | undefined) => customerInScope(db, ctx, custId);

  bind(app, deps, api.getApiKey, async (b, ctx) => {
    const c = await customerFor(ctx, b.custId);
    const [k] = await db.select().from(apiKeys).where(eq(apiKeys.custId, c.custId));
    return {
      custId: c.custId, custName: c.custName, appKey: k?.appKey ?? null, secretHint: k ? `****${k.secretHint}` : null,
      createdAt: iso(k?.createdAt), rotatedAt: iso(k?.rotatedAt), canSign: !!k?.secretSealed,
    };
  });

  bind(app, deps, api.rotateApiKey, async (b, ctx) => {
    const c = await customerFor(ctx, b.custId);
    const appSecret = crypto.randomBytes(24).toString('base64url');
    const secretHash = crypto.createHash('sha256').update(appSecret).digest('hex');
    // the server recomputes each signed call's HMAC, so it keeps the secret itself, sealed with the installation key
    const secretSealed = secretBoxFor(deps.config).seal(appSecret, secretPurpose(c.custId));
    return db.transaction(async (tx) => {
      const [before] = await tx.select().from(apiKeys).where(eq(apiKeys.custId, c.custId));
      const appKey = before?.appKey ?? `lx${crypto.randomBytes(8).toString('hex')}`;
      const values = { custId: c.custId, rootCustId: c.rootCustId, appKey, secretHash, secretHint: appSecret.slice(-4), secretSealed };
      const [after] = before
        ? await tx.update(apiKeys).set({ ...values, rotatedAt: new Date() }).where(eq(apiKeys.custId, c.custId)).returning()
        : await tx.insert(apiKeys).values(values).returning();
      await audit(tx, ctx, { entity: 'apiKey', entityId: c.custId, before, after, custId: c.custId, rootCustId: c.rootCustId });
      return { appKey, appSecret };
    });
  });

  bind(app, deps, api.getApiConfig, async (b, ctx) => {
    const c = await customerFor(ctx, b.custId);
    const [cfg] = await db.select().from(apiConfigs).where(eq(apiConfigs.custId, c.custId));
    return { custId: c.custId, callbackUrl: cfg?.callbackUrl ?? null, callLimitPerMinute: deps.config.rateLimitPerToken, ipWhitelistEnabled: cfg?.ipWhitelistEnabled ?? false };
  });

  bind(app, deps, api.saveApiConfig, async (b, ctx) => {
    const c = await customerFor(ctx, b.custId);
    const callbackUrl = b.callbackUrl === undefined ? undefined : blankToNull(b.callbackUrl);
    if (callbackUrl) check('callbackUrl', validateCallbackUrl(callbackUrl));
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(apiConfigs).where(eq(apiConfigs.custId, c.custId));
      const set = {
        ...(callbackUrl !== undefined && { callbackUrl }),
        ...(b.ipWhitelistEnabled !== undefined && { ipWhitelistEnabled: b.ipWhitelistEnabled }),
        updatedAt: new Date(),
      };
      const [after] = before
        ? await tx.update(apiConfigs).set(set).where(eq(apiConfigs.custId, c.custId)).returning()
        : await tx.insert(apiConfigs).values({ custId: c.custId, rootCustId: c.rootCustId, ...set }).returning();
      await audit(tx, ctx, { entity: 'apiConfig', entityId: c.custId, before, after, custId: c.custId, rootCustId: c.rootCustId });
    });
    return null;
  });

  bind(app, deps, api.getUserIpListPage, async (q, ctx) => {
    const p = pageOf(q);
    const cond = q.custId !== undefined || !isStaff(ctx.actor)
      ? eq(userIps.custId, (await customerFor(ctx, q.custId)).custId)
      : tenantFilter(ctx.actor, userIps);
    const [rows, [{ n }]] = await Promise.all([
      db.select().from(userIps).where(cond).orderBy(desc(userIps.id)).limit(p.limit).offset(p.offset),
      db.select({ n: count() }).from(userIps).where(cond),
    ]);
    return {
      list: rows.map((r) => ({ id: r.id, custId: r.custId, startIp: r.startIp, endIp: r.endIp, remark: r.remark, open: r.open, createdBy: r.createdBy, createdAt: r.createdAt.toISOString() })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  });

  bind(app, deps, api.saveUserIp, async (b, ctx) => {
    const c = await customerFor(ctx, b.custId);
    // an IPv4 or IPv6 address, a start-end range of one family, or a CIDR block of either family (docs/open-api.md)
    const endIp = blankToNull(b.endIp)?.trim() ?? null;
    check('startIp', validateWhitelistStart(b.startIp, endIp !== null));
    if (endIp) check('endIp', validateWhitelistEnd(b.startIp, endIp));
    const startIp = canonicalWhitelistIp(b.startIp.trim());
    return db.transaction(async (tx) => {
      const [row] = await tx
        .insert(userIps)
        .values({ custId: c.custId, rootCustId: c.rootCustId, startIp, endIp: endIp && canonicalWhitelistIp(endIp), remark: blankToNull(b.remark), createdBy: ctx.actor.loginName })
        .returning();
      await audit(tx, ctx, { entity: 'userIp', entityId: row.id, after: row, custId: c.custId, rootCustId: c.rootCustId });
      return { id: row.id };
    });
  });

  const mine = async (ctx: SessionContext, id: number) => {
    const [row] = await db.select().from(userIps).where(and(eq(userIps.id, id), tenantFilter(ctx.actor, userIps)));
    if (!row) throw notFound();
    return row;
  };
  const setOpen = (open: boolean) => async (b: { id: number }, ctx: SessionContext) => {
    const before = await mine(ctx, b.id);
    await db.transaction(async (tx) => {
      const [after] = await tx.update(userIps).set({ open }).where(eq(userIps.id, b.id)).returning();
      await audit(tx, ctx, { entity: 'userIp', entityId: b.id, before, after, custId: before.custId, rootCustId: before.rootCustId });
    });
    return null;
  };
  bind(app, deps, api.openUserIp, setOpen(true));
  bind(app, deps, api.stopUserIp, setOpen(false));
  usageRoutes(app, deps, customerFor);
  subscriptionRoutes(app, deps, customerFor);

  bind(app, deps, api.deleteUserIp, async (b, ctx) => {
    const before = await mine(ctx, b.id);
    await db.transaction(async (tx) => {
      await tx.delete(userIps).where(eq(userIps.id, b.id));
      await audit(tx, ctx, { entity: 'userIp', entityId: b.id, before, custId: before.custId, rootCustId: before.rootCustId });
    });
    return null;
  });
}
