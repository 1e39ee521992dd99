import { sql, type SQL } from 'drizzle-orm';
import {
  CREDIT_AMOUNT_MAX, CREDIT_PROVISIONAL_DAYS_MAX, CREDIT_RANGE_BOUNDS, CREDIT_TERM_MAX, CreditChangeAction, CreditStatus,
  CreditType, ErrorCode, businessToday, fenToMoney, formatMoney, moneyToFen, type BodyOf, type CreditRange, type credit as api,
} from '@lynx/contract';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError, invalid, notFound } from '../../../platform/errors.ts';
import { isStaff, type Actor, type SessionContext } from '../../../platform/context.ts';
import { contains, pageOf } from '../../../platform/paging.ts';
import { customerScope, moneyCustomer } from '../capital-service.ts';
import { lockBalances, setCredit } from '../ledger.ts';

/**
 * Credit orders (Financial › Credit, docs/decisions.md "Credit orders"). customer_balances.credit is the sum of a
 * customer's valid orders: rewritten here, through setCredit, in the same transaction as every change of an order,
 * and by the nightly expiry job (refreshCredits) when a provisional credit passes its last day.
 */

const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

/** A business day (YYYY-MM-DD) plus n days, on the calendar (no time zone involved). */
export function dayPlus(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** The SQL status of an order (alias o) on a business day: reset, expired after its last day, else valid. */
const statusSql = (today: string) => sql`(case when o.reset_at is not null then ${sql.raw(String(CreditStatus.Reset))}
  when o.valid_to is not null and o.valid_to < ${today}::date then ${sql.raw(String(CreditStatus.Expired))} else ${sql.raw(String(CreditStatus.Valid))} end)`;
/** The orders (alias o) that count on a business day. */
const validSql = (today: string) => sql`o.reset_at is null and o.valid_from <= ${today}::date and (o.valid_to is null or o.valid_to >= ${today}::date)`;

/** The sum of a customer's valid credit orders on a business day, in fen. */
export async function validCreditFen(ex: Executor, custId: number, today: string = businessToday()): Promise<bigint> {
  const [row] = rowsOf<{ total: string }>(await ex.execute(sql`select coalesce(sum(o.amount), 0)::text as total from credit_orders o
    where o.cust_id = ${custId} and ${validSql(today)}`));
  return moneyToFen(row.total) ?? 0n;
}

const COLUMNS = (today: string) => sql`o.credit_id, o.credit_no, o.cust_id, o.root_cust_id, c.cust_name, o.credit_type, o.amount::text as amount,
  o.payment_term, o.payment_unit, o.valid_from::text as valid_from, o.valid_to::text as valid_to, o.remark, o.reset_at, o.reset_by, o.reset_reason,
  o.created_by, o.created_at, o.updated_at, ${statusSql(today)} as status`;

const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());

function rowOut(r: Record<string, unknown>) {
  return {
    creditId: Number(r.credit_id), creditNo: String(r.credit_no), custId: Number(r.cust_id), custName: String(r.cust_name),
    creditType: Number(r.credit_type), status: Number(r.status), amount: String(r.amount), paymentTerm: Number(r.payment_term),
    paymentUnit: Number(r.payment_unit), validFrom: String(r.valid_from), validTo: (r.valid_to as string | null) ?? null,
    remark: (r.remark as string | null) ?? null, resetAt: iso(r.reset_at), resetBy: (r.reset_by as string | null) ?? null,
    resetReason: (r.reset_reason as string | null) ?? null, createdBy: String(r.created_by), createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)!,
  };
}
type CreditOut = ReturnType<typeof rowOut> & { rootCustId: number };

/** What a change-log row keeps of an order. */
const snapshot = (o: CreditOut) => ({
  creditType: o.creditType, amount: o.amount, paymentTerm: o.paymentTerm, paymentUnit: o.paymentUnit,
  validFrom: o.validFrom, validTo: o.validTo, remark: o.remark, status: o.status,
});

type Terms = Pick<BodyOf<typeof api.saveCredit>, 'creditType' | 'amount' | 'paymentTerm' | 'paymentUnit' | 'validTo' | 'remark'>;

