import { and, eq, ilike, or, sql, count, desc, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  AuditStatus, BehaviorAction, CustomerLevel, CustomerStatus, ErrorCode, RoleType,
  validateEmailList, validatePhoneList, validatePassword,
  type account as api, type BodyOf,
} from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, denied, invalid, notFound } from '../../platform/errors.ts';
import { audit, behavior } from '../../platform/audit.ts';
import { canSeeTenant, isChannel, isStaff, tenantFilter, type Actor, type SessionContext } from '../../platform/context.ts';
import { orderOf, pageOf, iso, pageFrom, totalOver, contains, idOf, matchOrder } from '../../platform/paging.ts';
import { check, blankToNull } from '../../platform/validate.ts';
import { publicFileUrl } from '../../platform/files.ts';
import type { SessionStore } from '../../platform/sessions.ts';
import { accounts, customers, registerApplies } from './tables.ts';
import { balancesFor, balancesOut, ZERO_BALANCES, type BalanceFen } from '../money/ledger.ts';

type CustomerRow = typeof customers.$inferSelect;
const parent = alias(customers, 'parent');
const scopeCols = { custId: customers.custId, rootCustId: customers.rootCustId };

export function toCustomer(r: CustomerRow, parentName: string | null, money: BalanceFen | undefined) {
  const b = balancesOut(money ?? ZERO_BALANCES(r.custId, r.rootCustId));
  return {
    custId: r.custId, parentCustId: r.parentCustId, parentCustName: parentName, level: r.level, custName: r.custName,
    status: r.status, businessUnit: r.businessUnit, adminName: r.adminName, adminEmail: r.adminEmail, adminPhone: r.adminPhone,
    businessLicense: r.businessLicense, website: r.website, registeredCapital: r.registeredCapital, invoiceType: r.invoiceType,
    taxNumber: r.taxNumber, bankName: r.bankName, bankAccount: r.bankAccount, industryLevel1: r.industryLevel1,
    industryLevel2: r.industryLevel2, industryAttribute: r.industryAttribute, paymentModel: r.paymentModel,
    salesName: r.salesName, salesPhone: r.salesPhone, salesEmail: r.salesEmail, remark: r.remark,
    preDeposit: b.preDeposit, grants: b.grants, contractPayment: b.contractPayment, credit: b.credit, withdrawHold: b.withdrawHold, available: b.available,
    logoUrl: r.logoFileId ? publicFileUrl(r.logoFileId) : null,
    createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
  };
}

type Editable = Partial<Omit<BodyOf<typeof api.saveCustomer>, 'parentCustId'>>;

/**
 * True when err (or its cause, as drivers and drizzle wrap it) is a unique violation of the named index: two
 * requests passed the "name free" check at the same moment and the index refused the second insert.
 */
export function isUniqueViolation(err: unknown, index: string): boolean {
  for (let e = err as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e.code === '23505' && (e.constraint === index || String(e.message ?? '').includes(index))) return true;
  }
  return false;
}

/** Runs fn, answering a lost race on the customer-name index like the explicit check does (20021). */
async function nameRace<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err, 'customers_name_uq')) throw new AppError(ErrorCode.CustomerNameTaken);
    throw err;
  }
}

/** Runs fn, answering a lost race on the login-name index like the explicit check does (20020). */
export async function loginRace<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err, 'accounts_login_name_uq')) throw new AppError(ErrorCode.LoginNameTaken);
    throw err;
  }
}

/** Text fields the schema requires must still have content once trimmed ('   ' is not a name). */
function checkRequiredText(b: Editable) {
  if (b.custName !== undefined && b.custName.trim().length < 2) {
    throw invalid('custName', { zh: '至少 2 个字符（不含首尾空格）', en: 'needs at least 2 characters besides spaces' });
  }
  if (b.adminName !== undefined && b.adminName.trim() === '') {
    throw invalid('adminName', { zh: '不能为空', en: 'must not be blank' });
  }
}

