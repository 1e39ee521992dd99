import { sql, type SQL } from 'drizzle-orm';
import { businessDayEnd, businessDayStartMs, type BodyOf, type capital as api } from '@lynx/contract';
import type { Db, Executor } from '../../db/client.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { isChannel, isStaff, type Actor } from '../../platform/context.ts';
import { contains, pageOf } from '../../platform/paging.ts';
import { balanceFromRow, balancesOut } from './ledger.ts';

const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

/** The tenant predicate on the customers table aliased `c` (staff all, a first-level customer its tree, a second-level itself). */
export function customerScope(actor: Actor, alias = 'c'): SQL {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  if (isStaff(actor)) return sql`true`;
  if (isChannel(actor)) return actor.rootCustId == null ? sql`false` : sql`${col('root_cust_id')} = ${actor.rootCustId}`;
  return actor.custId == null ? sql`false` : sql`${col('cust_id')} = ${actor.custId}`;
}

/**
 * The customer a money screen is about: the one named (if the actor may see it; NotFound otherwise, whether it
 * exists or not) or, unnamed, the actor's own customer. Staff have no own customer and must name one.
 */
export async function moneyCustomer(ex: Executor, actor: Actor, custId: number | undefined): Promise<{ custId: number; rootCustId: number; custName: string; level: number; paymentModel: number | null }> {
  const id = custId ?? actor.custId;
  if (id == null) throw invalid('custId', { zh: '请选择客户', en: 'choose a customer' });
  const [row] = rowsOf<{ cust_id: number; root_cust_id: number; cust_name: string; level: number; payment_model: number | null }>(
    await ex.execute(sql`select cust_id, root_cust_id, cust_name, level, payment_model from customers c where c.cust_id = ${id} and ${customerScope(actor)}`),
  );
  if (!row) throw notFound();
  return { custId: row.cust_id, rootCustId: row.root_cust_id, custName: row.cust_name, level: row.level, paymentModel: row.payment_model };
}

const BALANCE_COLS = sql.raw(`coalesce(b.pre_deposit, 0)::text as pre_deposit, coalesce(b.grants, 0)::text as grants,
  coalesce(b.contract_payment, 0)::text as contract_payment, coalesce(b.withdraw_hold, 0)::text as withdraw_hold,
  coalesce(b.credit, 0)::text as credit`);

/**
 * Sortable columns of the capital list: each an indexed column of customer_balances (0031_balance_order.sql), so a
 * page is read by walking the index, not by sorting every customer.
 */
const SORTS: Record<string, string> = {
  custName: 'lower(c.cust_name)',
  preDeposit: 'b.pre_deposit',
  grants: 'b.grants',
  contractPayment: 'b.contract_payment',
  credit: 'b.credit',
  withdrawHold: 'b.withdraw_hold',
  available: 'b.available',
  updatedAt: 'b.updated_at',
};

/** Business › Capital: balances per customer and one customer's ledger with running balances. */
export class CapitalService {
  constructor(private db: Db) {}

