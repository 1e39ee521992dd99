// Communication services and their QoS profiles: the rules (spec §3, §5, §9) and the reads other modules
// use. Basic plans call commServicesByIds; usage by plans comes from the plan module's service.
import { and, count, desc, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import {
  CommServStatus, CommServType, ErrorCode, isHttpUrl, whitelistProblem, type BodyOf, commserv,
} from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError, invalid, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import type { SessionContext } from '../../../platform/context.ts';
import { orderOf, pageFrom, pageOf, totalOver, contains } from '../../../platform/paging.ts';
import { blankToNull } from '../../../platform/validate.ts';
import { countPlansUsingCommService } from '../../plan/plan-service.ts';
import { commRedirectConfigs, commServiceQos, commServices, commSpeedLimitConfigs } from './tables.ts';
import { uniqueRace } from '../unique-race.ts';

/** a lost race on a unique name index answers like the explicit check */
const SERVICE_NAME_UQ = { comm_services_name_uq: () => new AppError(ErrorCode.CommServNameTaken, undefined, 200, { field: 'commservName' }) };
const QOS_NAME_UQ = { comm_service_qos_name_uq: () => new AppError(ErrorCode.QosNameTaken, undefined, 200, { field: 'qosName' }) };

export interface CommServiceSummary {
  commservId: number;
  name: string;
  nameEn: string | null;
  type: number;
  directional: boolean;
  priority: number;
  qosCount: number;
  whitelistCount: number;
}

const qosCountOf = sql<number>`(select count(*) from comm_service_qos q where q.commserv_id = "comm_services"."commserv_id")`.mapWith(Number);

/** The services with these ids (unknown ids are left out), ordered by id, with their QoS and whitelist counts. */
export async function commServicesByIds(ex: Executor, ids: number[]): Promise<CommServiceSummary[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  return ex
    .select({
      commservId: commServices.commservId,
      name: commServices.commservName,
      nameEn: commServices.commservNameEn,
      type: commServices.commservType,
      directional: commServices.directional,
      priority: commServices.priority,
      qosCount: qosCountOf,
      whitelistCount: sql<number>`coalesce(cardinality(${commServices.whitelist}), 0)`.mapWith(Number),
    })
    .from(commServices)
    .where(inArray(commServices.commservId, unique))
    .orderBy(commServices.commservId);
}

// ---- services ----

const iso = (d: Date) => d.toISOString();
const listColumns = {
  s: commServices,
  speedLimitName: commSpeedLimitConfigs.speedLimitName,
  redirectName: commRedirectConfigs.redirectName,
  qosCount: qosCountOf,
};
type ListRow = { s: typeof commServices.$inferSelect; speedLimitName: string | null; redirectName: string | null; qosCount: number };
const toCommServ = ({ s, speedLimitName, redirectName, qosCount }: ListRow) => ({
  commservId: s.commservId, commservName: s.commservName, commservNameEn: s.commservNameEn, commservType: s.commservType, directional: s.directional,
  priority: s.priority, description: s.description, whitelist: s.whitelist, redirectAddress: s.redirectAddress,
  speedLimitId: s.speedLimitId, speedLimitName, redirectId: s.redirectId, redirectName, status: s.status, qosCount,
  createdBy: s.createdBy, createdAt: iso(s.createdAt), updatedAt: iso(s.updatedAt),
});

export type CommServListQuery = BodyOf<typeof commserv.getCommServListPage>;

export async function listCommServices(db: Db, q: CommServListQuery) {
  const p = pageOf(q);
  const where: SQL[] = [];
  if (q.commservName) where.push(ilike(commServices.commservName, contains(q.commservName)));
  if (q.commservType !== undefined) where.push(eq(commServices.commservType, q.commservType));
  if (q.directional !== undefined) where.push(eq(commServices.directional, q.directional));
  if (q.status !== undefined) where.push(eq(commServices.status, q.status));
  if (q.hasQos !== undefined) {
    const exists = sql`exists (select 1 from comm_service_qos q where q.commserv_id = "comm_services"."commserv_id")`;
    where.push(q.hasQos ? exists : sql`not ${exists}`);
  }
  const cond = where.length ? and(...where) : undefined;
  const { rows, total } = await pageFrom(
    await db
      .select({ ...listColumns, total: totalOver() })
      .from(commServices)
      .leftJoin(commSpeedLimitConfigs, eq(commSpeedLimitConfigs.speedLimitId, commServices.speedLimitId))
      .leftJoin(commRedirectConfigs, eq(commRedirectConfigs.redirectId, commServices.redirectId))
      .where(cond)
      .orderBy(...orderOf(q, { commservName: commServices.commservName, priority: commServices.priority, updatedAt: commServices.updatedAt }, [desc(commServices.commservId)]))
      .limit(p.limit)
      .offset(p.offset),
    p,
    async () => Number((await db.select({ n: count() }).from(commServices).where(cond))[0].n),
  );
  return { list: rows.map(toCommServ), total, current: p.current, pageSize: p.pageSize };
}

export async function commServDetail(ex: Executor, commservId: number) {
  const [row] = await ex
    .select(listColumns)
    .from(commServices)
    .leftJoin(commSpeedLimitConfigs, eq(commSpeedLimitConfigs.speedLimitId, commServices.speedLimitId))
    .leftJoin(commRedirectConfigs, eq(commRedirectConfigs.redirectId, commServices.redirectId))
    .where(eq(commServices.commservId, commservId));
  if (!row) throw notFound();
  return { ...toCommServ(row), planCount: await countPlansUsingCommService(ex, commservId) };
}

type ServFields = Partial<BodyOf<typeof commserv.saveCommServ>>;

/** Trimmed entries, then the whitelist rules: valid entries, no duplicates, at most 32. */
function checkWhitelist(raw: string[]): string[] {
  const entries = raw.map((s) => s.trim());
  const problem = whitelistProblem(entries);
  if (!problem) return entries;
  const data = { field: 'whitelist' };
  if (problem.reason === 'tooMany') {
    throw new AppError(ErrorCode.CommServWhitelistTooMany, { max: problem.max, count: entries.length }, 200, data);
  }
  if (problem.reason === 'duplicate') throw new AppError(ErrorCode.CommServWhitelistDuplicate, { value: problem.value }, 200, data);
  throw new AppError(ErrorCode.CommServWhitelistInvalid, { index: problem.index + 1, value: problem.value || '""' }, 200, data);
}

function checkServiceFields(b: ServFields) {
  if (b.commservType !== undefined && !CommServType.has(b.commservType)) throw invalid('commservType', { zh: '取值无效', en: 'has an invalid value' });
  if (b.status !== undefined && !CommServStatus.has(b.status)) throw invalid('status', { zh: '取值无效', en: 'has an invalid value' });
  if (b.commservName !== undefined && b.commservName.trim() === '') throw invalid('commservName', { zh: '不能为空', en: 'must not be blank' });
  const redirect = blankToNull(b.redirectAddress);
  if (redirect !== null && !isHttpUrl(redirect)) {
    throw invalid('redirectAddress', { zh: '须为 http:// 或 https:// 开头的地址', en: 'must be an http:// or https:// URL' });
  }
}

async function nameFree(ex: Executor, name: string, except?: number) {
  const rows = await ex
    .select({ id: commServices.commservId })
    .from(commServices)
    .where(and(sql`lower(${commServices.commservName}) = ${name.trim().toLowerCase()}`, except ? ne(commServices.commservId, except) : undefined));
  if (rows.length) throw new AppError(ErrorCode.CommServNameTaken, undefined, 200, { field: 'commservName' });
}

/**
 * The configurations exist; they are locked FOR SHARE, so a concurrent delete of one waits for this
 * transaction and then sees the service using it ("in use"), rather than failing on the foreign key.
 */
async function configsExist(ex: Executor, b: ServFields) {
  if (b.speedLimitId != null) {
    const [r] = await ex.select({ id: commSpeedLimitConfigs.speedLimitId }).from(commSpeedLimitConfigs).where(eq(commSpeedLimitConfigs.speedLimitId, b.speedLimitId)).for('share');
    if (!r) throw invalid('speedLimitId', { zh: '限速配置不存在', en: 'unknown speed-limit configuration' });
  }
  if (b.redirectId != null) {
    const [r] = await ex.select({ id: commRedirectConfigs.redirectId }).from(commRedirectConfigs).where(eq(commRedirectConfigs.redirectId, b.redirectId)).for('share');
    if (!r) throw invalid('redirectId', { zh: '重定向配置不存在', en: 'unknown redirect configuration' });
  }
}

const directionalNeedsWhitelist = (directional: boolean, whitelist: string[]) => {
  if (directional && whitelist.length === 0) {
    throw new AppError(ErrorCode.CommServDirectionalNeedsWhitelist, undefined, 200, { field: 'whitelist' });
  }
};

export async function createCommServ(db: Db, ctx: SessionContext, b: BodyOf<typeof commserv.saveCommServ>) {
  checkServiceFields(b);
  const whitelist = checkWhitelist(b.whitelist ?? []);
  directionalNeedsWhitelist(b.directional, whitelist);
  return uniqueRace(SERVICE_NAME_UQ, () => db.transaction(async (tx) => {
    await nameFree(tx, b.commservName);
    await configsExist(tx, b);
    const [row] = await tx
      .insert(commServices)
      .values({
        commservName: b.commservName.trim(), commservNameEn: blankToNull(b.commservNameEn), commservType: b.commservType, directional: b.directional, priority: b.priority,
        description: blankToNull(b.description), whitelist, redirectAddress: blankToNull(b.redirectAddress),
        speedLimitId: b.speedLimitId ?? null, redirectId: b.redirectId ?? null, status: b.status ?? CommServStatus.Enabled,
        createdBy: ctx.actor.loginName,
      })
      .returning();
    await audit(tx, ctx, { entity: 'commserv', entityId: row.commservId, after: row, custId: null, rootCustId: null });
    return { commservId: row.commservId };
  }));
}

export async function updateCommServ(db: Db, ctx: SessionContext, b: BodyOf<typeof commserv.updateCommServ>) {
  checkServiceFields(b);
  const whitelist = b.whitelist !== undefined ? checkWhitelist(b.whitelist) : undefined;
  await uniqueRace(SERVICE_NAME_UQ, () => db.transaction(async (tx) => {
    const [before] = await tx.select().from(commServices).where(eq(commServices.commservId, b.commservId)).for('update');
    if (!before) throw notFound();
    directionalNeedsWhitelist(b.directional ?? before.directional, whitelist ?? before.whitelist);
    if (b.commservName !== undefined) await nameFree(tx, b.commservName, b.commservId);
    await configsExist(tx, b);
    const [after] = await tx
      .update(commServices)
      .set({
        ...(b.commservName !== undefined && { commservName: b.commservName.trim() }),
        ...(b.commservNameEn !== undefined && { commservNameEn: blankToNull(b.commservNameEn) }),
        ...(b.commservType !== undefined && { commservType: b.commservType }),
        ...(b.directional !== undefined && { directional: b.directional }),
        ...(b.priority !== undefined && { priority: b.priority }),
        ...(b.description !== undefined && { description: blankToNull(b.description) }),
        ...(whitelist !== undefined && { whitelist }),
        ...(b.redirectAddress !== undefined && { redirectAddress: blankToNull(b.redirectAddress) }),
        ...(b.speedLimitId !== undefined && { speedLimitId: b.speedLimitId }),
        ...(b.redirectId !== undefined && { redirectId: b.redirectId }),
        ...(b.status !== undefined && { status: b.status }),
        updatedAt: new Date(),
      })
      .where(eq(commServices.commservId, b.commservId))
      .returning();
    await audit(tx, ctx, { entity: 'commserv', entityId: b.commservId, before, after, custId: null, rootCustId: null });
  }));
}

export async function deleteCommServ(db: Db, ctx: SessionContext, commservId: number) {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(commServices).where(eq(commServices.commservId, commservId)).for('update');
    if (!before) throw notFound();
    const plans = await countPlansUsingCommService(tx, commservId);
    if (plans > 0) throw new AppError(ErrorCode.CommServInUse, { count: plans });
    const qos = await tx.delete(commServiceQos).where(eq(commServiceQos.commservId, commservId)).returning();
    await tx.delete(commServices).where(eq(commServices.commservId, commservId));
    await audit(tx, ctx, { entity: 'commserv', entityId: commservId, before: { ...before, qos }, custId: null, rootCustId: null });
  });
}

