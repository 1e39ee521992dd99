import { describe, it, expect } from 'vitest';
import { closeOthers, closeTab, isExcludedFromTabs, openTab, pruneNames, reloadTab, TAB_LIMIT, useTabs, withName, type Tab } from './tabs.ts';

const tab = (key: string) => ({ key, search: '', titleKey: 't' });

describe('tab store', () => {
  it('keeps at most 20 tabs, closing the least recently used', () => {
    let tabs: Tab[] = [];
    for (let i = 0; i < 25; i++) tabs = openTab(tabs, tab(`/p${i}`), i);
    expect(tabs).toHaveLength(TAB_LIMIT);
    expect(tabs.map((t) => t.key)).toEqual(Array.from({ length: 20 }, (_, i) => `/p${i + 5}`));
    // using an old tab again protects it
    tabs = openTab(tabs, tab('/p5'), 100);
    tabs = openTab(tabs, tab('/new'), 101);
    expect(tabs.map((t) => t.key)).toContain('/p5');
    expect(tabs.map((t) => t.key)).not.toContain('/p6');
  });

  it('does not duplicate an open tab', () => {
    let tabs = openTab([], tab('/a'), 1);
    tabs = openTab(tabs, tab('/a'), 2);
    expect(tabs).toHaveLength(1);
    expect(tabs[0].lastUsed).toBe(2);
  });

  it('closes a tab and says which to show next', () => {
    const tabs = ['/a', '/b', '/c'].reduce<Tab[]>((acc, k, i) => openTab(acc, tab(k), i), []);
    expect(closeTab(tabs, '/b').next!.key).toBe('/c');
    expect(closeTab(tabs, '/c').next!.key).toBe('/b');
    expect(closeTab(openTab([], tab('/x'), 1), '/x')).toEqual({ tabs: [], next: null });
  });

  it('closes the others and reloads one', () => {
    const tabs = ['/a', '/b', '/c'].reduce<Tab[]>((acc, k, i) => openTab(acc, tab(k), i), []);
    expect(closeOthers(tabs, '/b').map((t) => t.key)).toEqual(['/b']);
    expect(reloadTab(tabs, '/a').find((t) => t.key === '/a')!.seq).toBe(1);
    expect(reloadTab(tabs, '/a').find((t) => t.key === '/b')!.seq).toBe(0);
  });

  it.each([
    ['/card/card-list/numcard', true],
    ['/card/card-list/numcard/SO1/2', true],
    ['/billing/package/list/basic', true],
    ['/billing/package/list', false],
    ['/billing/bill/list/fenrun', true],
    ['/billing/bill/list/spending', true],
    ['/billing/bill/list', false],
    ['/billing/orderCenter/orders/list/1', true],
    ['/operator/platformConfig/add/3', true],
    ['/operator/platformConfig/edit/3/4', true],
    ['/operator/platformConfig/list', false],
    ['/home/index', false],
  ])('excludes the spec sub-paths from tabs: %s → %s', (path, excluded) => {
    expect(isExcludedFromTabs(path)).toBe(excluded);
  });

  it('sets a page name once, replaces it and keeps the same object when nothing changes', () => {
    const a = withName({}, '/card/pool/detail/5', 'East fleet');
    expect(a).toEqual({ '/card/pool/detail/5': 'East fleet' });
    expect(withName(a, '/card/pool/detail/5', 'East fleet')).toBe(a);
    expect(withName(a, '/card/pool/detail/5', 'East fleet 2')).toEqual({ '/card/pool/detail/5': 'East fleet 2' });
    expect(withName(a, '/card/pool/detail/5', null)).toEqual({});
    expect(withName(a, '/other', null)).toBe(a);
  });

  it('keeps only the names of open tabs', () => {
    const tabs = ['/a', '/b'].reduce<Tab[]>((acc, k, i) => openTab(acc, tab(k), i), []);
    expect(pruneNames({ '/a': 'A', '/b': 'B', '/gone': 'G' }, tabs)).toEqual({ '/a': 'A', '/b': 'B' });
  });

  it('drops a name with its tab: closed, closed as one of the others, evicted or signed out', () => {
    const s = useTabs.getState();
    s.clear();
    for (const k of ['/a', '/b', '/c']) {
      s.open(tab(k));
      s.setName(k, k.toUpperCase());
    }
    s.close('/a');
    expect(useTabs.getState().names).toEqual({ '/b': '/B', '/c': '/C' });
    s.closeOthers('/c');
    expect(useTabs.getState().names).toEqual({ '/c': '/C' });
    for (let i = 0; i < TAB_LIMIT; i++) s.open(tab(`/p${i}`));
    expect(useTabs.getState().names).toEqual({});
    s.setName('/p1', 'P1');
    s.clear();
    expect(useTabs.getState().names).toEqual({});
  });
});
