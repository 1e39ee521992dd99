import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { cardFilters } from './card-list/list/index.tsx';
import { importFilters } from './import-info/list/index.tsx';

describe('card list search form → filters', () => {
  it('sends days, the online flag and an explicit match mode only', () => {
    expect(cardFilters({ iccid: '8986', iccidMatch: 'auto', online: 'no', activated: [dayjs('2026-11-01T10:00:00'), dayjs('2026-11-20T23:00:00')], states: [64, 65] })).toEqual({
      iccid: '8986', online: false, activatedFrom: '2026-11-01', activatedTo: '2026-11-20', states: [64, 65],
    });
    expect(cardFilters({ iccid: '8986', iccidMatch: 'exact', online: 'yes' })).toEqual({ iccid: '8986', iccidMatch: 'exact', online: true });
    expect(cardFilters({ activated: null })).toEqual({});
  });
});

describe('card import search form → filters', () => {
  it('turns the date range into days and the select into a flag', () => {
    expect(importFilters({ fileName: 'a', withErrors: 'yes', created: [dayjs('2026-01-02'), dayjs('2026-01-03')] })).toEqual({
      fileName: 'a', withErrors: true, createdFrom: '2026-01-02', createdTo: '2026-01-03',
    });
    expect(importFilters({ withErrors: undefined })).toEqual({});
  });
});
