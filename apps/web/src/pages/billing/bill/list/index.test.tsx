import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BillPublishState, BillRunState, BillStatus, RoleType, bill, type Endpoint } from '@lynx/contract';
import { renderAt } from '../../../../test/render.tsx';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import type { BillRow } from '../shared.tsx';
import BillList from './index.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

const zero = '0.00';
const draft: BillRow = {
  billId: 21, billNo: 'B202610000021', periodKey: '2026-10', periodFrom: '2026-09-26', periodTo: '2026-10-31', custId: 7, custName: 'Acme IoT',
  status: BillStatus.Normal, published: BillPublishState.Unpublished, publishedAt: null, publishedBy: null, dueDate: null, cardCount: 12,
  total: '2345.60', tax: '132.77', categories: { planFee: '1200.00', prepaidFee: '300.00', overageFee: '845.60', testFee: zero, downtimeFee: zero, packFee: zero, oneOffFee: zero },
  withheld: '300.00', amountDue: '2045.60', writtenOff: zero, arrears: '2045.60', writtenOffAt: null, ratedAt: '2026-11-01T02:00:00.000Z',
};
const published: BillRow = { ...draft, billId: 22, billNo: 'B202610000022', custName: 'Beta Corp', status: BillStatus.ToWriteOff, published: BillPublishState.Published, dueDate: '2026-11-17' };
const { BillPerm } = bill;
const STAFF = [BillPerm.Page, BillPerm.Publish, BillPerm.Run, BillPerm.Export];
const signIn = (roleId: number, permissions: number[]) => useSession.getState().signIn({
  accessToken: 'tok-123456789012345678901', roleId, loginName: 'u', userName: 'U', channelCustId: null, custId: roleId >= 3000 ? 7 : null, permissions, mustResetPassword: false,
});
const callsOf = (e: Endpoint) => call.mock.calls.filter(([x]) => (x as Endpoint).name === e.name).map(([, body]) => body as Record<string, unknown>);

beforeEach(async () => {
  await setLanguage('en');
  call.mockReset();
  call.mockImplementation(async (e: Endpoint, body: Record<string, unknown>) => {
    if (e.name === bill.getBillListPage.name) return { list: [draft, published], total: 2, current: 1, pageSize: 20 };
    if (e.name === bill.publishBill.name) return { ...draft, published: BillPublishState.Published, dueDate: '2026-11-30' };
    if (e.name === bill.runBills.name) return { runId: 5, periodKey: body.periodKey, custId: body.custId ?? null, custName: null, state: BillRunState.Running, step: 1, cardsDone: 0, cardsTotal: 10, linesWritten: 0, startedBy: 'admin', startedAt: '2026-11-27T00:00:00.000Z', finishedAt: null, error: null };
    if (e.name === bill.getBillPeriods.name) {
      return [
        { periodKey: '2026-11', ready: false, reason: 'the period ends on 2026-11-30', bills: 0, published: 0 },
        { periodKey: '2026-10', ready: true, reason: null, bills: 2, published: 1 },
      ];
    }
    if (e.name === bill.getBillRuns.name) return { list: [], total: 0, current: 1, pageSize: 10 };
    return { list: [], total: 0, current: 1, pageSize: 100 };
  });
});

const show = async (url = '/billing/bill/list') => {
  renderAt(url, [{ path: '/billing/bill/list/:tab?', element: <BillList /> }]);
  await screen.findByText(draft.billNo);
};

describe('the bill list', () => {
  it('shows status, publish state, totals and every category; any :tab sub-path lists the same spending bills', async () => {
    signIn(RoleType.Admin, STAFF);
    await show('/billing/bill/list/fenrun');
    const tr = screen.getByText(draft.billNo).closest('tr')!;
    expect(within(tr).getByText('Unpublished')).toBeInTheDocument();
    expect(within(tr).getByText('2,345.60')).toBeInTheDocument();
    expect(within(tr).getByText('845.60')).toBeInTheDocument();
    expect(screen.getAllByText('Out-of-plan usage (CNY)').length).toBeGreaterThan(0);
    expect(within(screen.getByText(published.billNo).closest('tr')!).getByText('To be written off')).toBeInTheDocument();
    expect(callsOf(bill.getBillListPage)[0]).not.toHaveProperty('tab');
  });

  it('lets staff publish and re-run only an unpublished bill, each after a confirmation', async () => {
    signIn(RoleType.Admin, STAFF);
    await show();
    expect(screen.queryByTestId(`bill-publish-${published.billId}`)).toBeNull();
    expect(screen.queryByTestId(`bill-rerun-${published.billId}`)).toBeNull();
    fireEvent.click(screen.getByTestId(`bill-publish-${draft.billId}`));
    expect(await screen.findByText(/it is due in 15 days/)).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('bill-publish-confirm'));
    await waitFor(() => expect(callsOf(bill.publishBill)).toEqual([{ billId: draft.billId }]));
    fireEvent.click(screen.getByTestId(`bill-rerun-${draft.billId}`));
    fireEvent.click(await screen.findByTestId('bill-rerun-confirm'));
    await waitFor(() => expect(callsOf(bill.runBills)).toEqual([{ periodKey: '2026-10', custId: draft.custId }]));
  });

  it('runs a ready period; a period not ready shows why and cannot be picked', async () => {
    signIn(RoleType.Admin, STAFF);
    await show();
    fireEvent.click(screen.getByTestId('bill-run'));
    expect(await screen.findByTestId('bill-run-reason-2026-11')).toHaveTextContent('the period ends on 2026-11-30');
    expect(screen.getByTestId('bill-run-period-2026-11')).toBeDisabled();
    const start = screen.getByTestId('bill-run-start');
    await waitFor(() => expect(start).toHaveTextContent('Run 2026-10'));
    fireEvent.click(start);
    expect(await screen.findByText(/re-rates the unpublished ones/)).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('bill-run-confirm'));
    await waitFor(() => expect(callsOf(bill.runBills)).toEqual([{ periodKey: '2026-10' }]));
  });

  it('a customer sees its bills without run, publish or re-run', async () => {
    signIn(RoleType.Enterprise, [BillPerm.Page, BillPerm.Export]);
    await show();
    expect(screen.queryByTestId('bill-run')).toBeNull();
    expect(screen.queryByTestId(`bill-publish-${draft.billId}`)).toBeNull();
    expect(screen.queryByTestId(`bill-rerun-${draft.billId}`)).toBeNull();
    expect(screen.getByTestId('export-button')).toBeInTheDocument();
  });
});
