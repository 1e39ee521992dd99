import { sql, type SQL } from 'drizzle-orm';
import { BILL_DUE_DAYS, BillRunState, BillSummaryDim, ErrorCode, WebhookEventType, businessDay, type BodyOf, type Lang, type bill as api } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError, denied } from '../../../platform/errors.ts';
import { isStaff, type Actor, type SessionContext } from '../../../platform/context.ts';
import { contains, pageOf } from '../../../platform/paging.ts';
import { dayPlus } from '../../money/credit/credit-service.ts';
import { billColumns, billRowOut, billScope, billStatusSql, iso, loadBill, rowsOf } from './bill-sql.ts';
import { START_LOCK as BILL_RUN_START_LOCK } from '../run/bill-run.ts';
import { enqueueEvent } from '../../delivery/webhook/outbox.ts';

/**
 * Bills (Billing › Bills, docs/billing.md "Bills"): the list with its filters, one bill with its breakdowns, and
 * publishing. The bill run (../run/) writes bills and their lines; this service reads them and moves a bill from
 * finance's draft to the customer.
 */

type Filters = Pick<BodyOf<typeof api.getBillListPage>, 'periodKey' | 'custId' | 'custName' | 'billNo' | 'status' | 'published'>;

/** The where clause of a bill list: the actor's scope and the filters, on bills `b` joined to customers `c`. */
export function billWhere(q: Filters, actor: Actor, today: string): SQL[] {
  const where: SQL[] = [billScope(actor)];
  if (q.periodKey !== undefined) where.push(sql`b.period_key = ${q.periodKey}`);
  if (q.custId !== undefined) where.push(sql`b.cust_id = ${q.custId}`);
  if (q.custName) where.push(sql`c.cust_name ilike ${contains(q.custName)}`);
  if (q.billNo) where.push(sql`b.bill_no ilike ${contains(q.billNo)}`);
  if (q.status !== undefined) where.push(sql`${billStatusSql(today)} = ${q.status}`);
  if (q.published !== undefined) where.push(q.published ? sql`b.published` : sql`not b.published`);
  return where;
}


/** A name a summary's key has none of (card type 0: cards without a type). */
const NONE: Record<Lang, string> = { zh: '无', en: 'None' };

export class BillService {
  constructor(private db: Db) {}

