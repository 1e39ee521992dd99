// Stock › Stock list (11010000; docs/stock.md): the physical stock by key (ICCID order), its filters, one item with
// its card, the items of one dual / super SIM, batch update with the change list, and the three-code export.
import { sql, type SQL } from 'drizzle-orm';
import { ErrorCode, StockChangeKind, stock as api, type BodyOf } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError, denied, notFound } from '../../../platform/errors.ts';
import { audit } from '../../../platform/audit.ts';
import { isStaff, type Actor, type SessionContext } from '../../../platform/context.ts';
import { pageOf } from '../../../platform/paging.ts';

export const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));
type Filters = Omit<BodyOf<typeof api.getStockPage>, 'current' | 'pageSize' | 'afterIccid'>;

/** The warehouse is the platform's: operator staff only, whatever codes a customer role holds. */
export function staffOnly(actor: Actor): void {
  if (!isStaff(actor)) throw denied();
}

/** The key right after every string starting with this run of digits ('8986' → '8987'; '899' → '9'). */
export function digitsPrefixEnd(p: string): string | null {
  let s = p;
  while (s.length && s.endsWith('9')) s = s.slice(0, -1);
  return s.length ? s.slice(0, -1) + String(Number(s.slice(-1)) + 1) : null;
}

export interface StockRow {
  iccid: string; imsi: string | null; msisdn: string | null; sn: string | null; operator_id: number; location: string; balance_type: number;
  remark: string; match_state: number; out_state: number; received_at: Date | string; matched_at: Date | string | null;
  out_at: Date | string | null; updated_at: Date | string;
}

const isoOf = (v: Date | string | null): string | null => (v == null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString());

export const itemOf = (r: StockRow) => ({
  iccid: r.iccid, imsi: r.imsi, msisdn: r.msisdn, sn: r.sn, operatorId: Number(r.operator_id), location: r.location,
  balanceType: Number(r.balance_type), remark: r.remark, matchState: Number(r.match_state), outState: Number(r.out_state),
  receivedAt: isoOf(r.received_at)!, matchedAt: isoOf(r.matched_at), outAt: isoOf(r.out_at), updatedAt: isoOf(r.updated_at)!,
});

export const ITEM_COLUMNS = sql.raw('iccid, imsi, msisdn, sn, operator_id, location, balance_type, remark, match_state, out_state, received_at, matched_at, out_at, updated_at');