function checkContacts(b: Editable) {
  checkRequiredText(b);
  if (b.adminPhone !== undefined) check('adminPhone', validatePhoneList(b.adminPhone));
  if (b.adminEmail !== undefined) check('adminEmail', validateEmailList(b.adminEmail));
  if (b.salesPhone) check('salesPhone', validatePhoneList(b.salesPhone));
  if (b.salesEmail) check('salesEmail', validateEmailList(b.salesEmail));
}

function cleaned(b: Editable) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b)) out[k] = typeof v === 'string' ? blankToNull(v) : v;
  if (typeof b.custName === 'string') out.custName = b.custName.trim();
  return out as Partial<typeof customers.$inferInsert>;
}

/**
 * Fields the operator sets on a customer record: its state and commercial terms (balances and credit are not
 * editable here at all). Only staff change them, and a channel customer on its second-level customers; a
 * customer's own record keeps them (docs/decisions.md "Customers cannot change their operator-side fields").
 */
export const STAFF_ONLY_CUSTOMER_FIELDS = ['status', 'paymentModel', 'salesName', 'salesPhone', 'salesEmail'] as const;

/** Whether the actor may change the operator-side fields of this (visible) customer. */
export const maySetOperatorFields = (actor: Actor, target: Pick<CustomerRow, 'custId' | 'level'>) =>
  isStaff(actor) || (isChannel(actor) && target.level === CustomerLevel.Second && target.custId !== actor.custId);

/** Refuses the first operator-side field the body changes; a value sent unchanged (the edit form sends all) is fine. */
function checkOperatorFields(actor: Actor, before: CustomerRow, body: Editable) {
  if (maySetOperatorFields(actor, before)) return;
  const next = cleaned(body) as Record<string, unknown>;
  for (const field of STAFF_ONLY_CUSTOMER_FIELDS) {
    if (next[field] === undefined) continue;
    if ((next[field] ?? null) !== (before[field] ?? null)) throw new AppError(ErrorCode.CustomerFieldStaffOnly, { field }, 200, { field });
  }
}

export class CustomerService {
  constructor(
    private db: Db,
    private sessions?: SessionStore,
  ) {}

  /** A customer the actor may see, or NotFound (the same answer whether it exists or not). */
  async visible(ex: Executor, actor: Actor, custId: number): Promise<CustomerRow> {
    const [row] = await ex.select().from(customers).where(and(eq(customers.custId, custId), tenantFilter(actor, scopeCols)));
    if (!row) throw notFound();
    return row;
  }

  async list(q: BodyOf<typeof api.getCustomerListPage>, actor: Actor) {
    const p = pageOf(q);
    const where: SQL[] = [tenantFilter(actor, scopeCols)];
    if (q.custName) where.push(ilike(customers.custName, contains(q.custName)));
    if (q.status !== undefined) where.push(eq(customers.status, q.status));
    if (q.level !== undefined) where.push(eq(customers.level, q.level));
    if (q.parentCustId !== undefined) where.push(eq(customers.parentCustId, q.parentCustId));
    const cond = and(...where);
    const { rows, total } = await pageFrom(
      await this.db
        .select({ c: customers, parentName: parent.custName, total: totalOver() })
        .from(customers)
        .leftJoin(parent, eq(parent.custId, customers.parentCustId))
        .where(cond)
        .orderBy(...orderOf(q, { custName: customers.custName, createdAt: customers.createdAt, status: customers.status }, [desc(customers.custId)]))
        .limit(p.limit)
        .offset(p.offset),
      p,
      async () => Number((await this.db.select({ n: count() }).from(customers).where(cond))[0].n),
    );
    const money = await balancesFor(this.db, rows.map((r) => r.c.custId));
    return { list: rows.map((r) => toCustomer(r.c, r.parentName, money.get(r.c.custId))), total, current: p.current, pageSize: p.pageSize };
  }

  /** The header search: customers in the caller's scope whose name contains the keyword, or whose id it is. */
  async search(actor: Actor, keyword: string, limit: number) {
    const id = idOf(keyword);
    const named = ilike(customers.custName, contains(keyword));
    return this.db
      .select({ custId: customers.custId, custName: customers.custName, level: customers.level, parentCustName: parent.custName })
      .from(customers)
      .leftJoin(parent, eq(parent.custId, customers.parentCustId))
      .where(and(tenantFilter(actor, scopeCols), id === null ? named : or(named, eq(customers.custId, id))))
      .orderBy(...matchOrder(customers.custName, keyword))
      .limit(limit);
  }

