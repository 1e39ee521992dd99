// The items (and cards) of some ICCIDs as the stock rules read them (rules.ts), for validation and for the job.
import { sql } from 'drizzle-orm';
import { errorMessage, type Lang } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import { rowsOf } from '../items/service.ts';
import type { Refusal } from '../rules.ts';

export const refusalText = (r: Refusal, lang: Lang) => errorMessage(r.code, lang, r[lang]);

/** The items (and cards) of these ICCIDs as the rules read them, in two statements; `lock`: rows locked (the job). */
export async function loadStates(ex: Executor, iccids: string[], lock = false) {
  const rows = rowsOf<{ iccid: string; match_state: number; out_state: number; imsi: string | null; msisdn: string | null; operator_id: number }>(
    await ex.execute(sql`
      select s.iccid, s.match_state, s.out_state, s.imsi, s.msisdn, s.operator_id
      from stock_items s
      where s.iccid = any(${sql.param(iccids)}::text[]) ${lock ? sql`for update of s` : sql``}`));
  const cards = rowsOf<{ iccid: string; state: number; cust_id: number | null }>(await ex.execute(sql`
    select iccid, state, cust_id from cards where iccid = any(${sql.param(iccids)}::text[]) ${lock ? sql`for update` : sql``}`));
  const cardOf = new Map(cards.map((c) => [c.iccid, { state: Number(c.state), custId: c.cust_id == null ? null : Number(c.cust_id) }]));
  return new Map(rows.map((r) => [r.iccid, {
    item: { matchState: Number(r.match_state), outState: Number(r.out_state), imsi: r.imsi, msisdn: r.msisdn, operatorId: Number(r.operator_id) },
    card: cardOf.get(r.iccid) ?? null,
  }]));
}
