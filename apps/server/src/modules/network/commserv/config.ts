// Speed-limit and redirect configurations that communication services may point at
// (/operator/commserv-list/config-manager/*). A configuration in use by a service cannot be deleted.
import { and, count, desc, eq, ilike, ne, sql } from 'drizzle-orm';
import { ErrorCode, isHttpUrl, type BodyOf, commserv } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError, invalid, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import type { SessionContext } from '../../../platform/context.ts';
import { pageFrom, pageOf, totalOver, contains } from '../../../platform/paging.ts';
import { blankToNull } from '../../../platform/validate.ts';
import { commRedirectConfigs, commServices, commSpeedLimitConfigs } from './tables.ts';
import { uniqueRace } from '../unique-race.ts';

const iso = (d: Date) => d.toISOString();
const blankName = (field: string, v: string | undefined) => {
  if (v !== undefined && v.trim() === '') throw invalid(field, { zh: '不能为空', en: 'must not be blank' });
};
const PLATFORM_RECORD = { custId: null, rootCustId: null };
/** a lost race on a unique name index answers like the explicit check */
const SPEED_NAME_UQ = { comm_speed_limit_configs_name_uq: () => new AppError(ErrorCode.SpeedLimitNameTaken, undefined, 200, { field: 'speedLimitName' }) };
const REDIRECT_NAME_UQ = { comm_redirect_configs_name_uq: () => new AppError(ErrorCode.RedirectNameTaken, undefined, 200, { field: 'redirectName' }) };

// ---- speed limits ----

const speedLimitUse = sql<number>`(select count(*) from comm_services s where s.speed_limit_id = "comm_speed_limit_configs"."speed_limit_id")`.mapWith(Number);

export async function listSpeedLimits(db: Db, q: BodyOf<typeof commserv.getSpeedLimitListPage>) {
  const p = pageOf(q);
  const cond = q.speedLimitName ? ilike(commSpeedLimitConfigs.speedLimitName, contains(q.speedLimitName)) : undefined;
  const { rows, total } = await pageFrom(
    await db
      .select({ c: commSpeedLimitConfigs, serviceCount: speedLimitUse, total: totalOver() })
      .from(commSpeedLimitConfigs)
      .where(cond)
      .orderBy(desc(commSpeedLimitConfigs.speedLimitId))
      .limit(p.limit)
      .offset(p.offset),
    p,
    async () => Number((await db.select({ n: count() }).from(commSpeedLimitConfigs).where(cond))[0].n),
  );
  return {
    list: rows.map(({ c, serviceCount }) => ({
      speedLimitId: c.speedLimitId, speedLimitName: c.speedLimitName, uplinkKbps: c.uplinkKbps, downlinkKbps: c.downlinkKbps,
      description: c.description, serviceCount, createdBy: c.createdBy, createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt),
    })),
    total, current: p.current, pageSize: p.pageSize,
  };
}

async function speedLimitNameFree(ex: Executor, name: string, except?: number) {
  const rows = await ex
    .select({ id: commSpeedLimitConfigs.speedLimitId })
    .from(commSpeedLimitConfigs)
    .where(and(sql`lower(${commSpeedLimitConfigs.speedLimitName}) = ${name.trim().toLowerCase()}`, except ? ne(commSpeedLimitConfigs.speedLimitId, except) : undefined));
  if (rows.length) throw new AppError(ErrorCode.SpeedLimitNameTaken, undefined, 200, { field: 'speedLimitName' });
}

export async function createSpeedLimit(db: Db, ctx: SessionContext, b: BodyOf<typeof commserv.saveSpeedLimit>) {
  blankName('speedLimitName', b.speedLimitName);
  return uniqueRace(SPEED_NAME_UQ, () => db.transaction(async (tx) => {
    await speedLimitNameFree(tx, b.speedLimitName);
    const [row] = await tx
      .insert(commSpeedLimitConfigs)
      .values({
        speedLimitName: b.speedLimitName.trim(), uplinkKbps: b.uplinkKbps, downlinkKbps: b.downlinkKbps,
        description: blankToNull(b.description), createdBy: ctx.actor.loginName,
      })
      .returning();
    await audit(tx, ctx, { entity: 'commserv_speed_limit', entityId: row.speedLimitId, after: row, ...PLATFORM_RECORD });
    return { speedLimitId: row.speedLimitId };
  }));
}

export async function updateSpeedLimit(db: Db, ctx: SessionContext, b: BodyOf<typeof commserv.updateSpeedLimit>) {
  blankName('speedLimitName', b.speedLimitName);
  await uniqueRace(SPEED_NAME_UQ, () => db.transaction(async (tx) => {
    const [before] = await tx.select().from(commSpeedLimitConfigs).where(eq(commSpeedLimitConfigs.speedLimitId, b.speedLimitId)).for('update');
    if (!before) throw notFound();
    if (b.speedLimitName !== undefined) await speedLimitNameFree(tx, b.speedLimitName, b.speedLimitId);
    const [after] = await tx
      .update(commSpeedLimitConfigs)
      .set({
        ...(b.speedLimitName !== undefined && { speedLimitName: b.speedLimitName.trim() }),
        ...(b.uplinkKbps !== undefined && { uplinkKbps: b.uplinkKbps }),
        ...(b.downlinkKbps !== undefined && { downlinkKbps: b.downlinkKbps }),
        ...(b.description !== undefined && { description: blankToNull(b.description) }),
        updatedAt: new Date(),
      })
      .where(eq(commSpeedLimitConfigs.speedLimitId, b.speedLimitId))
      .returning();
    await audit(tx, ctx, { entity: 'commserv_speed_limit', entityId: b.speedLimitId, before, after, ...PLATFORM_RECORD });
  }));
}

