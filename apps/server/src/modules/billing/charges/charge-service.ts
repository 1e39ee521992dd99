// Reading the charges at the event: Reports › Prepaid cost withholding (10020000) and Business › Capital's prepaid
// detail (8030000). Tenant scope on every read: staff all, a first-level customer its tree, a second-level itself.
import { sql, type SQL } from 'drizzle-orm';
import { ChargeState, businessDayStart, type BodyOf, type withholding as api } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { invalid, notFound } from '../../../platform/errors.ts';
import { tenantFilter, type Actor } from '../../../platform/context.ts';
import { pageOf } from '../../../platform/paging.ts';
import { iccidBox } from '../../card/list/iccid-prefix.ts';
import { moneyCustomer } from '../../money/capital-service.ts';
import { visibleCard } from '../../card/detail/detail.ts';
import { rowsOf } from '../bills/bill-sql.ts';
import { chargeNo } from './charges.ts';

type ListQuery = BodyOf<typeof api.getChargeListPage>;
type CardsQuery = BodyOf<typeof api.getChargeCards> & { current?: number };
type PrepayCardsQuery = BodyOf<typeof api.getPrepayCards>;

const num = (v: unknown) => Number(v ?? 0);
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const DAY_MS = 86_400_000;

function chargeOut(r: Record<string, unknown>) {
  const chargeId = num(r.charge_id);
  return {
    chargeId, chargeNo: chargeNo(chargeId), custId: num(r.cust_id), custName: String(r.cust_name ?? ''), rootCustId: num(r.root_cust_id),
    event: num(r.event), category: num(r.category), goodsReleaseId: num(r.goods_release_id), goodsName: String(r.goods_name ?? ''),
    periodKey: String(r.period_key), cards: num(r.cards), quantity: num(r.quantity), amount: String(r.amount), tax: String(r.tax),
    state: num(r.state), journalId: r.journal_id == null ? null : num(r.journal_id), actor: String(r.actor), createdAt: iso(r.created_at),
  };
}

function cardOut(r: Record<string, unknown>) {
  return {
    chargeId: num(r.charge_id), iccid: String(r.iccid), msisdn: r.msisdn == null ? null : String(r.msisdn),
    fromDay: String(r.from_day), toDay: String(r.to_day), quantity: num(r.quantity), unitPrice: String(r.unit_price),
    amount: String(r.amount), tax: String(r.tax), event: num(r.event), state: num(r.state), createdAt: iso(r.created_at),
  };
}

/** An ICCID or a digit prefix of one, as a key range (the item index is (iccid, charge_id)). */
const iccidFilter = (iccid: string): SQL => iccidBox(sql.raw('i.iccid'), iccid);

/** The tenant rule (platform/context.ts tenantFilter) on the records aliased `ch`. */
const scope = (actor: Actor): SQL => tenantFilter(actor, { custId: sql`ch.cust_id`, rootCustId: sql`ch.root_cust_id` });

const ITEM_COLUMNS = sql`i.charge_id, i.iccid, c.msisdn, to_char(i.from_day, 'YYYY-MM-DD') from_day, to_char(i.to_day, 'YYYY-MM-DD') to_day,
  i.quantity, i.unit_price::text unit_price, i.amount::text amount, i.tax::text tax, ch.event, ch.state, ch.created_at`;

export class ChargeService {
  constructor(private db: Db) {}

  private where(q: Omit<ListQuery, 'current' | 'pageSize'>, actor: Actor): SQL {
    const w: SQL[] = [scope(actor)];
    if (q.custId !== undefined) w.push(sql`ch.cust_id = ${q.custId}`);
    if (q.periodKey) w.push(sql`ch.period_key = ${q.periodKey}`);
    if (q.event !== undefined) w.push(sql`ch.event = ${q.event}`);
    if (q.state !== undefined) w.push(sql`ch.state = ${q.state}`);
    if (q.category !== undefined) w.push(sql`ch.category = ${q.category}`);
    if (q.from && q.to && q.from > q.to) throw invalid('from', { zh: '开始日期不能晚于结束日期', en: 'the start date cannot be after the end date' });
    if (q.from) w.push(sql`ch.created_at >= ${businessDayStart(q.from).toISOString()}::timestamptz`);
    if (q.to) w.push(sql`ch.created_at < ${new Date(businessDayStart(q.to).getTime() + DAY_MS).toISOString()}::timestamptz`);
    return sql.join(w, sql` and `);
  }