// ---- QoS profiles ----

const toQos = (r: typeof commServiceQos.$inferSelect) => ({
  qosId: r.qosId, commservId: r.commservId, qosName: r.qosName, qci: r.qci, maxUplinkKbps: r.maxUplinkKbps,
  maxDownlinkKbps: r.maxDownlinkKbps, gbrUplinkKbps: r.gbrUplinkKbps, gbrDownlinkKbps: r.gbrDownlinkKbps,
  arpPriority: r.arpPriority, createdBy: r.createdBy, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
});

export async function listQos(ex: Executor, commservId: number) {
  const [s] = await ex.select({ id: commServices.commservId }).from(commServices).where(eq(commServices.commservId, commservId));
  if (!s) throw notFound();
  const rows = await ex.select().from(commServiceQos).where(eq(commServiceQos.commservId, commservId)).orderBy(commServiceQos.qosId);
  return rows.map(toQos);
}

type QosRates = { maxUplinkKbps: number; maxDownlinkKbps: number; gbrUplinkKbps: number | null; gbrDownlinkKbps: number | null };
function checkRates(r: QosRates) {
  if (r.gbrUplinkKbps != null && r.gbrUplinkKbps > r.maxUplinkKbps) {
    throw invalid('gbrUplinkKbps', { zh: '保证上行速率不能大于最大上行速率', en: 'the guaranteed uplink rate must not exceed the maximum uplink rate' });
  }
  if (r.gbrDownlinkKbps != null && r.gbrDownlinkKbps > r.maxDownlinkKbps) {
    throw invalid('gbrDownlinkKbps', { zh: '保证下行速率不能大于最大下行速率', en: 'the guaranteed downlink rate must not exceed the maximum downlink rate' });
  }
}

