import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { capital, credit, LedgerAccount, Perm, type Endpoint } from '@lynx/contract';
import { renderAt } from '../../../../test/render.tsx';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import CapitalList from './index.tsx';
import { CompanyBalances } from '../../../home/index/CompanyBalances.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

const money = { preDeposit: '-120.50', grants: '0.00', contractPayment: '0.00', credit: '1000.00', withdrawHold: '0.00', available: '879.50', withdrawable: '0.00' };
const row = { custId: 7, custName: 'Acme IoT', level: 1, parentCustName: null, paymentModel: null, updatedAt: '2026-11-25T08:00:00.000Z', ...money };
let check: unknown = null;

const signIn = (roleId: number, permissions: number[]) =>
  useSession.getState().signIn({ accessToken: 'tok-123456789012345678901', roleId, loginName: 'u', userName: 'U', channelCustId: null, custId: roleId >= 3000 ? 7 : null, permissions, mustResetPassword: false });

beforeEach(async () => {
  await setLanguage('en');
  call.mockReset();
  call.mockImplementation(async (e: Endpoint) => {
    if (e.name === capital.getCapitalListPage.name) return { list: [row], total: 1, current: 1, pageSize: 20 };
    if (e.name === capital.getLedgerCheck.name) return check;
    if (e.name === capital.getCompanyInfo.name) return { custId: 7, custName: 'Acme IoT', level: 1, ...money };
    return null;
  });
});

describe('the capital list', () => {
  it('shows the six balances of each customer, a negative pre-deposit in red', async () => {
    signIn(1000, [Perm.BusinessCapital, credit.getCreditListPage.perm![0]]);
    renderAt('/business/capital/list', [{ path: '/business/capital/list', element: <CapitalList /> }]);
    const line = await screen.findByText('Acme IoT');
    const tr = line.closest('tr')!;
    for (const v of ['-120.50', '1,000.00', '879.50']) expect(within(tr).getByText(v)).toBeInTheDocument();
    expect(within(tr).getByText('-120.50')).toHaveStyle({ color: '#cf1322' });
    for (const h of ['Pre-deposit (CNY)', 'Grants (CNY)', 'Contract payments (CNY)', 'Credit (CNY)', 'Held for withdrawal (CNY)', 'Available (CNY)']) {
      expect(screen.getAllByText(h).length).toBeGreaterThan(0);
    }
    // staff with the credit page get the shortcut to the customer's credit
    expect(within(tr).getByText('Credit')).toBeInTheDocument();
  });

  it('raises an alarm with the mismatches when the last balance check failed (staff)', async () => {
    check = { checkedAt: '2026-11-25T18:30:00.000Z', ok: false, postings: 12, durationMs: 5, mismatches: [{ custId: 7, account: LedgerAccount.PreDeposit, journalId: null, expected: '100.00', actual: '90.00' }] };
    signIn(1000, [Perm.BusinessCapital]);
    renderAt('/business/capital/list', [{ path: '/business/capital/list', element: <CapitalList /> }]);
    const alarm = await screen.findByTestId('ledger-check');
    await waitFor(() => expect(alarm).toHaveTextContent('1 balances differ from the ledger'));
    expect(alarm).toHaveTextContent('Pre-deposit');
    expect(alarm).toHaveTextContent('100.00');
    expect(alarm).toHaveTextContent('90.00');
  });

  it('a customer sees no balance check (staff only)', async () => {
    check = { checkedAt: '2026-11-25T18:30:00.000Z', ok: false, postings: 1, durationMs: 1, mismatches: [] };
    signIn(3000, [Perm.BusinessCapital]);
    renderAt('/business/capital/list', [{ path: '/business/capital/list', element: <CapitalList /> }]);
    await screen.findByText('Acme IoT');
    expect(screen.queryByTestId('ledger-check')).toBeNull();
    expect(call.mock.calls.some(([e]) => (e as Endpoint).name === capital.getLedgerCheck.name)).toBe(false);
  });
});

describe('the home company balances', () => {
  it('shows the customer\'s own balances and links to its capital detail', async () => {
    signIn(3000, [Perm.Home, Perm.BusinessCapital]);
    renderAt('/home/index', [
      { path: '/home/index', element: <CompanyBalances /> },
      { path: '/business/capital/detail/info', element: <div data-testid="capital-detail">detail</div> },
    ]);
    await waitFor(() => expect(screen.getByTestId('home-balance-available')).toHaveTextContent('879.50'));
    expect(screen.getByTestId('home-balance-credit')).toHaveTextContent('1,000.00');
    screen.getByTestId('home-company-detail').click();
    expect(await screen.findByTestId('capital-detail')).toBeInTheDocument();
  });

  it('shows nothing for staff (no company of their own)', async () => {
    call.mockImplementation(async () => null);
    signIn(1000, [Perm.Home]);
    renderAt('/home/index', [{ path: '/home/index', element: <CompanyBalances /> }]);
    // a skeleton while the answer is on its way, then nothing
    expect(screen.getByTestId('home-company-balances')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('home-company-balances')).toBeNull());
    expect(call).toHaveBeenCalled();
  });
});
