import { create } from 'zustand';

export const TAB_LIMIT = 20;

export interface Tab {
  /** the pathname: detail, copy, edit and change-log pages are cached per id because their paths differ */
  key: string;
  search: string;
  titleKey: string;
  /** bumped by "reload" to remount the page */
  seq: number;
  lastUsed: number;
}

/** Spec §2: pages under these sub-paths never become tabs. */
const EXCLUDED = [
  /\/card\/card-list\/numcard(\/|$)/,
  /^\/billing\/package\/list\/[^/]+/,
  /^\/financial\/cancel-bill\/list\/[^/]+/,
  /^\/billing\/bill\/list\/(fenrun|spending)(\/|$)/,
  /^\/billing\/orderCenter\/orders\/list\/[^/]+/,
  /^\/operator\/platformConfig\/(add|edit)(\/|$)/,
];
export const isExcludedFromTabs = (pathname: string) => EXCLUDED.some((re) => re.test(pathname));

/** Opens or focuses a tab; past the limit the least recently used other tab is closed. */
export function openTab(tabs: Tab[], next: Omit<Tab, 'seq' | 'lastUsed'>, now: number): Tab[] {
  const found = tabs.find((t) => t.key === next.key);
  if (found) return tabs.map((t) => (t.key === next.key ? { ...t, ...next, lastUsed: now } : t));
  let out = [...tabs, { ...next, seq: 0, lastUsed: now }];
  while (out.length > TAB_LIMIT) {
    const victim = out.filter((t) => t.key !== next.key).reduce((a, b) => (a.lastUsed <= b.lastUsed ? a : b));
    out = out.filter((t) => t !== victim);
  }
  return out;
}

/** Closes a tab; returns the tabs and the tab to show next when the closed one was active. */
export function closeTab(tabs: Tab[], key: string): { tabs: Tab[]; next: Tab | null } {
  const i = tabs.findIndex((t) => t.key === key);
  if (i < 0) return { tabs, next: null };
  const rest = tabs.filter((t) => t.key !== key);
  return { tabs: rest, next: rest[i] ?? rest[i - 1] ?? null };
}

export const closeOthers = (tabs: Tab[], key: string) => tabs.filter((t) => t.key === key);
export const reloadTab = (tabs: Tab[], key: string) => tabs.map((t) => (t.key === key ? { ...t, seq: t.seq + 1 } : t));

/** Record names published by pages, keyed by page path; a name outlives its page being hidden, not its tab. */
export type PageNames = Readonly<Record<string, string>>;

/** The names of the pages still open as tabs. */
export function pruneNames(names: PageNames, tabs: Tab[]): PageNames {
  const open = new Set(tabs.map((t) => t.key));
  const out: Record<string, string> = {};
  for (const [key, name] of Object.entries(names)) if (open.has(key)) out[key] = name;
  return out;
}

/** Sets or removes one page's name; returns the same object when nothing changes. */
export function withName(names: PageNames, key: string, name: string | null): PageNames {
  if (name ? names[key] === name : !(key in names)) return names;
  const { [key]: _old, ...rest } = names;
  return name ? { ...rest, [key]: name } : rest;
}

interface TabsState {
  tabs: Tab[];
  /** what the page at a path shows (plan name, pool name, ICCID…): its tab and breadcrumb use it */
  names: PageNames;
  open(tab: Omit<Tab, 'seq' | 'lastUsed'>): void;
  close(key: string): Tab | null;
  closeOthers(key: string): void;
  reload(key: string): void;
  clear(): void;
  setName(key: string, name: string | null): void;
}

export const useTabs = create<TabsState>((set, get) => ({
  tabs: [],
  names: {},
  open: (tab) => {
    const tabs = openTab(get().tabs, tab, Date.now());
    set({ tabs, names: pruneNames(get().names, tabs) });
  },
  close: (key) => {
    const r = closeTab(get().tabs, key);
    set({ tabs: r.tabs, names: pruneNames(get().names, r.tabs) });
    return r.next;
  },
  closeOthers: (key) => {
    const tabs = closeOthers(get().tabs, key);
    set({ tabs, names: pruneNames(get().names, tabs) });
  },
  reload: (key) => set({ tabs: reloadTab(get().tabs, key) }),
  clear: () => set({ tabs: [], names: {} }),
  setName: (key, name) => {
    const names = withName(get().names, key, name);
    if (names !== get().names) set({ names });
  },
}));
