/*
 * Deep links into the card list (issue 12): other screens (the Home overview's numbers and bars) open
 * /card/card-list/list?states=64&online=true with the filters in the URL's search params. This module turns such
 * a URL into the card list's filters and back. Unknown keys and malformed values are ignored, so a hand-edited or
 * outdated link never breaks the list.
 */

type Kind = 'int' | 'intList' | 'bool' | 'digits' | 'text' | 'date' | 'uuid' | readonly string[];

/** The card list filters a link may carry, by the type of their value. */
export const DEEP_LINK_FILTERS = {
  iccid: 'digits', msisdn: 'digits', imsi: 'digits', states: 'intList', custId: 'int', goodsReleaseId: 'int', operatorId: 'int',
  poolId: 'int', cardTypeId: 'int', labelIds: 'intList', batch: 'text', online: 'bool',
  quotaLevel: ['near', 'over'], alertsFrom: 'date', batchFailedFrom: 'date', failedBatchId: 'uuid',
} as const satisfies Record<string, Kind>;
export type DeepLinkKey = keyof typeof DEEP_LINK_FILTERS;

/** Filters a link can set that have no field in the search form: shown as removable tags above the list. */
export const LINK_ONLY_FILTERS = ['alertsFrom', 'batchFailedFrom', 'failedBatchId'] as const;
export type LinkOnlyKey = (typeof LINK_ONLY_FILTERS)[number];

export const CARD_LIST_PATH = '/card/card-list/list';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const isInt = (s: string) => /^-?\d{1,10}$/.test(s) && Number.isSafeInteger(Number(s));

function parseValue(kind: Kind, raw: string): unknown {
  const v = raw.trim();
  if (Array.isArray(kind)) return kind.includes(v) ? v : undefined;
  switch (kind) {
    case 'int': return isInt(v) ? Number(v) : undefined;
    case 'intList': {
      const parts = v.split(',').map((p) => p.trim()).filter(Boolean);
      return parts.length > 0 && parts.length <= 20 && parts.every(isInt) ? [...new Set(parts.map(Number))] : undefined;
    }
    case 'bool': return v === 'true' ? true : v === 'false' ? false : undefined;
    case 'digits': return /^\d{1,20}$/.test(v) ? v : undefined;
    case 'text': return v.length > 0 && v.length <= 64 ? v : undefined;
    // a real calendar day (2026-02-30 is not)
    case 'date': {
      const at = /^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(`${v}T00:00:00Z`) : Number.NaN;
      return !Number.isNaN(at) && new Date(at).toISOString().startsWith(v) ? v : undefined;
    }
    case 'uuid': return UUID.test(v) ? v : undefined;
    default: return undefined;
  }
}

/** The card list filters in a URL's search string; null when it carries none (a plain visit). */
export function filtersFromSearch(search: string): Record<string, unknown> | null {
  const params = new URLSearchParams(search);
  const out: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(DEEP_LINK_FILTERS) as [DeepLinkKey, Kind][]) {
    const raw = params.get(key);
    if (raw === null) continue;
    const value = parseValue(kind, raw);
    if (value !== undefined) out[key] = value;
  }
  return Object.keys(out).length ? out : null;
}

/** A link to the card list showing the cards that match these filters. */
export function cardListLink(filters: Partial<Record<DeepLinkKey, unknown>>): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(DEEP_LINK_FILTERS) as DeepLinkKey[]) {
    const v = filters[key];
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    params.set(key, Array.isArray(v) ? v.join(',') : String(v));
  }
  const q = params.toString();
  return q ? `${CARD_LIST_PATH}?${q}` : CARD_LIST_PATH;
}

/**
 * A link's filters split into the search form's values (what the form shows and submits) and the link-only ones
 * (kept beside the form until removed).
 */
export function splitLinkFilters(filters: Record<string, unknown>): { form: Record<string, unknown>; linkOnly: Partial<Record<LinkOnlyKey, string>> } {
  const form: Record<string, unknown> = {};
  const linkOnly: Partial<Record<LinkOnlyKey, string>> = {};
  for (const [k, v] of Object.entries(filters)) {
    if ((LINK_ONLY_FILTERS as readonly string[]).includes(k)) linkOnly[k as LinkOnlyKey] = String(v);
    // the form's online field holds yes / no
    else if (k === 'online') form.online = v ? 'yes' : 'no';
    else form[k] = v;
  }
  return { form, linkOnly };
}
