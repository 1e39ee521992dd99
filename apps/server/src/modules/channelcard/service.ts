import { sql, type SQL } from 'drizzle-orm';
import { ChannelBillSource, ChannelCardState, ErrorCode, businessDayStart, businessToday, channelcard as api, type BodyOf } from '@lynx/contract';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { tenantFilter, type Actor, type SessionContext } from '../../platform/context.ts';
import { pageOf } from '../../platform/paging.ts';
import { exec } from '../dsim/switching.ts';

/**
 * Channel cards (16020000) and their bills (16030000; docs/channel-cards.md). Every read is within the viewer's tenant:
 * staff see all, a channel customer its first-level customer's cards and bills (the rows' root_cust_id).
 */
type Row = Record<string, unknown>;
const n = (v: unknown) => Number(v ?? 0);
const nn = (v: unknown) => (v == null ? null : Number(v));
const isoOf = (v: unknown): string | null => (v == null ? null : new Date(v as string).toISOString());
const money = (v: unknown) => String(v ?? '0.00');

export const channelTenant = (actor: Actor, alias: string): SQL => tenantFilter(actor, { custId: sql.raw(`${alias}.cust_id`), rootCustId: sql.raw(`${alias}.root_cust_id`) });

const CARD_SELECT = sql`select c.*, k.msisdn, k.operator_id, k.state as card_state, cu.cust_name
  from channel_cards c left join cards k on k.iccid = c.iccid left join customers cu on cu.cust_id = c.cust_id`;

const cardOut = (r: Row) => ({
  id: n(r.id), iccid: String(r.iccid), msisdn: (r.msisdn as string | null) ?? null, operatorId: nn(r.operator_id), cardState: nn(r.card_state),
  channelName: String(r.channel_name), salesOrder: String(r.sales_order), monthlyCost: money(r.monthly_cost), state: n(r.state),
  stoppedAt: isoOf(r.stopped_at), batchId: String(r.batch_id), custId: nn(r.cust_id), custName: (r.cust_name as string | null) ?? null,
  createdAt: isoOf(r.created_at)!,
});

// Billing › Channel bills: the upstream channel's own bill file for the same channel and month, reconciled against usage
const BILL_SELECT = sql`select b.*, cu.cust_name,
    (select cb.bill_id from channel_bills cb where cb.source_type = ${ChannelBillSource.UpstreamChannel} and cb.source_name = b.channel_name
      and cb.period_key = b.period_key order by cb.bill_id desc limit 1) as reconcile_bill_id
  from channel_card_bills b left join customers cu on cu.cust_id = b.root_cust_id`;

const billOut = (r: Row) => ({
  billId: n(r.bill_id), channelName: String(r.channel_name), periodKey: String(r.period_key), custId: nn(r.root_cust_id),
  custName: (r.cust_name as string | null) ?? null, cardCount: n(r.card_count), totalAmount: String(r.total_amount),
  createdBy: String(r.created_by), createdAt: isoOf(r.created_at)!, reconcileBillId: nn(r.reconcile_bill_id),
});

/** The first instants of a month and of the next one, in the business time zone. */
export function periodBounds(periodKey: string): { from: Date; to: Date } {
  const [y, m] = periodKey.split('-').map(Number);
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return { from: businessDayStart(`${periodKey}-01`), to: businessDayStart(`${next}-01`) };
}

export class ChannelCardService {
  constructor(private db: Db) {}

  async page(q: BodyOf<typeof api.getChannelCardPage>, actor: Actor) {
    const p = pageOf(q);
    const w: SQL[] = [channelTenant(actor, 'c')];
    if (q.iccid) {
      const s = q.iccid.trim();
      // a prefix as a key range (PITFALLS: LIKE cannot use the b-tree under the default collation)
      w.push(/^[0-9]{19,20}$/.test(s) ? sql`c.iccid = ${s}` : sql`c.iccid >= ${s} and c.iccid < ${`${s}\uffff`}`);
    }
    if (q.channelName) w.push(sql`c.channel_name = ${q.channelName}`);
    if (q.salesOrder) w.push(sql`c.sales_order = ${q.salesOrder.trim()}`);
    if (q.batchId) w.push(sql`c.batch_id = ${q.batchId}::uuid`);
    if (q.state !== undefined) w.push(sql`c.state = ${q.state}`);
    const where = sql.join(w, sql` and `);
    const [rows, [{ total }]] = await Promise.all([
      exec(this.db, sql`${CARD_SELECT} where ${where} order by c.id desc limit ${p.limit} offset ${p.offset}`),
      exec<{ total: string }>(this.db, sql`select count(*) as total from channel_cards c where ${where}`),
    ]);
    return { list: rows.map(cardOut), total: n(total), current: p.current, pageSize: p.pageSize };
  }

