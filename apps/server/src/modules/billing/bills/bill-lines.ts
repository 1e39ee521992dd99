import { sql, type SQL } from 'drizzle-orm';
import { BILL_LINES_COUNT_CAP, businessDay, type BodyOf, type bill as api } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { invalid } from '../../../platform/errors.ts';
import type { Actor } from '../../../platform/context.ts';
import { pageOf } from '../../../platform/paging.ts';
import { visibleCard } from '../../card/detail/detail.ts';
import { iccidBox } from '../../card/list/iccid-prefix.ts';
import { billScope, loadBill, rowsOf } from './bill-sql.ts';

/**
 * A bill's card lines (a million for a big customer): read a page at a time along the primary key
 * (period_key, bill_id, iccid, category, from_day, ref_id) of the bill's partition, so a page costs the same at the
 * first card and the last. `after` is the key of the last line of the page before.
 */

const LINE_COLUMNS = sql.raw(`l.iccid, l.category, l.from_day::text as from_day, l.to_day::text as to_day, l.ref_id, l.goods_release_id,
  l.operator_id, l.card_type_id, l.quantity, l.unit_price::text as unit_price, l.amount::text as amount, l.tax::text as tax, l.used_bytes,
  l.quota_bytes, l.withheld`);

const optNum = (v: unknown) => (v == null ? null : Number(v));

function lineOut(r: Record<string, unknown>, planName: Map<number, string>) {
  const plan = optNum(r.goods_release_id);
  return {
    iccid: String(r.iccid), category: Number(r.category), fromDay: String(r.from_day), toDay: String(r.to_day), goodsReleaseId: plan,
    planName: plan == null ? null : (planName.get(plan) ?? null), operatorId: optNum(r.operator_id), cardTypeId: optNum(r.card_type_id),
    quantity: Number(r.quantity), unitPrice: String(r.unit_price), amount: String(r.amount), tax: String(r.tax),
    usedBytes: optNum(r.used_bytes), quotaBytes: optNum(r.quota_bytes), withheld: Boolean(r.withheld),
  };
}

/** A line's key as `after`: iccid|category|from_day|ref_id (a one-off fee on the customer has the empty ICCID). */
const keyOf = (r: Record<string, unknown>) => `${r.iccid}|${r.category}|${r.from_day}|${r.ref_id}`;
const KEY_RE = /^([0-9A-Za-z]{0,20})\|([0-9]{1,2})\|(\d{4}-\d{2}-\d{2})\|([0-9]{1,19})$/;

function parseAfter(after: string, category?: number): SQL {
  const m = KEY_RE.exec(after);
  if (!m) throw invalid('after', { zh: '分页位置无效，请从第一页重新查询', en: 'is not a page position; start again from the first page' });
  // filtered by category, the key is read in the category index's order (bill_lines_category, 0043): one category's
  // lines in ICCID order, so a page of a rare category is a range of that index, not a scan of the bill. The category
  // stays out of the row comparison: with it inside, the scan's end is not bounded by `category = c` and a position
  // near the end of a category read on through every later category of the bill (70 ms, 3,800 pages at 1M lines)
  if (category !== undefined) {
    return sql`(l.iccid, l.from_day, l.ref_id) > (${m[1]}, ${m[3]}::date, ${m[4]}::bigint)`;
  }
  return sql`(l.iccid, l.category, l.from_day, l.ref_id) > (${m[1]}, ${Number(m[2])}::smallint, ${m[3]}::date, ${m[4]}::bigint)`;
}

/**
 * The ICCID box: a full ICCID (19–20 characters) is that card, a shorter digit string a prefix, as a key range of the
 * primary key (LIKE cannot use it under the database's collation, docs/cards.md "ICCID prefix search").
 */
const iccidFilter = (iccid: string): SQL => iccidBox(sql.raw('l.iccid'), iccid);

/** Plan names of a page's lines. */
async function planNames(ex: Executor, rows: Record<string, unknown>[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.map((r) => optNum(r.goods_release_id)).filter((v): v is number => v != null))];
  if (!ids.length) return new Map();
  const named = rowsOf<{ goods_release_id: number; name: string }>(await ex.execute(sql`select goods_release_id, name from basic_plans
    where goods_release_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`));
  return new Map(named.map((r) => [Number(r.goods_release_id), r.name]));
}

type LinesQuery = BodyOf<typeof api.getBillCardLines>;

export class BillLineService {
  /** the export's position per task and page (an export reads its pages in order; see exportPage) */
  private exportCursor = new Map<string, string>();

  constructor(private db: Db) {}

