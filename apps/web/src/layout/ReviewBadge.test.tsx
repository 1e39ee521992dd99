import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { theme } from 'antd';
import { useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Perm, RoleType, recharge, type Endpoint } from '@lynx/contract';
import { renderAt } from '../test/render.tsx';
import { setLanguage } from '../locales/i18n.ts';
import { useSession } from '../stores/session.ts';
import { REVIEW_BADGE_MS, ReviewBadge } from './ReviewBadge.tsx';
import { reviewListUrl } from '../pages/business/recharge/reviewLink.ts';

const call = vi.hoisted(() => vi.fn());
vi.mock('../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

const REVIEWER = [Perm.BusinessRecharge, Perm.BusinessRechargeAudit];
const token = theme.getDesignToken();
let summary: { pending: number; overdue: number; nextDueAt: string | null };

function signIn(roleId: number, permissions: number[]) {
  useSession.getState().signIn({
    accessToken: 'tok-123456789012345678901', roleId, loginName: 'finance', userName: 'Finance', channelCustId: null, custId: null, permissions, mustResetPassword: false,
  });
}

/** The list's stand-in: shows the query it was opened with. */
function ListStandIn() {
  const { search } = useLocation();
  return <div data-testid="recharge-list">{search}</div>;
}

/** What the list does after a review: invalidates the summary's query. */
function ReviewDone() {
  const qc = useQueryClient();
  return <button type="button" onClick={() => void qc.invalidateQueries({ queryKey: [recharge.getReviewSummary.name] })}>reviewed</button>;
}

const show = () => renderAt('/home/index', [
  { path: '/home/index', element: <><ReviewBadge /><ReviewDone /></> },
  { path: '/business/recharge/list', element: <ListStandIn /> },
]);
const summaryCalls = () => call.mock.calls.filter(([e]) => (e as Endpoint).name === recharge.getReviewSummary.name).length;

beforeEach(async () => {
  await setLanguage('en');
  call.mockReset();
  call.mockImplementation(async (e: Endpoint) => (e.name === recharge.getReviewSummary.name ? summary : null));
  summary = { pending: 5, overdue: 2, nextDueAt: '2026-11-27T02:00:00.000Z' };
});

describe('the header review badge', () => {
  it.each([
    ['staff without the review code', RoleType.Admin, [Perm.BusinessRecharge]],
    ['the review code without the top-up list', RoleType.Admin, [Perm.BusinessRechargeAudit]],
    ['a customer, even holding the review code (only staff review)', RoleType.Enterprise, REVIEWER],
  ])('is not shown, and asks nothing, for %s', async (_who, roleId, permissions) => {
    signIn(roleId, permissions);
    show();
    expect(await screen.findByText('reviewed')).toBeInTheDocument();
    expect(screen.queryByTestId('review-badge')).toBeNull();
    expect(call).not.toHaveBeenCalled();
  });

  it('shows the waiting count in red when some are overdue, and opens the overdue ones', async () => {
    signIn(RoleType.Manager, REVIEWER);
    show();
    const count = screen.getByTestId('review-badge-count');
    await waitFor(() => expect(count).toHaveTextContent('5'));
    expect(count).toHaveAttribute('data-overdue', 'true');
    expect(count.querySelector('.ant-badge-count')).toHaveStyle({ background: token.colorError });
    const button = screen.getByTestId('review-badge');
    expect(button).toHaveAttribute('aria-label', '5 public top-up(s) waiting for review, 2 overdue');
    // the tooltip: the sentence, the next due time on the business clock, what a click does
    fireEvent.mouseEnter(button);
    const tip = await screen.findByTestId('review-badge-tip');
    expect(tip).toHaveTextContent('Next due at 2026-11-27 10:00:00 (UTC+8)');
    expect(tip).toHaveTextContent('Click to see the overdue ones');
    fireEvent.click(button);
    expect(await screen.findByTestId('recharge-list')).toHaveTextContent('?review=overdue');
  });

  it('is calm while none is overdue (zh), and opens all waiting ones', async () => {
    await setLanguage('zh');
    summary = { pending: 3, overdue: 0, nextDueAt: '2026-11-27T02:00:00.000Z' };
    signIn(RoleType.Admin, REVIEWER);
    show();
    const count = screen.getByTestId('review-badge-count');
    await waitFor(() => expect(count).toHaveTextContent('3'));
    expect(count).toHaveAttribute('data-overdue', 'false');
    expect(count.querySelector('.ant-badge-count')).toHaveStyle({ background: token.colorPrimary });
    const button = screen.getByTestId('review-badge');
    expect(button).toHaveAttribute('aria-label', '3 笔对公充值待审核');
    fireEvent.mouseEnter(button);
    expect(await screen.findByTestId('review-badge-tip')).toHaveTextContent('下一笔审核截止时间：2026-11-27 10:00:00（UTC+8）');
    fireEvent.click(button);
    expect(await screen.findByTestId('recharge-list')).toHaveTextContent('?review=pending');
  });

  it('with nothing waiting: a quiet icon without a number, opening the plain list', async () => {
    summary = { pending: 0, overdue: 0, nextDueAt: null };
    signIn(RoleType.Admin, REVIEWER);
    show();
    await waitFor(() => expect(summaryCalls()).toBe(1));
    await waitFor(() => expect(screen.getByTestId('review-badge')).toHaveAttribute('aria-label', 'No public top-ups waiting for review'));
    expect(screen.getByTestId('review-badge-count').querySelector('.ant-badge-count')).toBeNull();
    fireEvent.click(screen.getByTestId('review-badge'));
    expect(await screen.findByTestId('recharge-list')).toHaveTextContent(/^$/);
  });

  it('asks again when a review invalidates the summary, and every two minutes', async () => {
    signIn(RoleType.Admin, REVIEWER);
    show();
    await waitFor(() => expect(screen.getByTestId('review-badge-count')).toHaveTextContent('5'));
    summary = { pending: 4, overdue: 1, nextDueAt: '2026-11-27T02:00:00.000Z' };
    fireEvent.click(screen.getByText('reviewed'));
    await waitFor(() => expect(screen.getByTestId('review-badge-count')).toHaveTextContent('4'));
    expect(summaryCalls()).toBe(2);
    expect(REVIEW_BADGE_MS).toBe(120_000);
  });

  it.each([
    [{ pending: 5, overdue: 2 }, '/business/recharge/list?review=overdue'],
    [{ pending: 5, overdue: 0 }, '/business/recharge/list?review=pending'],
    [{ pending: 0, overdue: 0 }, '/business/recharge/list'],
    [undefined, '/business/recharge/list'],
  ])('leads from %j to %s', (s, url) => {
    expect(reviewListUrl(s)).toBe(url);
  });
});