  private async card(id: number, actor: Actor) {
    const [r] = await exec(this.db, sql`${CARD_SELECT} where c.id = ${id} and ${channelTenant(actor, 'c')}`);
    if (!r) throw notFound();
    return cardOut(r);
  }

  async detail(id: number, actor: Actor) {
    const card = await this.card(id, actor);
    const bills = await exec(this.db, sql`select b.bill_id, b.period_key, l.amount from channel_card_bill_lines l join channel_card_bills b on b.bill_id = l.bill_id
      where l.iccid = ${card.iccid} and ${channelTenant(actor, 'b')} order by b.period_key desc, b.bill_id desc limit 36`);
    return { card, bills: bills.map((r) => ({ billId: n(r.bill_id), periodKey: String(r.period_key), amount: String(r.amount) })) };
  }

  async changeState(b: BodyOf<typeof api.changeChannelCardState>, ctx: SessionContext) {
    await this.db.transaction(async (tx) => {
      const [c] = await exec<{ iccid: string; state: number; cust_id: number | null; root_cust_id: number | null }>(tx, sql`
        select iccid, state, cust_id, root_cust_id from channel_cards c where c.id = ${b.id} and ${channelTenant(ctx.actor, 'c')} for update`);
      if (!c) throw notFound();
      if (n(c.state) === b.state) throw new AppError(ErrorCode.ChannelCardStateUnchanged, undefined, 200, { field: 'state' });
      await tx.execute(sql`update channel_cards set state = ${b.state}, stopped_at = ${b.state === ChannelCardState.Stopped ? sql`now()` : sql`null`},
        updated_at = now() where id = ${b.id}`);
      await audit(tx, ctx, { entity: 'channelCard', entityId: b.id, custId: c.cust_id, rootCustId: c.root_cust_id, before: { iccid: c.iccid, state: n(c.state) }, after: { iccid: c.iccid, state: b.state } });
    });
    return this.card(b.id, ctx.actor);
  }

  async channelNames(actor: Actor) {
    const rows = await exec<{ channel_name: string }>(this.db, sql`select distinct c.channel_name from channel_cards c where ${channelTenant(actor, 'c')} order by 1 limit 500`);
    return rows.map((r) => r.channel_name);
  }

  /* ---------- bills ---------- */

  async billPage(q: BodyOf<typeof api.getChannelCardBillPage>, actor: Actor) {
    const p = pageOf(q);
    const w: SQL[] = [channelTenant(actor, 'b')];
    if (q.channelName) w.push(sql`b.channel_name = ${q.channelName}`);
    if (q.periodKey) w.push(sql`b.period_key = ${q.periodKey}`);
    const where = sql.join(w, sql` and `);
    const [rows, [{ total }]] = await Promise.all([
      exec(this.db, sql`${BILL_SELECT} where ${where} order by b.period_key desc, b.bill_id desc limit ${p.limit} offset ${p.offset}`),
      exec<{ total: string }>(this.db, sql`select count(*) as total from channel_card_bills b where ${where}`),
    ]);
    return { list: rows.map(billOut), total: n(total), current: p.current, pageSize: p.pageSize };
  }

  async bill(billId: number, actor: Actor) {
    const [r] = await exec(this.db, sql`${BILL_SELECT} where b.bill_id = ${billId} and ${channelTenant(actor, 'b')}`);
    if (!r) throw notFound();
    return billOut(r);
  }