  /**
   * One page of a bill's lines. `total`: with an ICCID, the lines matching counted (a card or a prefix range of the
   * key); without, the bill's line count stored by the run (with a category filter too: the contract's total is
   * then the bill's). Counted when the run stored none (a bill written before line counts).
   */
  async page(q: LinesQuery, actor: Actor, now = new Date(), opts: { total?: boolean } = {}) {
    const bill = await loadBill(this.db, q.billId, actor, businessDay(now.getTime()));
    const pageSize = q.pageSize ?? 20;
    // the partition is pruned by period_key; the rest is a range of its primary key
    const where: SQL[] = [sql`l.period_key = ${bill.row.periodKey}`, sql`l.bill_id = ${q.billId}`];
    if (q.iccid) where.push(iccidFilter(q.iccid));
    if (q.category !== undefined) where.push(sql`l.category = ${q.category}`);
    const filtered = sql.join(where, sql` and `);
    const offset = !q.after && q.current && q.current > 1 ? pageOf({ current: q.current, pageSize }).offset : 0;
    const cond = q.after ? sql`${filtered} and ${parseAfter(q.after, q.category)}` : filtered;
    // one category: the same order (its category is fixed), spelled as the category index reads it
    const order = q.category !== undefined ? sql`l.category, l.iccid, l.from_day, l.ref_id` : sql`l.iccid, l.category, l.from_day, l.ref_id`;
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select ${LINE_COLUMNS} from bill_lines l where ${cond}
      order by ${order} limit ${pageSize + 1} offset ${offset}`));
    const more = rows.length > pageSize;
    const list = more ? rows.slice(0, pageSize) : rows;
    const names = await planNames(this.db, list);
    let total = -1;
    let totalCapped = false;
    if (opts.total !== false) {
      if (!q.iccid && bill.lineCount > 0) total = bill.lineCount;
      else {
        // counted up to the cap: a short ICCID prefix can match most of a million-line bill (docs/performance.md)
        const cap = q.iccid ? BILL_LINES_COUNT_CAP : Number.MAX_SAFE_INTEGER;
        const n = Number(rowsOf<{ n: string }>(await this.db.execute(q.iccid
          ? sql`select count(*) as n from (select 1 from bill_lines l where ${filtered} limit ${cap + 1}) x`
          : sql`select count(*) as n from bill_lines l where ${filtered}`))[0].n);
        totalCapped = n > cap;
        total = totalCapped ? cap : n;
      }
    }
    return { list: list.map((r) => lineOut(r, names)), total, totalCapped, pageSize, next: more ? keyOf(list[list.length - 1]) : null };
  }

  /**
   * A page of the export, which walks pages by number: each page continues from where the one before ended
   * (remembered per task and page), so a million lines are read in one pass of the key, never by offset.
   */
  async exportPage(f: LinesQuery & { current?: number }, actor: Actor, taskKey: string) {
    const current = f.current ?? 1;
    const pageSize = f.pageSize ?? 500;
    const key = (n: number) => `${taskKey}|${JSON.stringify({ ...f, current: undefined })}|${n}`;
    const after = current > 1 ? this.exportCursor.get(key(current - 1)) : undefined;
    if (after) this.exportCursor.delete(key(current - 1));
    const page = await this.page({ ...f, after, current: after ? undefined : current, pageSize }, actor, new Date(), { total: false });
    if (page.next) {
      if (this.exportCursor.size > 1000) this.exportCursor.clear();
      this.exportCursor.set(key(current), page.next);
    }
    // the export stops at a short page; a full one may have more
    const total = page.next ? Number.MAX_SAFE_INTEGER : (current - 1) * pageSize + page.list.length;
    return { list: page.list, total };
  }

  /** How many lines the export of a bill writes (the bill's count; counted when the run stored none). */
  async exportCount(f: LinesQuery, actor: Actor): Promise<number> {
    const bill = await loadBill(this.db, f.billId, actor, businessDay(Date.now()));
    if (bill.lineCount > 0 && !f.iccid && f.category === undefined) return bill.lineCount;
    const { total } = await this.page({ ...f, pageSize: 1 }, actor);
    return total;
  }

  /**
   * A card's lines across its bills (card detail › Billing), newest period first. The card must be the actor's (as on
   * every card detail call); a customer sees only lines of published bills in its scope.
   */
  async cardLines(q: BodyOf<typeof api.getCardBillLines>, actor: Actor) {
    await visibleCard(this.db, actor, q.iccid);
    const p = pageOf(q);
    const cond = sql`l.iccid = ${q.iccid} and ${billScope(actor)}`;
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select ${LINE_COLUMNS}, l.bill_id, l.period_key, b.bill_no, b.published, count(*) over() as total_rows
      from bill_lines l join bills b on b.bill_id = l.bill_id and b.period_key = l.period_key
      where ${cond} order by l.period_key desc, l.bill_id desc, l.category, l.from_day, l.ref_id limit ${p.limit} offset ${p.offset}`));
    let total = rows.length ? Number(rows[0].total_rows) : 0;
    if (!rows.length && p.offset > 0) {
      total = Number(rowsOf<{ n: string }>(await this.db.execute(sql`select count(*) as n from bill_lines l
        join bills b on b.bill_id = l.bill_id and b.period_key = l.period_key where ${cond}`))[0].n);
    }
    const names = await planNames(this.db, rows);
    return {
      list: rows.map((r) => ({
        billId: Number(r.bill_id), billNo: String(r.bill_no), periodKey: String(r.period_key), published: r.published ? 1 : 0, ...lineOut(r, names),
      })),
      total, current: p.current, pageSize: p.pageSize,
    };
  }
}
