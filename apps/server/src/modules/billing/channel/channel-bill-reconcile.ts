import { sql } from 'drizzle-orm';
import { ChannelBillLineState as L, ChannelBillState, channelbill } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { rowsOf } from '../bills/bill-sql.ts';

/*
 * Reconciliation of a channel bill against the platform's own usage (docs/channel-bills.md "Reconciliation"): set-based,
 * one transaction, any number of times (a second run replaces the first). The platform's side of a card is the sum of
 * its daily usage rows (card_usage_daily, the operator's own feed) over the bill's period, the operator's billing period
 * (China Unicom 26th-25th): the same days the operator billed.
 *
 * - matched: a card the platform has, data within the larger of 1 MB and 1 % of the platform's usage, SMS equal;
 * - differs: a card the platform has, outside that;
 * - missing on platform: a line whose card the platform does not have on this operator (no card, no usage);
 * - missing in channel bill: a card of the operator with data or SMS in the period that the bill lacks (when the bill
 *   asks for them: an upstream channel's bill covers only the cards bought through it).
 *
 * The bill's lines are written again rather than updated: one INSERT … SELECT (the period's usage aggregated once,
 * full-joined with the file's lines) into a fresh table, its key built once, then swapped in for the bill's partition.
 * Updating a million rows in place writes every row and its key again and leaves as many dead rows behind.
 */

const { CHANNEL_BILL_TOLERANCE_BYTES, CHANNEL_BILL_TOLERANCE_PERMILLE } = channelbill;
/** a constant of ours written into the SQL as a typed literal (a parameter in a CASE would be text) */
const int = (n: number) => sql.raw(`${Math.trunc(n)}`);
const TOL_BYTES = int(CHANNEL_BILL_TOLERANCE_BYTES);
const TOL_PERMILLE = int(CHANNEL_BILL_TOLERANCE_PERMILLE);

interface BillToReconcile {
  bill_id: number;
  operator_id: number;
  period_from: string;
  period_to: string;
  find_missing: boolean;
}

/** Reconciles a bill in state Reconciling held by `owner`; false when it is not (another worker took it over). */
export async function reconcileChannelBill(db: Db, billId: number, owner: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [bill] = rowsOf<BillToReconcile>(await tx.execute(sql`select bill_id, operator_id, period_from::text as period_from, period_to::text as period_to, find_missing
      from channel_bills where bill_id = ${billId} and state = ${ChannelBillState.Reconciling} and lease_owner = ${owner} for update`));
    if (!bill) return false;
    const id = Math.trunc(billId);
    const op = int(Number(bill.operator_id));
    const part = sql.raw(`channel_bill_lines_b${id}`);
    const fresh = sql.raw(`channel_bill_lines_b${id}_r`);
    // a month of a million cards' daily rows is aggregated and joined in memory, not in spill files
    await tx.execute(sql`set local work_mem = '256MB'`);
    await tx.execute(sql`select channel_bill_lines_ensure_partition(${id}::bigint)`);
    // the partition was just filled: its statistics make the join below plan as hash joins, not guesses
    await tx.execute(sql`analyze ${part}`);
    await tx.execute(sql`drop table if exists ${fresh}`);
    await tx.execute(sql`create table ${fresh} (like channel_bill_lines including defaults including constraints)`);
    // the file's lines (line_no set) against the period's usage per card of the operator; a card with usage only the
    // platform has becomes a "missing in channel bill" line when the bill asks for them
    await tx.execute(sql`insert into ${fresh} (bill_id, iccid, line_no, channel_bytes, channel_sms, channel_amount, platform_bytes, platform_sms, state)
      with u as (
        select iccid, sum(bytes)::bigint as bytes, sum(sms)::bigint as sms from card_usage_daily
        where day >= ${bill.period_from}::date and day <= ${bill.period_to}::date and operator_id = ${op}
        group by iccid
      ), k as materialized (
        -- once per row: whether a card without usage is the platform's (an index probe, only for those lines)
        select l.iccid as l_iccid, l.line_no, l.channel_bytes, l.channel_sms, l.channel_amount, u.iccid as u_iccid, u.bytes as u_bytes, u.sms as u_sms,
          (u.iccid is null and l.iccid is not null and exists (select 1 from cards c where c.iccid = l.iccid and c.operator_id = ${op})) as known_idle
        from (select iccid, line_no, channel_bytes, channel_sms, channel_amount from ${part} where line_no is not null) l
        full join u on u.iccid = l.iccid
        where l.iccid is not null or (${bill.find_missing ? sql`true` : sql`false`} and (u.bytes > 0 or u.sms > 0))
      ), p as (
        select *, case when u_iccid is not null then u_bytes when known_idle then 0 end as p_bytes, coalesce(u_sms, 0) as p_sms from k
      )
      select ${id}, coalesce(l_iccid, u_iccid), line_no, channel_bytes, channel_sms, channel_amount, p_bytes,
        case when p_bytes is null then null else p_sms end,
        case
          when l_iccid is null then ${int(L.MissingInChannel)}
          when p_bytes is null then ${int(L.MissingOnPlatform)}
          when abs(channel_bytes - p_bytes) <= greatest(${TOL_BYTES}::bigint, p_bytes * ${TOL_PERMILLE} / 1000) and channel_sms = p_sms then ${int(L.Matched)}
          else ${int(L.Differs)}
        end
      from p`);
    // the key built once over the finished table; the check lets the attach skip its scan
    await tx.execute(sql`alter table ${fresh} add primary key (bill_id, iccid), add constraint ${sql.raw(`channel_bill_lines_b${id}_r_bill`)} check (bill_id = ${int(id)})`);
    await tx.execute(sql`drop table ${part}`);
    await tx.execute(sql`alter table ${fresh} rename to ${part}`);
    await tx.execute(sql`alter table channel_bill_lines attach partition ${part} for values in (${int(id)})`);
    await tx.execute(sql`analyze ${part}`);
    await tx.execute(sql`delete from channel_bill_summaries where bill_id = ${billId}`);
    await tx.execute(sql`insert into channel_bill_summaries (bill_id, state, lines, channel_bytes, platform_bytes, channel_sms, platform_sms, channel_amount)
      select ${billId}, state, count(*), coalesce(sum(channel_bytes), 0), coalesce(sum(platform_bytes), 0), coalesce(sum(channel_sms), 0),
        coalesce(sum(platform_sms), 0), coalesce(sum(channel_amount), 0)
      from ${part} group by state`);
    await tx.execute(sql`update channel_bills set state = ${ChannelBillState.Reconciled}, reconciled_at = clock_timestamp(), lease_owner = null, lease_until = null,
      updated_at = now() where bill_id = ${billId}`);
    return true;
  });
}