/** Checks the terms a finance person entered; the values to store. */
function checkTerms(b: Terms, today: string) {
  const fen = moneyToFen(b.amount);
  if (fen == null || fen <= 0n || fen > BigInt(CREDIT_AMOUNT_MAX) * 100n) {
    throw new AppError(ErrorCode.MoneyAmountInvalid, { max: formatMoney(fenToMoney(BigInt(CREDIT_AMOUNT_MAX) * 100n)) });
  }
  const maxTerm = CREDIT_TERM_MAX[b.paymentUnit as keyof typeof CREDIT_TERM_MAX];
  if (!maxTerm || b.paymentTerm < 1 || b.paymentTerm > maxTerm) {
    throw new AppError(ErrorCode.CreditTermInvalid, { maxDays: CREDIT_TERM_MAX[1], maxMonths: CREDIT_TERM_MAX[2] });
  }
  if (!CreditType.has(b.creditType)) throw invalid('creditType', { zh: '请选择授信类型', en: 'choose the kind of credit' });
  let validTo: string | null = null;
  if (b.creditType === CreditType.Provisional) {
    const max = dayPlus(today, CREDIT_PROVISIONAL_DAYS_MAX - 1);
    // a real calendar day between today and the longest validity
    if (!b.validTo || dayPlus(b.validTo, 0) !== b.validTo || b.validTo < today || b.validTo > max) {
      throw new AppError(ErrorCode.CreditValidToInvalid, { today, max });
    }
    validTo = b.validTo;
  }
  const remark = b.remark?.trim() || null;
  return { amount: fenToMoney(fen), fen, validTo, remark };
}

const reasonOf = (reason: string) => {
  const r = reason.trim();
  if (!r) throw invalid('reason', { zh: '请填写原因', en: 'enter a reason' });
  return r;
};

export class CreditService {
  constructor(private db: Db) {}

  /** Only staff grant and change credit: a customer crediting itself is 20802, its sub-customers 20870. */
  private staffOnly(actor: Actor, custId: number) {
    if (isStaff(actor)) return;
    if (custId === actor.custId) throw new AppError(ErrorCode.MoneySelfReview);
    throw new AppError(ErrorCode.CreditStaffOnly);
  }

  private async one(ex: Executor, creditId: number, actor: Actor, today: string, lock = false): Promise<CreditOut> {
    const [r] = rowsOf<Record<string, unknown>>(await ex.execute(sql`select ${COLUMNS(today)} from credit_orders o
      join customers c on c.cust_id = o.cust_id where o.credit_id = ${creditId} and ${customerScope(actor)}${lock ? sql` for update of o` : sql``}`));
    if (!r) throw notFound();
    return { ...rowOut(r), rootCustId: Number(r.root_cust_id) };
  }

  /**
   * An order to change, locked after its customer's balance row: the same order of locks as postJournal and the
   * expiry job (balance, then orders), so two of them never wait on each other in a circle.
   */
  private async lockOrder(tx: Tx, creditId: number, actor: Actor, today: string): Promise<CreditOut> {
    const seen = await this.one(tx, creditId, actor, today);
    await lockBalances(tx, seen.custId);
    return this.one(tx, creditId, actor, today, true);
  }

