import { and, asc, count, desc, eq, gt, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { ErrorCode, carddata, type BodyOf, businessDayStart, businessDayEnd } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';
import { tenantFilter, type Actor } from '../../../platform/context.ts';
import { iso, pageOf } from '../../../platform/paging.ts';
import { customers } from '../../account/tables.ts';
import { basicPlans } from '../../plan/plan-tables.ts';
import { cards } from '../card-tables.ts';
import { iccidSearch } from './iccid-prefix.ts';
import { checkFragment, digitContains, fragmentFilteredPage, hasFragment, numberFilter } from './fragment.ts';
import { homeCardConditions, resolveHomeFilters, type HomeFilterFacts } from '../../home/card-filters.ts';
import { CARD_LIST_COLUMNS, catalogFilters, catalogOf, labelFilteredPage, type CardListRow } from './catalog.ts';

type Query = BodyOf<typeof carddata.getSimListPage>;
type CardRow = CardListRow;
/** A page row with its customer's and plan's names when the page query joined them. */
type NamedRow = CardRow & { custName?: string | null; planName?: string | null };

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const COUNT_CAP = carddata.CARD_LIST_COUNT_CAP;
/** The answer's total: exact up to the cap, else the cap with totalCapped (the screen shows "10,000+"). */
const capped = (n: number) => (n > COUNT_CAP ? { total: COUNT_CAP, totalCapped: true } : { total: n, totalCapped: false });
/** Dates on the screen are days in the business time zone (the operators' and customers' calendar). */

/** This cycle's usage of a card as the list shows it: KB, and % of the quota (none without a quota). */
export function cycleUsage(r: Pick<CardRow, 'cycleUsedBytes' | 'cycleQuotaBytes' | 'cycleFrom' | 'cycleTo'>) {
  const used = Number(r.cycleUsedBytes ?? 0);
  const quota = r.cycleQuotaBytes == null || Number(r.cycleQuotaBytes) <= 0 ? null : Number(r.cycleQuotaBytes);
  return {
    cycleUsedKb: used / 1024, cycleQuotaKb: quota === null ? null : quota / 1024,
    cycleUsedPercent: quota === null ? null : Math.round((used * 10_000) / quota) / 100, cycleFrom: r.cycleFrom ?? null, cycleTo: r.cycleTo ?? null,
  };
}

/**
 * The card list: one indexed query for the page and one for the total. Tenancy from the session: staff see
 * every card, a channel customer its own tree, a second-level customer its own cards; cards in the platform
 * stock (no customer) are seen by staff only.
 */
export class CardListService {
  /** last ICCID of an export's previous page, so a long export reads by key instead of by offset */
  private exportCursor = new Map<string, string>();

  constructor(private db: Db) {}

  /**
   * The search as a condition. A "contains" filter is written for the trigram index (`index`, the fragment path and the
   * batch and allocation selections) or as a plain string test for a walk in the list's order (`walk`, fragment.ts).
   */
  where(q: Query, actor: Actor, how: 'index' | 'walk' = 'index', facts: HomeFilterFacts = {}): SQL {
    return and(tenantFilter(actor, { custId: cards.custId, rootCustId: cards.rootCustId }), this.filters(q, actor, how, facts))!;
  }

  /**
   * The search's own conditions, without the caller's tenant (the fragment path applies that itself); the Home
   * filters look at pools and batches within the caller's tenant, hence the actor.
   */
  filters(q: Query, actor: Actor, how: 'index' | 'walk' = 'index', facts: HomeFilterFacts = {}): SQL {
    const w: SQL[] = [sql`true`];
    if (q.iccid && q.iccidMatch === 'contains') {
      checkFragment('iccid', q.iccid);
      w.push(digitContains(cards.iccid, q.iccid, how));
    } else if (q.iccid) {
      // a prefix is a key range of the primary key, never LIKE (iccid-prefix.ts, issue 12)
      w.push(iccidSearch(cards.iccid, q.iccid, q.iccidMatch === 'prefix' || (q.iccidMatch === undefined && q.iccid.length < 19)));
    }
    if (q.iccidStart || q.iccidEnd) {
      const s = q.iccidStart ?? '';
      const e = q.iccidEnd ?? '';
      if (!carddata.ICCID_RE.test(s) || !carddata.ICCID_RE.test(e) || s.length !== e.length || s > e) throw new AppError(ErrorCode.CardRangeInvalid, undefined, 400, { field: 'iccidStart' });
      // same-length digit strings compare like numbers
      w.push(gte(cards.iccid, s), sql`${cards.iccid} <= ${e}`, sql`length(${cards.iccid}) = ${s.length}`);
    }
    if (q.msisdn) w.push(numberFilter(cards.msisdn, 'msisdn', q.msisdn, q.msisdnMatch, how));
    if (q.imsi) w.push(numberFilter(cards.imsi, 'imsi', q.imsi, q.imsiMatch, how));
    if (q.states?.length) w.push(inArray(cards.state, q.states));
    if (q.custId !== undefined) w.push(or(eq(cards.custId, q.custId), eq(cards.rootCustId, q.custId))!);
    if (q.goodsReleaseId !== undefined) w.push(eq(cards.goodsReleaseId, q.goodsReleaseId));
    if (q.operatorId !== undefined) w.push(eq(cards.operatorId, q.operatorId));
    if (q.batch) w.push(UUID_RE.test(q.batch) ? eq(cards.batchId, q.batch) : eq(cards.batchNo, q.batch));
    if (q.activatedFrom) w.push(gte(cards.activatedAt, businessDayStart(q.activatedFrom)));
    if (q.activatedTo) w.push(lt(cards.activatedAt, businessDayEnd(q.activatedTo)));
    if (q.online !== undefined) w.push(eq(cards.online, q.online));
    w.push(...catalogFilters(q));
    // the Home overview's deep links: quota level, recent alerts, batch failures (home/card-filters.ts)
    w.push(...homeCardConditions(q, actor, facts));
    return and(...w)!;
  }

  private order(q: Query): SQL[] {
    const dir = q.sortOrder === 'descend' ? desc : asc;
    if (q.sortField === 'activatedAt') return [sql`${cards.activatedAt} ${sql.raw(q.sortOrder === 'descend' ? 'desc' : 'asc')} nulls last`, asc(cards.iccid)];
    if (q.sortField === 'iccid') return [dir(cards.iccid)];
    // this cycle's usage and % used: the ICCID breaks ties in the same direction, so one index per tenant scope serves
    // both directions (migration 0019); % used down puts the cards without a quota last, up first
    if (q.sortField === 'cycleUsedKb') return [dir(cards.cycleUsedBytes), dir(cards.iccid)];
    if (q.sortField === 'cycleUsedPercent') {
      return q.sortOrder === 'descend'
        ? [sql`${cards.cycleUsedPct} desc nulls last`, desc(cards.iccid)]
        : [sql`${cards.cycleUsedPct} asc nulls first`, asc(cards.iccid)];
    }
    return [asc(cards.iccid)];
  }

  async list(q: Query, actor: Actor, opts: { total?: boolean; after?: string } = {}) {
    const p = pageOf(q);
    const fragment = hasFragment(q);
    // a "contains" filter: the matches come from the trigram index, and when there are at most 10,000 so does the page;
    // with more (and for export pages) the list's order is walked with the filter written as a plain string test
    // the Home filters' plan depends on what they match (the alerted pools), looked up first in one small query
    const facts = await resolveHomeFilters(this.db, q, actor);
    const found = fragment && !opts.after && opts.total !== false ? await fragmentFilteredPage(this.db, q, actor, this.filters(q, actor, 'index', facts), p) : null;
    if (found?.rows) return { list: await this.named(actor, found.rows), ...capped(found.total), current: p.current, pageSize: p.pageSize };
    const cond = this.where(q, actor, fragment ? 'walk' : 'index', facts);
    // a label filter matching few cards: the page comes from the label index (card/list/catalog.ts)
    const labelled = opts.after || found ? null : await labelFilteredPage(this.db, q, cond, p);
    if (labelled?.rows) return { list: await this.named(actor, labelled.rows), ...capped(labelled.total), current: p.current, pageSize: p.pageSize };
    // the customer and plan names come with the page (two primary-key joins on its 20 rows, no extra round trip)
    const pageQuery = this.db
      .select({ ...CARD_LIST_COLUMNS, custName: customers.custName, planName: basicPlans.name })
      .from(cards)
      .leftJoin(customers, eq(customers.custId, cards.custId))
      .leftJoin(basicPlans, eq(basicPlans.goodsReleaseId, cards.goodsReleaseId))
      .where(opts.after ? and(cond, gt(cards.iccid, opts.after)) : cond)
      .orderBy(...this.order(q))
      .limit(p.limit)
      .offset(opts.after ? 0 : p.offset);
    // a separate count lets the page query stop at LIMIT along an index (count(*) over() would read every match);
    // the count stops after CARD_LIST_COUNT_CAP + 1 matches, so a filter matching a million cards costs what 10,001 do
    const [rows, total] = await Promise.all([
      pageQuery,
      opts.total === false ? Promise.resolve(Number.MAX_SAFE_INTEGER) : found ? Promise.resolve(COUNT_CAP + 1) : labelled ? Promise.resolve(labelled.total)
        : this.db.select({ n: count() }).from(this.db.select({ one: sql`1` }).from(cards).where(cond).limit(COUNT_CAP + 1).as('matched')).then((r) => Number(r[0].n)),
    ]);
    return { list: await this.named(actor, rows), ...(opts.total === false ? { total, totalCapped: false } : capped(total)), current: p.current, pageSize: p.pageSize };
  }

  /** One page for a download task: by key (ICCID order) from the previous page's last card when known. */
  async exportPage(q: Query, actor: Actor) {
    const keyed = !q.sortField || (q.sortField === 'iccid' && q.sortOrder !== 'descend');
    const { current = 1, pageSize: _s, ...filters } = q;
    const key = (n: number) => `${actor.accountId}|${JSON.stringify(filters)}|${n}`;
    const after = keyed && current > 1 ? this.exportCursor.get(key(current - 1)) : undefined;
    if (after) this.exportCursor.delete(key(current - 1));
    const page = await this.list(q, actor, { total: false, after });
    if (keyed && page.list.length) {
      if (this.exportCursor.size > 1000) this.exportCursor.clear();
      this.exportCursor.set(key(current), page.list[page.list.length - 1].iccid);
    }
    return page;
  }

  /** A page's rows with every name they show: all the look-ups run side by side (one round trip after the page). */
  /** A page's rows with every name they show, each row built once: the look-ups run side by side. */
  private async named(actor: Actor, rows: NamedRow[]) {
    const [names, catalog] = await Promise.all([this.names(rows), catalogOf(this.db, actor, rows)]);
    return rows.map((r) => ({
      iccid: r.iccid, msisdn: r.msisdn, imsi: r.imsi, imei: r.imei, state: r.state, operatorId: r.operatorId, custId: r.custId,
      custName: names.cust(r), goodsReleaseId: r.goodsReleaseId, planName: names.plan(r), batchId: r.batchId, batchNo: r.batchNo,
      labelIds: r.labelIds, custom1: r.custom1, custom2: r.custom2, online: r.online, euicc: r.euicc, lastSessionAt: iso(r.lastSessionAt),
      activatedAt: iso(r.activatedAt), firstUsedAt: iso(r.firstUsedAt), createdAt: r.createdAt.toISOString(), ...catalog(r), ...cycleUsage(r),
    }));
  }

  /** Customer and plan names for one page: joined by the page query, else (the label path) looked up by id. */
  private async names(rows: NamedRow[]) {
    if (rows.length > 0 && 'custName' in rows[0]) return { cust: (r: NamedRow) => r.custName ?? null, plan: (r: NamedRow) => r.planName ?? null };
    const custIds = [...new Set(rows.map((r) => r.custId).filter((v): v is number => v != null))];
    const planIds = [...new Set(rows.map((r) => r.goodsReleaseId).filter((v): v is number => v != null))];
    const [custs, plans] = await Promise.all([
      custIds.length ? this.db.select({ id: customers.custId, name: customers.custName }).from(customers).where(inArray(customers.custId, custIds)) : [],
      planIds.length ? this.db.select({ id: basicPlans.goodsReleaseId, name: basicPlans.name }).from(basicPlans).where(inArray(basicPlans.goodsReleaseId, planIds)) : [],
    ]);
    const custName = new Map(custs.map((c) => [c.id, c.name]));
    const planName = new Map(plans.map((c) => [c.id, c.name]));
    return {
      cust: (r: NamedRow) => (r.custId != null ? (custName.get(r.custId) ?? null) : null),
      plan: (r: NamedRow) => (r.goodsReleaseId != null ? (planName.get(r.goodsReleaseId) ?? null) : null),
    };
  }

}
