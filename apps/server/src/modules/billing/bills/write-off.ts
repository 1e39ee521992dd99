import { sql, type SQL } from 'drizzle-orm';
import {
  BillStatus, ErrorCode, JournalKind, LedgerAccount, businessDay, fenToMoney, formatMoney, moneyToFen, type BodyOf, type bill as api,
} from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError } from '../../../platform/errors.ts';
import type { Actor, SessionContext } from '../../../platform/context.ts';
import { contains, pageOf } from '../../../platform/paging.ts';
import { lockBalances, postJournal, type PostingLine } from '../../money/ledger.ts';
import { billColumns, billRowOut, billScope, billStatusSql, loadBill, rowsOf } from './bill-sql.ts';
import { WRITE_OFF_COLUMNS, writeOffOut } from './bill-service.ts';

/** bill_write_offs.source: who wrote a bill off */
export const WriteOffSource = { Person: 1, Rule: 2 } as const;
export type WriteOffSource = (typeof WriteOffSource)[keyof typeof WriteOffSource];

/**
 * Financial › Write-off (spec §5, docs/decisions.md "Issue 14: bills"): a published bill is paid from its customer's
 * grants first, then pre-deposit (credit is not used: a write-off settles a debt, it does not open a new one). One
 * WriteOff journal per write-off, crediting the platform's revenue.
 */

const s = (n: number) => sql.raw(String(n));
/** The write-off screen's tabs as bill statuses. */
const TAB_STATUSES: Record<number, number[]> = {
  [1]: [BillStatus.ToWriteOff],
  [2]: [BillStatus.WrittenOff, BillStatus.OverdueWrittenOff],
  [3]: [BillStatus.OverdueNotWrittenOff],
};

/** What a customer can write off with: pre-deposit above zero plus grants, fen. */
export const payableFen = (b: { preDeposit: bigint; grants: bigint }) => (b.preDeposit > 0n ? b.preDeposit : 0n) + b.grants;

/** How a write-off of `fen` is taken: grants first, the rest from pre-deposit. */
export function splitWriteOff(fen: bigint, grants: bigint): { fromGrants: bigint; fromPreDeposit: bigint } {
  const fromGrants = grants <= 0n ? 0n : fen < grants ? fen : grants;
  return { fromGrants, fromPreDeposit: fen - fromGrants };
}

export class WriteOffService {
  constructor(private db: Db) {}

