// The card list's catalogue search items (label, card type, first-use date, custom fields) and the label and
// card type names of a page of cards. Every filter here is served by an index of migration 0013 except the
// custom fields' "contains" match, which reads the rows the other filters (at least the tenant) select.
import { eq, gte, ilike, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { businessDayStart, businessDayEnd } from '@lynx/contract';
import type { BodyOf, carddata } from '@lynx/contract';
import type { Executor } from '../../../db/client.ts';
import type { Actor } from '../../../platform/context.ts';
import { contains } from '../../../platform/paging.ts';
import { cards } from '../card-tables.ts';
import { LabelService } from '../labels.ts';
import { cardTypeNamesById } from '../catalog/card-types.ts';
import { PoolService } from '../../pool/pool-service.ts';

type Query = BodyOf<typeof carddata.getSimListPage>;
/** The columns a card list page shows (not the whole row: the lifecycle columns stay in the database). */
export const CARD_LIST_COLUMNS = {
  iccid: cards.iccid, msisdn: cards.msisdn, imsi: cards.imsi, imei: cards.imei, state: cards.state, operatorId: cards.operatorId,
  custId: cards.custId, goodsReleaseId: cards.goodsReleaseId, batchId: cards.batchId, batchNo: cards.batchNo, labelIds: cards.labelIds,
  cardTypeId: cards.cardTypeId, custom1: cards.custom1, custom2: cards.custom2, online: cards.online, euicc: cards.euicc,
  lastSessionAt: cards.lastSessionAt, activatedAt: cards.activatedAt, firstUsedAt: cards.firstUsedAt, createdAt: cards.createdAt,
  poolId: cards.poolId, cycleUsedBytes: cards.cycleUsedBytes, cycleQuotaBytes: cards.cycleQuotaBytes, cycleFrom: cards.cycleFrom, cycleTo: cards.cycleTo,
};
type CardRow = Pick<typeof cards.$inferSelect, keyof typeof CARD_LIST_COLUMNS>;
export type CardListRow = CardRow;

const likePrefix = (s: string) => `${s.replace(/[%_\\]/g, '\\$&')}%`;

function customFilter(col: typeof cards.custom1 | typeof cards.custom2, value: string | undefined, match: 'exact' | 'prefix' | 'contains' | undefined): SQL | null {
  const v = value?.trim();
  if (!v) return null;
  if (match === 'contains') return ilike(col, contains(v));
  if (match === 'prefix') return sql`${col} like ${likePrefix(v)}`;
  return eq(col, v);
}

/** The catalogue search items as conditions on cards (GIN on label_ids, btree on card type, first use, custom fields). */
export function catalogFilters(q: Query): SQL[] {
  const w: SQL[] = [];
  if (q.labelIds?.length) {
    const ids = sql`${sql.param([...new Set(q.labelIds)])}::int[]`;
    w.push(q.labelMatch === 'all' ? sql`${cards.labelIds} @> ${ids}` : sql`${cards.labelIds} && ${ids}`);
  }
  if (q.cardTypeId !== undefined) w.push(eq(cards.cardTypeId, q.cardTypeId));
  // the partial index cards_pool_ix (pool_id, iccid) serves it in ICCID order; the tenant filter still applies,
  // so another tenant's pool id matches none of the caller's cards
  if (q.poolId !== undefined) w.push(eq(cards.poolId, q.poolId));
  if (q.firstUsedFrom) w.push(gte(cards.firstUsedAt, businessDayStart(q.firstUsedFrom)));
  if (q.firstUsedTo) w.push(lt(cards.firstUsedAt, businessDayEnd(q.firstUsedTo)));
  for (const f of [customFilter(cards.custom1, q.custom1, q.custom1Match), customFilter(cards.custom2, q.custom2, q.custom2Match)]) if (f) w.push(f);
  return w;
}

/**
 * The labels the caller may see, the card type names and the pool names of a page's cards (three small IN lookups, side
 * by side), as a function giving one card's catalogue fields (the caller builds each row once: spreading a whole row
 * again per card cost more than the lookups).
 */
export async function catalogOf(ex: Executor, actor: Actor, rows: CardRow[]) {
  const labelIds = [...new Set(rows.flatMap((r) => r.labelIds))];
  const typeIds = [...new Set(rows.map((r) => r.cardTypeId).filter((v): v is number => v != null))];
  const poolIds = [...new Set(rows.map((r) => r.poolId).filter((v): v is number => v != null))];
  const [labels, types, pools] = await Promise.all([LabelService.namesFor(ex, actor, labelIds), cardTypeNamesById(ex, typeIds), PoolService.namesFor(ex, actor, poolIds)]);
  return (r: CardRow) => {
    const type = r.cardTypeId != null ? types.get(r.cardTypeId) : undefined;
    const shown = [];
    for (const id of r.labelIds) {
      const l = labels.get(id);
      if (l) shown.push(l);
    }
    return {
      labels: shown,
      cardTypeId: r.cardTypeId,
      cardTypeNameZh: type?.nameZh ?? null,
      cardTypeNameEn: type?.nameEn ?? null,
      // a pool the caller may not open is not shown (a second-level customer's card in its parent's pool)
      poolId: r.poolId != null && pools.has(r.poolId) ? r.poolId : null,
      poolName: r.poolId != null ? (pools.get(r.poolId)?.name ?? null) : null,
    };
  };
}

/** Export cells: label names, and the card type in both languages (the writer takes the one of the export's language). */
export function exportCatalogColumns<T extends { labels: { name: string }[]; cardTypeNameZh: string | null; cardTypeNameEn: string | null }>(r: T) {
  const zh = r.cardTypeNameZh;
  const en = r.cardTypeNameEn;
  // the card type in the export's language (a catalogue name, docs/decisions.md)
  return { ...r, labelNames: r.labels.map((l) => l.name).join(', '), cardTypeName: zh || en ? { zh: zh ?? en, en: en ?? zh } : null };
}

/** A label filter matching at most this many cards reads them through the GIN index and sorts them (see below). */
export const LABEL_FENCE_MAX = 10_000;

/**
 * The page of a label-filtered list when few cards match. A GIN index cannot return cards in ICCID order, so
 * for `label_ids && … ORDER BY iccid LIMIT n` PostgreSQL walks the primary key and tests each card; with a rare
 * label (or one carried by the last ICCIDs) that walk reads most of the table. The count comes first (it reads
 * the GIN bitmap anyway); when it is at most LABEL_FENCE_MAX the page is taken from the bitmap-read matches in
 * a subquery the planner cannot merge (OFFSET 0), sorted in memory, and the rows are then read by primary key.
 * Returns null without a label filter; `rows` is null when the count is large (the ordinary path is fast then:
 * the walk meets a match every few dozen cards).
 */
export async function labelFilteredPage(
  ex: Executor, q: Query, cond: SQL, page: { limit: number; offset: number },
): Promise<{ total: number; rows: CardRow[] | null } | null> {
  if (!q.labelIds?.length) return null;
  const counted = (await ex.execute(sql`select count(*)::int as n from ${cards} where ${cond}`)) as unknown as { rows: { n: number }[] };
  const total = Number(counted.rows[0].n);
  if (total > LABEL_FENCE_MAX) return { total, rows: null };
  const desc = q.sortOrder === 'descend' ? sql.raw('desc') : sql.raw('asc');
  const order = q.sortField === 'activatedAt' ? sql`m.activated_at ${desc} nulls last, m.iccid`
    : q.sortField === 'iccid' ? sql`m.iccid ${desc}`
      // the list's own usage orders (list.ts order())
      : q.sortField === 'cycleUsedKb' ? sql`m.used ${desc}, m.iccid ${desc}`
        : q.sortField === 'cycleUsedPercent' ? sql`m.pct ${desc} nulls ${sql.raw(q.sortOrder === 'descend' ? 'last' : 'first')}, m.iccid ${desc}`
          : sql`m.iccid`;
  const ids = (await ex.execute(sql`
    select m.iccid from (select ${cards.iccid} as iccid, ${cards.activatedAt} as activated_at, ${cards.cycleUsedBytes} as used, ${cards.cycleUsedPct} as pct
      from ${cards} where ${cond} offset 0) m
    order by ${order} limit ${page.limit} offset ${page.offset}`)) as unknown as { rows: { iccid: string }[] };
  const ordered = ids.rows.map((r) => r.iccid);
  if (!ordered.length) return { total, rows: [] };
  const rows = await ex.select(CARD_LIST_COLUMNS).from(cards).where(inArray(cards.iccid, ordered));
  const at = new Map(ordered.map((iccid, i) => [iccid, i]));
  return { total, rows: rows.sort((a, b) => at.get(a.iccid)! - at.get(b.iccid)!) };
}