  async detail(custId: number, actor: Actor) {
    const row = await this.visible(this.db, actor, custId);
    const parentName = row.parentCustId
      ? ((await this.db.select({ n: customers.custName }).from(customers).where(eq(customers.custId, row.parentCustId)))[0]?.n ?? null)
      : null;
    return toCustomer(row, parentName, (await balancesFor(this.db, [row.custId])).get(row.custId));
  }

  private async nameFree(ex: Executor, name: string, exceptId?: number) {
    const rows = await ex
      .select({ id: customers.custId })
      .from(customers)
      .where(sql`lower(${customers.custName}) = ${name.trim().toLowerCase()}`);
    if (rows.some((r) => r.id !== exceptId)) throw new AppError(ErrorCode.CustomerNameTaken);
  }

  /** Creates a first-level customer (root = itself) or a second-level one under a first-level parent. */
  async insert(ex: Executor, parentRow: CustomerRow | null, fields: Editable & { custName: string; adminName: string; adminEmail: string; adminPhone: string }) {
    await this.nameFree(ex, fields.custName);
    const [row] = await ex
      .insert(customers)
      .values({
        ...cleaned(fields),
        custName: fields.custName.trim(),
        adminName: fields.adminName.trim(),
        adminEmail: fields.adminEmail,
        adminPhone: fields.adminPhone,
        parentCustId: parentRow?.custId ?? null,
        rootCustId: parentRow?.rootCustId ?? 0,
        level: parentRow ? CustomerLevel.Second : CustomerLevel.First,
      })
      .returning();
    if (parentRow) return row;
    const [fixed] = await ex.update(customers).set({ rootCustId: row.custId }).where(eq(customers.custId, row.custId)).returning();
    return fixed;
  }

  async create(body: BodyOf<typeof api.saveCustomer>, ctx: SessionContext) {
    const actor = ctx.actor;
    if (!isStaff(actor) && !isChannel(actor)) throw denied();
    checkContacts(body);
    const { parentCustId, ...fields } = body;
    return nameRace(() => this.db.transaction(async (tx) => {
      let parentRow: CustomerRow | null = null;
      if (isChannel(actor)) {
        // a channel customer creates second-level customers under its own first-level customer only. The
        // parent is visible, so it is of the own tree: a second-level one gets the level error below, not NotFound.
        parentRow = await this.visible(tx, actor, parentCustId ?? actor.rootCustId!);
        if (parentRow.rootCustId !== actor.rootCustId) throw notFound();
      } else if (parentCustId !== undefined) {
        parentRow = await this.visible(tx, actor, parentCustId);
      }
      if (parentRow && parentRow.level !== CustomerLevel.First) throw new AppError(ErrorCode.CustomerLevelNotAllowed);
      const row = await this.insert(tx, parentRow, fields);
      await audit(tx, ctx, { entity: 'customer', entityId: row.custId, after: row, custId: row.custId, rootCustId: row.rootCustId });
      return { custId: row.custId };
    }));
  }

  async update(body: BodyOf<typeof api.updateCustomer>, ctx: SessionContext) {
    if (!isStaff(ctx.actor) && !isChannel(ctx.actor)) throw denied();
    checkContacts(body);
    const { custId, ...fields } = body;
    await nameRace(() => this.db.transaction(async (tx) => {
      const before = await this.visible(tx, ctx.actor, custId);
      checkOperatorFields(ctx.actor, before, fields);
      if (fields.custName) await this.nameFree(tx, fields.custName, custId);
      const [after] = await tx
        .update(customers)
        .set({ ...cleaned(fields), updatedAt: new Date() })
        .where(eq(customers.custId, custId))
        .returning();
      // an exited customer's accounts (its whole tree for a first-level one) lose their sessions now
      if (after.status === CustomerStatus.Exited && before.status !== CustomerStatus.Exited) await this.sessions?.revokeCustomer(tx, custId);
      await audit(tx, ctx, { entity: 'customer', entityId: custId, before, after, custId, rootCustId: before.rootCustId });
    }));
    return null;
  }

