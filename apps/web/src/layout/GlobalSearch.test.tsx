import { describe, it, expect, beforeEach } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AxiosAdapter } from 'axios';
import { useLocation } from 'react-router';
import { Perm, pathOf, search } from '@lynx/contract';
import { setLanguage } from '../locales/i18n.ts';
import { useSession } from '../stores/session.ts';
import { http } from '../request/http.ts';
import { renderAt } from '../test/render.tsx';
import { GlobalSearch, SEARCH_DEBOUNCE_MS } from './GlobalSearch.tsx';
import { enterTarget, resultGroups, routeOf, type SearchResult } from './globalSearchResults.tsx';

const CARD = {
  iccid: '89860112345678901234', msisdn: '1064912345678', imsi: '460011234567890', imei: null, state: 64, operatorId: 2,
  custName: 'Acme Logistics', field: 'iccid' as const, how: 'suffix' as const,
};
const EMPTY: SearchResult = {
  cardDigits: null, cardDigitsShort: false, cards: null, customers: null, basicPlans: null, retailPlans: null, pools: null, batches: null, cardImports: null,
};
const none = { items: [], more: false };

/** Answers the search from `answer(keyword)`, after `gate` when one is given; records every keyword sent. */
function serve(answer: (keyword: string) => SearchResult, gate?: Promise<void>) {
  const sent: string[] = [];
  const adapter: AxiosAdapter = async (config) => {
    const body = typeof config.data === 'string' ? JSON.parse(config.data || '{}') : {};
    let data: unknown = null;
    if (config.url === pathOf(search.globalSearch)) {
      sent.push(body.keyword);
      if (gate) await gate;
      data = answer(body.keyword);
    }
    return { status: 200, statusText: '', headers: {}, config, data: { success: true, msg: 'ok', errorCode: null, data } };
  };
  http.defaults.adapter = adapter;
  return sent;
}

const signIn = (permissions: number[]) =>
  useSession.getState().signIn({ accessToken: 'tok-123456789012345678901', roleId: 3000, loginName: 'ops', userName: 'ops', channelCustId: 1, custId: 1, permissions, mustResetPassword: false });

function Where() {
  const loc = useLocation();
  return <div data-testid="where">{loc.pathname + loc.search}</div>;
}
const show = () => renderAt('/home/index', [{ path: '*', element: <><GlobalSearch /><Where /></> }]);
const box = () => screen.getByTestId('global-search') as HTMLInputElement;
const type = (text: string) => fireEvent.change(box(), { target: { value: text } });
const popup = () => screen.getByTestId('global-search-results');
const where = () => screen.getByTestId('where').textContent;
/** a key pressed and released, as a browser sends it (the list ignores a second Enter until the first is released) */
const press = (key: 'Enter' | 'ArrowDown' | 'ArrowUp' | 'Escape') => {
  const keyCode = { Enter: 13, ArrowDown: 40, ArrowUp: 38, Escape: 27 }[key];
  fireEvent.keyDown(box(), { key, code: key, keyCode, which: keyCode });
  fireEvent.keyUp(box(), { key, code: key, keyCode, which: keyCode });
};

beforeEach(async () => {
  localStorage.clear();
  await setLanguage('en');
  signIn([Perm.Home, Perm.Card, Perm.CardList, Perm.Pool, Perm.System, Perm.SystemRole, Perm.Billing, Perm.PackageManage]);
});