  async list(q: BodyOf<typeof api.getCapitalListPage>, actor: Actor) {
    const p = pageOf(q);
    // the tenant columns of the balance row (kept equal to the customer's by a trigger) let a tree use its index
    const where: SQL[] = [customerScope(actor, 'b')];
    if (q.custName) where.push(sql`c.cust_name ilike ${contains(q.custName)}`);
    if (q.custId !== undefined) where.push(sql`b.cust_id = ${q.custId}`);
    if (q.level !== undefined) where.push(sql`c.level = ${q.level}`);
    const cond = sql.join(where, sql` and `);
    const dir = q.sortOrder === 'ascend' ? 'asc' : 'desc';
    const order = q.sortField && SORTS[q.sortField] ? sql.raw(`${SORTS[q.sortField]} ${dir}, b.cust_id ${dir}`) : sql.raw('b.cust_id desc');
    const [rows, [{ n }]] = await Promise.all([
      this.db.execute(sql`
        select c.cust_id, c.root_cust_id, c.cust_name, c.level, c.payment_model, c.parent_cust_id, b.updated_at, b.pre_deposit::text,
          b.grants::text, b.contract_payment::text, b.withdraw_hold::text, b.credit::text
        from customer_balances b join customers c on c.cust_id = b.cust_id
        where ${cond}
        order by ${order}
        limit ${p.limit} offset ${p.offset}`).then((r) => rowsOf<Record<string, unknown>>(r)),
      this.db.execute(sql`select count(*) as n from customer_balances b join customers c on c.cust_id = b.cust_id where ${cond}`).then((r) => rowsOf<{ n: string }>(r)),
    ]);
    const parentIds = [...new Set(rows.map((r) => r.parent_cust_id).filter((v): v is number => v != null))];
    const parents = new Map(parentIds.length
      ? rowsOf<{ cust_id: number; cust_name: string }>(await this.db.execute(sql`select cust_id, cust_name from customers
          where cust_id in (${sql.join(parentIds.map((id) => sql`${id}`), sql`, `)})`)).map((r) => [r.cust_id, r.cust_name])
      : []);
    return {
      list: rows.map((r) => ({
        custId: Number(r.cust_id), custName: String(r.cust_name), level: Number(r.level),
        parentCustName: r.parent_cust_id == null ? null : (parents.get(Number(r.parent_cust_id)) ?? null),
        paymentModel: r.payment_model == null ? null : Number(r.payment_model),
        updatedAt: r.updated_at ? new Date(r.updated_at as string).toISOString() : null,
        ...balancesOut(balanceFromRow(r)),
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  async detail(custId: number | undefined, actor: Actor) {
    const c = await moneyCustomer(this.db, actor, custId);
    const [row] = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select c.cust_id, c.root_cust_id, ${BALANCE_COLS}
      from customers c left join customer_balances b on b.cust_id = c.cust_id where c.cust_id = ${c.custId}`));
    return { custId: c.custId, custName: c.custName, level: c.level, paymentModel: c.paymentModel, ...balancesOut(balanceFromRow(row)) };
  }

  /** The home overview's company balances: the signed-in customer's own (null for staff, who have no company). */
  async companyInfo(actor: Actor) {
    if (actor.custId == null) return null;
    const [row] = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select c.cust_id, c.root_cust_id, c.cust_name, c.level, ${BALANCE_COLS}
      from customers c left join customer_balances b on b.cust_id = c.cust_id where c.cust_id = ${actor.custId}`));
    if (!row) return null;
    return { custId: Number(row.cust_id), custName: String(row.cust_name), level: Number(row.level), ...balancesOut(balanceFromRow(row)) };
  }

  /** One customer's postings, newest first, each with its account's balance right after it. */
  async ledger(q: BodyOf<typeof api.getCapitalLedgerPage>, actor: Actor) {
    const c = await moneyCustomer(this.db, actor, q.custId);
    const p = pageOf(q);
    const where: SQL[] = [sql`p.cust_id = ${c.custId}`];
    if (q.account !== undefined) where.push(sql`p.account = ${q.account}`);
    if (q.kind !== undefined) where.push(sql`p.kind = ${q.kind}`);
    if (q.startDate) where.push(sql`p.created_at >= ${new Date(businessDayStartMs(q.startDate)).toISOString()}::timestamptz`);
    if (q.endDate) where.push(sql`p.created_at < ${businessDayEnd(q.endDate).toISOString()}::timestamptz`);
    const cond = sql.join(where, sql` and `);
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`
      select p.posting_id, p.journal_id, j.kind, p.account, p.amount::text as amount, p.balance_after::text as balance_after,
        j.ref_type, j.ref_id, j.memo, j.created_by, p.created_at
      from ledger_postings p join ledger_journals j on j.journal_id = p.journal_id
      where ${cond}
      order by p.posting_id desc
      limit ${p.limit} offset ${p.offset}`));
    // the count is its own query: a window count over a big customer's ledger would read every posting
    // an index-only scan of the customer's index (it carries kind, account and time)
    const [{ n }] = rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from ledger_postings p where ${cond}`));
    return {
      list: rows.map((r) => ({
        postingId: Number(r.posting_id), journalId: Number(r.journal_id), kind: Number(r.kind), account: Number(r.account),
        amount: String(r.amount), balanceAfter: String(r.balance_after), refType: (r.ref_type as string | null) ?? null,
        refId: (r.ref_id as string | null) ?? null, memo: (r.memo as string | null) ?? null, createdBy: (r.created_by as string | null) ?? null,
        createdAt: new Date(r.created_at as string).toISOString(),
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }
}
