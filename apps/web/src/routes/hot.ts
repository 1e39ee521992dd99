import { preloadPage } from './loaded.ts';

/**
 * The chunks a console URL needs, startable before the route table is there: the boot (app/main.tsx) starts the shell
 * and the most used pages together with the console's code, instead of one import wave after the other (entry → shell
 * → page). The route table and the router use the same functions.
 */
export const loadLayout = () => import('../layout/BasicLayout.tsx');

export const hotPages = {
  home: () => import('../pages/home/index/index.tsx'),
  cardList: () => import('../pages/card/card-list/list/index.tsx'),
};

/** Starts the shell's and, when the URL names a hot page, that page's chunks (no-op on the open pages). */
export function preloadFor(pathname: string): void {
  if (pathname.startsWith('/login') || pathname.startsWith('/register')) return;
  void preloadPage(loadLayout).catch(() => undefined);
  if (pathname === '/' || pathname === '/home' || pathname.startsWith('/home/index')) void preloadPage(hotPages.home).catch(() => undefined);
  else if (pathname.startsWith('/card/card-list/list')) void preloadPage(hotPages.cardList).catch(() => undefined);
}
