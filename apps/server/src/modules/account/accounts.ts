import { and, eq, ilike, inArray, sql, count, desc, type SQL } from 'drizzle-orm';
import {
  AccountStatus, BehaviorAction, CustomerLevel, ErrorCode, FreezeAction, RoleType, STAFF_ROLE_TYPES,
  validateEmailList, validatePassword, validatePhoneList,
  account as api, type BodyOf,
} from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, denied, invalid, notFound } from '../../platform/errors.ts';
import { audit, behavior } from '../../platform/audit.ts';
import { isChannel, isStaff, isSubCustomer, tenantFilter, type Actor, type SessionContext } from '../../platform/context.ts';
import { orderOf, pageOf, iso, pageFrom, totalOver, contains } from '../../platform/paging.ts';
import { check, blankToNull } from '../../platform/validate.ts';
import { generatePassword, hashPassword } from '../../platform/passwords.ts';
import type { SessionStore } from '../../platform/sessions.ts';
import { accountFreezeRecords, accounts, customers, roles } from './tables.ts';
import { loginRace, type CustomerService } from './customers.ts';

const scopeCols = { custId: accounts.custId, rootCustId: accounts.rootCustId };
const blankName = () => invalid('userName', { zh: '不能为空', en: 'must not be blank' });

/** Which role types an account of a customer of this level may hold (staff accounts have no customer). */
export function roleTypesFor(level: number | null): number[] {
  if (level === null) return [...STAFF_ROLE_TYPES];
  return level === CustomerLevel.First ? [RoleType.Enterprise, RoleType.Channel] : [RoleType.SubCustomer];
}

/** Who may manage an account of the given role type: administrators for staff accounts, else staff or the channel. */
function mayManageRoleType(actor: Actor, roleType: number): boolean {
  if (STAFF_ROLE_TYPES.includes(roleType)) return actor.roleType === RoleType.Admin;
  return isStaff(actor) || isChannel(actor);
}

const accountSelect = {
  a: accounts,
  roleName: roles.roleName,
  roleType: roles.roleType,
  custName: customers.custName,
};

function toAccount(r: { a: typeof accounts.$inferSelect; roleName: string; roleType: number; custName: string | null }) {
  const a = r.a;
  return {
    accountId: a.accountId, loginName: a.loginName, userName: a.userName, roleId: a.roleId, roleType: r.roleType,
    roleName: r.roleName, custId: a.custId, custName: r.custName, phone: a.phone, email: a.email, status: a.status,
    mustResetPassword: a.mustResetPassword, remark: a.remark, lastLoginAt: iso(a.lastLoginAt), createdAt: a.createdAt.toISOString(),
  };
}

export class AccountService {
  constructor(
    private db: Db,
    private customers: CustomerService,
    private sessions: SessionStore,
  ) {}

  private base(ex: Executor, withTotal = false) {
    return ex
      .select(withTotal ? { ...accountSelect, total: totalOver() } : { ...accountSelect, total: sql<number>`0`.mapWith(Number) })
      .from(accounts)
      .innerJoin(roles, eq(roles.roleId, accounts.roleId))
      .leftJoin(customers, eq(customers.custId, accounts.custId));
  }

  /** An account the actor may manage, or NotFound. */
  private async managed(ex: Executor, actor: Actor, loginName: string) {
    if (isSubCustomer(actor)) throw denied();
    const [row] = await this.base(ex).where(and(sql`lower(${accounts.loginName}) = ${loginName.toLowerCase()}`, tenantFilter(actor, scopeCols)));
    if (!row) throw notFound();
    if (!mayManageRoleType(actor, row.roleType)) throw notFound();
    return row;
  }

