import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Perm, carddata, type Endpoint } from '@lynx/contract';
import { renderAt } from '../../../../test/render.tsx';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import { saveCardListPrefs } from './prefs.ts';
import CardList from './index.tsx';
import { firstListBody } from './query.ts';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

const listBodies = () => call.mock.calls.filter(([e]) => (e as Endpoint).name === carddata.getSimListPage.name).map(([, body]) => body as Record<string, unknown>);
const lastListBody = () => listBodies().at(-1)!;
const show = (url: string) => renderAt(url, [{ path: '/card/card-list/list/:salesorder?', element: <CardList /> }]);

beforeEach(async () => {
  localStorage.clear();
  await setLanguage('en');
  useSession.getState().signIn({
    accessToken: 'tok-123456789012345678901', roleId: 3000, loginName: 'enterprise', userName: 'Ent', channelCustId: 1, custId: 1,
    permissions: [Perm.Card, Perm.CardList], mustResetPassword: false,
  });
  call.mockReset();
  call.mockImplementation(async (e: Endpoint) => {
    if (e.name === carddata.getSimListPage.name) return { list: [], total: 0, current: 1, pageSize: 20, totalCapped: false };
    if (/Page$|List$/.test(e.name)) return { list: [], total: 0, current: 1, pageSize: 20 };
    return [];
  });
});

describe('the card list opened from a link', () => {
  it("queries with the link's filters from the first call, over the remembered search, and shows the link-only ones as tags", async () => {
    saveCardListPrefs('enterprise', { search: { states: [65], msisdn: '1064' } });
    show('/card/card-list/list?states=64&online=true&alertsFrom=2026-11-20');
    await waitFor(() => expect(listBodies().length).toBeGreaterThan(0));
    expect(listBodies()[0]).toMatchObject({ states: [64], online: true, alertsFrom: '2026-11-20' });
    expect(listBodies()[0]).not.toHaveProperty('msisdn');
    const tags = await screen.findByTestId('card-link-filters');
    expect(within(tags).getByTestId('card-link-filter-alertsFrom')).toHaveTextContent('Recent alerts (since 2026-11-20)');
  });

  it('drops a link-only filter when its tag is closed', async () => {
    show('/card/card-list/list?batchFailedFrom=2026-11-20');
    await waitFor(() => expect(lastListBody()).toMatchObject({ batchFailedFrom: '2026-11-20' }));
    const tag = await screen.findByTestId('card-link-filter-batchFailedFrom');
    fireEvent.click(tag.querySelector('.ant-tag-close-icon')!);
    await waitFor(() => expect(lastListBody()).not.toHaveProperty('batchFailedFrom'));
    expect(screen.queryByTestId('card-link-filters')).toBeNull();
  });

  it('applies a new link while the page stays open (a cached tab)', async () => {
    const { router } = show('/card/card-list/list?states=64');
    await waitFor(() => expect(lastListBody()).toMatchObject({ states: [64] }));
    await act(() => router.navigate('/card/card-list/list?quotaLevel=over'));
    await waitFor(() => expect(lastListBody()).toMatchObject({ quotaLevel: 'over' }));
    expect(lastListBody()).not.toHaveProperty('states');
    expect(lastListBody().current).toBe(1);
  });

  it('opens with the remembered search when the link carries no filters', async () => {
    saveCardListPrefs('enterprise', { search: { states: [65] } });
    show('/card/card-list/list');
    await waitFor(() => expect(listBodies().length).toBeGreaterThan(0));
    expect(listBodies()[0]).toMatchObject({ states: [65] });
  });
});

describe('the route-level prefetch (query.ts)', () => {
  it.each([
    ['a plain visit', '/card/card-list/list', null],
    ['the remembered search, dates and page size', '/card/card-list/list', { search: { states: [65], msisdn: '1064', msisdnMatch: 'prefix', firstUsed: ['2026-11-01', '2026-11-20'] }, pageSize: 50 }],
    ['a link with filters over the remembered search', '/card/card-list/list?states=64&online=true&alertsFrom=2026-11-20', { search: { states: [65] } }],
  ] as const)('asks for exactly what the page asks for first: %s', async (_, url, prefs) => {
    if (prefs) saveCardListPrefs('enterprise', prefs as never);
    const search = new URL(url, 'http://localhost').search;
    const prefetched = firstListBody('enterprise', search);
    show(url);
    await waitFor(() => expect(listBodies().length).toBeGreaterThan(0));
    expect(prefetched).toEqual(listBodies()[0]);
  });
});