  /** The records, newest first, with the sums over every record the filters match. */
  async list(q: ListQuery, actor: Actor) {
    const p = pageOf(q);
    const where = this.where(q, actor);
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`
      select ch.*, ch.amount::text amount, ch.tax::text tax, cu.cust_name, coalesce(bp.name, '') goods_name
      from card_charges ch join customers cu on cu.cust_id = ch.cust_id left join basic_plans bp on bp.goods_release_id = ch.goods_release_id
      where ${where} order by ch.charge_id desc limit ${p.limit} offset ${p.offset}`));
    const [s] = rowsOf<Record<string, unknown>>(await this.db.execute(sql`
      select count(*)::int n, coalesce(sum(amount), 0)::numeric(16, 2)::text amount,
        coalesce(sum(amount) filter (where state = ${ChargeState.Withheld}), 0)::numeric(16, 2)::text withheld,
        coalesce(sum(amount) filter (where state <> ${ChargeState.Withheld}), 0)::numeric(16, 2)::text on_bill, coalesce(sum(cards), 0)::int cards
      from card_charges ch where ${where}`));
    return {
      list: rows.map(chargeOut), total: num(s.n), current: p.current, pageSize: p.pageSize,
      sum: { amount: String(s.amount), withheld: String(s.withheld), onBill: String(s.on_bill), cards: num(s.cards) },
    };
  }

  /** One record in the actor's scope (NotFound otherwise, whether it exists or not). */
  async detail(chargeId: number, actor: Actor) {
    const [row] = rowsOf<Record<string, unknown>>(await this.db.execute(sql`
      select ch.*, ch.amount::text amount, ch.tax::text tax, cu.cust_name, coalesce(bp.name, '') goods_name
      from card_charges ch join customers cu on cu.cust_id = ch.cust_id left join basic_plans bp on bp.goods_release_id = ch.goods_release_id
      where ch.charge_id = ${chargeId} and ${scope(actor)}`));
    if (!row) throw notFound();
    return chargeOut(row);
  }

  /** A record's cards in ICCID order, by key (`after` the last ICCID) or, for exports, by page number. */
  async cards(q: CardsQuery, actor: Actor) {
    const charge = await this.detail(q.chargeId, actor);
    const pageSize = q.pageSize ?? 20;
    const where: SQL[] = [sql`i.charge_id = ${q.chargeId}`];
    if (q.iccid) where.push(iccidFilter(q.iccid));
    const counted = sql.join(where, sql` and `);
    if (q.after) where.push(sql`i.iccid > ${q.after}`);
    const offset = !q.after && q.current && q.current > 1 ? (q.current - 1) * pageSize : 0;
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`
      select ${ITEM_COLUMNS} from card_charge_items i join card_charges ch on ch.charge_id = i.charge_id left join cards c on c.iccid = i.iccid
      where ${sql.join(where, sql` and `)} order by i.iccid limit ${pageSize + 1} offset ${offset}`));
    const more = rows.length > pageSize;
    const list = (more ? rows.slice(0, pageSize) : rows).map(cardOut);
    const total = q.iccid
      ? num(rowsOf<{ n: number }>(await this.db.execute(sql`select count(*)::int n from card_charge_items i where ${counted}`))[0].n)
      : charge.cards;
    return { list, total, pageSize, next: more ? list[list.length - 1].iccid : null };
  }

  /** A card's charges at the event, newest first (card detail › Billing); the card must be the actor's, the charges in its scope. */
  async cardCharges(q: BodyOf<typeof api.getCardCharges>, actor: Actor) {
    await visibleCard(this.db, actor, q.iccid);
    const p = pageOf(q);
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`
      select ${ITEM_COLUMNS}, ch.category, ch.period_key, coalesce(bp.name, '') goods_name, count(*) over() total_rows
      from card_charge_items i join card_charges ch on ch.charge_id = i.charge_id left join cards c on c.iccid = i.iccid
        left join basic_plans bp on bp.goods_release_id = ch.goods_release_id
      where i.iccid = ${q.iccid} and ${scope(actor)}
      order by i.charge_id desc limit ${p.limit} offset ${p.offset}`));
    return {
      list: rows.map((r) => ({ ...cardOut(r), chargeNo: chargeNo(num(r.charge_id)), category: num(r.category), goodsName: String(r.goods_name), periodKey: String(r.period_key) })),
      total: rows.length ? num(rows[0].total_rows) : 0, current: p.current, pageSize: p.pageSize,
    };
  }

  /** A customer's charges grouped by plan or pack × category × period × event (Business › Capital). */
  async prepayGroups(q: BodyOf<typeof api.getPrepayGroups>, actor: Actor) {
    const cust = await moneyCustomer(this.db, actor, q.custId);
    const p = pageOf(q);
    const where = sql`ch.cust_id = ${cust.custId} ${q.periodKey ? sql`and ch.period_key = ${q.periodKey}` : sql``}`;
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`
      select ch.goods_release_id, coalesce(min(bp.name), '') goods_name, ch.category, ch.period_key, ch.event, count(*)::int records,
        sum(ch.cards)::int cards, sum(ch.quantity)::bigint quantity, sum(ch.amount)::numeric(16, 2)::text amount,
        coalesce(sum(ch.amount) filter (where ch.state = ${ChargeState.Withheld}), 0)::numeric(16, 2)::text withheld,
        coalesce(sum(ch.amount) filter (where ch.state <> ${ChargeState.Withheld}), 0)::numeric(16, 2)::text on_bill,
        max(ch.created_at) last_at, count(*) over() total_rows
      from card_charges ch left join basic_plans bp on bp.goods_release_id = ch.goods_release_id
      where ${where}
      group by ch.goods_release_id, ch.category, ch.period_key, ch.event
      order by ch.period_key desc, max(ch.created_at) desc, ch.goods_release_id, ch.event
      limit ${p.limit} offset ${p.offset}`));
    return {
      list: rows.map((r) => ({
        goodsReleaseId: num(r.goods_release_id), goodsName: String(r.goods_name), category: num(r.category), periodKey: String(r.period_key),
        event: num(r.event), records: num(r.records), cards: num(r.cards), quantity: num(r.quantity), amount: String(r.amount),
        withheld: String(r.withheld), onBill: String(r.on_bill), lastAt: iso(r.last_at),
      })),
      total: rows.length ? num(rows[0].total_rows) : 0, current: p.current, pageSize: p.pageSize,
    };
  }

  /** The cards of one group of a customer's charges, by key (`after` = `chargeId|iccid`). */
  async prepayCards(q: PrepayCardsQuery, actor: Actor) {
    const cust = await moneyCustomer(this.db, actor, q.custId);
    const pageSize = q.pageSize ?? 20;
    const where: SQL[] = [
      sql`ch.cust_id = ${cust.custId}`, sql`ch.goods_release_id = ${q.goodsReleaseId}`, sql`ch.category = ${q.category}`,
      sql`ch.period_key = ${q.periodKey}`, sql`ch.event = ${q.event}`,
    ];
    if (q.iccid) where.push(iccidFilter(q.iccid));
    const counted = sql.join(where, sql` and `);
    if (q.after) {
      const m = /^(\d+)\|([0-9A-Fa-f]+)$/.exec(q.after);
      if (!m) throw invalid('after', { zh: '分页位置无效', en: 'not a page position' });
      where.push(sql`(i.charge_id, i.iccid) > (${Number(m[1])}::bigint, ${m[2]})`);
    }
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`
      select ${ITEM_COLUMNS} from card_charges ch join card_charge_items i on i.charge_id = ch.charge_id left join cards c on c.iccid = i.iccid
      where ${sql.join(where, sql` and `)} order by i.charge_id, i.iccid limit ${pageSize + 1}`));
    const more = rows.length > pageSize;
    const list = (more ? rows.slice(0, pageSize) : rows).map(cardOut);
    const [{ n }] = rowsOf<{ n: number }>(await this.db.execute(sql`select count(*)::int n
      from card_charges ch join card_charge_items i on i.charge_id = ch.charge_id where ${counted}`));
    const last = list[list.length - 1];
    return { list, total: num(n), pageSize, next: more ? `${last.chargeId}|${last.iccid}` : null };
  }
}
