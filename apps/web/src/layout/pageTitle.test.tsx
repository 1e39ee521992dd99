import { describe, it, expect, beforeEach } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { AxiosAdapter } from 'axios';
import { Perm, pathOf, pool } from '@lynx/contract';
import { setLanguage } from '../locales/i18n.ts';
import { useSession } from '../stores/session.ts';
import { useTabs } from '../stores/tabs.ts';
import { http } from '../request/http.ts';
import { renderAt } from '../test/render.tsx';
import BasicLayout from './BasicLayout.tsx';
import { shortBatchId, titleWithName } from './pageTitle.ts';

const poolOf = (poolId: number, name: string) => ({
  poolId, name, custId: 11, custName: 'Acme Logistics', operatorId: 1, exhaustAction: 1, alertPercent: 80, description: null,
  state: pool.PoolState.Normal, memberCount: 0, cycleStart: '2026-11-01T00:00:00Z', cycleEnd: '2026-11-30T23:59:59Z',
  quotaBytes: 1024, usedBytes: 0, usageCheckedAt: null, blockedAt: null, createdBy: 'admin',
  createdAt: '2026-11-01T00:00:00Z', updatedAt: '2026-11-01T00:00:00Z',
});
const POOLS: Record<number, string> = { 5: 'East fleet', 6: 'West fleet' };

/** Pool details answer once `release()` is called, so a test sees the page before its record has loaded. */
function serve() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const adapter: AxiosAdapter = async (config) => {
    const path = config.url!;
    const body = typeof config.data === 'string' ? JSON.parse(config.data || '{}') : {};
    let data: unknown = null;
    if (path === pathOf(pool.getPoolDetail)) {
      await gate;
      data = poolOf(body.poolId, POOLS[body.poolId]);
    } else if (path === pathOf(pool.getPoolCardPage)) data = { list: [], total: 0, current: 1, pageSize: 20 };
    return { status: 200, statusText: '', headers: {}, config, data: { success: true, msg: 'ok', errorCode: null, data } };
  };
  http.defaults.adapter = adapter;
  return release;
}

const shell = (url: string) => renderAt(url, [{ path: '*', element: <BasicLayout /> }]);
const tabTitle = (key: string) => document.querySelector(`.lx-tab[data-key="${key}"] .lx-tab-title`)?.textContent;
const crumbs = () => [...document.querySelectorAll('.lx-breadcrumb li:not(.ant-breadcrumb-separator)')].map((li) => li.textContent).filter(Boolean);

beforeEach(async () => {
  await setLanguage('en');
  useTabs.getState().clear();
  useSession.getState().signIn({
    accessToken: 'tok-123456789012345678901', roleId: 1000, loginName: 'admin', userName: 'A', channelCustId: null, custId: null,
    permissions: [Perm.Card, Perm.Pool], mustResetPassword: false,
  });
});

describe('page titles from records', () => {
  it('formats a title with a record name and shortens batch ids', () => {
    expect(titleWithName('Pool detail', 'East fleet')).toBe('Pool detail · East fleet');
    expect(titleWithName('Pool detail', undefined)).toBe('Pool detail');
    expect(shortBatchId('1a2b3c4d-0000-4000-8000-000000000000')).toBe('1a2b3c4d');
    expect(shortBatchId(null)).toBe('');
  });

  it('shows the route title while the record loads, then its name in the tab and the breadcrumb, never the id', async () => {
    const release = serve();
    shell('/card/pool/detail/5');
    await waitFor(() => expect(tabTitle('/card/pool/detail/5')).toBe('Pool detail'));
    expect(crumbs().at(-1)).toBe('Pool detail');
    await act(async () => release());
    await waitFor(() => expect(tabTitle('/card/pool/detail/5')).toBe('Pool detail · East fleet'));
    expect(crumbs().slice(-2)).toEqual(['Pool detail', 'East fleet']);
    expect(document.querySelector('.lx-tabbar')!.textContent).not.toContain('5');
  });

  it('keys the name by the page path, so kept-alive pages keep their own names', async () => {
    serve()();
    const { router } = shell('/card/pool/detail/5');
    await waitFor(() => expect(tabTitle('/card/pool/detail/5')).toBe('Pool detail · East fleet'));
    await act(() => router.navigate('/card/pool/detail/6'));
    await waitFor(() => expect(tabTitle('/card/pool/detail/6')).toBe('Pool detail · West fleet'));
    // the first page is hidden now, not gone: its tab keeps its own name and the breadcrumb follows the URL
    expect(tabTitle('/card/pool/detail/5')).toBe('Pool detail · East fleet');
    expect(crumbs().at(-1)).toBe('West fleet');
    await act(() => router.navigate('/card/pool/detail/5'));
    await waitFor(() => expect(crumbs().at(-1)).toBe('East fleet'));
    expect(tabTitle('/card/pool/detail/6')).toBe('Pool detail · West fleet');
  });

  it('translates the route title but not the name, and forgets the name when its tab closes', async () => {
    serve()();
    const { router } = shell('/card/pool/detail/5');
    await waitFor(() => expect(tabTitle('/card/pool/detail/5')).toBe('Pool detail · East fleet'));
    await act(() => setLanguage('zh'));
    await waitFor(() => expect(tabTitle('/card/pool/detail/5')).toBe('流量池详情 · East fleet'));
    expect(crumbs().slice(-2)).toEqual(['流量池详情', 'East fleet']);

    await act(() => router.navigate('/card/pool/detail/6'));
    await waitFor(() => expect(tabTitle('/card/pool/detail/6')).toBe('流量池详情 · West fleet'));
    fireEvent.click(document.querySelector('.lx-tab[data-key="/card/pool/detail/5"] .lx-tab-close')!);
    await waitFor(() => expect(document.querySelector('.lx-tab[data-key="/card/pool/detail/5"]')).toBeNull());
    expect(useTabs.getState().names).toEqual({ '/card/pool/detail/6': 'West fleet' });
    expect(screen.getAllByRole('tab')).toHaveLength(1);
  });
});
