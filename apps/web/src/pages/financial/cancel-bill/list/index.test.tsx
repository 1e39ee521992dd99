import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BillPublishState, BillStatus, RoleType, bill, type Endpoint, type ResponseOf } from '@lynx/contract';
import { renderAt } from '../../../../test/render.tsx';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import WriteOffList from './index.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

type Row = ResponseOf<typeof bill.getWriteOffListPage>['list'][number];
const zero = '0.00';
const row: Row = {
  billId: 11, billNo: 'B202610000011', periodKey: '2026-10', periodFrom: '2026-10-01', periodTo: '2026-10-31', custId: 7, custName: 'Acme IoT',
  status: BillStatus.ToWriteOff, published: BillPublishState.Published, publishedAt: '2026-11-02T02:00:00.000Z', publishedBy: 'finance', dueDate: '2026-11-17',
  cardCount: 3, total: '1500.00', tax: '84.91', categories: { planFee: '1200.00', prepaidFee: '300.00', overageFee: zero, testFee: zero, downtimeFee: zero, packFee: zero, oneOffFee: zero },
  withheld: '300.00', amountDue: '1200.00', writtenOff: zero, arrears: '1200.00', writtenOffAt: null, ratedAt: '2026-11-01T02:00:00.000Z', payable: '800.00',
};
const { BillPerm } = bill;
const signIn = (roleId: number, permissions: number[]) => useSession.getState().signIn({
  accessToken: 'tok-123456789012345678901', roleId, loginName: 'u', userName: 'U', channelCustId: null, custId: 7, permissions, mustResetPassword: false,
});
const callsOf = (e: Endpoint) => call.mock.calls.filter(([x]) => (x as Endpoint).name === e.name).map(([, body]) => body as Record<string, unknown>);

beforeEach(() => {
  call.mockReset();
  call.mockImplementation(async (e: Endpoint) => {
    if (e.name === bill.getWriteOffListPage.name) return { list: [row], total: 1, current: 1, pageSize: 20 };
    if (e.name === bill.writeOffBill.name) return { bill: { ...row, writtenOff: '800.00', arrears: '400.00' }, writeOff: {} };
    return { list: [], total: 0, current: 1, pageSize: 100 };
  });
});

const show = async (url = '/financial/cancel-bill/list') => {
  renderAt(url, [{ path: '/financial/cancel-bill/list/:tab?', element: <WriteOffList /> }]);
  return (await screen.findByText(row.billNo)).closest('tr')!;
};

describe('the write-off list', () => {
  it('asks for the tab named in the path (numbers of old links too), and shows the payable balance', async () => {
    await setLanguage('en');
    signIn(RoleType.Enterprise, [BillPerm.WriteOff, BillPerm.WriteOffDo]);
    const tr = await show('/financial/cancel-bill/list/3');
    expect(callsOf(bill.getWriteOffListPage)[0]).toMatchObject({ tab: bill.WriteOffTab.Overdue });
    expect(within(tr).getByText('800.00')).toBeInTheDocument();
    expect(screen.getByTestId('write-off-tab-overdue').closest('[role=tab]')).toHaveAttribute('aria-selected', 'true');
  });

  it('offers no write-off without the write-off code', async () => {
    await setLanguage('en');
    signIn(RoleType.Enterprise, [BillPerm.WriteOff]);
    await show();
    expect(screen.queryByTestId(`write-off-${row.billId}`)).toBeNull();
  });

  it.each([
    ['en', 'The write-off amount cannot exceed the amount to be written off, 1,200.00 CNY', 'The write-off amount cannot exceed pre-deposit plus grants, 800.00 CNY', 'The write-off amount cannot be 0'],
    ['zh', '核销金额不能超过待核销金额 1,200.00 元', '核销金额不能超过预存款与赠送金之和 800.00 元', '核销金额不能为 0'],
  ] as const)('proposes the smaller of arrears and payable, refuses 0 and too much with the spec\'s messages, then writes off (%s)', async (lang, aboveDue, aboveBalance, zeroMsg) => {
    await setLanguage(lang);
    signIn(RoleType.Enterprise, [BillPerm.WriteOff, BillPerm.WriteOffDo]);
    await show();
    fireEvent.click(screen.getByTestId(`write-off-${row.billId}`));
    const amount = await screen.findByTestId('write-off-amount');
    expect(amount).toHaveValue('800.00');
    for (const [typed, msg] of [['1200.01', aboveDue], ['800.01', aboveBalance], ['0', zeroMsg]] as const) {
      fireEvent.change(amount, { target: { value: typed } });
      fireEvent.click(screen.getByTestId('write-off-ok'));
      expect(await screen.findByText(msg)).toBeInTheDocument();
    }
    expect(callsOf(bill.writeOffBill)).toHaveLength(0);
    fireEvent.change(amount, { target: { value: '500.5' } });
    fireEvent.click(screen.getByTestId('write-off-ok'));
    fireEvent.click(await screen.findByTestId('write-off-confirm'));
    await waitFor(() => expect(callsOf(bill.writeOffBill)).toEqual([{ billId: row.billId, amount: '500.50' }]));
    // and the list asks again
    await waitFor(() => expect(callsOf(bill.getWriteOffListPage).length).toBeGreaterThan(1));
  });

  it('does not let a customer without pre-deposit or grants write off', async () => {
    await setLanguage('en');
    signIn(RoleType.Enterprise, [BillPerm.WriteOff, BillPerm.WriteOffDo]);
    call.mockImplementation(async (e: Endpoint) => (e.name === bill.getWriteOffListPage.name ? { list: [{ ...row, payable: zero }], total: 1, current: 1, pageSize: 20 } : { list: [], total: 0 }));
    await show();
    fireEvent.click(screen.getByTestId(`write-off-${row.billId}`));
    expect(await screen.findByTestId('write-off-no-balance')).toHaveTextContent('top up first');
    expect(screen.getByTestId('write-off-ok').closest('button')).toBeDisabled();
  });
});
