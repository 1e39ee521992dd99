import type { Dayjs } from 'dayjs';
import { carddata } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { useSession } from '../../../../stores/session.ts';
import { cleanFilters } from '../../../../components/filters.ts';
import type { PrefetchContext } from '../../../../routes/types.ts';
import { filtersFromSearch, splitLinkFilters } from './deepLink.ts';
import { catalogSearchValues, loadCardListPrefs, restoreSearch } from './prefs.ts';

/*
 * The card list's search form → its request, without the page's components: the page uses it, and the route-level
 * prefetch (routes/prefetch.ts) starts the list's first request with it while the page's chunk is still loading.
 */

type Transform = (values: Record<string, any>) => Record<string, unknown>;

export const NUMBER_MATCH_DEFAULTS = { iccidMatch: 'auto', msisdnMatch: 'exact', imsiMatch: 'exact' } as const;

/** The match modes of the form → the list's filters: only a mode that differs from the default and has a value. */
export function numberMatchFilters(v: Record<string, any>): Record<string, unknown> {
  const { iccidMatch, msisdnMatch, imsiMatch, ...rest } = v as Record<string, any>;
  const has = (k: 'iccid' | 'msisdn' | 'imsi') => typeof rest[k] === 'string' && rest[k].trim() !== '';
  return {
    ...rest,
    ...(iccidMatch && iccidMatch !== 'auto' && has('iccid') ? { iccidMatch } : {}),
    ...(msisdnMatch && msisdnMatch !== 'exact' && has('msisdn') ? { msisdnMatch } : {}),
    ...(imsiMatch && imsiMatch !== 'exact' && has('imsi') ? { imsiMatch } : {}),
  };
}

/** Default match modes of the catalogue search items. */
export const CATALOG_SEARCH_DEFAULTS = { labelMatch: 'any', custom1Match: 'exact', custom2Match: 'exact' } as const;

/** Form → filters for the whole card list: the catalogue items first, then the page's own transform. */
export const withCatalog = (transform: Transform): Transform => (v) => transform(catalogSearchValues(v));

/** Search form values → the list's filters (dates as days, online as a flag, the number match modes). */
export function cardFilters(v: Record<string, any>): Record<string, unknown> {
  const { activated, online, ...rest } = numberMatchFilters(v) as { activated?: [Dayjs, Dayjs] | null; online?: 'yes' | 'no' } & Record<string, unknown>;
  return {
    ...rest,
    ...(online ? { online: online === 'yes' } : {}),
    ...(activated?.[0] ? { activatedFrom: activated[0].format('YYYY-MM-DD'), activatedTo: activated[1].format('YYYY-MM-DD') } : {}),
  };
}

/** The whole search form → filters: the catalogue search items (label, card type, first use, custom fields) and the rest. */
export const searchFilters = withCatalog(cardFilters);

/** The list's first request as the page makes it (the remembered search or a link's filters, page 1). */
export function firstListBody(loginName: string | null, search: string): Record<string, unknown> {
  const prefs = loadCardListPrefs(loginName);
  const f = filtersFromSearch(search);
  const link = f ? splitLinkFilters(f) : null;
  const filters = link
    ? cleanFilters(searchFilters({ ...NUMBER_MATCH_DEFAULTS, ...CATALOG_SEARCH_DEFAULTS, ...link.form }))
    : cleanFilters(searchFilters({ ...CATALOG_SEARCH_DEFAULTS, ...restoreSearch(prefs.search) }));
  return { ...filters, ...link?.linkOnly, current: 1, pageSize: prefs.pageSize ?? 20 };
}

/** Starts the first page of cards with the chunk (menu click, deep link): the page finds it in the query cache. */
export function prefetch({ client, search }: PrefetchContext): void {
  const body = firstListBody(useSession.getState().loginName, search);
  const queryKey = [carddata.getSimListPage.name, body];
  if (client.getQueryState(queryKey)) return;
  void client.prefetchQuery({ queryKey, queryFn: ({ signal }) => call(carddata.getSimListPage, body as never, { signal }) });
}