  async list(q: BodyOf<typeof api.getBillListPage>, actor: Actor, now = new Date()) {
    const today = businessDay(now.getTime());
    const p = pageOf(q);
    const cond = sql.join(billWhere(q, actor, today), sql` and `);
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select ${billColumns(today)}, count(*) over() as total_rows
      from bills b join customers c on c.cust_id = b.cust_id where ${cond}
      order by b.period_key desc, b.bill_id desc limit ${p.limit} offset ${p.offset}`));
    let total = rows.length ? Number(rows[0].total_rows) : 0;
    if (!rows.length && p.offset > 0) {
      total = Number(rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from bills b join customers c on c.cust_id = b.cust_id where ${cond}`))[0].n);
    }
    return { list: rows.map(billRowOut), total, current: p.current, pageSize: p.pageSize };
  }

  async detail(billId: number, actor: Actor, lang: Lang, now = new Date()) {
    const bill = await loadBill(this.db, billId, actor, businessDay(now.getTime()));
    const en = lang === 'en';
    const [summaries, writeOffs, fees] = await Promise.all([
      this.db.execute(sql`select s.dim, s.dim_key, s.category, s.cards, s.quantity, s.amount::text as amount, s.tax::text as tax, s.used_bytes,
          case s.dim when ${BillSummaryDim.Plan} then p.name
            when ${BillSummaryDim.Operator} then ${en ? sql`coalesce(nullif(o.name_en, ''), o.name_zh)` : sql`o.name_zh`}
            when ${BillSummaryDim.CardType} then ${en ? sql`coalesce(nullif(t.name_en, ''), t.name_zh)` : sql`t.name_zh`} end as name
        from bill_summaries s
        left join basic_plans p on s.dim = ${BillSummaryDim.Plan} and p.goods_release_id = s.dim_key
        left join operators o on s.dim = ${BillSummaryDim.Operator} and o.operator_id = s.dim_key
        left join card_types t on s.dim = ${BillSummaryDim.CardType} and t.card_type_id = s.dim_key
        where s.bill_id = ${billId} order by s.dim, s.dim_key, s.category`).then((r) => rowsOf<Record<string, unknown>>(r)),
      this.db.execute(sql`select ${WRITE_OFF_COLUMNS} from bill_write_offs w where w.bill_id = ${billId} order by w.created_at, w.write_off_id`)
        .then((r) => rowsOf<Record<string, unknown>>(r)),
      this.db.execute(sql`select fee_id, iccid, amount::text as amount, reason, fee_day::text as fee_day from one_off_fees
        where bill_id = ${billId} order by fee_id`).then((r) => rowsOf<Record<string, unknown>>(r)),
    ]);
    return {
      bill: bill.row,
      summaries: summaries.map((r) => ({
        dim: Number(r.dim), key: Number(r.dim_key), category: Number(r.category), cards: Number(r.cards), quantity: Number(r.quantity),
        amount: String(r.amount), tax: String(r.tax), usedBytes: Number(r.used_bytes),
        name: (r.name as string | null) ?? (Number(r.dim_key) === 0 ? NONE[lang] : `#${r.dim_key}`),
      })),
      writeOffs: writeOffs.map(writeOffOut),
      oneOffFees: fees.map((r) => ({
        feeId: Number(r.fee_id), iccid: (r.iccid as string | null) ?? null, amount: String(r.amount), reason: String(r.reason), feeDay: String(r.fee_day),
      })),
      unbilledOverBytes: bill.unbilledOverBytes,
    };
  }

  /**
   * Publishes a rated bill (staff): the customer sees it from now on and it is due BILL_DUE_DAYS business days later.
   * Only a bill whose newest run has finished: while a run of its period and customer is running it is refused with
   * 20901; a bill never rated, or whose newest run failed (its lines were cleared for it), with 20911. Publishing a published bill changes nothing (the due date stays) and answers it.
   */
  async publish(billId: number, ctx: SessionContext, now = new Date()) {
    const { actor } = ctx;
    if (!isStaff(actor)) throw denied();
    const today = businessDay(now.getTime());
    return this.db.transaction(async (tx) => {
      const seen = await loadBill(tx, billId, actor, today);
      // a run starting now would clear the lines of the period's unpublished bills: publish and start take turns
      await tx.execute(sql`select pg_advisory_xact_lock(${BILL_RUN_START_LOCK}, hashtext(${seen.row.periodKey}))`);
      const before = await loadBill(tx, billId, actor, today, true);
      if (before.row.published) {
        await audit(tx, ctx, { entity: 'bill', entityId: billId, before: { published: 1 }, after: { published: 1, unchanged: true }, custId: before.row.custId, rootCustId: before.rootCustId });
        return before.row;
      }
      // the newest run over this bill (its period, all customers or this one) must have finished
      const [last] = rowsOf<{ state: number }>(await tx.execute(sql`select r.state from bill_runs r where r.period_key = ${before.row.periodKey}
        and (r.cust_id is null or r.cust_id = ${before.row.custId}) order by r.run_id desc limit 1`));
      if (last && Number(last.state) === BillRunState.Running) throw new AppError(ErrorCode.BillRunRunning, { period: before.row.periodKey });
      if (!before.row.ratedAt || (last && Number(last.state) !== BillRunState.Done)) throw new AppError(ErrorCode.BillNotRated);
      const dueDate = dayPlus(today, BILL_DUE_DAYS);
      await tx.execute(sql`update bills set published = true, published_at = ${now.toISOString()}::timestamptz, published_by = ${actor.loginName},
        due_date = ${dueDate}::date, updated_at = now() where bill_id = ${billId}`);
      const after = await loadBill(tx, billId, actor, today);
      await audit(tx, ctx, {
        entity: 'bill', entityId: billId, custId: after.row.custId, rootCustId: after.rootCustId,
        before: { published: 0, status: before.row.status }, after: { published: 1, dueDate, status: after.row.status, amountDue: after.row.amountDue },
      });
      // the customer's system hears of it if it subscribes (docs/webhooks.md): in this transaction, so only a publication
      // that commits is sent, by hand or by the automated ledger (which publishes through here)
      await enqueueEvent(tx, {
        custId: after.row.custId, type: WebhookEventType.BillPublished, at: now,
        payload: {
          billId: after.row.billId, billNo: after.row.billNo, custId: after.row.custId, periodKey: after.row.periodKey,
          amountDue: after.row.amountDue, currency: 'CNY', publishedAt: now.toISOString(),
        },
      });
      return after.row;
    });
  }
}

export const WRITE_OFF_COLUMNS = sql.raw(`w.write_off_id, w.bill_id, w.amount::text as amount, w.from_grants::text as from_grants,
  w.from_pre_deposit::text as from_pre_deposit, w.overdue, w.journal_id, w.remark, w.source, w.created_by, w.created_at`);

/** The contract's BillWriteOffRow of a bill_write_offs row (WRITE_OFF_COLUMNS). */
export function writeOffOut(r: Record<string, unknown>) {
  return {
    writeOffId: Number(r.write_off_id), billId: Number(r.bill_id), amount: String(r.amount), fromGrants: String(r.from_grants),
    fromPreDeposit: String(r.from_pre_deposit), overdue: Boolean(r.overdue), journalId: Number(r.journal_id),
    remark: (r.remark as string | null) ?? null, source: Number(r.source), createdBy: String(r.created_by), createdAt: iso(r.created_at)!,
  };
}
