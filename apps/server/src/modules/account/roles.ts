import { and, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import {
  BehaviorAction, ErrorCode, RoleType, allPermissionCodes, isPermissionCode,
  type role as api, type BodyOf,
} from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, denied, notFound } from '../../platform/errors.ts';
import { audit, behavior } from '../../platform/audit.ts';
import { isStaff, type Actor, type SessionContext } from '../../platform/context.ts';
import { pageOf, contains } from '../../platform/paging.ts';
import type { SessionStore } from '../../platform/sessions.ts';
import { accounts, roles } from './tables.ts';

type RoleRow = typeof roles.$inferSelect;

/**
 * Valid codes only, and (except for administrators) only codes the editor holds: nobody hands out more
 * than they have.
 */
function checkCodes(codes: number[], actor: Actor): number[] {
  for (const code of codes) {
    if (!isPermissionCode(code)) throw new AppError(ErrorCode.PermissionCodeUnknown, { code });
    if (actor.roleType !== RoleType.Admin && !actor.permissions.has(code)) throw new AppError(ErrorCode.PermissionNotHeld, { code });
  }
  return [...new Set(codes)].sort((a, b) => a - b);
}

/** Roles: built-in ones (id = type) and custom ones. The administrator role always holds every code. */
export class RoleService {
  constructor(
    private db: Db,
    private sessions: SessionStore,
  ) {}

  private toRole(r: RoleRow, accountCount: number) {
    return {
      roleId: r.roleId, roleCode: r.roleCode, roleName: r.roleName, roleNameEn: r.roleNameEn, roleType: r.roleType, description: r.description,
      permissions: r.permissions, builtIn: r.builtIn, accountCount, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
    };
  }

  private usage = (ex: Executor) =>
    ex.select({ roleId: accounts.roleId, n: count() }).from(accounts).groupBy(accounts.roleId);

  async list(q: BodyOf<typeof api.getRoleListPage>, actor: Actor) {
    if (!isStaff(actor)) throw denied();
    const p = pageOf(q);
    const where: SQL[] = [];
    if (q.roleName) where.push(ilike(roles.roleName, contains(q.roleName)));
    if (q.roleType !== undefined) where.push(eq(roles.roleType, q.roleType));
    const cond = where.length ? and(...where) : undefined;
    const [rows, [{ n }], used] = await Promise.all([
      this.db.select().from(roles).where(cond).orderBy(desc(roles.builtIn), roles.roleId).limit(p.limit).offset(p.offset),
      this.db.select({ n: count() }).from(roles).where(cond),
      this.usage(this.db),
    ]);
    const usedBy = new Map(used.map((u) => [u.roleId, Number(u.n)]));
    return { list: rows.map((r) => this.toRole(r, usedBy.get(r.roleId) ?? 0)), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  private async get(ex: Executor, roleId: number) {
    const [r] = await ex.select().from(roles).where(eq(roles.roleId, roleId));
    if (!r) throw notFound();
    return r;
  }

  async detail(roleId: number, actor: Actor) {
    if (!isStaff(actor)) throw denied();
    const r = await this.get(this.db, roleId);
    const [{ n }] = await this.db.select({ n: count() }).from(accounts).where(eq(accounts.roleId, roleId));
    return this.toRole(r, Number(n));
  }

  private async codeFree(ex: Executor, code: string, except?: number) {
    const rows = await ex.select({ id: roles.roleId }).from(roles).where(sql`lower(${roles.roleCode}) = ${code.toLowerCase()}`);
    if (rows.some((r) => r.id !== except)) throw new AppError(ErrorCode.RoleCodeTaken);
  }

  async create(body: BodyOf<typeof api.saveRole>, ctx: SessionContext) {
    if (!isStaff(ctx.actor)) throw denied();
    if (!RoleType.has(body.roleType)) throw new AppError(ErrorCode.Validation, { field: 'roleType', reason: ctx.lang === 'zh' ? '取值无效' : 'has an invalid value' }, 400, { field: 'roleType' });
    const permissions = checkCodes(body.permissions, ctx.actor);
    return this.db.transaction(async (tx) => {
      await this.codeFree(tx, body.roleCode);
      const seq = (await tx.execute(sql`select nextval('roles_custom_id_seq')::int as id`)) as unknown as { rows: { id: number }[] };
      const id = Number(seq.rows[0].id);
      const [row] = await tx
        .insert(roles)
        .values({ roleId: id, roleCode: body.roleCode, roleName: body.roleName.trim(), roleType: body.roleType, description: body.description?.trim() || null, permissions })
        .returning();
      await audit(tx, ctx, { entity: 'role', entityId: row.roleId, after: row, custId: null, rootCustId: null });
      await behavior(tx, ctx, { action: BehaviorAction.AddRole, loginName: ctx.actor.loginName, target: row.roleName });
      return { roleId: row.roleId };
    });
  }

  async update(body: BodyOf<typeof api.updateRole>, ctx: SessionContext) {
    if (!isStaff(ctx.actor)) throw denied();
    await this.db.transaction(async (tx) => {
      const before = await this.get(tx, body.roleId);
      if (before.roleId === ctx.actor.roleId && ctx.actor.roleType !== RoleType.Admin) throw new AppError(ErrorCode.OwnRole);
      if (before.builtIn && body.roleType !== undefined && body.roleType !== before.roleType) throw new AppError(ErrorCode.RoleBuiltIn);
      if (body.roleType !== undefined && !RoleType.has(body.roleType)) throw new AppError(ErrorCode.Validation, { field: 'roleType', reason: 'invalid' }, 400);
      if (body.roleCode) await this.codeFree(tx, body.roleCode, body.roleId);
      // the administrator role keeps every code, so nobody can lock the platform out of its own settings
      const permissions = before.roleId === RoleType.Admin ? [...allPermissionCodes].sort((a, b) => a - b) : body.permissions && checkCodes(body.permissions, ctx.actor);
      const [after] = await tx
        .update(roles)
        .set({
          ...(body.roleCode !== undefined && { roleCode: body.roleCode }),
          ...(body.roleName !== undefined && { roleName: body.roleName.trim() }),
          ...(body.roleType !== undefined && { roleType: body.roleType }),
          ...(body.description !== undefined && { description: body.description.trim() || null }),
          ...(permissions && { permissions }),
          updatedAt: new Date(),
        })
        .where(eq(roles.roleId, body.roleId))
        .returning();
      await audit(tx, ctx, { entity: 'role', entityId: body.roleId, before, after, custId: null, rootCustId: null });
      await behavior(tx, ctx, { action: BehaviorAction.ChangeRole, loginName: ctx.actor.loginName, target: after.roleName });
    });
    this.sessions.forgetAll();
    return null;
  }

  async remove(roleId: number, ctx: SessionContext) {
    if (!isStaff(ctx.actor)) throw denied();
    await this.db.transaction(async (tx) => {
      const before = await this.get(tx, roleId);
      if (before.builtIn) throw new AppError(ErrorCode.RoleBuiltIn);
      const [{ n }] = await tx.select({ n: count() }).from(accounts).where(eq(accounts.roleId, roleId));
      if (Number(n) > 0) throw new AppError(ErrorCode.RoleInUse, { count: Number(n) });
      await tx.delete(roles).where(eq(roles.roleId, roleId));
      await audit(tx, ctx, { entity: 'role', entityId: roleId, before, custId: null, rootCustId: null });
      await behavior(tx, ctx, { action: BehaviorAction.DeleteRole, loginName: ctx.actor.loginName, target: before.roleName });
    });
    return null;
  }
}
