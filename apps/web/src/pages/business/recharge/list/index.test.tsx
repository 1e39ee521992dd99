import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { PayChannel, PayState, Perm, RefundState, RoleType, recharge, type Endpoint } from '@lynx/contract';
import { renderAt } from '../../../../test/render.tsx';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import type { RechargeDetail } from '../RechargeModals.tsx';
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

describe('the top-up detail drawer', () => {
  const detail: RechargeDetail = {
    rechargeId: 5, rechargeNo: 'R202611250005', custId: 7, custName: 'Acme IoT', channel: PayChannel.Online, amount: '100.00', refunded: '45.00',
    payState: PayState.Confirmed, auditState: null, dueAt: null, overdue: false, serialNo: null, transferDate: null, hasProof: false, note: null,
    payOrderNo: 'P202611250005', tradeNo: 'T1', gateway: 'simulator', expiresAt: null, reviewReason: null, reviewedBy: null, reviewedAt: null,
    createdBy: 'acme', createdAt: '2026-11-25T02:00:00.000Z', paidAt: '2026-11-25T02:01:00.000Z', refundable: '55.00', notifications: [],
    refunds: [
      { refundId: 1, refundNo: 'F-DONE', amount: '10.00', reason: 'done one', state: RefundState.Done, createdBy: 'admin', createdAt: '2026-11-25T03:00:00.000Z' },
      { refundId: 2, refundNo: 'F-PENDING', amount: '35.00', reason: 'pending one', state: RefundState.Pending, createdBy: 'admin', createdAt: '2026-11-25T04:00:00.000Z' },
    ],
  };
  const open = async (refunds: RechargeDetail['refunds']) => {
    call.mockImplementation(async (e: Endpoint) => {
      if (e.name === recharge.getRechargePage.name) return { list: [], total: 0, current: 1, pageSize: 20 };
      if (e.name === recharge.getRechargeDetail.name) return { ...detail, refunds };
      return null;
    });
    renderAt('/business/recharge/list/5', [{ path: '/business/recharge/list/:id?', element: <RechargeList /> }]);
    return screen.findByTestId('recharge-drawer');
  };
  const stateOf = (drawer: HTMLElement, refundNo: string) => within(within(drawer).getByText(refundNo).closest('tr')!).getByTestId('recharge-refund-state');

  it('shows a pending refund as pending (processing) and a done one as refunded, with a note while one is pending', async () => {
    const drawer = await open(detail.refunds);
    await within(drawer).findByText('F-PENDING');
    const pending = within(stateOf(drawer, 'F-PENDING')).getByText('Refund pending');
    expect(pending).toHaveClass('ant-tag-processing');
    const done = within(stateOf(drawer, 'F-DONE')).getByText('Refunded');
    expect(done).toHaveClass('ant-tag-success');
    expect(within(drawer).getByTestId('recharge-refund-pending')).toHaveTextContent('the payment channel has yet to confirm it');
  });

  it('no pending note when every refund is done; Chinese labels', async () => {
    await setLanguage('zh');
    const drawer = await open([detail.refunds[0]]);
    await within(drawer).findByText('F-DONE');
    expect(within(stateOf(drawer, 'F-DONE')).getByText('已退款')).toBeInTheDocument();
    expect(within(drawer).getByText('退款状态', { selector: 'th' })).toBeInTheDocument();
    expect(within(drawer).queryByTestId('recharge-refund-pending')).toBeNull();
  });

  it('says 退款处理中 in Chinese for a pending one', async () => {
    await setLanguage('zh');
    const drawer = await open([detail.refunds[1]]);
    await within(drawer).findByText('F-PENDING');
    expect(within(stateOf(drawer, 'F-PENDING')).getByText('退款处理中')).toBeInTheDocument();
  });
});
