/*
 * Whether a list's "more filters" are open, remembered in this browser per login name and per list (the same
 * kind of per-login store as the card list's settings), so two people sharing a browser keep their own.
 */

const KEY_PREFIX = 'lx_search_more:';

export const moreFiltersKey = (loginName: string) => `${KEY_PREFIX}${loginName.toLowerCase()}`;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage blocked
  }
}

/** The lists whose extra filters this login keeps open; anything unreadable counts as none. */
function openLists(loginName: string): string[] {
  try {
    const raw = JSON.parse(storage()?.getItem(moreFiltersKey(loginName)) ?? 'null') as unknown;
    return Array.isArray(raw) ? raw.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

export function loadMoreFilters(loginName: string | null, listKey: string): boolean {
  return !!loginName && openLists(loginName).includes(listKey);
}

export function saveMoreFilters(loginName: string | null, listKey: string, open: boolean): void {
  const s = storage();
  if (!loginName || !s) return;
  const next = openLists(loginName).filter((k) => k !== listKey);
  try {
    s.setItem(moreFiltersKey(loginName), JSON.stringify(open ? [...next, listKey] : next));
  } catch {
    /* quota or blocked storage: the choice simply is not remembered */
  }
}
