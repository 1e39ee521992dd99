import { beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { Perm, RoleType, recharge, type Endpoint } from '@lynx/contract';
import { renderAt } from '../../../../test/render.tsx';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import RechargeList from './index.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

const pageBodies = () => call.mock.calls.filter(([e]) => (e as Endpoint).name === recharge.getRechargePage.name).map(([, body]) => body as Record<string, unknown>);

beforeEach(async () => {
  await setLanguage('en');
  call.mockReset();
  call.mockImplementation(async (e: Endpoint) => {
    if (e.name === recharge.getRechargePage.name) return { list: [], total: 0, current: 1, pageSize: 20 };
    if (e.name === recharge.getReviewSummary.name) return { pending: 2, overdue: 1, nextDueAt: null };
    return null;
  });
  useSession.getState().signIn({
    accessToken: 'tok-123456789012345678901', roleId: RoleType.Admin, loginName: 'admin', userName: 'Admin', channelCustId: null, custId: null,
    permissions: [Perm.BusinessRecharge, Perm.BusinessRechargeAudit], mustResetPassword: false,
  });
});

describe('the top-up list opened from the review badge', () => {
  it.each([
    ['overdue', { overdue: true }],
    ['pending', { auditState: 0 }],
  ])('?review=%s asks for those reviews from the first query, then drops the parameter', async (view, filter) => {
    const { router } = renderAt(`/business/recharge/list?review=${view}`, [{ path: '/business/recharge/list/:id?', element: <RechargeList /> }]);
    await waitFor(() => expect(pageBodies().length).toBeGreaterThan(0));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/business/recharge/list');
    // every query the list made carries the filter: none went out unfiltered first
    for (const body of pageBodies()) expect(body).toMatchObject(filter);
    expect(pageBodies()[0]).not.toHaveProperty(view === 'overdue' ? 'auditState' : 'overdue');
  });

  it('without the parameter the list is unfiltered', async () => {
    renderAt('/business/recharge/list?review=anything', [{ path: '/business/recharge/list/:id?', element: <RechargeList /> }]);
    await waitFor(() => expect(pageBodies().length).toBeGreaterThan(0));
    expect(pageBodies()[0]).not.toHaveProperty('overdue');
    expect(pageBodies()[0]).not.toHaveProperty('auditState');
  });
});