  async list(q: BodyOf<typeof api.getAccountListPage>, actor: Actor) {
    if (isSubCustomer(actor)) throw denied();
    const p = pageOf(q);
    const where: SQL[] = [tenantFilter(actor, scopeCols)];
    if (q.loginName) where.push(ilike(accounts.loginName, contains(q.loginName)));
    if (q.userName) where.push(ilike(accounts.userName, contains(q.userName)));
    if (q.custId !== undefined) where.push(eq(accounts.custId, q.custId));
    if (q.roleId !== undefined) where.push(eq(accounts.roleId, q.roleId));
    if (q.status !== undefined) where.push(eq(accounts.status, q.status));
    const cond = and(...where);
    const { rows, total } = await pageFrom(
      await this.base(this.db, true)
        .where(cond)
        .orderBy(...orderOf(q, { loginName: accounts.loginName, createdAt: accounts.createdAt, lastLoginAt: accounts.lastLoginAt }, [desc(accounts.accountId)]))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await this.db.select({ n: count() }).from(accounts).where(cond))[0].n),
    );
    return { list: rows.map(toAccount), total, current: p.current, pageSize: p.pageSize };
  }

  async byLoginName(loginName: string, actor: Actor) {
    if (loginName.toLowerCase() === actor.loginName.toLowerCase()) {
      const [row] = await this.base(this.db).where(eq(accounts.accountId, actor.accountId));
      return toAccount(row);
    }
    const accountPerms = [api.getAccountListPage.perm].flat().filter((p): p is number => typeof p === 'number');
    if (!accountPerms.some((p) => actor.permissions.has(p))) throw notFound();
    return toAccount(await this.managed(this.db, actor, loginName));
  }

  async roleOptions(actor: Actor, custId: number | undefined) {
    if (isSubCustomer(actor)) throw denied();
    let types: number[];
    if (custId !== undefined) {
      const cust = await this.customers.visible(this.db, actor, custId);
      types = roleTypesFor(cust.level);
    } else {
      types = isStaff(actor) ? [...STAFF_ROLE_TYPES, ...roleTypesFor(1), ...roleTypesFor(2)] : [...roleTypesFor(1), ...roleTypesFor(2)];
    }
    types = types.filter((t) => mayManageRoleType(actor, t));
    if (!types.length) return [];
    const rows = await this.db
      .select({ roleId: roles.roleId, roleName: roles.roleName, roleType: roles.roleType })
      .from(roles)
      .where(inArray(roles.roleType, types))
      .orderBy(roles.roleType, roles.roleId);
    return rows;
  }

  private async checkRoleFor(ex: Executor, actor: Actor, roleId: number, custLevel: number | null) {
    const [role] = await ex.select().from(roles).where(eq(roles.roleId, roleId));
    if (!role || !roleTypesFor(custLevel).includes(role.roleType) || !mayManageRoleType(actor, role.roleType)) {
      throw new AppError(ErrorCode.RoleNotAllowed);
    }
    return role;
  }

  async create(body: BodyOf<typeof api.saveAccount>, ctx: SessionContext) {
    const actor = ctx.actor;
    if (isSubCustomer(actor)) throw denied();
    if (!body.userName.trim()) throw blankName();
    if (body.phone) check('phone', validatePhoneList(body.phone));
    if (body.email) check('email', validateEmailList(body.email));
    if (body.password) check('password', validatePassword(body.password));
    const generated = body.password ? null : generatePassword();
    const passwordHash = await hashPassword(body.password ?? generated!);
    return loginRace(() => this.db.transaction(async (tx) => {
      if (isChannel(actor) && body.custId === undefined) throw new AppError(ErrorCode.RoleNotAllowed);
      const cust = body.custId !== undefined ? await this.customers.visible(tx, actor, body.custId) : null;
      const role = await this.checkRoleFor(tx, actor, body.roleId, cust?.level ?? null);
      const taken = await tx.select({ id: accounts.accountId }).from(accounts).where(sql`lower(${accounts.loginName}) = ${body.loginName.toLowerCase()}`);
      if (taken.length) throw new AppError(ErrorCode.LoginNameTaken);
      const [row] = await tx
        .insert(accounts)
        .values({
          loginName: body.loginName, userName: body.userName.trim(), roleId: role.roleId,
          custId: cust?.custId ?? null, rootCustId: cust?.rootCustId ?? null,
          phone: blankToNull(body.phone), email: blankToNull(body.email), remark: blankToNull(body.remark),
          passwordHash, mustResetPassword: generated !== null,
        })
        .returning();
      await audit(tx, ctx, { entity: 'account', entityId: row.accountId, after: row, custId: row.custId, rootCustId: row.rootCustId });
      await behavior(tx, ctx, { action: BehaviorAction.AddAccount, loginName: actor.loginName, target: row.loginName });
      return { accountId: row.accountId, initialPassword: generated };
    }));
  }

  async update(body: BodyOf<typeof api.updateAccount>, ctx: SessionContext) {
    const actor = ctx.actor;
    if (body.userName !== undefined && !body.userName.trim()) throw blankName();
    if (body.phone) check('phone', validatePhoneList(body.phone));
    if (body.email) check('email', validateEmailList(body.email));
    await this.db.transaction(async (tx) => {
      const [target] = await tx.select({ loginName: accounts.loginName }).from(accounts).where(eq(accounts.accountId, body.accountId));
      if (!target) throw notFound();
      const before = await this.managed(tx, actor, target.loginName);
      if (body.roleId !== undefined && body.roleId !== before.a.roleId) {
        const level = before.a.custId ? (await this.customers.visible(tx, actor, before.a.custId)).level : null;
        await this.checkRoleFor(tx, actor, body.roleId, level);
      }
      const [after] = await tx
        .update(accounts)
        .set({
          ...(body.userName !== undefined && { userName: body.userName.trim() }),
          ...(body.roleId !== undefined && { roleId: body.roleId }),
          ...(body.phone !== undefined && { phone: blankToNull(body.phone) }),
          ...(body.email !== undefined && { email: blankToNull(body.email) }),
          ...(body.remark !== undefined && { remark: blankToNull(body.remark) }),
          updatedAt: new Date(),
        })
        .where(eq(accounts.accountId, body.accountId))
        .returning();
      await audit(tx, ctx, { entity: 'account', entityId: body.accountId, before: before.a, after, custId: after.custId, rootCustId: after.rootCustId });
    });
    if (body.roleId !== undefined) this.sessions.forgetAll();
    return null;
  }

  async freeze(body: BodyOf<typeof api.saveAccountFreeze>, ctx: SessionContext) {
    const actor = ctx.actor;
    const reason = body.reason.trim();
    if (!reason) throw new AppError(ErrorCode.Validation, { field: 'reason', reason: ctx.lang === 'zh' ? '请填写原因' : 'a reason is required' }, 400, { field: 'reason' });
    await this.db.transaction(async (tx) => {
      const target = await this.managed(tx, actor, body.loginName);
      if (target.a.accountId === actor.accountId) throw new AppError(ErrorCode.CannotFreezeSelf);
      const status = body.action === FreezeAction.Freeze ? AccountStatus.Frozen : AccountStatus.Normal;
      if (target.a.status === status) throw new AppError(ErrorCode.AlreadyInState);
      // the state change is conditional, so of simultaneous freezes (or thaws) only one takes effect and is recorded
      const changed = await tx
        .update(accounts)
        .set({ status, updatedAt: new Date() })
        .where(and(eq(accounts.accountId, target.a.accountId), sql`${accounts.status} <> ${status}`))
        .returning({ id: accounts.accountId });
      if (!changed.length) throw new AppError(ErrorCode.AlreadyInState);
      if (status === AccountStatus.Frozen) await this.sessions.revokeAccount(tx, target.a.accountId);
      await tx.insert(accountFreezeRecords).values({
        accountId: target.a.accountId, loginName: target.a.loginName, action: body.action, reason,
        operatorLoginName: actor.loginName, custId: target.a.custId, rootCustId: target.a.rootCustId,
      });
      await audit(tx, ctx, {
        entity: 'account', entityId: target.a.accountId, before: { status: target.a.status }, after: { status, reason },
        custId: target.a.custId, rootCustId: target.a.rootCustId,
      });
      await behavior(tx, ctx, {
        action: status === AccountStatus.Frozen ? BehaviorAction.Freeze : BehaviorAction.Thaw,
        loginName: actor.loginName, target: target.a.loginName, detail: reason,
      });
    });
    return null;
  }

  async freezeRecords(q: BodyOf<typeof api.getAccountFreezeList>, actor: Actor) {
    const target = await this.managed(this.db, actor, q.loginName);
    const p = pageOf(q);
    const cond = eq(accountFreezeRecords.accountId, target.a.accountId);
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(accountFreezeRecords).where(cond).orderBy(desc(accountFreezeRecords.id)).limit(p.limit).offset(p.offset),
      this.db.select({ n: count() }).from(accountFreezeRecords).where(cond),
    ]);
    return {
      list: rows.map((r) => ({ id: r.id, loginName: r.loginName, action: r.action, reason: r.reason, operator: r.operatorLoginName, createdAt: r.createdAt.toISOString() })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  async resetPassword(loginName: string, ctx: SessionContext) {
    const password = generatePassword();
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      const target = await this.managed(tx, ctx.actor, loginName);
      await tx.update(accounts).set({ passwordHash, mustResetPassword: true, updatedAt: new Date() }).where(eq(accounts.accountId, target.a.accountId));
      await this.sessions.revokeAccount(tx, target.a.accountId);
      await audit(tx, ctx, { entity: 'account', entityId: target.a.accountId, before: { mustResetPassword: target.a.mustResetPassword }, after: { mustResetPassword: true, passwordReset: true }, custId: target.a.custId, rootCustId: target.a.rootCustId });
      await behavior(tx, ctx, { action: BehaviorAction.ResetAccount, loginName: ctx.actor.loginName, target: target.a.loginName });
    });
    return { password };
  }

  async brief(actor: Actor, filter: { custId?: number; keyword?: string; roleIds?: number[] }) {
    if (isSubCustomer(actor)) throw denied();
    const where: SQL[] = [tenantFilter(actor, scopeCols)];
    if (filter.custId !== undefined) where.push(eq(accounts.custId, filter.custId));
    if (filter.keyword) where.push(sql`(${ilike(accounts.loginName, contains(filter.keyword))} or ${ilike(accounts.userName, contains(filter.keyword))})`);
    if (filter.roleIds) where.push(inArray(accounts.roleId, filter.roleIds));
    return this.db
      .select({ accountId: accounts.accountId, loginName: accounts.loginName, userName: accounts.userName, roleId: accounts.roleId, custId: accounts.custId })
      .from(accounts)
      .where(and(...where))
      .orderBy(accounts.loginName)
      .limit(500);
  }
}
