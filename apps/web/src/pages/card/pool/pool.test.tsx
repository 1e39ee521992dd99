import { describe, it, expect, beforeEach } from 'vitest';
import { render, screen, fireEvent, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { AxiosAdapter } from 'axios';
import dayjs from 'dayjs';
import { Perm, account, batch, pathOf, pool } from '@lynx/contract';
import { setLanguage } from '../../../locales/i18n.ts';
import { useSession } from '../../../stores/session.ts';
import { http } from '../../../request/http.ts';
import { paramsOf } from '../batchoperate/OperationFields.tsx';
import { detailPath, operationText, typesFor } from '../batchoperate/scope.ts';
import PoolList from './list/index.tsx';
import PoolDetail from './detail/index.tsx';
import PoolChangeList from './change/list/index.tsx';
import { eventFilters } from './blockhistory/index.tsx';
import { isAlertPercent } from './PoolFormModal.tsx';
import { usageLevel } from './shared.tsx';

const GB = 1024 ** 3;
const fleet = {
  poolId: 5, name: 'East fleet', custId: 11, custName: 'Acme Logistics', operatorId: 1, exhaustAction: 1, alertPercent: 80, description: null,
  state: pool.PoolState.Normal, memberCount: 2, cycleStart: '2026-11-01T00:00:00Z', cycleEnd: '2026-11-30T23:59:59Z',
  quotaBytes: 10 * GB, usedBytes: 9 * GB, usageCheckedAt: '2026-11-22T02:00:00Z', blockedAt: null, createdBy: 'admin',
  createdAt: '2026-11-01T00:00:00Z', updatedAt: '2026-11-01T00:00:00Z',
};
const member = {
  iccid: '89860000000000000001', msisdn: '1440000000001', state: 64, custId: 11, custName: 'Acme Logistics', goodsReleaseId: 3, planName: 'IoT 5G',
  quotaBytes: 5 * GB, usedBytes: 4 * GB, online: true, joinedAt: '2026-11-02T00:00:00Z',
};
const summary = {
  batchId: 'B000042', type: batch.BatchType.PoolJoin, params: { type: 7, poolId: 5, poolName: 'East fleet' }, source: 4, fileName: null, state: 1,
  totalCount: 2, validCount: 1, invalidCount: 1, alreadyCount: 0, duplicateCount: 0, processedCount: 0, succeededCount: 0, failedCount: 0,
  createdBy: 'admin', createdAt: '2026-11-22T02:00:00Z', confirmedAt: null, finishedAt: null, cancelledAt: null,
};

type Sent = { path: string; body: any }[];
function serve(sent: Sent, over: Record<string, unknown> = {}) {
  const adapter: AxiosAdapter = async (config) => {
    const path = config.url!;
    const body = typeof config.data === 'string' ? JSON.parse(config.data || '{}') : {};
    sent.push({ path, body });
    const page = (list: unknown[]) => ({ list, total: list.length, current: 1, pageSize: 20 });
    const data =
      path in over ? over[path]
        : path === pathOf(pool.getPoolPage) ? page([fleet])
          : path === pathOf(pool.getPoolDetail) ? fleet
            : path === pathOf(pool.getPoolCardPage) ? page([member])
              : path === pathOf(pool.getPoolOptions) ? [{ poolId: 5, name: 'East fleet', operatorId: 1, custId: 11 }]
                : path === pathOf(pool.blockPool) ? { ...fleet, state: pool.PoolState.Blocked }
                  : path === pathOf(account.getCustomerListPage) ? page([])
                    : path === pathOf(batch.getBatchPage) ? page([{ ...summary, state: 3, processedCount: 1, failedCount: 1 }])
                      : path === pathOf(batch.validateBatch) ? summary
                        : path === pathOf(batch.getBatchItemPage) ? page([])
                          : null;
    return { status: 200, statusText: '', headers: {}, config, data: { success: true, msg: 'ok', errorCode: null, data } };
  };
  http.defaults.adapter = adapter;
}
const bodiesOf = (sent: Sent, e: { name: string }) => sent.filter((s) => s.path === pathOf(e as never)).map((s) => s.body);

const at = (url: string) =>
  render(
    <AntApp>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/card/pool/list/:salesOrder?" element={<PoolList />} />
            <Route path="/card/pool/detail/:poolId/:salesOrder?" element={<PoolDetail />} />
            <Route path="/card/pool/change/list/:salesOrder?" element={<PoolChangeList />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </AntApp>,
  );

const signIn = (permissions: number[]) =>
  useSession.getState().signIn({
    accessToken: 'tok-123456789012345678901', roleId: 1000, loginName: 'admin', userName: 'A', channelCustId: null, custId: null,
    permissions, mustResetPassword: false,
  });
const MANAGE = [Perm.Card, Perm.Pool, pool.PoolPerm.PoolManage, Perm.HomeCustomer, Perm.CardList];

beforeEach(async () => {
  await setLanguage('en');
  signIn(MANAGE);
});

describe('pool screens (pure)', () => {
  it('grades usage against the alert threshold and the quota', () => {
    expect(usageLevel(5 * GB, 10 * GB, 80)).toEqual({ percent: 50, level: 'normal' });
    expect(usageLevel(8 * GB, 10 * GB, 80)).toEqual({ percent: 80, level: 'alert' });
    expect(usageLevel(11 * GB, 10 * GB, 80)).toMatchObject({ level: 'over' });
    expect(usageLevel(0, 0, 80)).toEqual({ percent: 0, level: 'none' });
    expect(usageLevel(1, 0, 80).level).toBe('over');
  });

  it('accepts whole alert percentages from 1 to 100 only', () => {
    expect([1, 80, 100].every(isAlertPercent)).toBe(true);
    expect([0, 101, 50.5, '80', null].some(isAlertPercent)).toBe(false);
  });

  it('sends the pool with pool batches, names them, and opens them on the fail log', () => {
    expect(paramsOf({ type: batch.BatchType.PoolJoin, poolId: 5, action: 'activate', reason: ' ' })).toEqual({ type: 7, poolId: 5 });
    expect(paramsOf({ type: batch.BatchType.PoolLeave, poolId: 5, reason: 'sold' })).toEqual({ type: 8, poolId: 5, reason: 'sold' });
    const t = ((k: string, o?: Record<string, unknown>) => `${k}:${JSON.stringify(o)}`) as never;
    expect(operationText({ type: 7, params: { type: 7, poolId: 5, poolName: 'East fleet' } } as never, t)).toContain('poolJoin');
    expect(detailPath('pool', 'B1')).toBe('/card/pool/change/fail-log/B1?state=all');
    expect(detailPath('pool', 'B1', 'failed')).toBe('/card/pool/change/fail-log/B1');
    // the card batch screen no longer offers pool types; the pool scope offers them to holders of 2060001
    const only = (...codes: number[]) => (p: number) => codes.includes(p);
    expect(typesFor('card', only(batch.BatchPerm.CardBatch, batch.BatchPerm.PoolManage))).not.toContain(7);
    expect(typesFor('pool', only(batch.BatchPerm.PoolManage))).toEqual([7, 8]);
    expect(typesFor('pool', only(batch.BatchPerm.Pools))).toEqual([]);
  });

  it('turns the block history search into filters', () => {
    expect(eventFilters({ type: 2, range: [dayjs('2026-11-01T08:00:00'), dayjs('2026-11-03T22:00:00')] })).toEqual({ types: [2], from: '2026-11-01', to: '2026-11-03' });
    expect(eventFilters({ range: null })).toEqual({});
  });
});

describe('pool screens', () => {
  it('lists pools with members, usage past the alert threshold and state; the add form checks its fields', async () => {
    const sent: Sent = [];
    serve(sent);
    at('/card/pool/list');
    expect(await screen.findByText('East fleet')).toBeInTheDocument();
    expect(screen.getByText('Acme Logistics')).toBeInTheDocument();
    expect(screen.getByText('9 GB / 10 GB')).toBeInTheDocument();
    expect(screen.getByTestId('pool-usage')).toHaveAttribute('data-level', 'alert');
    expect(screen.getByText('Normal')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('pool-add'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('pool-alert')).toHaveValue('80');
    fireEvent.change(within(dialog).getByTestId('pool-alert'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByTestId('pool-save'));
    // name, customer (staff), operator and alert percent are required
    await waitFor(() => expect(within(dialog).getAllByText('Please select or enter').length).toBeGreaterThanOrEqual(4));
    expect(bodiesOf(sent, pool.savePool)).toHaveLength(0);
  });

  it('blocks a pool after the confirmation, with the reason', async () => {
    const sent: Sent = [];
    serve(sent);
    at('/card/pool/list');
    fireEvent.click(await screen.findByTestId('pool-block-5'));
    expect((await screen.findAllByText('Block the pool "East fleet"?')).length).toBeGreaterThan(0);
    expect(bodiesOf(sent, pool.blockPool)).toHaveLength(0);
    fireEvent.change(screen.getByTestId('pool-block-reason'), { target: { value: 'lost truck' } });
    fireEvent.click(screen.getByTestId('pool-block-ok'));
    await waitFor(() => expect(bodiesOf(sent, pool.blockPool)).toEqual([{ poolId: 5, reason: 'lost truck' }]));
  });

  it('explains instead of deleting a pool that still holds cards', async () => {
    const sent: Sent = [];
    serve(sent);
    at('/card/pool/detail/5');
    fireEvent.click(await screen.findByTestId('pool-detail-delete'));
    expect(await screen.findByText(/still holds 2 cards/)).toBeInTheDocument();
    expect(bodiesOf(sent, pool.deletePool)).toHaveLength(0);
  });

  it('shows the pool, its usage and members; "Add cards" validates a join batch for this pool', async () => {
    const sent: Sent = [];
    serve(sent);
    at('/card/pool/detail/5');
    expect(await screen.findByText('89860000000000000001')).toBeInTheDocument();
    expect(screen.getByText('IoT 5G')).toBeInTheDocument();
    expect(screen.getByText('1 GB')).toBeInTheDocument(); // remaining
    expect(bodiesOf(sent, pool.getPoolCardPage)[0]).toMatchObject({ poolId: 5 });

    fireEvent.click(screen.getByTestId('pool-add-cards'));
    fireEvent.click(await screen.findByTestId('batch-next'));
    fireEvent.change(await screen.findByTestId('batch-paste'), { target: { value: '89860000000000000002\n89860000000000000003' } });
    fireEvent.click(screen.getByTestId('batch-validate'));
    await waitFor(() => expect(bodiesOf(sent, batch.validateBatch)).toHaveLength(1));
    expect(bodiesOf(sent, batch.validateBatch)[0]).toEqual({
      params: { type: 7, poolId: 5 }, sourceKind: 'paste', iccids: ['89860000000000000002', '89860000000000000003'],
    });
  });

  it('lists the pool change batches (types 7 and 8, of one pool from ?poolId=) with a link to the failures', async () => {
    const sent: Sent = [];
    serve(sent);
    at('/card/pool/change/list?poolId=5');
    expect(await screen.findByTestId('batch-failures-B000042')).toBeInTheDocument();
    const bodies = bodiesOf(sent, batch.getBatchPage);
    expect(bodies[0]).toMatchObject({ types: [7, 8], poolId: 5 });
    expect(screen.getAllByText('East fleet').length).toBeGreaterThan(0);
    expect(screen.getByText('Join pool')).toBeInTheDocument();
  });
});
