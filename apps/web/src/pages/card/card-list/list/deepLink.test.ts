import { describe, expect, it } from 'vitest';
import { CARD_LIST_PATH, cardListLink, filtersFromSearch, splitLinkFilters } from './deepLink.ts';

describe('card list deep links', () => {
  it('build a link from filters and read the same filters back', () => {
    const filters = {
      states: [64, 65], online: true, custId: 100001, quotaLevel: 'near', alertsFrom: '2026-11-20', failedBatchId: '0b9d6f2e-8c1a-4f3e-9a57-2d4c6b8e1f00',
      iccid: '898600', poolId: 3,
    };
    const link = cardListLink(filters);
    expect(link.startsWith(`${CARD_LIST_PATH}?`)).toBe(true);
    expect(filtersFromSearch(link.slice(link.indexOf('?')))).toEqual(filters);
  });

  it('leave out empty filters and give the plain list for none', () => {
    expect(cardListLink({})).toBe(CARD_LIST_PATH);
    expect(cardListLink({ states: [], online: undefined, iccid: '' })).toBe(CARD_LIST_PATH);
    expect(cardListLink({ online: false })).toBe(`${CARD_LIST_PATH}?online=false`);
    expect(filtersFromSearch('')).toBeNull();
    expect(filtersFromSearch('?tab=x&utm=1')).toBeNull();
  });

  it.each([
    ['states=64,x', null],
    ['states=', null],
    ['online=yes', null],
    ['custId=12abc', null],
    ['custId=99999999999999', null],
    ['iccid=8986-00', null],
    ['quotaLevel=most', null],
    ['alertsFrom=2026-02-30', null],
    ['alertsFrom=2026-2-3', null],
    ['alertsFrom=2026-13-45', null],
    ['failedBatchId=not-a-uuid', null],
    ['batch=' + 'x'.repeat(65), null],
    ['states=64,64,65&online=false', { states: [64, 65], online: false }],
    ['operatorId=2&quotaLevel=over&batchFailedFrom=2026-11-20', { operatorId: 2, quotaLevel: 'over', batchFailedFrom: '2026-11-20' }],
  ])('read %s as %j (malformed values are ignored)', (search, expected) => {
    expect(filtersFromSearch(`?${search}`)).toEqual(expected);
  });

  it('split the link-only filters from the form values (online as the form holds it)', () => {
    expect(splitLinkFilters({ states: [64], online: true, alertsFrom: '2026-11-20', batchFailedFrom: '2026-11-21', quotaLevel: 'over' })).toEqual({
      form: { states: [64], online: 'yes', quotaLevel: 'over' },
      linkOnly: { alertsFrom: '2026-11-20', batchFailedFrom: '2026-11-21' },
    });
  });
});
