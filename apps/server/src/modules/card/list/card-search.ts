// The cards of the header search (issue 12): the caller's cards whose ICCID, MSISDN, IMSI or IMEI holds the digits,
// the best matches first. Read through the trigram index like the list's "contains" filter (fragment.ts).
import { and, eq, or, type SQL } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { search } from '@lynx/contract';
import type { Db, Executor } from '../../../db/client.ts';
import { tenantFilter, type Actor } from '../../../platform/context.ts';
import { customers } from '../../account/tables.ts';
import { cards } from '../card-tables.ts';
import { digitContains, fragmentRead } from './fragment.ts';

type CardHit = Static<typeof search.CardHit>;
type Field = CardHit['field'];
type How = CardHit['how'];

/**
 * How many matching cards are read to rank: the few a header shows come from these. A fragment matching more (a
 * short or common one) still shows matches and says there are more; the card list's "contains" filter has them all.
 */
export const CARD_SEARCH_SAMPLE = 50;
const FIELDS: Field[] = ['iccid', 'msisdn', 'imsi', 'imei'];
const HOW_RANK: Record<How, number> = { exact: 0, suffix: 1, prefix: 2, contains: 3 };

/** Where the digits are in a card: the best of its four numbers (exact, then the end as printed on a SIM, then …). */
export function matchOf(card: Record<Field, string | null>, digits: string): { field: Field; how: How } | null {
  let best: { field: Field; how: How } | null = null;
  for (const field of FIELDS) {
    const v = card[field];
    if (!v || !v.includes(digits)) continue;
    const how: How = v === digits ? 'exact' : v.endsWith(digits) ? 'suffix' : v.startsWith(digits) ? 'prefix' : 'contains';
    if (!best || HOW_RANK[how] < HOW_RANK[best.how]) best = { field, how };
  }
  return best;
}

/**
 * The caller's cards holding `digits` (6-20 digits, checked by the caller) in any of their numbers: whole numbers
 * (the b-trees find them however many cards hold the digits elsewhere) and a sample of the fragment's matches read
 * through the trigram index (fragment.ts `fragmentRead`), ranked by `matchOf` and ICCID. `more` when others match.
 */
export async function searchCards(db: Db, actor: Actor, digits: string, limit: number): Promise<{ items: CardHit[]; more: boolean }> {
  const columns = {
    iccid: cards.iccid, msisdn: cards.msisdn, imsi: cards.imsi, imei: cards.imei, state: cards.state, operatorId: cards.operatorId,
    custId: cards.custId, rootCustId: cards.rootCustId, custName: customers.custName,
  };
  const read = (ex: Executor, where: SQL, n: number) => ex.select(columns).from(cards).leftJoin(customers, eq(customers.custId, cards.custId)).where(where).limit(n);
  const tenant = tenantFilter(actor, { custId: cards.custId, rootCustId: cards.rootCustId });
  const [exact, sample] = await Promise.all([
    read(db, and(tenant, or(eq(cards.iccid, digits), eq(cards.msisdn, digits), eq(cards.imsi, digits)))!, limit + 1),
    fragmentRead(db, actor, or(...FIELDS.map((f) => digitContains(cards[f], digits)))!, CARD_SEARCH_SAMPLE, read),
  ]);
  const seen = new Map<string, CardHit>();
  for (const { custId: _c, rootCustId: _r, ...r } of [...exact, ...sample]) {
    if (seen.has(r.iccid)) continue;
    const m = matchOf(r, digits);
    if (m) seen.set(r.iccid, { ...r, ...m });
  }
  const ranked = [...seen.values()].sort((a, b) =>
    HOW_RANK[a.how] - HOW_RANK[b.how] || FIELDS.indexOf(a.field) - FIELDS.indexOf(b.field) || (a.iccid < b.iccid ? -1 : a.iccid > b.iccid ? 1 : 0));
  return { items: ranked.slice(0, limit), more: ranked.length > limit || sample.length >= CARD_SEARCH_SAMPLE };
}