  /** Published bills by tab (1 to write off, 2 written off, 3 overdue), each with what its customer can pay now. */
  async list(q: BodyOf<typeof api.getWriteOffListPage>, actor: Actor, now = new Date()) {
    const today = businessDay(now.getTime());
    const p = pageOf(q);
    const statuses = TAB_STATUSES[q.tab] ?? [];
    const where: SQL[] = [billScope(actor), sql`b.published`, sql`${billStatusSql(today)} in (${sql.join(statuses.map(s), sql`, `)})`];
    if (q.periodKey !== undefined) where.push(sql`b.period_key = ${q.periodKey}`);
    if (q.custId !== undefined) where.push(sql`b.cust_id = ${q.custId}`);
    if (q.custName) where.push(sql`c.cust_name ilike ${contains(q.custName)}`);
    const cond = sql.join(where, sql` and `);
    // overdue and to-write-off bills by due date (the most urgent first); written-off ones by when they were paid
    const order = q.tab === 2 ? sql`b.written_off_at desc, b.bill_id desc` : sql`b.due_date, b.bill_id`;
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select ${billColumns(today)},
        (greatest(coalesce(cb.pre_deposit, 0), 0) + coalesce(cb.grants, 0))::numeric(16, 2)::text as payable, count(*) over() as total_rows
      from bills b join customers c on c.cust_id = b.cust_id left join customer_balances cb on cb.cust_id = b.cust_id
      where ${cond} order by ${order} limit ${p.limit} offset ${p.offset}`));
    let total = rows.length ? Number(rows[0].total_rows) : 0;
    if (!rows.length && p.offset > 0) {
      total = Number(rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from bills b join customers c on c.cust_id = b.cust_id where ${cond}`))[0].n);
    }
    return { list: rows.map((r) => ({ ...billRowOut(r), payable: String(r.payable) })), total, current: p.current, pageSize: p.pageSize };
  }

  /**
   * Writes off part or all of what a bill still owes (`source`: a person, or an automated-ledger rule). Refused, changing nothing: unpublished (20903), nothing left
   * (20907), 0 (20904), above what is due (20905 with it), above pre-deposit (its part above zero) + grants (20906
   * with that). The customer's balance row is locked before the bill row (the order postJournal and the credit job
   * use), so two write-offs of one bill run one after the other and the second sees what the first left.
   */
  async writeOff(b: BodyOf<typeof api.writeOffBill>, ctx: SessionContext, now = new Date(), source: WriteOffSource = WriteOffSource.Person) {
    const { actor } = ctx;
    const today = businessDay(now.getTime());
    return this.db.transaction(async (tx) => {
      const seen = await loadBill(tx, b.billId, actor, today);
      const balances = await lockBalances(tx, seen.row.custId);
      const bill = await loadBill(tx, b.billId, actor, today, true);
      if (!bill.row.published) throw new AppError(ErrorCode.BillNotPublished);
      const due = (moneyToFen(bill.row.amountDue) ?? 0n) - (moneyToFen(bill.row.writtenOff) ?? 0n);
      if (due <= 0n) throw new AppError(ErrorCode.BillNothingDue);
      const fen = moneyToFen(b.amount);
      if (fen == null || fen <= 0n) throw new AppError(ErrorCode.WriteOffZero);
      if (fen > due) throw new AppError(ErrorCode.WriteOffAboveDue, { due: formatMoney(fenToMoney(due)) });
      const payable = payableFen(balances);
      if (fen > payable) throw new AppError(ErrorCode.WriteOffAboveBalance, { payable: formatMoney(fenToMoney(payable)) });

      const { fromGrants, fromPreDeposit } = splitWriteOff(fen, balances.grants);
      const lines: PostingLine[] = [];
      if (fromGrants > 0n) lines.push({ account: LedgerAccount.Grants, fen: -fromGrants });
      if (fromPreDeposit > 0n) lines.push({ account: LedgerAccount.PreDeposit, fen: -fromPreDeposit });
      lines.push({ account: LedgerAccount.Revenue, fen });
      const posted = await postJournal(tx, {
        kind: JournalKind.WriteOff, custId: bill.row.custId, lines, refType: 'bill', refId: bill.row.billId,
        memo: `${bill.row.billNo} ${bill.row.periodKey}`, by: { accountId: actor.accountId, loginName: actor.loginName },
      });
      const overdue = bill.row.dueDate != null && today > bill.row.dueDate;
      const remark = b.remark?.trim() || null;
      const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`insert into bill_write_offs as w
          (bill_id, cust_id, root_cust_id, amount, from_grants, from_pre_deposit, overdue, journal_id, remark, source, created_by, created_at)
        values (${bill.row.billId}, ${bill.row.custId}, ${bill.rootCustId}, ${fenToMoney(fen)}::numeric, ${fenToMoney(fromGrants)}::numeric,
          ${fenToMoney(fromPreDeposit)}::numeric, ${overdue}, ${posted.journalId}, ${remark}, ${source}, ${actor.loginName}, ${now.toISOString()}::timestamptz)
        returning ${WRITE_OFF_COLUMNS}`));
      await tx.execute(sql`update bills set written_off = written_off + ${fenToMoney(fen)}::numeric, written_off_at = ${now.toISOString()}::timestamptz,
        updated_at = now() where bill_id = ${bill.row.billId}`);
      const after = await loadBill(tx, b.billId, actor, today);
      const writeOff = writeOffOut(row);
      await audit(tx, ctx, {
        entity: 'bill', entityId: bill.row.billId, custId: bill.row.custId, rootCustId: bill.rootCustId,
        before: { status: bill.row.status, writtenOff: bill.row.writtenOff, arrears: bill.row.arrears },
        after: { status: after.row.status, writtenOff: after.row.writtenOff, arrears: after.row.arrears, writeOff },
      });
      return { bill: after.row, writeOff };
    });
  }
}
