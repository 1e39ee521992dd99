import type { FastifyInstance } from 'fastify';
import { and, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { CommPlanStatus, CommServiceKind, ErrorCode, Operator, opconfig, type BodyOf } from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import type { AppDeps } from '../../../app.ts';
import { AppError, FieldError, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import type { Actor } from '../../../platform/context.ts';
import { contains, orderOf, pageFrom, pageOf, totalOver } from '../../../platform/paging.ts';
import { blankToNull } from '../../../platform/validate.ts';
import type { Executor } from '../../../db/client.ts';
import { operators } from '../../account/tables.ts';
import { apns } from '../tables.ts';
import { commPlans, operatorAccounts } from './tables.ts';
import { staffOnly } from './access.ts';
import { uniqueRace } from '../unique-race.ts';

/** a lost race on the name index answers like the explicit check */
const NAME_UQ = { comm_plans_name_uq: () => new AppError(ErrorCode.CommPlanNameTaken, undefined, 200, { field: 'planName' }) };

type Row = typeof commPlans.$inferSelect;

export function commPlanRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;

  const apnNames = async (ex: Executor, rows: Row[]) => {
    const ids = [...new Set(rows.flatMap((r) => r.apnIds))];
    if (!ids.length) return new Map<number, string>();
    const found = await ex.select({ id: apns.apnId, name: apns.apnName }).from(apns).where(inArray(apns.apnId, ids));
    return new Map(found.map((a) => [a.id, a.name]));
  };
  const view = (r: Row, accountName: string, names: Map<number, string>) => ({
    commPlanId: r.commPlanId, planName: r.planName, operatorId: r.operatorId, operAccountId: r.operAccountId, operAccountName: accountName,
    apnIds: r.apnIds, apnNames: r.apnIds.map((id) => names.get(id) ?? `#${id}`), serviceKinds: r.serviceKinds, roaming: r.roaming,
    description: r.description, status: r.status, createdBy: r.createdBy, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
  });
  const viewOne = async (ex: Executor, r: Row) => {
    const [a] = await ex.select({ name: operatorAccounts.accountName }).from(operatorAccounts).where(eq(operatorAccounts.operAccountId, r.operAccountId));
    return view(r, a?.name ?? '', await apnNames(ex, [r]));
  };

  const page = async (q: BodyOf<typeof opconfig.getCommPlanPage>, actor: Actor) => {
    staffOnly(actor);
    const p = pageOf(q);
    const where: SQL[] = [];
    if (q.planName) where.push(ilike(commPlans.planName, contains(q.planName)));
    if (q.operatorId !== undefined) where.push(eq(commPlans.operatorId, q.operatorId));
    if (q.operAccountId !== undefined) where.push(eq(commPlans.operAccountId, q.operAccountId));
    if (q.status !== undefined) where.push(eq(commPlans.status, q.status));
    const cond = where.length ? and(...where) : undefined;
    const { rows, total } = await pageFrom(
      await db
        .select({ c: commPlans, accountName: operatorAccounts.accountName, total: totalOver() })
        .from(commPlans)
        .innerJoin(operatorAccounts, eq(operatorAccounts.operAccountId, commPlans.operAccountId))
        .where(cond)
        .orderBy(...orderOf(q, { planName: commPlans.planName, updatedAt: commPlans.updatedAt }, [desc(commPlans.commPlanId)]))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await db.select({ n: count() }).from(commPlans).where(cond))[0].n),
    );
    const names = await apnNames(db, rows.map((r) => r.c));
    return { list: rows.map((r) => view(r.c, r.accountName, names)), total, current: p.current, pageSize: p.pageSize };
  };
  bind(app, deps, opconfig.getCommPlanPage, (q, ctx) => page(q, ctx.actor));

  type Fields = BodyOf<typeof opconfig.saveCommPlan>;
  /** the operator exists, the account and every APN belong to it, the service kinds and status are known */
  const checkRefs = async (ex: Executor, b: Fields) => {
    const [o] = await ex.select({ id: operators.operatorId }).from(operators).where(eq(operators.operatorId, b.operatorId));
    if (!o) throw new FieldError('operatorId', { zh: '运营商不存在', en: 'unknown operator' });
    // FOR SHARE: a concurrent delete of the account waits, then sees this plan ("in use"), not a foreign-key error
    const [acc] = await ex.select({ operatorId: operatorAccounts.operatorId }).from(operatorAccounts).where(eq(operatorAccounts.operAccountId, b.operAccountId)).for('share');
    if (!acc) throw new FieldError('operAccountId', { zh: '接入账号不存在', en: 'unknown operator account' });
    if (acc.operatorId !== b.operatorId) throw new FieldError('operAccountId', { zh: '接入账号不属于所选运营商', en: 'the account does not belong to the selected operator' });
    const ids = [...new Set(b.apnIds)];
    if (ids.length !== b.apnIds.length) throw new FieldError('apnIds', { zh: '不能重复选择同一个 APN', en: 'the same APN is selected twice' });
    const found = await ex.select({ id: apns.apnId, operatorId: apns.operatorId }).from(apns).where(inArray(apns.apnId, ids));
    if (found.length !== ids.length) throw new FieldError('apnIds', { zh: 'APN 不存在', en: 'unknown APN' });
    if (found.some((a) => a.operatorId !== b.operatorId)) throw new FieldError('apnIds', { zh: 'APN 必须属于所选运营商', en: 'every APN must belong to the selected operator' });
    if (new Set(b.serviceKinds).size !== b.serviceKinds.length || b.serviceKinds.some((k) => !CommServiceKind.has(k))) {
      throw new FieldError('serviceKinds', { zh: '业务类型无效或重复', en: 'invalid or repeated service type' });
    }
    if (b.status !== undefined && !CommPlanStatus.has(b.status)) throw new FieldError('status', { zh: '取值无效', en: 'has an invalid value' });
    if (!b.planName.trim()) throw new FieldError('planName', { zh: '必填', en: 'is required' });
  };
  const nameFree = async (ex: Executor, operatorId: number, name: string, except?: number) => {
    const rows = await ex
      .select({ id: commPlans.commPlanId })
      .from(commPlans)
      .where(and(eq(commPlans.operatorId, operatorId), sql`lower(${commPlans.planName}) = ${name.trim().toLowerCase()}`));
    if (rows.some((r) => r.id !== except)) throw new AppError(ErrorCode.CommPlanNameTaken, undefined, 200, { field: 'planName' });
  };
  const sortNums = (xs: number[]) => [...xs].sort((a, b) => a - b);

  bind(app, deps, opconfig.saveCommPlan, async (b, ctx) => {
    staffOnly(ctx.actor);
    return uniqueRace(NAME_UQ, () => db.transaction(async (tx) => {
      await checkRefs(tx, b);
      await nameFree(tx, b.operatorId, b.planName);
      const [row] = await tx
        .insert(commPlans)
        .values({
          planName: b.planName.trim(), operatorId: b.operatorId, operAccountId: b.operAccountId, apnIds: b.apnIds, serviceKinds: sortNums(b.serviceKinds),
          roaming: b.roaming, description: blankToNull(b.description), status: b.status ?? CommPlanStatus.Enabled, createdBy: ctx.actor.loginName,
        })
        .returning();
      await audit(tx, ctx, { entity: 'commPlan', entityId: row.commPlanId, after: await viewOne(tx, row), custId: null, rootCustId: null });
      return { commPlanId: row.commPlanId };
    }));
  });

  bind(app, deps, opconfig.updateCommPlan, async (b, ctx) => {
    staffOnly(ctx.actor);
    await uniqueRace(NAME_UQ, () => db.transaction(async (tx) => {
      const [before] = await tx.select().from(commPlans).where(eq(commPlans.commPlanId, b.commPlanId)).for('update');
      if (!before) throw notFound();
      const merged: Fields = {
        planName: b.planName ?? before.planName, operatorId: b.operatorId ?? before.operatorId, operAccountId: b.operAccountId ?? before.operAccountId,
        apnIds: b.apnIds ?? before.apnIds, serviceKinds: b.serviceKinds ?? before.serviceKinds, roaming: b.roaming ?? before.roaming,
        description: b.description, status: b.status,
      };
      await checkRefs(tx, merged);
      if (b.planName !== undefined || b.operatorId !== undefined) await nameFree(tx, merged.operatorId, merged.planName, b.commPlanId);
      const [after] = await tx
        .update(commPlans)
        .set({
          planName: merged.planName.trim(), operatorId: merged.operatorId, operAccountId: merged.operAccountId, apnIds: merged.apnIds,
          serviceKinds: sortNums(merged.serviceKinds), roaming: merged.roaming,
          ...(b.description !== undefined && { description: blankToNull(b.description) }),
          ...(b.status !== undefined && { status: b.status }),
          updatedAt: new Date(),
        })
        .where(eq(commPlans.commPlanId, b.commPlanId))
        .returning();
      await audit(tx, ctx, { entity: 'commPlan', entityId: b.commPlanId, before: await viewOne(tx, before), after: await viewOne(tx, after), custId: null, rootCustId: null });
    }));
    return null;
  });

  bind(app, deps, opconfig.deleteCommPlan, async (b, ctx) => {
    staffOnly(ctx.actor);
    await db.transaction(async (tx) => {
      const [before] = await tx.delete(commPlans).where(eq(commPlans.commPlanId, b.commPlanId)).returning();
      if (!before) throw notFound();
      await audit(tx, ctx, { entity: 'commPlan', entityId: b.commPlanId, before: await viewOne(tx, before), custId: null, rootCustId: null });
    });
    return null;
  });

  deps.exports.register(opconfig.getCommPlanPage, {
    title: { zh: '通信计划', en: 'Communication plans' },
    filters: {
      planName: { title: { zh: '计划名称', en: 'Plan name' } },
      status: { title: { zh: '状态', en: 'Status' }, enum: CommPlanStatus },
    },
    page: async (q, actor) => {
      const r = await page(q, actor);
      // lists become readable text in the file; each service type is a yes/no column in the file's language
      return {
        total: r.total,
        list: r.list.map((p) => ({
          ...p, apnNames: p.apnNames.join('; '),
          data: p.serviceKinds.includes(CommServiceKind.Data), sms: p.serviceKinds.includes(CommServiceKind.Sms), voice: p.serviceKinds.includes(CommServiceKind.Voice),
        })),
      };
    },
    columns: [
      { key: 'planName', title: { zh: '计划名称', en: 'Plan name' } },
      { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      { key: 'operAccountName', title: { zh: '接入账号', en: 'Operator account' } },
      { key: 'apnNames', title: { zh: 'APN', en: 'APNs' } },
      { key: 'data', title: { zh: '数据', en: 'Data' } },
      { key: 'sms', title: { zh: '短信', en: 'SMS' } },
      { key: 'voice', title: { zh: '语音', en: 'Voice' } },
      { key: 'roaming', title: { zh: '允许漫游', en: 'Roaming' } },
      { key: 'status', title: { zh: '状态', en: 'Status' }, enum: CommPlanStatus },
      { key: 'description', title: { zh: '描述', en: 'Description' } },
      { key: 'updatedAt', title: { zh: '更新时间', en: 'Updated' }, type: 'datetime' },
    ],
  });
}