  async billLines(q: BodyOf<typeof api.getChannelCardBillLinePage>, actor: Actor) {
    await this.bill(q.billId, actor);
    const p = pageOf(q);
    const iccid = q.iccid?.trim();
    const where = sql`l.bill_id = ${q.billId}${iccid ? sql` and l.iccid >= ${iccid} and l.iccid < ${`${iccid}\uffff`}` : sql``}`;
    const [rows, [{ total }]] = await Promise.all([
      exec(this.db, sql`select l.*, c.id as channel_card_id from channel_card_bill_lines l left join channel_cards c on c.iccid = l.iccid
        where ${where} order by l.iccid limit ${p.limit} offset ${p.offset}`),
      exec<{ total: string }>(this.db, sql`select count(*) as total from channel_card_bill_lines l where ${where}`),
    ]);
    return {
      list: rows.map((r) => ({ iccid: String(r.iccid), monthlyCost: String(r.monthly_cost), amount: String(r.amount), channelCardId: nn(r.channel_card_id) })),
      total: n(total), current: p.current, pageSize: p.pageSize,
    };
  }

  /**
   * One bill per first-level customer with billable cards of the channel in the month: a card imported before the
   * month's end and not stopped before its start, charged its monthly cost for the month. Set-based: one INSERT … SELECT
   * for the bills and one for their lines, in one transaction; a bill of the same channel, month and customer refuses.
   */
  async generate(b: BodyOf<typeof api.generateChannelCardBills>, ctx: SessionContext) {
    if (b.periodKey >= businessToday().slice(0, 7)) throw new AppError(ErrorCode.ChannelCardBillPeriodOpen, { period: b.periodKey }, 200, { field: 'periodKey' });
    const { from, to } = periodBounds(b.periodKey);
    const billable = sql`c.channel_name = ${b.channelName} and c.created_at < ${to.toISOString()}::timestamptz
      and (c.stopped_at is null or c.stopped_at >= ${from.toISOString()}::timestamptz)`;
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7316002)`);
      const [dup] = await exec(tx, sql`select 1 from channel_card_bills where channel_name = ${b.channelName} and period_key = ${b.periodKey}
        and coalesce(root_cust_id, 0) in (select distinct coalesce(c.root_cust_id, 0) from channel_cards c where ${billable})`);
      if (dup) throw new AppError(ErrorCode.ChannelCardBillExists, { channel: b.channelName, period: b.periodKey });
      const bills = await exec<{ bill_id: number; card_count: number }>(tx, sql`insert into channel_card_bills (channel_name, period_key, cust_id, root_cust_id, card_count, total_amount, created_by)
        select ${b.channelName}, ${b.periodKey}, c.root_cust_id, c.root_cust_id, count(*), sum(c.monthly_cost), ${ctx.actor.loginName}
        from channel_cards c where ${billable} group by c.root_cust_id returning bill_id, card_count`);
      if (!bills.length) throw new AppError(ErrorCode.ChannelCardBillNoCards, { channel: b.channelName, period: b.periodKey });
      await tx.execute(sql`insert into channel_card_bill_lines (bill_id, iccid, monthly_cost, amount)
        select nb.bill_id, c.iccid, c.monthly_cost, c.monthly_cost
        from channel_cards c join channel_card_bills nb on nb.channel_name = ${b.channelName} and nb.period_key = ${b.periodKey}
          and coalesce(nb.root_cust_id, 0) = coalesce(c.root_cust_id, 0)
        where ${billable} and nb.bill_id = any(${sql.param(bills.map((x) => n(x.bill_id)))}::bigint[])`);
      const cards = bills.reduce((s, x) => s + n(x.card_count), 0);
      await audit(tx, ctx, { entity: 'channelCardBill', entityId: null, custId: null, rootCustId: null, after: { channelName: b.channelName, periodKey: b.periodKey, billIds: bills.map((x) => n(x.bill_id)), cards } });
      return { bills: bills.length, cards };
    });
  }

  async deleteBill(billId: number, ctx: SessionContext) {
    await this.db.transaction(async (tx) => {
      const [r] = await exec(tx, sql`select * from channel_card_bills b where b.bill_id = ${billId} and ${channelTenant(ctx.actor, 'b')} for update`);
      if (!r) throw notFound();
      await tx.execute(sql`delete from channel_card_bills where bill_id = ${billId}`);
      await audit(tx, ctx, { entity: 'channelCardBill', entityId: billId, custId: nn(r.root_cust_id), rootCustId: nn(r.root_cust_id), before: billOut(r) });
    });
    return null;
  }
}