describe('the search results (pure)', () => {
  const t = (k: string, o?: Record<string, unknown>) => `${k}${o ? JSON.stringify(o) : ''}`;
  const full: SearchResult = {
    ...EMPTY, cardDigits: '901234',
    cards: { items: [CARD], more: true },
    customers: { items: [{ custId: 7, custName: 'Acme 901234', level: 1, parentCustName: null }], more: false },
    basicPlans: { items: [{ goodsReleaseId: 3, tariffType: 0, name: 'IoT 901234', code: 'P1', operatorId: 1 }], more: false },
    retailPlans: { items: [{ retailId: 4, tariffType: 1, retailName: 'Retail 901234', custName: 'Acme' }], more: false },
    pools: { items: [{ poolId: 5, name: 'Pool 901234', operatorId: 1, custName: 'Acme' }], more: false },
    batches: { items: [{ batchId: '9012abcd-0000-4000-8000-000000000001', type: 7, state: 3, fileName: null, createdBy: 'ops', createdAt: '2026-11-20T02:00:00Z' }], more: false },
    cardImports: { items: [{ batchId: '9012abcd-0000-4000-8000-000000000002', fileName: 'cards.xlsx', remark: null, successRows: 10, createdAt: '2026-11-20T02:00:00Z' }], more: false },
  };
  it('groups hits by kind in a fixed order, each with the route it opens, and a "more" row where there are more', () => {
    const groups = resultGroups({ keyword: '901234', result: full, pages: [{ path: '/system/role/list', title: 'System / Roles' }], t: t as never, lang: 'en', has: () => true });
    expect(groups.map((g) => g.kind)).toEqual(['cards', 'customers', 'basicPlans', 'retailPlans', 'pools', 'batches', 'cardImports', 'pages']);
    expect(groups.map((g) => g.items[0].path)).toEqual([
      '/card/card-list/detail/89860112345678901234', '/home/customer?custId=7', '/billing/package/basicdetail/3/0', '/billing/package/retaildetail/4/1',
      '/card/pool/detail/5', '/card/pool/change/fail-log/9012abcd-0000-4000-8000-000000000001?state=all', '/card/import-info/detail/9012abcd-0000-4000-8000-000000000002',
      '/system/role/list',
    ]);
    expect(groups[0].more).toBe('search.moreCards');
    expect(groups.slice(1).every((g) => g.more === null)).toBe(true);
    // a batch opens on the screen its user holds: the card batch screen, else the shortcut of its type
    expect(routeOf.batch({ batchId: 'b1', type: 1 }, (p) => p === 2030000)).toBe('/card/batchoperate/detail/b1/all');
    expect(routeOf.batch({ batchId: 'b1', type: 1 }, () => false)).toBe('/shortcuts/batchoperate/detail/b1/all');
  });
  it('Enter opens the only card, or the only result, and nothing when several could be meant', () => {
    const groupsOf = (result: SearchResult, pages = 0) =>
      resultGroups({ keyword: 'x', result, pages: Array.from({ length: pages }, (_, i) => ({ path: `/p${i}`, title: `P${i}` })), t: t as never, lang: 'en', has: () => true });
    expect(enterTarget(groupsOf({ ...EMPTY, cards: { items: [CARD], more: false } }, 2))?.path).toBe(routeOf.card(CARD.iccid));
    expect(enterTarget(groupsOf({ ...EMPTY, cards: { items: [CARD], more: true } }))).toBeNull();
    expect(enterTarget(groupsOf({ ...EMPTY, cards: { items: [CARD, { ...CARD, iccid: '89860112345678991234' }], more: false } }))).toBeNull();
    expect(enterTarget(groupsOf(EMPTY, 1))?.path).toBe('/p0');
    expect(enterTarget(groupsOf(EMPTY, 2))).toBeNull();
  });
});

