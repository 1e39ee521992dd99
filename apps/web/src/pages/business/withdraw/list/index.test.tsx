import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RoleType, WithdrawState, withdraw, type Endpoint } from '@lynx/contract';
import { renderAt } from '../../../../test/render.tsx';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import { RunsModal, type WithdrawRow } from '../WithdrawModals.tsx';
import WithdrawList from './index.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

const { WithdrawPerm } = withdraw;
const LONG_REASON = `bank refused: ${'the payee account is frozen by the receiving bank; '.repeat(6)}`.trim();
const base: WithdrawRow = {
  withdrawId: 1, withdrawNo: 'W202611250001', custId: 7, custName: 'Acme IoT', amount: '1200.00', accountName: 'Acme IoT Ltd',
  bankName: 'ICBC', bankAccount: '6222020000001234567', state: WithdrawState.Applied, remark: null, appliedBy: 'acme', appliedAt: '2026-11-01T02:00:00.000Z',
  expectedRunDay: '2026-11-10', expectedArrivalDay: '2026-11-20', reviewedBy: null, reviewedAt: null, reviewReason: null, runId: null, paidAt: null, paidBy: null,
  payoutAttempts: 0, payoutError: null, payoutFailedAt: null,
};
const failed: WithdrawRow = {
  ...base, withdrawId: 2, withdrawNo: 'W202611250002', custName: 'Beta Corp', state: WithdrawState.PayoutFailed, reviewedBy: 'finance',
  reviewedAt: '2026-11-02T02:00:00.000Z', runId: 4, payoutAttempts: 3, payoutError: LONG_REASON, payoutFailedAt: '2026-11-10T01:30:00.000Z',
};
const approved: WithdrawRow = { ...base, withdrawId: 3, withdrawNo: 'W202611250003', custName: 'Gamma Ltd', state: WithdrawState.Approved };
let rows: WithdrawRow[] = [];

const signIn = (roleId: number, permissions: number[]) => useSession.getState().signIn({
  accessToken: 'tok-123456789012345678901', roleId, loginName: 'u', userName: 'U', channelCustId: null, custId: roleId >= 3000 ? 7 : null, permissions, mustResetPassword: false,
});
const callsOf = (e: Endpoint) => call.mock.calls.filter(([x]) => (x as Endpoint).name === e.name).map(([, body]) => body as Record<string, unknown>);
const show = async () => {
  renderAt('/business/withdraw/list', [{ path: '/business/withdraw/list', element: <WithdrawList /> }]);
  return (await screen.findByText(rows[0].withdrawNo)).closest('tr')!;
};
const rowOf = (no: string) => screen.getByText(no).closest('tr')!;

beforeEach(async () => {
  await setLanguage('en');
  rows = [base, failed, approved];
  call.mockReset();
  call.mockImplementation(async (e: Endpoint, body: Record<string, unknown>) => {
    if (e.name === withdraw.getWithdrawListPage.name) return { list: rows, total: rows.length, current: 1, pageSize: 20 };
    if (e.name === withdraw.retryWithdrawPayout.name) return { ...failed, withdrawId: body.withdrawId, state: WithdrawState.Approved, payoutAttempts: 0, payoutFailedAt: null };
    return null;
  });
});

