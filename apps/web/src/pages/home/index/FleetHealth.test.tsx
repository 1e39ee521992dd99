import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { CardState, Perm, home, type Endpoint } from '@lynx/contract';
import { renderAt } from '../../../test/render.tsx';
import { setLanguage } from '../../../locales/i18n.ts';
import { useSession } from '../../../stores/session.ts';
import { filtersFromSearch } from '../../card/card-list/list/deepLink.ts';
import { FleetHealth } from './FleetHealth.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

const BATCH = '0b9d6f2e-8c1a-4f3e-9a57-2d4c6b8e1f00';
const health = {
  scope: home.FleetScope.Tree, activeCards: 120, onlineNow: 30, nearQuota: 7, overQuota: 2, quotaCountedAt: '2026-11-25T08:40:00.000Z', since: '2026-11-19',
  alerts: {
    cards: 9, events: 2,
    list: [
      { kind: home.HomeAlertKind.PoolThreshold, at: '2026-11-25T08:00:00.000Z', poolId: 4, poolName: 'Trucks east', iccid: null, usedBytes: 9 * 1024 ** 3, quotaBytes: 10 * 1024 ** 3, changeType: null, reason: null },
      { kind: home.HomeAlertKind.CardQuotaUsedUp, at: '2026-11-24T08:00:00.000Z', poolId: null, poolName: null, iccid: '89860000000000000001', usedBytes: 2 * 1024 ** 2, quotaBytes: 1024 ** 2, changeType: null, reason: null },
    ],
  },
  batchFailures: {
    cards: 3, batches: 1,
    list: [{ batchId: BATCH, type: 1, state: 3, createdBy: 'enterprise', createdAt: '2026-11-25T07:00:00.000Z', finishedAt: null, validCount: 10, failedCount: 3 }],
  },
};

function CardListProbe() {
  const loc = useLocation();
  return <div data-testid="card-list-probe">{JSON.stringify(filtersFromSearch(loc.search))}</div>;
}
const show = () => renderAt('/home/index', [
  { path: '/home/index', element: <FleetHealth /> },
  { path: '/card/card-list/list', element: <CardListProbe /> },
]);
const opened = async () => JSON.parse((await screen.findByTestId('card-list-probe')).textContent!);

const signIn = (permissions: number[]) =>
  useSession.getState().signIn({ accessToken: 'tok-123456789012345678901', roleId: 3000, loginName: 'enterprise', userName: 'Ent', channelCustId: 1, custId: 1, permissions, mustResetPassword: false });

beforeEach(async () => {
  localStorage.clear();
  await setLanguage('en');
  signIn([Perm.Home, Perm.CardList]);
  call.mockReset();
  call.mockImplementation(async (e: Endpoint) => (e.name === home.getFleetHealth.name ? health : null));
});

describe('fleet health on the overview', () => {
  it('shows the server numbers with their hints in the viewer language', async () => {
    show();
    const active = await screen.findByTestId('health-active');
    await waitFor(() => expect(active).toHaveTextContent('120'));
    expect(screen.getByTestId('health-online')).toHaveTextContent('Online now30');
    expect(screen.getByTestId('health-online')).toHaveTextContent('25% of activated');
    expect(screen.getByTestId('health-near')).toHaveTextContent('Near quota7');
    expect(screen.getByTestId('health-over')).toHaveTextContent('Over quota2');
    expect(screen.getByTestId('health-alerts')).toHaveTextContent('Alerted cards9Alerts in 7 days: 2');
    expect(screen.getByTestId('health-batchFailures')).toHaveTextContent('Batch-failed cards3Batches: 1');
    expect(screen.getByText('Your customer and its second-level customers')).toBeInTheDocument();
    const alerts = screen.getByTestId('health-alert-list');
    expect(within(alerts).getByText('Trucks east: 9 GB of 10 GB used')).toBeInTheDocument();
    expect(within(alerts).getByText('89860000000000000001: 2 MB of 1 MB used')).toBeInTheDocument();
    expect(within(screen.getByTestId('health-batch-list')).getByText('3 of 10 cards failed')).toBeInTheDocument();
  });

  it.each([
    ['health-active', { states: [CardState.Activated] }],
    ['health-online', { online: true }],
    ['health-near', { quotaLevel: 'near' }],
    ['health-over', { quotaLevel: 'over' }],
    ['health-alerts', { alertsFrom: '2026-11-19' }],
    ['health-batchFailures', { batchFailedFrom: '2026-11-19' }],
  ])('%s opens the card list with its filter', async (testId, filters) => {
    show();
    const tile = await screen.findByTestId(testId);
    await waitFor(() => expect(tile).toHaveAttribute('role', 'link'));
    fireEvent.click(tile);
    expect(await opened()).toEqual(filters);
  });

  it('opens the cards an alert or a failed batch is about', async () => {
    show();
    const links = await screen.findAllByTestId('health-alert-link');
    fireEvent.click(links[0]);
    expect(await opened()).toEqual({ poolId: 4 });
  });

  it('opens the failed cards of one batch', async () => {
    show();
    fireEvent.click(await screen.findByTestId('health-batch-link'));
    expect(await opened()).toEqual({ failedBatchId: BATCH });
  });

  it('opens nothing without the card list code, and says so in Chinese too', async () => {
    signIn([Perm.Home]);
    await setLanguage('zh');
    show();
    const tile = await screen.findByTestId('health-active');
    await waitFor(() => expect(tile).toHaveTextContent('已激活120'));
    expect(tile).not.toHaveAttribute('role');
    expect(screen.queryAllByTestId('health-alert-link')).toHaveLength(0);
    expect(screen.getByTestId('health-near')).toHaveTextContent('统计于');
  });
});