async function qosNameFree(ex: Executor, commservId: number, name: string, except?: number) {
  const rows = await ex
    .select({ id: commServiceQos.qosId })
    .from(commServiceQos)
    .where(and(eq(commServiceQos.commservId, commservId), sql`lower(${commServiceQos.qosName}) = ${name.trim().toLowerCase()}`, except ? ne(commServiceQos.qosId, except) : undefined));
  if (rows.length) throw new AppError(ErrorCode.QosNameTaken, undefined, 200, { field: 'qosName' });
}

export async function createQos(db: Db, ctx: SessionContext, b: BodyOf<typeof commserv.saveQos>) {
  const rates = { maxUplinkKbps: b.maxUplinkKbps, maxDownlinkKbps: b.maxDownlinkKbps, gbrUplinkKbps: b.gbrUplinkKbps ?? null, gbrDownlinkKbps: b.gbrDownlinkKbps ?? null };
  checkRates(rates);
  if (b.qosName.trim() === '') throw invalid('qosName', { zh: '不能为空', en: 'must not be blank' });
  return uniqueRace(QOS_NAME_UQ, () => db.transaction(async (tx) => {
    const [s] = await tx.select({ id: commServices.commservId }).from(commServices).where(eq(commServices.commservId, b.commservId)).for('update');
    if (!s) throw notFound();
    await qosNameFree(tx, b.commservId, b.qosName);
    const [row] = await tx
      .insert(commServiceQos)
      .values({ commservId: b.commservId, qosName: b.qosName.trim(), qci: b.qci, arpPriority: b.arpPriority, ...rates, createdBy: ctx.actor.loginName })
      .returning();
    await audit(tx, ctx, { entity: 'commserv_qos', entityId: row.qosId, after: row, custId: null, rootCustId: null });
    return { qosId: row.qosId };
  }));
}

