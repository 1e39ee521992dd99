// Card numbers matched by a fragment ("contains", issue 12; docs/cards.md "Search", docs/performance.md "Card fragment
// search"): at least CARD_FRAGMENT_MIN digits anywhere in the ICCID, MSISDN, IMSI or IMEI, served by the trigram
// index cards_search_gin (migration 0018), which also holds the tenant columns (`fragmentRead`: when a customer's
// search uses them).
//
// Why the match set is always read through that index, and why a page is sorted from it: the planner estimates
// `iccid LIKE '%…%'` from 100 sampled values, and both ways it guesses wrong cost a whole table. A fragment found in
// 1-2 of the samples but in one real card ('600000') was "common", so it read all 1,000,000 cards (0.5 s); a
// fragment that is common but clustered at the end of the ICCID order ('860390', one operator's issuer code) was
// "rare" or "common" by turns and walked 700,000 cards in ICCID order before the first match (1 s). So:
// - the matches are read through the index, with the other plans switched off for that one statement, at most
//   CARD_LIST_COUNT_CAP + 1 of them (`fragmentSample`): the cost is the index's candidates plus ≤ 10,001 rows;
// - up to CARD_LIST_COUNT_CAP matches, the count is exact and the page is sorted from them in memory (like a rare
//   label, catalog.ts) and read by key;
// - beyond it there are at least 10,001 matches, the total is shown as "more than 10,000" and the page walks the
//   list's order with the same test written as `strpos` (which the trigram index cannot serve): with that many
//   matches the walk meets one every few rows, unless they all sit in one block late in the ICCID order;
// - a statement that still runs longer than FRAGMENT_TIMEOUT_MS (PostgreSQL; a fragment made of one or two repeated
//   3-digit pieces, like '000000' or '121212', that occurs in a large part of the fleet) is stopped and answered
//   with 20701 "type more digits": a guard for the database, not a path a real search takes.
import { and, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { ErrorCode, carddata, search, type BodyOf } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError } from '../../../platform/errors.ts';
import { canSeeTenant, isStaff, tenantFilter, type Actor } from '../../../platform/context.ts';
import { cards } from '../card-tables.ts';
import { digitPrefix } from './iccid-prefix.ts';
import { CARD_LIST_COLUMNS, type CardListRow } from './catalog.ts';

type Query = BodyOf<typeof carddata.getSimListPage>;
const { CARD_FRAGMENT_MIN } = search;

/** A fragment search statement running longer than this on PostgreSQL is stopped (20701). */
export const FRAGMENT_TIMEOUT_MS = 3000;
const FENCE = carddata.CARD_LIST_COUNT_CAP;
const DIGITS = /^[0-9]+$/;

/** `LIKE` pattern for "contains" (`%`, `_` and `\` taken literally; the contracts only let digits through). */
export const containsPattern = (d: string) => `%${d.replace(/[%_\\]/g, '\\$&')}%`;

/**
 * "col contains d". `index`: LIKE, which the trigram index serves (the fragment path reads matches with it);
 * `walk`: the same test as strpos, which it cannot, so a query ordered by ICCID walks that order instead.
 */
export function digitContains(col: AnyColumn, d: string, how: 'index' | 'walk' = 'index'): SQL {
  return how === 'walk' ? sql`strpos(${col}, ${d}) > 0` : sql`${col} like ${containsPattern(d)}`;
}

/** Refuses a "contains" fragment shorter than CARD_FRAGMENT_MIN digits, naming the field. */
export function checkFragment(field: string, d: string): void {
  if (d.length < CARD_FRAGMENT_MIN || !DIGITS.test(d)) throw new AppError(ErrorCode.CardFragmentTooShort, { min: CARD_FRAGMENT_MIN }, 400, { field });
}

/** A number filter of the card list (MSISDN, IMSI; the ICCID's own default is in list.ts): exact, prefix or contains. */
export function numberFilter(col: AnyColumn, field: string, value: string, mode: carddata.NumberMatchMode | undefined, how: 'index' | 'walk'): SQL {
  if (mode === 'contains') {
    checkFragment(field, value);
    return digitContains(col, value, how);
  }
  if (mode === 'prefix') return digitPrefix(col, value);
  return eq(col, value);
}

/** The list filters that match by fragment. */
export const hasFragment = (q: Query) =>
  (q.iccidMatch === 'contains' && !!q.iccid) || (q.msisdnMatch === 'contains' && !!q.msisdn) || (q.imsiMatch === 'contains' && !!q.imsi);

const isTimeout = (e: unknown) => {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code === '57014' || err?.cause?.code === '57014';
};

/**
 * Runs `read` with the trigram index as the only way to the cards (sequential and ordered index scans switched off for
 * this transaction) and a time limit: the planner's estimate for a fragment cannot be trusted (see the top of the file).
 */