describe('withdrawals whose payout failed', () => {
  it('shows the state in red, the reason cut short with the whole story on hover, and "Payout failed" among the filter states', async () => {
    signIn(RoleType.Admin, [WithdrawPerm.Page, WithdrawPerm.Review, WithdrawPerm.Pay]);
    await show();
    const tr = rowOf(failed.withdrawNo);
    const tag = within(tr).getByText('Payout failed');
    expect(tag).toHaveClass('ant-tag-error');
    const reason = within(tr).getByTestId('withdraw-payout-error');
    expect(reason).toHaveClass('ant-typography-ellipsis');
    fireEvent.mouseEnter(reason);
    const tip = await screen.findByRole('tooltip');
    await waitFor(() => expect(tip).toHaveTextContent(`Tried 3 times; marked payout failed at 2026-11-10 09:30:00. Reason: ${LONG_REASON}`));
    // an applied one has no payout failure
    expect(within(rowOf(base.withdrawNo)).queryByTestId('withdraw-payout-error')).toBeNull();

    // the status filter offers the new state (its options come from the contract enum)
    fireEvent.mouseDown(screen.getByLabelText('State'));
    expect(await screen.findByTitle('Payout failed')).toBeInTheDocument();
  });

  it('offers retry (payout code) and reject (review code) only on a payout-failed one', async () => {
    signIn(RoleType.Admin, [WithdrawPerm.Page, WithdrawPerm.Review, WithdrawPerm.Pay]);
    await show();
    expect(screen.getByTestId(`withdraw-retry-${failed.withdrawId}`)).toHaveTextContent('Retry payout');
    expect(screen.getByTestId(`withdraw-reject-${failed.withdrawId}`)).toBeInTheDocument();
    expect(screen.queryByTestId(`withdraw-approve-${failed.withdrawId}`)).toBeNull();
    for (const r of [base, approved]) expect(screen.queryByTestId(`withdraw-retry-${r.withdrawId}`)).toBeNull();
    expect(screen.queryByTestId(`withdraw-reject-${approved.withdrawId}`)).toBeNull();
  });

  it('hides retry without the payout code (reject stays with the review code)', async () => {
    signIn(RoleType.Admin, [WithdrawPerm.Page, WithdrawPerm.Review]);
    await show();
    expect(screen.queryByTestId(`withdraw-retry-${failed.withdrawId}`)).toBeNull();
    expect(screen.getByTestId(`withdraw-reject-${failed.withdrawId}`)).toBeInTheDocument();
  });

  it('a customer sees its failed payout but can neither retry nor reject it', async () => {
    signIn(RoleType.Enterprise, [WithdrawPerm.Page, WithdrawPerm.Review, WithdrawPerm.Pay]);
    await show();
    expect(within(rowOf(failed.withdrawNo)).getByText('Payout failed')).toBeInTheDocument();
    expect(screen.queryByTestId(`withdraw-retry-${failed.withdrawId}`)).toBeNull();
    expect(screen.queryByTestId(`withdraw-reject-${failed.withdrawId}`)).toBeNull();
  });

  it.each([
    ['en', 'Payout failed; finance is handling it'],
    ['zh', '打款失败，财务正在处理'],
  ] as const)('a customer, who gets no technical reason, reads that finance is handling its failed payout (%s)', async (lang, text) => {
    await setLanguage(lang);
    rows = [{ ...failed, payoutError: null }, { ...approved, payoutAttempts: 1, payoutError: null }];
    signIn(RoleType.Enterprise, [WithdrawPerm.Page]);
    await show();
    expect(within(rowOf(failed.withdrawNo)).getByTestId('withdraw-payout-error')).toHaveTextContent(text);
    // one being tried again shows nothing to worry about
    expect(within(rowOf(approved.withdrawNo)).queryByTestId('withdraw-payout-error')).toBeNull();
    fireEvent.click(within(rowOf(failed.withdrawNo)).getByText(failed.withdrawNo));
    expect(await screen.findByTestId('withdraw-info-payout-error')).toHaveTextContent(text);
  });

  it('retries only after the confirmation says what happens, then says so and reloads the list', async () => {
    signIn(RoleType.Admin, [WithdrawPerm.Page, WithdrawPerm.Pay]);
    await show();
    const loads = callsOf(withdraw.getWithdrawListPage).length;
    fireEvent.click(screen.getByTestId(`withdraw-retry-${failed.withdrawId}`));
    expect(await screen.findByText(/It goes back to approved and is paid by the next payout run/)).toHaveTextContent('1,200.00 CNY to Beta Corp');
    expect(callsOf(withdraw.retryWithdrawPayout)).toHaveLength(0);
    fireEvent.click(screen.getByTestId('withdraw-retry-ok'));
    await waitFor(() => expect(callsOf(withdraw.retryWithdrawPayout)).toEqual([{ withdrawId: failed.withdrawId }]));
    expect(await screen.findByText('Approved again; the next payout run pays it')).toBeInTheDocument();
    await waitFor(() => expect(callsOf(withdraw.getWithdrawListPage).length).toBeGreaterThan(loads));
  });

  it('cancelling the confirmation retries nothing', async () => {
    signIn(RoleType.Admin, [WithdrawPerm.Page, WithdrawPerm.Pay]);
    await show();
    fireEvent.click(screen.getByTestId(`withdraw-retry-${failed.withdrawId}`));
    await screen.findByText(/It goes back to approved/);
    const buttons = screen.getByTestId('withdraw-retry-ok').parentElement!;
    fireEvent.click(within(buttons).getByText('Cancel').closest('button')!);
    // the dialog fades out (jsdom keeps it): what matters is that nothing was sent
    await new Promise((r) => setTimeout(r, 100));
    expect(callsOf(withdraw.retryWithdrawPayout)).toHaveLength(0);
  });

  it('rejects a payout-failed one with a reason through the usual dialog', async () => {
    signIn(RoleType.Admin, [WithdrawPerm.Page, WithdrawPerm.Review]);
    await show();
    fireEvent.click(screen.getByTestId(`withdraw-reject-${failed.withdrawId}`));
    fireEvent.change(await screen.findByTestId('withdraw-reject-reason'), { target: { value: 'account closed' } });
    fireEvent.click(screen.getByTestId('withdraw-reject-ok'));
    await waitFor(() => expect(callsOf(withdraw.checkWithdraw)).toEqual([{ withdrawId: failed.withdrawId, approve: false, reason: 'account closed' }]));
  });

  it('the details show the attempts, when it failed and the whole reason', async () => {
    signIn(RoleType.Admin, [WithdrawPerm.Page]);
    await show();
    fireEvent.click(within(rowOf(failed.withdrawNo)).getByText(failed.withdrawNo));
    const dialog = (await screen.findByText('Withdrawal', { selector: '.ant-modal-title' })).closest('.ant-modal') as HTMLElement;
    expect(within(dialog).getByText('Payout attempts').closest('tr')).toHaveTextContent('3');
    expect(within(dialog).getByText(/Payout failed at/).closest('tr')).toHaveTextContent('2026-11-10 09:30:00');
    expect(within(dialog).getByTestId('withdraw-info-payout-error')).toHaveTextContent(LONG_REASON);
  });
});

describe('the payout runs', () => {
  it('show how many each run left payout failed next to those it paid', async () => {
    signIn(RoleType.Admin, [WithdrawPerm.Page, WithdrawPerm.Pay]);
    call.mockImplementation(async (e: Endpoint) => (e.name === withdraw.getWithdrawRuns.name ? {
      list: [{ runId: 4, trigger: 1, state: 2, itemCount: 5, paidCount: 3, failedCount: 2, startedBy: 'system', startedAt: '2026-11-10T01:00:00.000Z', finishedAt: '2026-11-10T01:30:00.000Z' }],
      total: 1, current: 1, pageSize: 10,
    } : null));
    renderAt('/', [{ path: '/', element: <RunsModal open onClose={() => {}} /> }]);
    expect(await screen.findByText('Failed', { selector: 'th' })).toBeInTheDocument();
    const cell = await screen.findByTestId('withdraw-run-failed');
    expect(cell).toHaveTextContent('2');
    const texts = within(cell.closest('tr')!).getAllByRole('cell').map((c) => c.textContent);
    // items, paid, failed side by side
    expect(texts.slice(3, 6)).toEqual(['5', '3', '2']);
  });
});