  async list(q: BodyOf<typeof api.getCreditListPage>, actor: Actor, today: string = businessToday()) {
    const p = pageOf(q);
    const where: SQL[] = [customerScope(actor)];
    if (q.custId !== undefined) where.push(sql`o.cust_id = ${q.custId}`);
    if (q.custName) where.push(sql`c.cust_name ilike ${contains(q.custName)}`);
    if (q.creditNo) where.push(sql`o.credit_no ilike ${contains(q.creditNo)}`);
    if (q.creditType !== undefined) where.push(sql`o.credit_type = ${q.creditType}`);
    if (q.status !== undefined) where.push(sql`${statusSql(today)} = ${q.status}`);
    if (q.range !== undefined) {
      const [from, to] = CREDIT_RANGE_BOUNDS[q.range as CreditRange] ?? [null, null];
      if (from != null) where.push(sql`o.amount >= ${from}`);
      if (to != null) where.push(sql`o.amount < ${to}`);
    }
    const cond = sql.join(where, sql` and `);
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select ${COLUMNS(today)} from credit_orders o
      join customers c on c.cust_id = o.cust_id where ${cond} order by o.credit_id desc limit ${p.limit} offset ${p.offset}`));
    const [{ n }] = rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from credit_orders o
      join customers c on c.cust_id = o.cust_id where ${cond}`));
    return { list: rows.map(rowOut), total: Number(n), current: p.current, pageSize: p.pageSize };
  }

  async detail(creditId: number, actor: Actor) {
    const { rootCustId: _r, ...out } = await this.one(this.db, creditId, actor, businessToday());
    return out;
  }

  async changeLog(q: BodyOf<typeof api.getCreditChangeLog>, actor: Actor) {
    await this.one(this.db, q.creditId, actor, businessToday());
    const p = pageOf(q);
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select change_id, credit_id, action, before, after, reason, created_by, created_at,
      count(*) over() as total from credit_changes where credit_id = ${q.creditId} order by change_id desc limit ${p.limit} offset ${p.offset}`));
    let total = rows.length ? Number(rows[0].total) : 0;
    if (!rows.length && p.offset > 0) {
      total = Number(rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from credit_changes where credit_id = ${q.creditId}`))[0].n);
    }
    return {
      list: rows.map((r) => ({
        changeId: Number(r.change_id), creditId: Number(r.credit_id), action: Number(r.action),
        before: (r.before as Record<string, unknown> | null) ?? null, after: (r.after as Record<string, unknown> | null) ?? null,
        reason: (r.reason as string | null) ?? null, createdBy: String(r.created_by), createdAt: iso(r.created_at)!,
      })),
      total, current: p.current, pageSize: p.pageSize,
    };
  }

  /**
   * Rewrites a customer's credit projection from its orders, under the balance row's lock. A change that lowers the
   * valid credit below what the customer is already using (a pre-deposit below minus the new credit) is refused.
   * `validBefore` is the valid credit of the orders before this change (read under the same lock): the change is
   * judged against it, not against the projection, which still counts an order expired since the expiry job last ran
   * (a new order or a raise must not be refused because another order expired). null: the change cannot lower it.
   */
  private async project(tx: Tx, custId: number, today: string, validBefore: bigint | null) {
    const b = await lockBalances(tx, custId);
    const after = await validCreditFen(tx, custId, today);
    if (validBefore != null && after < validBefore && b.preDeposit < -after) {
      throw new AppError(ErrorCode.CreditBelowUsed, { used: formatMoney(fenToMoney(-b.preDeposit)), after: formatMoney(fenToMoney(after)) });
    }
    if (after !== b.credit) await setCredit(tx, custId, after);
  }

  private async log(tx: Tx, o: CreditOut, action: number, before: unknown, after: unknown, reason: string | null, by: { accountId: number | null; loginName: string }) {
    await tx.execute(sql`insert into credit_changes (credit_id, cust_id, root_cust_id, action, before, after, reason, account_id, created_by)
      values (${o.creditId}, ${o.custId}, ${o.rootCustId}, ${action}, ${before == null ? null : JSON.stringify(before)}::jsonb,
        ${after == null ? null : JSON.stringify(after)}::jsonb, ${reason}, ${by.accountId}, ${by.loginName})`);
  }

  async save(b: BodyOf<typeof api.saveCredit>, ctx: SessionContext, today: string = businessToday()) {
    const { actor } = ctx;
    const out = await this.db.transaction(async (tx) => {
      const cust = await moneyCustomer(tx, actor, b.custId);
      this.staffOnly(actor, cust.custId);
      const t = checkTerms(b, today);
      const [{ id }] = rowsOf<{ id: number }>(await tx.execute(sql`select nextval(pg_get_serial_sequence('credit_orders', 'credit_id'))::int as id`));
      const creditNo = `CR${today.replace(/-/g, '')}${String(id).padStart(6, '0')}`;
      await tx.execute(sql`insert into credit_orders (credit_id, credit_no, cust_id, root_cust_id, credit_type, amount, payment_term, payment_unit,
          valid_from, valid_to, remark, account_id, created_by)
        values (${id}, ${creditNo}, ${cust.custId}, ${cust.rootCustId}, ${b.creditType}, ${t.amount}::numeric, ${b.paymentTerm}, ${b.paymentUnit},
          ${today}::date, ${t.validTo}::date, ${t.remark}, ${actor.accountId}, ${actor.loginName})`);
      const o = await this.one(tx, id, actor, today);
      // a new order only adds credit
      await this.project(tx, cust.custId, today, null);
      await this.log(tx, o, CreditChangeAction.Create, null, snapshot(o), t.remark, actor);
      await audit(tx, ctx, { entity: 'creditOrder', entityId: id, after: snapshot(o), custId: o.custId, rootCustId: o.rootCustId });
      return o;
    });
    const { rootCustId: _r, ...row } = out;
    return row;
  }

  async update(b: BodyOf<typeof api.updateCredit>, ctx: SessionContext, today: string = businessToday()) {
    const { actor } = ctx;
    const out = await this.db.transaction(async (tx) => {
      const before = await this.lockOrder(tx, b.creditId, actor, today);
      this.staffOnly(actor, before.custId);
      if (before.status !== CreditStatus.Valid) throw new AppError(ErrorCode.CreditClosed, { state: CreditStatus.label(before.status, ctx.lang) });
      const t = checkTerms(b, today);
      const reason = reasonOf(b.reason);
      const validBefore = await validCreditFen(tx, before.custId, today);
      await tx.execute(sql`update credit_orders set credit_type = ${b.creditType}, amount = ${t.amount}::numeric, payment_term = ${b.paymentTerm},
        payment_unit = ${b.paymentUnit}, valid_to = ${t.validTo}::date, remark = ${b.remark === undefined ? before.remark : t.remark}, updated_at = now()
        where credit_id = ${before.creditId}`);
      const after = await this.one(tx, before.creditId, actor, today);
      await this.project(tx, before.custId, today, validBefore);
      await this.log(tx, after, CreditChangeAction.Edit, snapshot(before), snapshot(after), reason, actor);
      await audit(tx, ctx, { entity: 'creditOrder', entityId: before.creditId, before: snapshot(before), after: { ...snapshot(after), reason }, custId: before.custId, rootCustId: before.rootCustId });
      return after;
    });
    const { rootCustId: _r, ...row } = out;
    return row;
  }

  /** Ends an order now: its amount no longer counts. */
  async reset(b: BodyOf<typeof api.resetCredit>, ctx: SessionContext, today: string = businessToday()) {
    const { actor } = ctx;
    const out = await this.db.transaction(async (tx) => {
      const before = await this.lockOrder(tx, b.creditId, actor, today);
      this.staffOnly(actor, before.custId);
      if (before.status !== CreditStatus.Valid) throw new AppError(ErrorCode.CreditClosed, { state: CreditStatus.label(before.status, ctx.lang) });
      const reason = reasonOf(b.reason);
      const validBefore = await validCreditFen(tx, before.custId, today);
      await tx.execute(sql`update credit_orders set reset_at = now(), reset_by = ${actor.loginName}, reset_reason = ${reason}, updated_at = now()
        where credit_id = ${before.creditId}`);
      const after = await this.one(tx, before.creditId, actor, today);
      await this.project(tx, before.custId, today, validBefore);
      await this.log(tx, after, CreditChangeAction.Reset, snapshot(before), snapshot(after), reason, actor);
      await audit(tx, ctx, { entity: 'creditOrder', entityId: before.creditId, before: snapshot(before), after: { ...snapshot(after), reason }, custId: before.custId, rootCustId: before.rootCustId });
      return after;
    });
    const { rootCustId: _r, ...row } = out;
    return row;
  }
}

