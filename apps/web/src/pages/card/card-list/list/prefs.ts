import dayjs, { type Dayjs } from 'dayjs';

/*
 * The card list's remembered client state (spec §3 "card search items and per-card settings"): the columns
 * shown, the rows per page, the last search and whether "more filters" is open, kept in this browser per
 * login name, so two people sharing a browser keep their own settings and a different account never sees
 * another's last search.
 */

export interface CardListPrefs {
  /** column keys the user hid */
  hidden: string[];
  pageSize: number | null;
  /** the search form's values as last submitted (date ranges as YYYY-MM-DD pairs) */
  search: Record<string, unknown>;
  /** the search form's extra filters are open */
  moreFilters: boolean;
}

const KEY_PREFIX = 'lx_card_list_prefs:';
/** Search form fields holding a date range. */
export const DATE_RANGE_FIELDS = ['activated', 'firstUsed'] as const;
export const PAGE_SIZES = [10, 20, 50, 100] as const;
const EMPTY: CardListPrefs = { hidden: [], pageSize: null, search: {}, moreFilters: false };

export const prefsKey = (loginName: string) => `${KEY_PREFIX}${loginName.toLowerCase()}`;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage blocked
  }
}

/** What is stored for this login name; anything unreadable or malformed counts as nothing stored. */
export function loadCardListPrefs(loginName: string | null): CardListPrefs {
  const s = storage();
  if (!loginName || !s) return EMPTY;
  try {
    const raw = JSON.parse(s.getItem(prefsKey(loginName)) ?? 'null') as Partial<CardListPrefs> | null;
    if (!raw || typeof raw !== 'object') return EMPTY;
    return {
      hidden: Array.isArray(raw.hidden) ? raw.hidden.filter((k): k is string => typeof k === 'string') : [],
      pageSize: PAGE_SIZES.includes(raw.pageSize as 10) ? (raw.pageSize as number) : null,
      search: raw.search && typeof raw.search === 'object' && !Array.isArray(raw.search) ? raw.search : {},
      moreFilters: raw.moreFilters === true,
    };
  } catch {
    return EMPTY;
  }
}

export function saveCardListPrefs(loginName: string | null, patch: Partial<CardListPrefs>): CardListPrefs {
  const next = { ...loadCardListPrefs(loginName), ...patch };
  const s = storage();
  if (loginName && s) {
    try {
      s.setItem(prefsKey(loginName), JSON.stringify(next));
    } catch {
      /* quota or blocked storage: the settings simply are not remembered */
    }
  }
  return next;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** Form values → storable JSON: empty fields dropped, date ranges as day strings. */
export function serializeSearch(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    if (isEmpty(v)) continue;
    if ((DATE_RANGE_FIELDS as readonly string[]).includes(k)) {
      const r = v as [Dayjs | null, Dayjs | null];
      if (r[0] && r[1]) out[k] = [r[0].format('YYYY-MM-DD'), r[1].format('YYYY-MM-DD')];
      continue;
    }
    out[k] = v;
  }
  return out;
}

/** Stored search → form values (day strings back to dates; broken dates dropped). */
export function restoreSearch(stored: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(stored)) {
    if ((DATE_RANGE_FIELDS as readonly string[]).includes(k)) {
      if (!Array.isArray(v) || v.length !== 2) continue;
      const [a, b] = v.map((d) => dayjs(String(d), 'YYYY-MM-DD'));
      if (a.isValid() && b.isValid()) out[k] = [a, b];
      continue;
    }
    out[k] = v;
  }
  return out;
}

/**
 * The catalogue search items of the form → list filters: the first-use range as days; a match mode only
 * when its field has a value (so an untouched selector never becomes a filter).
 */
export function catalogSearchValues(v: Record<string, any>): Record<string, any> {
  const { firstUsed, labelMatch, custom1Match, custom2Match, ...rest } = v as {
    firstUsed?: [Dayjs, Dayjs] | null; labelMatch?: string; custom1Match?: string; custom2Match?: string;
  } & Record<string, any>;
  const has = (k: string) => !isEmpty(typeof rest[k] === 'string' ? rest[k].trim() : rest[k]);
  return {
    ...rest,
    ...(typeof rest.custom1 === 'string' ? { custom1: rest.custom1.trim() || undefined } : {}),
    ...(typeof rest.custom2 === 'string' ? { custom2: rest.custom2.trim() || undefined } : {}),
    ...(firstUsed?.[0] ? { firstUsedFrom: firstUsed[0].format('YYYY-MM-DD'), firstUsedTo: firstUsed[1].format('YYYY-MM-DD') } : {}),
    ...(labelMatch === 'all' && has('labelIds') ? { labelMatch } : {}),
    ...(custom1Match && custom1Match !== 'exact' && has('custom1') ? { custom1Match } : {}),
    ...(custom2Match && custom2Match !== 'exact' && has('custom2') ? { custom2Match } : {}),
  };
}
