import { sql, type SQL } from 'drizzle-orm';
import { ErrorCode, OneOffFeeState, businessDay, fenToMoney, formatMoney, moneyToFen, type BodyOf, type bill as api } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError, denied, invalid, notFound } from '../../../platform/errors.ts';
import { isStaff, type Actor, type SessionContext } from '../../../platform/context.ts';
import { pageOf } from '../../../platform/paging.ts';
import { customerScope, moneyCustomer } from '../../money/capital-service.ts';
import { likePrefixPattern } from '../../card/list/iccid-prefix.ts';
import { isDay, iso, rowsOf } from './bill-sql.ts';

/**
 * One-off fees (Shortcuts › One-off fees, 6090000): staff put a fee on a customer or one of its cards; the customer's
 * next bill run charges it (category 7) and marks it billed. Customers read their own (a first-level customer its
 * tree's); only staff add and cancel.
 */

/** The largest amount a fee column holds (numeric(14, 2)). */
const AMOUNT_MAX_FEN = 99_999_999_999_999n;

const COLUMNS = sql.raw(`f.fee_id, f.cust_id, f.root_cust_id, c.cust_name, f.iccid, f.amount::text as amount, f.tax_rate::text as tax_rate,
  f.reason, f.fee_day::text as fee_day, f.state, f.bill_id, b.bill_no, f.created_by, f.created_at`);
const FROM = sql.raw(`one_off_fees f join customers c on c.cust_id = f.cust_id left join bills b on b.bill_id = f.bill_id`);

function feeOut(r: Record<string, unknown>) {
  return {
    feeId: Number(r.fee_id), custId: Number(r.cust_id), custName: String(r.cust_name), iccid: (r.iccid as string | null) ?? null,
    amount: String(r.amount), taxRate: Number(r.tax_rate), reason: String(r.reason), feeDay: String(r.fee_day), state: Number(r.state),
    billId: r.bill_id == null ? null : Number(r.bill_id), billNo: (r.bill_no as string | null) ?? null,
    createdBy: String(r.created_by), createdAt: iso(r.created_at)!,
  };
}

export class OneOffFeeService {
  constructor(private db: Db) {}

  private async one(ex: Executor, feeId: number, actor: Actor, lock = false) {
    const [r] = rowsOf<Record<string, unknown>>(await ex.execute(sql`select ${COLUMNS} from ${FROM}
      where f.fee_id = ${feeId} and ${customerScope(actor, 'f')}${lock ? sql` for update of f` : sql``}`));
    if (!r) throw notFound();
    return { ...feeOut(r), rootCustId: Number(r.root_cust_id) };
  }

  async list(q: BodyOf<typeof api.getOneOffFeeListPage>, actor: Actor) {
    const p = pageOf(q);
    const where: SQL[] = [customerScope(actor, 'f')];
    if (q.custId !== undefined) where.push(sql`f.cust_id = ${q.custId}`);
    if (q.iccid) where.push(sql`f.iccid like ${likePrefixPattern(q.iccid)}`);
    if (q.state !== undefined) where.push(sql`f.state = ${q.state}`);
    const cond = sql.join(where, sql` and `);
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select ${COLUMNS}, count(*) over() as total_rows from ${FROM}
      where ${cond} order by f.fee_id desc limit ${p.limit} offset ${p.offset}`));
    let total = rows.length ? Number(rows[0].total_rows) : 0;
    if (!rows.length && p.offset > 0) total = Number(rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from one_off_fees f where ${cond}`))[0].n);
    return { list: rows.map(feeOut), total, current: p.current, pageSize: p.pageSize };
  }

  /** A fee on a customer (or one of its own cards: 20910 otherwise), charged for `feeDay` (today by default). */
  async add(b: BodyOf<typeof api.addOneOffFee>, ctx: SessionContext, now = new Date()) {
    const { actor } = ctx;
    if (!isStaff(actor)) throw denied();
    const fen = moneyToFen(b.amount);
    if (fen == null || fen <= 0n || fen > AMOUNT_MAX_FEN) throw new AppError(ErrorCode.MoneyAmountInvalid, { max: formatMoney(fenToMoney(AMOUNT_MAX_FEN)) });
    const feeDay = b.feeDay ?? businessDay(now.getTime());
    if (!isDay(feeDay)) throw invalid('feeDay', { zh: '请选择有效日期', en: 'is not a calendar day' });
    const reason = b.reason.trim();
    if (!reason) throw invalid('reason', { zh: '请填写原因', en: 'enter a reason' });
    const out = await this.db.transaction(async (tx) => {
      const cust = await moneyCustomer(tx, actor, b.custId);
      const iccid = b.iccid ?? null;
      if (iccid != null) {
        const [card] = rowsOf<{ cust_id: number | null }>(await tx.execute(sql`select cust_id from cards where iccid = ${iccid}`));
        if (!card || card.cust_id !== cust.custId) throw new AppError(ErrorCode.OneOffFeeCardNotOwned, { iccid });
      }
      const [{ fee_id: feeId }] = rowsOf<{ fee_id: string }>(await tx.execute(sql`insert into one_off_fees
          (cust_id, root_cust_id, iccid, amount, reason, fee_day, state, created_by, created_at)
        values (${cust.custId}, ${cust.rootCustId}, ${iccid}, ${fenToMoney(fen)}::numeric, ${reason}, ${feeDay}::date, ${OneOffFeeState.Pending},
          ${actor.loginName}, ${now.toISOString()}::timestamptz)
        returning fee_id`));
      const fee = await this.one(tx, Number(feeId), actor);
      await audit(tx, ctx, { entity: 'oneOffFee', entityId: fee.feeId, after: { ...fee, rootCustId: undefined }, custId: fee.custId, rootCustId: fee.rootCustId });
      return fee;
    });
    const { rootCustId: _r, ...row } = out;
    return row;
  }

  /** Cancels a fee no bill has charged yet (20909 for a billed or cancelled one). */
  async cancel(feeId: number, ctx: SessionContext) {
    const { actor } = ctx;
    if (!isStaff(actor)) throw denied();
    const out = await this.db.transaction(async (tx) => {
      const before = await this.one(tx, feeId, actor, true);
      if (before.state !== OneOffFeeState.Pending) throw new AppError(ErrorCode.OneOffFeeBilled);
      await tx.execute(sql`update one_off_fees set state = ${OneOffFeeState.Cancelled}, cancelled_by = ${actor.loginName}, cancelled_at = now()
        where fee_id = ${feeId}`);
      const after = await this.one(tx, feeId, actor);
      await audit(tx, ctx, { entity: 'oneOffFee', entityId: feeId, before: { state: before.state }, after: { state: after.state }, custId: after.custId, rootCustId: after.rootCustId });
      return after;
    });
    const { rootCustId: _r, ...row } = out;
    return row;
  }
}