  async listApplies(q: BodyOf<typeof api.getRegisterApplyListPage>, actor: Actor) {
    // applications are not tenant data: only operator staff review them
    if (!isStaff(actor)) throw denied();
    const p = pageOf(q);
    const where: SQL[] = [];
    if (q.auditStatus !== undefined) where.push(eq(registerApplies.auditStatus, q.auditStatus));
    if (q.custName) where.push(ilike(registerApplies.custName, contains(q.custName)));
    const cond = where.length ? and(...where) : undefined;
    const [rows, [{ n }]] = await Promise.all([
      this.db.select().from(registerApplies).where(cond).orderBy(desc(registerApplies.applyId)).limit(p.limit).offset(p.offset),
      this.db.select({ n: count() }).from(registerApplies).where(cond),
    ]);
    return {
      list: rows.map(({ passwordHash: _h, ...r }) => ({ ...r, auditAt: iso(r.auditAt), createdAt: r.createdAt.toISOString() })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  /** Approval creates the first-level customer and its administrator account (role 3000) in one transaction. */
  async auditApply(body: BodyOf<typeof api.auditRegisterApply>, ctx: SessionContext) {
    if (!isStaff(ctx.actor)) throw denied();
    if (!body.pass && !body.reason?.trim()) throw new AppError(ErrorCode.Validation, { field: 'reason', reason: ctx.lang === 'zh' ? '驳回时必须填写原因' : 'a reason is required to reject' }, 400, { field: 'reason' });
    return loginRace(() => nameRace(() => this.db.transaction(async (tx) => {
      const [apply] = await tx.select().from(registerApplies).where(eq(registerApplies.applyId, body.applyId)).for('update');
      if (!apply) throw notFound();
      if (apply.auditStatus !== AuditStatus.Submitted) throw new AppError(ErrorCode.RegistrationHandled);
      let custId: number | null = null;
      if (body.pass) {
        const taken = await tx.select({ id: accounts.accountId }).from(accounts).where(sql`lower(${accounts.loginName}) = ${apply.loginName.toLowerCase()}`);
        if (taken.length) throw new AppError(ErrorCode.LoginNameTaken);
        const cust = await this.insert(tx, null, {
          custName: apply.custName, adminName: apply.adminName, adminEmail: apply.adminEmail, adminPhone: apply.adminPhone,
          businessLicense: apply.businessLicense ?? undefined, website: apply.website ?? undefined, remark: apply.remark ?? undefined,
        });
        custId = cust.custId;
        const [acc] = await tx
          .insert(accounts)
          .values({
            loginName: apply.loginName, userName: apply.adminName, roleId: RoleType.Enterprise, custId, rootCustId: custId,
            phone: apply.adminPhone, email: apply.adminEmail, passwordHash: apply.passwordHash,
          })
          .returning();
        await audit(tx, ctx, { entity: 'customer', entityId: custId, after: cust, custId, rootCustId: custId });
        await audit(tx, ctx, { entity: 'account', entityId: acc.accountId, after: acc, custId, rootCustId: custId });
        await behavior(tx, ctx, { action: BehaviorAction.AddAccount, loginName: ctx.actor.loginName, target: acc.loginName, detail: 'registration approved' });
      }
      const [after] = await tx
        .update(registerApplies)
        .set({
          auditStatus: body.pass ? AuditStatus.Passed : AuditStatus.Rejected,
          auditReason: blankToNull(body.reason), auditBy: ctx.actor.loginName, auditAt: new Date(), custId,
        })
        .where(eq(registerApplies.applyId, apply.applyId))
        .returning();
      await audit(tx, ctx, { entity: 'registerApply', entityId: apply.applyId, before: apply, after, custId: null, rootCustId: null });
      return { custId };
    })));
  }

  canSee = canSeeTenant;
}

export { validatePassword };