/** The filters of the list (and of an operation's selection) as one predicate on stock_items. */
export function stockWhere(f: Filters): SQL {
  const parts: SQL[] = [];
  if (f.iccid) {
    if (f.iccid.length >= 19) parts.push(sql`iccid = ${f.iccid}`);
    else {
      // a prefix as a key range: the primary key serves it under any collation (PITFALLS: LIKE does not)
      const end = digitsPrefixEnd(f.iccid);
      parts.push(end ? sql`iccid >= ${f.iccid} and iccid < ${end}` : sql`iccid >= ${f.iccid}`);
    }
  }
  if (f.imsi) parts.push(sql`imsi = ${f.imsi}`);
  if (f.msisdn) parts.push(sql`msisdn = ${f.msisdn}`);
  if (f.sn) parts.push(sql`sn = ${f.sn}`);
  if (f.operatorId !== undefined) parts.push(sql`operator_id = ${f.operatorId}`);
  if (f.location !== undefined && f.location !== '') parts.push(sql`location = ${f.location}`);
  if (f.matchState !== undefined) parts.push(sql`match_state = ${f.matchState}`);
  if (f.outState !== undefined) parts.push(sql`out_state = ${f.outState}`);
  if (f.balanceType !== undefined) parts.push(sql`balance_type = ${f.balanceType}`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

/** Matches of a filter, counted up to `cap` + 1 (enough to tell "over the cap"). */
export async function countCapped(ex: Executor, where: SQL, cap: number): Promise<number> {
  const [r] = rowsOf<{ n: number }>(await ex.execute(sql`select count(*)::int n from (select 1 from stock_items where ${where} limit ${cap + 1}) m`));
  return Number(r.n);
}

export class StockItemService {
  /** the last ICCID of each export page, so the next page is read by key (exports page by number) */
  private exportCursor = new Map<string, string>();

  constructor(private db: Db) {}

  async page(q: BodyOf<typeof api.getStockPage>, actor: Actor, opts: { total?: boolean } = {}) {
    staffOnly(actor);
    const p = pageOf(q);
    const where = stockWhere(q);
    const keyed = q.afterIccid !== undefined;
    const [rows, total] = await Promise.all([
      this.db.execute(sql`select ${ITEM_COLUMNS} from stock_items where ${where} ${keyed ? sql`and iccid > ${q.afterIccid}` : sql``}
        order by iccid limit ${p.limit} offset ${keyed ? 0 : p.offset}`).then((r) => rowsOf<StockRow>(r)),
      opts.total === false ? Promise.resolve(0) : countCapped(this.db, where, api.STOCK_COUNT_CAP),
    ]);
    const capped = total > api.STOCK_COUNT_CAP;
    return { list: rows.map(itemOf), total: capped ? api.STOCK_COUNT_CAP : total, totalCapped: capped, current: p.current, pageSize: p.pageSize };
  }

  /** One page of the three-code export, read by key from the previous page's last ICCID: linear over a million rows. */
  async exportPage(q: Filters & { current?: number; pageSize?: number }, actor: Actor) {
    const { current = 1, pageSize = 500, ...filters } = q;
    const key = (n: number) => `${actor.accountId}|${JSON.stringify(filters)}|${n}`;
    const after = current > 1 ? this.exportCursor.get(key(current - 1)) : undefined;
    if (after) this.exportCursor.delete(key(current - 1));
    const rows = rowsOf<{ iccid: string; imsi: string | null; msisdn: string | null }>(await this.db.execute(sql`
      select iccid, imsi, msisdn from stock_items where ${stockWhere(filters)} ${after ? sql`and iccid > ${after}` : sql``}
      order by iccid limit ${pageSize} offset ${after || current === 1 ? 0 : (current - 1) * pageSize}`));
    if (rows.length) {
      if (this.exportCursor.size > 1000) this.exportCursor.clear();
      this.exportCursor.set(key(current), rows[rows.length - 1].iccid);
    }
    return { list: rows, total: Number.MAX_SAFE_INTEGER };
  }

  async exportCount(f: Filters, actor: Actor): Promise<number> {
    staffOnly(actor);
    const n = await countCapped(this.db, stockWhere(f), api.STOCK_COUNT_CAP);
    return n > api.STOCK_COUNT_CAP ? Number.POSITIVE_INFINITY : n;
  }

  /** The distinct locations, by a skip scan of the location index (one index probe per location, not a full scan). */
  async locations(actor: Actor): Promise<string[]> {
    staffOnly(actor);
    const rows = rowsOf<{ v: string }>(await this.db.execute(sql`
      with recursive l(v) as (
        select min(location) from stock_items
        union all
        select (select min(location) from stock_items s where s.location > l.v) from l where l.v is not null
      ) select v from l where v is not null and v <> '' limit 500`));
    return rows.map((r) => r.v);
  }

  async detail(iccid: string, actor: Actor) {
    staffOnly(actor);
    const [r] = rowsOf<StockRow & { card_state: number | null; cust_id: number | null; cust_name: string | null; card_iccid: string | null }>(await this.db.execute(sql`
      select s.iccid, s.imsi, s.msisdn, s.sn, s.operator_id, s.location, s.balance_type, s.remark, s.match_state, s.out_state, s.received_at,
        s.matched_at, s.out_at, s.updated_at, c.iccid card_iccid, c.state card_state, c.cust_id, cu.cust_name
      from stock_items s left join cards c on c.iccid = s.iccid left join customers cu on cu.cust_id = c.cust_id
      where s.iccid = ${iccid}`));
    if (!r) throw notFound();
    return {
      item: itemOf(r),
      card: r.card_iccid ? { state: Number(r.card_state), custId: r.cust_id == null ? null : Number(r.cust_id), custName: r.cust_name } : null,
    };
  }

  async doubleCard(sn: string, actor: Actor) {
    staffOnly(actor);
    const rows = rowsOf<StockRow>(await this.db.execute(sql`select ${ITEM_COLUMNS} from stock_items where sn = ${sn} order by iccid limit 100`));
    if (!rows.length) throw notFound();
    return { sn, items: rows.map(itemOf) };
  }

  async changes(q: BodyOf<typeof api.getStockChangePage>, actor: Actor) {
    staffOnly(actor);
    const p = pageOf(q);
    const [rows, [{ n }]] = await Promise.all([
      this.db.execute(sql`select change_id, at, kind, batch_id, login_name, before, after from stock_changes where iccid = ${q.iccid}
        order by at desc, change_id limit ${p.limit} offset ${p.offset}`).then((r) => rowsOf<Record<string, unknown>>(r)),
      this.db.execute(sql`select count(*)::int n from stock_changes where iccid = ${q.iccid}`).then((r) => rowsOf<{ n: number }>(r)),
    ]);
    return {
      list: rows.map((r) => ({
        changeId: String(r.change_id), at: isoOf(r.at as Date)!, kind: Number(r.kind), batchId: (r.batch_id as string | null) ?? null,
        loginName: String(r.login_name), before: (r.before as Record<string, unknown> | null) ?? null, after: (r.after as Record<string, unknown> | null) ?? null,
      })),
      total: Number(n), current: p.current, pageSize: p.pageSize,
    };
  }

  /** Location, remark and balance type of up to 10,000 items at once: one statement, a change row per item, one audit row. */
  async batchUpdate(b: BodyOf<typeof api.batchUpdateStock>, ctx: SessionContext) {
    staffOnly(ctx.actor);
    const iccids = [...new Set(b.iccids.map((s) => s.trim()).filter(Boolean))];
    checkSelectionSize(iccids.length);
    const location = b.location?.trim();
    const remark = b.remark?.trim();
    if (location === undefined && remark === undefined && b.balanceType === undefined) throw new AppError(ErrorCode.StockNothingToUpdate);
    checkTexts(location, remark);
    const updated = await this.db.transaction(async (tx) => {
      const [r] = rowsOf<{ n: number }>(await tx.execute(sql`
        with old as (
          select iccid, location, remark, balance_type from stock_items where iccid = any(${sql.param(iccids)}::text[]) for update
        ), upd as (
          update stock_items s set location = coalesce(${location ?? null}::text, s.location), remark = coalesce(${remark ?? null}::text, s.remark),
            balance_type = coalesce(${b.balanceType ?? null}::smallint, s.balance_type), updated_at = now()
          from old where s.iccid = old.iccid returning s.iccid
        ), ch as (
          insert into stock_changes (iccid, change_id, kind, login_name, before, after)
          select iccid, gen_random_uuid(), ${StockChangeKind.Updated}::smallint, ${ctx.actor.loginName}::text,
            jsonb_build_object('location', location, 'remark', remark, 'balanceType', balance_type),
            jsonb_strip_nulls(jsonb_build_object('location', ${location ?? null}::text, 'remark', ${remark ?? null}::text, 'balanceType', ${b.balanceType ?? null}::int))
          from old
        ) select count(*)::int n from upd`));
      await audit(tx, ctx, {
        entity: 'stockItems', entityId: null, custId: null, rootCustId: null,
        after: { iccids: iccids.length > 100 ? `${iccids.length} items` : iccids, location, remark, balanceType: b.balanceType, updated: Number(r.n) },
      });
      return Number(r.n);
    });
    return { updated };
  }
}

/** spec §9: at most 10,000 items at once; more is refused with the spec's "narrow the filters". */
export function checkSelectionSize(count: number): void {
  if (count === 0) throw new AppError(ErrorCode.StockSelectionEmpty);
  if (count > api.STOCK_BATCH_MAX) throw new AppError(ErrorCode.StockSelectionTooLarge, { count, max: api.STOCK_BATCH_MAX });
}

/** spec §5: a remark has at most 10 characters; a location at most 32. */
export function checkTexts(location: string | undefined, remark: string | undefined): void {
  if (remark !== undefined && [...remark].length > api.STOCK_REMARK_MAX) {
    throw new AppError(ErrorCode.StockRemarkTooLong, { max: api.STOCK_REMARK_MAX }, 200, { field: 'remark' });
  }
  if (location !== undefined && [...location].length > api.STOCK_LOCATION_MAX) {
    throw new AppError(ErrorCode.StockLocationTooLong, { max: api.STOCK_LOCATION_MAX }, 200, { field: 'location' });
  }
}