export async function deleteSpeedLimit(db: Db, ctx: SessionContext, speedLimitId: number) {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(commSpeedLimitConfigs).where(eq(commSpeedLimitConfigs.speedLimitId, speedLimitId)).for('update');
    if (!before) throw notFound();
    const [{ n }] = await tx.select({ n: count() }).from(commServices).where(eq(commServices.speedLimitId, speedLimitId));
    if (Number(n) > 0) throw new AppError(ErrorCode.SpeedLimitInUse, { count: Number(n) });
    await tx.delete(commSpeedLimitConfigs).where(eq(commSpeedLimitConfigs.speedLimitId, speedLimitId));
    await audit(tx, ctx, { entity: 'commserv_speed_limit', entityId: speedLimitId, before, ...PLATFORM_RECORD });
  });
}

// ---- redirects ----

const redirectUse = sql<number>`(select count(*) from comm_services s where s.redirect_id = "comm_redirect_configs"."redirect_id")`.mapWith(Number);
const checkRedirectUrl = (url: string | undefined) => {
  if (url !== undefined && !isHttpUrl(url.trim())) {
    throw invalid('redirectUrl', { zh: '须为 http:// 或 https:// 开头的地址', en: 'must be an http:// or https:// URL' });
  }
};

export async function listRedirects(db: Db, q: BodyOf<typeof commserv.getRedirectListPage>) {
  const p = pageOf(q);
  const cond = q.redirectName ? ilike(commRedirectConfigs.redirectName, contains(q.redirectName)) : undefined;
  const { rows, total } = await pageFrom(
    await db
      .select({ c: commRedirectConfigs, serviceCount: redirectUse, total: totalOver() })
      .from(commRedirectConfigs)
      .where(cond)
      .orderBy(desc(commRedirectConfigs.redirectId))
      .limit(p.limit)
      .offset(p.offset),
    p,
    async () => Number((await db.select({ n: count() }).from(commRedirectConfigs).where(cond))[0].n),
  );
  return {
    list: rows.map(({ c, serviceCount }) => ({
      redirectId: c.redirectId, redirectName: c.redirectName, redirectUrl: c.redirectUrl, targetContent: c.targetContent,
      serviceCount, createdBy: c.createdBy, createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt),
    })),
    total, current: p.current, pageSize: p.pageSize,
  };
}

async function redirectNameFree(ex: Executor, name: string, except?: number) {
  const rows = await ex
    .select({ id: commRedirectConfigs.redirectId })
    .from(commRedirectConfigs)
    .where(and(sql`lower(${commRedirectConfigs.redirectName}) = ${name.trim().toLowerCase()}`, except ? ne(commRedirectConfigs.redirectId, except) : undefined));
  if (rows.length) throw new AppError(ErrorCode.RedirectNameTaken, undefined, 200, { field: 'redirectName' });
}

export async function createRedirect(db: Db, ctx: SessionContext, b: BodyOf<typeof commserv.saveRedirect>) {
  blankName('redirectName', b.redirectName);
  checkRedirectUrl(b.redirectUrl);
  return uniqueRace(REDIRECT_NAME_UQ, () => db.transaction(async (tx) => {
    await redirectNameFree(tx, b.redirectName);
    const [row] = await tx
      .insert(commRedirectConfigs)
      .values({ redirectName: b.redirectName.trim(), redirectUrl: b.redirectUrl.trim(), targetContent: blankToNull(b.targetContent), createdBy: ctx.actor.loginName })
      .returning();
    await audit(tx, ctx, { entity: 'commserv_redirect', entityId: row.redirectId, after: row, ...PLATFORM_RECORD });
    return { redirectId: row.redirectId };
  }));
}

export async function updateRedirect(db: Db, ctx: SessionContext, b: BodyOf<typeof commserv.updateRedirect>) {
  blankName('redirectName', b.redirectName);
  checkRedirectUrl(b.redirectUrl);
  await uniqueRace(REDIRECT_NAME_UQ, () => db.transaction(async (tx) => {
    const [before] = await tx.select().from(commRedirectConfigs).where(eq(commRedirectConfigs.redirectId, b.redirectId)).for('update');
    if (!before) throw notFound();
    if (b.redirectName !== undefined) await redirectNameFree(tx, b.redirectName, b.redirectId);
    const [after] = await tx
      .update(commRedirectConfigs)
      .set({
        ...(b.redirectName !== undefined && { redirectName: b.redirectName.trim() }),
        ...(b.redirectUrl !== undefined && { redirectUrl: b.redirectUrl.trim() }),
        ...(b.targetContent !== undefined && { targetContent: blankToNull(b.targetContent) }),
        updatedAt: new Date(),
      })
      .where(eq(commRedirectConfigs.redirectId, b.redirectId))
      .returning();
    await audit(tx, ctx, { entity: 'commserv_redirect', entityId: b.redirectId, before, after, ...PLATFORM_RECORD });
  }));
}

export async function deleteRedirect(db: Db, ctx: SessionContext, redirectId: number) {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(commRedirectConfigs).where(eq(commRedirectConfigs.redirectId, redirectId)).for('update');
    if (!before) throw notFound();
    const [{ n }] = await tx.select({ n: count() }).from(commServices).where(eq(commServices.redirectId, redirectId));
    if (Number(n) > 0) throw new AppError(ErrorCode.RedirectInUse, { count: Number(n) });
    await tx.delete(commRedirectConfigs).where(eq(commRedirectConfigs.redirectId, redirectId));
    await audit(tx, ctx, { entity: 'commserv_redirect', entityId: redirectId, before, ...PLATFORM_RECORD });
  });
}
