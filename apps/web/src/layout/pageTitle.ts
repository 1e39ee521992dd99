import { createContext, useContext, useEffect } from 'react';
import { useTabs } from '../stores/tabs.ts';

/**
 * The path of the page a component belongs to, set by the keep-alive slot around each page. A cached page
 * must not key anything by useLocation(), which follows the URL on screen (PITFALLS, Console).
 */
export const PageKeyContext = createContext<string | null>(null);

/**
 * A page publishes what its record is called (plan name, pool name, ICCID, short batch number) for its own
 * tab and breadcrumb; until then they show the route's title. The name is data and is not translated.
 * Outside the shell (unit tests of a page) it does nothing.
 */
export function usePageTitle(name: string | number | null | undefined) {
  const key = useContext(PageKeyContext);
  const setName = useTabs((s) => s.setName);
  const text = name === null || name === undefined ? '' : String(name).trim();
  // no cleanup: a hidden keep-alive page runs its effect cleanups but keeps its name; closing its tab drops it
  useEffect(() => {
    if (key && text) setName(key, text);
  }, [key, text, setName]);
}

/** The tab and breadcrumb text of a page: its route title, then the record's name once known. */
export const titleWithName = (title: string, name: string | undefined) => (name ? `${title} · ${name}` : title);

/** A short, readable form of a batch UUID for titles: its first 8 characters. */
export const shortBatchId = (batchId: string | null | undefined) => (batchId ? batchId.slice(0, 8) : '');