export async function viaFragmentIndex<T>(db: Db, read: (ex: Executor) => Promise<T>, timeoutMs = FRAGMENT_TIMEOUT_MS): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      // PGlite has no statement timeout (one in-process query at a time, no timer signal): the limit applies on PostgreSQL
      await tx.execute(sql`select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true),
        set_config('enable_indexonlyscan', 'off', true), set_config('statement_timeout', ${String(timeoutMs)}, true)`);
      return read(tx);
    });
  } catch (e) {
    if (isTimeout(e)) throw new AppError(ErrorCode.CardFragmentTooBroad);
    throw e;
  }
}

/**
 * How many of the whole fleet's matches are read before the tenant is put into the index condition. The trigram index
 * also holds the tenant columns, so a customer's search intersects its own cards with the fragment's pieces in the
 * index: that keeps a small customer fast when the fragment is common elsewhere, but walking a large customer's entry
 * costs about 40 ns a card (15-20 ms for a first-level customer of 500,000 cards) where a rare fragment's few matches,
 * read for the whole fleet and filtered, cost 1-3 ms. So a customer's fragment is first read for the whole fleet up
 * to this many matches: when there are fewer, they are all of them and the tenant's are picked out; otherwise the
 * tenant's matches are read with the tenant in the index (docs/performance.md "Card fragment search").
 */
export const FLEET_PROBE = 2000;

type Tenanted = { custId: number | null; rootCustId: number | null };

/**
 * The caller's cards meeting `cond` (a fragment condition, without the tenant), at most `limit`, read through the
 * trigram index as FLEET_PROBE describes; `read` runs the query for a condition and a row limit and returns rows with
 * their tenant columns.
 */
export async function fragmentRead<R extends Tenanted>(
  db: Db, actor: Actor, cond: SQL, limit: number, read: (ex: Executor, where: SQL, limit: number) => Promise<R[]>,
): Promise<R[]> {
  return viaFragmentIndex(db, async (ex) => {
    if (!isStaff(actor)) {
      const fleet = await read(ex, cond, FLEET_PROBE);
      if (fleet.length < FLEET_PROBE) return fleet.filter((r) => canSeeTenant(actor, r)).slice(0, limit);
    }
    return read(ex, and(tenantFilter(actor, { custId: cards.custId, rootCustId: cards.rootCustId }), cond)!, limit);
  });
}

/**
 * The page of a list with a "contains" filter (`cond`: the list's filters without the tenant). Reads at most FENCE + 1
 * of the caller's matches through the trigram index; up to FENCE the total is exact and the page is sorted from them
 * (then read by key); beyond, `rows` is null: the caller walks its order with the `walk` form of the filter and shows
 * the total as capped.
 */
export async function fragmentFilteredPage(
  db: Db, q: Query, actor: Actor, cond: SQL, page: { limit: number; offset: number },
): Promise<{ total: number; capped: boolean; rows: CardListRow[] | null }> {
  const matches = await fragmentRead(db, actor, cond, FENCE + 1, (ex, where, n) =>
    ex.select({
      iccid: cards.iccid, activatedAt: cards.activatedAt, custId: cards.custId, rootCustId: cards.rootCustId, used: cards.cycleUsedBytes, pct: cards.cycleUsedPct,
    }).from(cards).where(where).limit(n));
  if (matches.length > FENCE) return { total: FENCE, capped: true, rows: null };
  const desc = q.sortOrder === 'descend';
  const byIccid = (a: { iccid: string }, b: { iccid: string }) => (a.iccid < b.iccid ? -1 : a.iccid > b.iccid ? 1 : 0);
  if (q.sortField === 'activatedAt') {
    // nulls last in both directions, ties by ICCID (the list's own order)
    matches.sort((a, b) => {
      if (!a.activatedAt || !b.activatedAt) return a.activatedAt ? -1 : b.activatedAt ? 1 : byIccid(a, b);
      const d = a.activatedAt.getTime() - b.activatedAt.getTime();
      return (desc ? -d : d) || byIccid(a, b);
    });
  } else if (q.sortField === 'cycleUsedKb') {
    // ties by ICCID in the same direction (the list's own order)
    matches.sort((a, b) => (desc ? -1 : 1) * (Number(a.used) - Number(b.used) || byIccid(a, b)));
  } else if (q.sortField === 'cycleUsedPercent') {
    // no quota: last when sorting down, first when sorting up (the list's own order)
    matches.sort((a, b) => (desc ? -1 : 1) * (a.pct == null || b.pct == null ? (a.pct == null ? -1 : 0) - (b.pct == null ? -1 : 0) : a.pct - b.pct) || (desc ? -1 : 1) * byIccid(a, b));
  } else {
    matches.sort((a, b) => (q.sortField === 'iccid' && desc ? -byIccid(a, b) : byIccid(a, b)));
  }
  const ordered = matches.slice(page.offset, page.offset + page.limit).map((m) => m.iccid);
  if (!ordered.length) return { total: matches.length, capped: false, rows: [] };
  const rows = await db.select(CARD_LIST_COLUMNS).from(cards).where(inArray(cards.iccid, ordered));
  const at = new Map(ordered.map((iccid, i) => [iccid, i]));
  return { total: matches.length, capped: false, rows: rows.sort((a, b) => at.get(a.iccid)! - at.get(b.iccid)!) };
}