describe('the header search box', () => {
  it('waits for typing to pause, then asks once for the last keyword; shows the hits grouped under titles in English and Chinese', async () => {
    const sent = serve((k) => ({ ...EMPTY, cardDigits: k, cards: { items: [CARD], more: false }, customers: none }));
    show();
    act(() => box().focus());
    for (const k of ['9', '90', '901', '9012', '90123', '901234']) type(k);
    await waitFor(() => expect(within(popup()).getByText('Cards')).toBeInTheDocument());
    expect(sent).toEqual(['901234']);
    expect(within(popup()).getByText('901234', { selector: 'mark' })).toBeInTheDocument();
    expect(popup()).toHaveTextContent('Activated · China Unicom · Acme Logistics');

    await act(() => setLanguage('zh'));
    type('9012345');
    await waitFor(() => expect(within(popup()).getByText('卡')).toBeInTheDocument());
    expect(popup()).toHaveTextContent('已激活');
    expect(box().placeholder).toBe('搜索卡号、客户、套餐、页面');
  });

  it('says it is searching until the answer comes, then that nothing matches', async () => {
    let release!: () => void;
    serve(() => ({ ...EMPTY, cardDigits: '555555', cards: none, customers: none, pools: none }), new Promise<void>((r) => (release = r)));
    show();
    act(() => box().focus());
    type('555555');
    await waitFor(() => expect(popup()).toHaveTextContent('Searching…'));
    await act(async () => release());
    await waitFor(() => expect(screen.getByTestId('global-search-empty')).toHaveTextContent('No card, customer, plan, pool, batch or page matches'));
  });

  it('with fewer than 6 digits searches the other kinds and says why cards need 6 digits', async () => {
    const sent = serve(() => ({ ...EMPTY, cardDigitsShort: true, customers: { items: [{ custId: 12345, custName: 'Depot 12345', level: 2, parentCustName: 'Acme' }], more: false } }));
    show();
    act(() => box().focus());
    type('12345');
    await waitFor(() => expect(within(popup()).getByText('Customers')).toBeInTheDocument());
    expect(sent).toEqual(['12345']);
    expect(screen.getByTestId('global-search-digits')).toHaveTextContent('Type at least 6 digits to search cards');
    // a user who may not open cards gets no such hint
    signIn([Perm.Home]);
    type('1234');
    await waitFor(() => expect(screen.queryByTestId('global-search-digits')).toBeNull());
  });

  it('Enter opens the only card found, also when pressed before the answer came', async () => {
    let release!: () => void;
    serve(() => ({ ...EMPTY, cardDigits: '901234', cards: { items: [CARD], more: false } }), new Promise<void>((r) => (release = r)));
    show();
    act(() => box().focus());
    type('901234');
    press('Enter');
    await new Promise((r) => setTimeout(r, SEARCH_DEBOUNCE_MS + 50));
    expect(where()).toBe('/home/index');
    await act(async () => release());
    await waitFor(() => expect(where()).toBe('/card/card-list/detail/89860112345678901234'));
    expect(box().value).toBe('');
  });

  it('highlights the best hit, which Enter opens; the arrows choose another', async () => {
    const second = { ...CARD, iccid: '89860112345678991234', msisdn: '1064912349012', how: 'contains' as const };
    serve(() => ({ ...EMPTY, cardDigits: '901234', cards: { items: [CARD, second], more: false } }));
    const view = show();
    act(() => box().focus());
    type('901234');
    await waitFor(() => expect(within(popup()).getByText('Cards')).toBeInTheDocument());
    press('ArrowDown');
    press('Enter');
    await waitFor(() => expect(where()).toBe('/card/card-list/detail/89860112345678991234'));
    view.unmount();

    show();
    act(() => box().focus());
    type('901234');
    await waitFor(() => expect(within(popup()).getByText('Cards')).toBeInTheDocument());
    press('Enter');
    await waitFor(() => expect(where()).toBe('/card/card-list/detail/89860112345678901234'));
  });

  it('Enter before the answer with several cards found shows them instead of guessing', async () => {
    let release!: () => void;
    const second = { ...CARD, iccid: '89860112345678991234', how: 'contains' as const };
    serve(() => ({ ...EMPTY, cardDigits: '901234', cards: { items: [CARD, second], more: false } }), new Promise<void>((r) => (release = r)));
    show();
    act(() => box().focus());
    type('901234');
    press('Enter');
    await act(async () => release());
    await waitFor(() => expect(within(popup()).getByText('Cards')).toBeInTheDocument());
    await new Promise((r) => setTimeout(r, 50));
    expect(where()).toBe('/home/index');
  });

  it('finds pages from the menu by their title in either language, without waiting for the server', async () => {
    serve(() => EMPTY);
    show();
    act(() => box().focus());
    type('角色');
    await waitFor(() => expect(within(popup()).getByText('Pages')).toBeInTheDocument());
    expect(popup()).toHaveTextContent('System / Roles');
    press('ArrowDown');
    press('Enter');
    await waitFor(() => expect(where()).toBe('/system/role/list'));
  });
});
