import { afterEach, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { catalogSearchValues, loadCardListPrefs, prefsKey, restoreSearch, saveCardListPrefs, serializeSearch } from './prefs.ts';
import { withCatalog } from './catalog.tsx';
import { cardFilters } from './index.tsx';

afterEach(() => localStorage.clear());

describe('card list settings remembered per login name', () => {
  it('keeps each login name apart and survives a reload', () => {
    saveCardListPrefs('Alice', { hidden: ['imei'], pageSize: 50 });
    saveCardListPrefs('bob', { pageSize: 100 });
    expect(localStorage.getItem(prefsKey('alice'))).not.toBeNull();
    expect(loadCardListPrefs('alice')).toEqual({ hidden: ['imei'], pageSize: 50, search: {}, moreFilters: false });
    expect(loadCardListPrefs('bob')).toEqual({ hidden: [], pageSize: 100, search: {}, moreFilters: false });
    expect(loadCardListPrefs('carol')).toEqual({ hidden: [], pageSize: null, search: {}, moreFilters: false });
    // without a login name nothing is read or written
    saveCardListPrefs(null, { pageSize: 10 });
    expect(loadCardListPrefs(null)).toEqual({ hidden: [], pageSize: null, search: {}, moreFilters: false });
  });

  it('remembers whether "more filters" is open, apart from the other settings', () => {
    saveCardListPrefs('alice', { pageSize: 50 });
    expect(saveCardListPrefs('alice', { moreFilters: true })).toMatchObject({ pageSize: 50, moreFilters: true });
    expect(loadCardListPrefs('ALICE').moreFilters).toBe(true);
    expect(loadCardListPrefs('bob').moreFilters).toBe(false);
    localStorage.setItem(prefsKey('z'), JSON.stringify({ moreFilters: 'yes' }));
    expect(loadCardListPrefs('z').moreFilters).toBe(false);
  });

  it('ignores what it cannot read', () => {
    localStorage.setItem(prefsKey('x'), '{broken');
    expect(loadCardListPrefs('x').pageSize).toBeNull();
    localStorage.setItem(prefsKey('y'), JSON.stringify({ hidden: 'imei', pageSize: 37, search: [1] }));
    expect(loadCardListPrefs('y')).toEqual({ hidden: [], pageSize: null, search: {}, moreFilters: false });
  });

  it('stores the search with dates as days and gives it back as dates', () => {
    const values = { iccid: '8986', states: [64], custom1: '', labelIds: [], firstUsed: [dayjs('2026-03-01T10:00:00'), dayjs('2026-03-05T23:00:00')], activated: null };
    const stored = serializeSearch(values);
    expect(stored).toEqual({ iccid: '8986', states: [64], firstUsed: ['2026-03-01', '2026-03-05'] });
    const back = restoreSearch(JSON.parse(JSON.stringify(stored)));
    expect((back.firstUsed as dayjs.Dayjs[]).map((d) => d.format('YYYY-MM-DD'))).toEqual(['2026-03-01', '2026-03-05']);
    expect(restoreSearch({ firstUsed: ['nonsense', '2026-01-01'], activated: 'x' })).toEqual({});
  });
});

describe('catalogue search items → filters', () => {
  it('sends the first-use days and a match mode only with its value', () => {
    expect(catalogSearchValues({ labelMatch: 'any', custom1Match: 'exact', custom2Match: 'prefix' })).toEqual({});
    expect(catalogSearchValues({ labelIds: [3, 4], labelMatch: 'all', custom1: ' TR ', custom1Match: 'contains', custom2: '', custom2Match: 'prefix' })).toEqual({
      labelIds: [3, 4], labelMatch: 'all', custom1: 'TR', custom1Match: 'contains', custom2: undefined,
    });
    expect(catalogSearchValues({ firstUsed: [dayjs('2026-03-01T10:00:00'), dayjs('2026-03-02T10:00:00')], cardTypeId: 2 })).toEqual({
      firstUsedFrom: '2026-03-01', firstUsedTo: '2026-03-02', cardTypeId: 2,
    });
  });

  it('composes with the card list transform', () => {
    const f = withCatalog(cardFilters);
    expect(f({ iccidMatch: 'auto', labelMatch: 'any', custom1Match: 'exact', custom1: 'A1', online: 'yes', labelIds: [1] })).toEqual({ custom1: 'A1', online: true, labelIds: [1] });
  });
});