/**
 * The expiry job (00:00 in the business zone and every hour after): provisional orders past their last day get their
 * change-log row ("expired", by system) once, and every customer whose projection differs from its valid orders
 * is rewritten. An expiry is never refused, even when the customer is using more than its remaining credit: its
 * pre-deposit then stays below minus its credit and further spending is refused until it tops up.
 */
export async function refreshCredits(db: Db, today: string = businessToday()): Promise<{ expired: number; customers: number }> {
  const due = rowsOf<{ cust_id: number }>(await db.execute(sql`
    select distinct o.cust_id from credit_orders o where o.reset_at is null and o.expired_at is null and o.valid_to < ${today}::date
    union
    select b.cust_id from customer_balances b where b.credit <> (select coalesce(sum(o.amount), 0) from credit_orders o where o.cust_id = b.cust_id and ${validSql(today)})`));
  let expired = 0;
  for (const { cust_id: custId } of due) {
    await db.transaction(async (tx) => {
      const b = await lockBalances(tx, custId);
      const ended = rowsOf<Record<string, unknown>>(await tx.execute(sql`update credit_orders o set expired_at = now()
        where o.cust_id = ${custId} and o.reset_at is null and o.expired_at is null and o.valid_to < ${today}::date
        returning o.credit_id, o.cust_id, o.root_cust_id, o.credit_type, o.amount::text as amount, o.payment_term, o.payment_unit,
          o.valid_from::text as valid_from, o.valid_to::text as valid_to, o.remark`));
      for (const r of ended) {
        const snap = {
          creditType: Number(r.credit_type), amount: String(r.amount), paymentTerm: Number(r.payment_term), paymentUnit: Number(r.payment_unit),
          validFrom: String(r.valid_from), validTo: (r.valid_to as string | null) ?? null, remark: (r.remark as string | null) ?? null,
        };
        await tx.execute(sql`insert into credit_changes (credit_id, cust_id, root_cust_id, action, before, after, reason, account_id, created_by)
          values (${Number(r.credit_id)}, ${custId}, ${Number(r.root_cust_id)}, ${CreditChangeAction.Expire},
            ${JSON.stringify({ ...snap, status: CreditStatus.Valid })}::jsonb, ${JSON.stringify({ ...snap, status: CreditStatus.Expired })}::jsonb,
            null, null, 'system')`);
        expired++;
      }
      const after = await validCreditFen(tx, custId, today);
      if (after !== b.credit) await setCredit(tx, custId, after);
    });
  }
  return { expired, customers: due.length };
}

