import type { QueryClient } from '@tanstack/react-query';
import { isLoggedIn, useSession } from '../stores/session.ts';
import { routes } from './table.tsx';
import { allowed, flatten, matchRoute } from './derive.ts';
import { hotPages } from './hot.ts';
import { preloadPage } from './loaded.ts';

const flat = flatten(routes);
let last: string | null = null;

/**
 * Called as soon as the console knows where it goes (a deep link at start, every navigation): starts the chunk of the
 * page the URL shows and, when its route has a `data` module, the page's first data request, both before the shell
 * renders the page. Only for a page the signed-in user may open (the same check as the menu and KeepAlive).
 */
export function prefetchRoute(client: QueryClient, location: { pathname: string; search: string }): void {
  const key = location.pathname + location.search;
  if (key === last) return;
  const s = useSession.getState();
  if (!isLoggedIn(s) || s.mustResetPassword) return;
  const match = matchRoute(flat, location.pathname);
  if (!match) return;
  const viewer = { permissions: s.permissions, roleId: s.roleId };
  if (![...match.route.parents, match.route.def].every((d) => allowed(d, viewer))) return;
  last = key;
  const { page, data } = match.route.def;
  // a chunk that does not load is reported by LazyPage when the page renders
  void preloadPage(page!).catch(() => undefined);
  data?.().then((m) => m.prefetch({ client, search: location.search }), () => undefined);
}

/** Once the shell is idle: the chunks of the most used pages, so opening them from the menu waits for no download. */
export function prefetchHotPages(): () => void {
  const run = () => {
    for (const load of [hotPages.cardList, hotPages.home]) void preloadPage(load).catch(() => undefined);
  };
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: 3000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 1500);
  return () => clearTimeout(id);
}
