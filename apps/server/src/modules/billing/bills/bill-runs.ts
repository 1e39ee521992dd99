import { sql, type SQL } from 'drizzle-orm';
import { businessDay, errorMessage, type BodyOf, type Lang, type bill as api } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { pageOf } from '../../../platform/paging.ts';
import { periodOfDay, shiftPeriodKey, UNICOM_BILLING_DAY } from '../rating/periods.ts';
import { billPeriodNotReadyReason, billRunRow } from '../run/bill-run.ts';
import { rowsOf } from './bill-sql.ts';

/** How many periods the run screen offers, newest first. */
export const PERIODS_SHOWN = 6;

/** The bill runs, newest first (staff). */
export async function billRuns(db: Db, q: BodyOf<typeof api.getBillRuns>) {
  const p = pageOf(q);
  const where: SQL = q.periodKey !== undefined ? sql`r.period_key = ${q.periodKey}` : sql`true`;
  const ids = rowsOf<{ run_id: string; total_rows: string }>(await db.execute(sql`select r.run_id, count(*) over() as total_rows from bill_runs r
    where ${where} order by r.run_id desc limit ${p.limit} offset ${p.offset}`));
  let total = ids.length ? Number(ids[0].total_rows) : 0;
  if (!ids.length && p.offset > 0) total = Number(rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from bill_runs r where ${where}`))[0].n);
  const list = [];
  for (const { run_id: id } of ids) list.push(await billRunRow(db, Number(id)));
  return { list, total, current: p.current, pageSize: p.pageSize };
}

/**
 * The last PERIODS_SHOWN periods, newest first, each with whether a run may start now (the run's own rule,
 * billPeriodNotReadyReason: closed for every operator, and each usage feed delivered the period's last day), why
 * not (the words the run's refusal 20900 would use), and how many bills it has and has published. The newest is the
 * period today falls in for the operator whose periods run ahead (China Unicom's, from the 26th).
 */
export async function billPeriods(db: Db, lang: Lang, now = new Date()) {
  const newest = periodOfDay(businessDay(now.getTime()), UNICOM_BILLING_DAY).key;
  const keys = Array.from({ length: PERIODS_SHOWN }, (_, i) => shiftPeriodKey(newest, -i));
  const counts = rowsOf<Record<string, unknown>>(await db.execute(sql`select period_key, count(*) as bills, count(*) filter (where published) as published
    from bills where period_key in (${sql.join(keys.map((k) => sql`${k}`), sql`, `)}) group by period_key`));
  const countOf = new Map(counts.map((c) => [String(c.period_key), c]));
  const out = [];
  for (const periodKey of keys) {
    const why = await billPeriodNotReadyReason(db, periodKey, now.getTime());
    const c = countOf.get(periodKey);
    out.push({
      periodKey, ready: why == null, reason: why == null ? null : errorMessage(why.code, lang, why.params),
      bills: Number(c?.bills ?? 0), published: Number(c?.published ?? 0),
    });
  }
  return out;
}