/** A fixed credit order granted by the system (the demo seed): the order, its change-log row and the projection. */
export async function grantFixedCredit(tx: Tx, cust: { custId: number; rootCustId: number }, amountFen: bigint, remark: string, today: string = businessToday()) {
  const [{ id }] = rowsOf<{ id: number }>(await tx.execute(sql`select nextval(pg_get_serial_sequence('credit_orders', 'credit_id'))::int as id`));
  const creditNo = `CR${today.replace(/-/g, '')}${String(id).padStart(6, '0')}`;
  const amount = fenToMoney(amountFen);
  await tx.execute(sql`insert into credit_orders (credit_id, credit_no, cust_id, root_cust_id, credit_type, amount, payment_term, payment_unit,
      valid_from, valid_to, remark, created_by)
    values (${id}, ${creditNo}, ${cust.custId}, ${cust.rootCustId}, ${CreditType.Fixed}, ${amount}::numeric, 1, 2, ${today}::date, null, ${remark}, 'system')`);
  const snap = { creditType: CreditType.Fixed, amount, paymentTerm: 1, paymentUnit: 2, validFrom: today, validTo: null, remark, status: CreditStatus.Valid };
  await tx.execute(sql`insert into credit_changes (credit_id, cust_id, root_cust_id, action, before, after, reason, created_by)
    values (${id}, ${cust.custId}, ${cust.rootCustId}, ${CreditChangeAction.Create}, null, ${JSON.stringify(snap)}::jsonb, ${remark}, 'system')`);
  // the sum is read under the balance row's lock (setCredit's argument would otherwise be read before it)
  await lockBalances(tx, cust.custId);
  await setCredit(tx, cust.custId, await validCreditFen(tx, cust.custId, today));
  return id;
}