export async function updateQos(db: Db, ctx: SessionContext, b: BodyOf<typeof commserv.updateQos>) {
  if (b.qosName !== undefined && b.qosName.trim() === '') throw invalid('qosName', { zh: '不能为空', en: 'must not be blank' });
  await uniqueRace(QOS_NAME_UQ, () => db.transaction(async (tx) => {
    const [before] = await tx.select().from(commServiceQos).where(eq(commServiceQos.qosId, b.qosId)).for('update');
    if (!before) throw notFound();
    const rates: QosRates = {
      maxUplinkKbps: b.maxUplinkKbps ?? before.maxUplinkKbps,
      maxDownlinkKbps: b.maxDownlinkKbps ?? before.maxDownlinkKbps,
      gbrUplinkKbps: b.gbrUplinkKbps !== undefined ? b.gbrUplinkKbps : before.gbrUplinkKbps,
      gbrDownlinkKbps: b.gbrDownlinkKbps !== undefined ? b.gbrDownlinkKbps : before.gbrDownlinkKbps,
    };
    checkRates(rates);
    if (b.qosName !== undefined) await qosNameFree(tx, before.commservId, b.qosName, b.qosId);
    const [after] = await tx
      .update(commServiceQos)
      .set({
        ...rates,
        ...(b.qosName !== undefined && { qosName: b.qosName.trim() }),
        ...(b.qci !== undefined && { qci: b.qci }),
        ...(b.arpPriority !== undefined && { arpPriority: b.arpPriority }),
        updatedAt: new Date(),
      })
      .where(eq(commServiceQos.qosId, b.qosId))
      .returning();
    await audit(tx, ctx, { entity: 'commserv_qos', entityId: b.qosId, before, after, custId: null, rootCustId: null });
  }));
}

export async function deleteQos(db: Db, ctx: SessionContext, qosId: number) {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(commServiceQos).where(eq(commServiceQos.qosId, qosId));
    if (!before) throw notFound();
    // lock the service so two deletes of its last two profiles cannot both pass the check
    await tx.select({ id: commServices.commservId }).from(commServices).where(eq(commServices.commservId, before.commservId)).for('update');
    const [{ n }] = await tx.select({ n: count() }).from(commServiceQos).where(eq(commServiceQos.commservId, before.commservId));
    if (Number(n) <= 1) {
      const plans = await countPlansUsingCommService(tx, before.commservId);
      if (plans > 0) throw new AppError(ErrorCode.CommServLastQos, { count: plans });
    }
    await tx.delete(commServiceQos).where(eq(commServiceQos.qosId, qosId));
    await audit(tx, ctx, { entity: 'commserv_qos', entityId: qosId, before, custId: null, rootCustId: null });
  });
}
