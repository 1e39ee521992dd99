import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { BillLineCategory, RoleType, bill, type Endpoint } from '@lynx/contract';
import { renderAt } from '../../../../test/render.tsx';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import { CardLines } from './CardLines.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

const line = (iccid: string) => ({
  iccid, category: BillLineCategory.OutOfPlanUsage, fromDay: '2026-10-01', toDay: '2026-10-31', goodsReleaseId: 3, planName: 'IoT 5GB', operatorId: 1, cardTypeId: null,
  quantity: 2, unitPrice: '5.00', amount: '10.00', tax: '0.57', usedBytes: 6 * 1024 ** 3, quotaBytes: 5 * 1024 ** 3, withheld: false,
});
const bodies = () => call.mock.calls.filter(([e]) => (e as Endpoint).name === bill.getBillCardLines.name).map(([, b]) => b as Record<string, unknown>);

beforeEach(async () => {
  await setLanguage('en');
  useSession.getState().signIn({
    accessToken: 'tok-123456789012345678901', roleId: RoleType.Admin, loginName: 'u', userName: 'U', channelCustId: null, custId: null, permissions: [bill.BillPerm.Page], mustResetPassword: false,
  });
  call.mockReset();
  // three pages of one line each, keyed by the ICCID of the last line
  call.mockImplementation(async (_e: Endpoint, body: { after?: string }) => {
    const i = body.after ? Number(body.after.slice(-1)) + 1 : 1;
    return { list: [line(`898600000000000000${i}`.padEnd(19, '0'))], total: 3, totalCapped: false, pageSize: 20, next: i < 3 ? `k${i}` : null };
  });
});

describe('a bill\'s card lines', () => {
  it('pages forward by the key of the page before and back through the keys seen; usage in human units', async () => {
    renderAt('/', [{ path: '/', element: <CardLines billId={9} /> }]);
    expect(await screen.findByText('6 GB / 5 GB')).toBeInTheDocument();
    expect(screen.getByTestId('bill-lines-page')).toHaveTextContent('Page 1 of 2, 3 lines');
    expect(screen.getByTestId('bill-lines-prev').closest('button')).toBeDisabled();
    fireEvent.click(screen.getByTestId('bill-lines-next'));
    await waitFor(() => expect(bodies().at(-1)).toMatchObject({ billId: 9, after: 'k1' }));
    fireEvent.click(await screen.findByTestId('bill-lines-next'));
    await waitFor(() => expect(bodies().at(-1)).toMatchObject({ after: 'k2' }));
    await waitFor(() => expect(screen.getByTestId('bill-lines-next').closest('button')).toBeDisabled());
    fireEvent.click(screen.getByTestId('bill-lines-prev'));
    await waitFor(() => expect(screen.getByTestId('bill-lines-page')).toHaveTextContent('Page 2'));
    await waitFor(() => expect(screen.getByTestId('bill-lines-prev').closest('button')).toBeEnabled());
    fireEvent.click(screen.getByTestId('bill-lines-prev'));
    await waitFor(() => expect(screen.getByTestId('bill-lines-page')).toHaveTextContent('Page 1'));
    // the first page is asked for without a key
    expect(bodies().filter((b) => !('after' in b)).length).toBeGreaterThan(0);
  });
});
