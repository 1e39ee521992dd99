import { sql, type SQL } from 'drizzle-orm';
import { errorMessage, type BodyOf, type ErrorCode, type Lang, type billautomate as api } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { pageOf } from '../../../platform/paging.ts';
import type { Actor } from '../../../platform/context.ts';
import { customerScope } from '../../money/capital-service.ts';
import { billScope, iso, rowsOf } from '../bills/bill-sql.ts';

/**
 * The executions of automated ledger rules, newest first: one rule's (its detail page) or every rule's the actor sees
 * (a customer its tree's). A bill number is shown for the bills the actor may open: staff every one, a customer
 * only its published bills.
 */
export async function execPage(db: Db, q: BodyOf<typeof api.getBillAutomateExecPage>, actor: Actor, lang: Lang) {
  const p = pageOf(q);
  const where: SQL[] = [customerScope(actor, 'e')];
  if (q.ruleId !== undefined) where.push(sql`e.rule_id = ${q.ruleId}`);
  if (q.custId !== undefined) where.push(sql`e.cust_id = ${q.custId}`);
  if (q.periodKey !== undefined) where.push(sql`e.period_key = ${q.periodKey}`);
  if (q.state !== undefined) where.push(sql`e.state = ${q.state}`);
  const cond = sql.join(where, sql` and `);
  const rows = rowsOf<Record<string, unknown>>(await db.execute(sql`select e.*, e.due_day::text as due_day_text, c.cust_name,
      e.arrears::text as arrears_text, e.payable::text as payable_text, e.write_off_amount::text as amount_text,
      case when b.bill_id is not null and ${billScope(actor)} then b.bill_no end as bill_no
    from bill_automate_execs e join customers c on c.cust_id = e.cust_id left join bills b on b.bill_id = e.bill_id
    where ${cond} order by e.exec_id desc limit ${p.limit} offset ${p.offset}`));
  const [{ n }] = rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from bill_automate_execs e where ${cond}`));
  const list = rows.map((r) => {
    const billNo = (r.bill_no as string | null) ?? null;
    return {
      execId: Number(r.exec_id), ruleId: Number(r.rule_id), custId: Number(r.cust_id), custName: String(r.cust_name), periodKey: String(r.period_key),
      dueDay: String(r.due_day_text), state: Number(r.state), billId: billNo ? Number(r.bill_id) : null, billNo,
      publishResult: Number(r.publish_result), publishReason: r.publish_reason == null ? null : Number(r.publish_reason),
      writeOffResult: Number(r.write_off_result), writeOffReason: r.write_off_reason == null ? null : Number(r.write_off_reason),
      arrears: (r.arrears_text as string | null) ?? null, payable: (r.payable_text as string | null) ?? null,
      writeOffAmount: (r.amount_text as string | null) ?? null,
      writeOffId: r.write_off_id == null ? null : Number(r.write_off_id), journalId: r.journal_id == null ? null : Number(r.journal_id),
      error: r.error_code == null ? null : errorMessage(Number(r.error_code) as ErrorCode, lang, (r.error_params as Record<string, string | number> | null) ?? undefined),
      attempts: Number(r.attempts), firstTriedAt: iso(r.first_tried_at)!, lastTriedAt: iso(r.last_tried_at)!, finishedAt: iso(r.finished_at),
    };
  });
  return { list, total: Number(n), current: p.current, pageSize: p.pageSize };
}
