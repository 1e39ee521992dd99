import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { capital, JournalKind, LedgerAccount, Perm, RoleType, type Endpoint } from '@lynx/contract';
import { renderAt } from '../../../../test/render.tsx';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import CapitalDetail from './index.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

const money = { preDeposit: '100.00', grants: '0.00', contractPayment: '0.00', credit: '0.00', withdrawHold: '0.00', available: '100.00', withdrawable: '100.00' };
const line = { account: LedgerAccount.PreDeposit, memo: null, createdBy: 'job:recharge-expire', createdAt: '2026-11-25T08:00:00.000Z' };
const ledger = [
  { ...line, postingId: 2, journalId: 12, kind: JournalKind.RefundReversal, amount: '40.00', balanceAfter: '100.00', refType: 'rechargeRefund', refId: 'F2026112500001' },
  { ...line, postingId: 1, journalId: 11, kind: JournalKind.Refund, amount: '-40.00', balanceAfter: '60.00', refType: 'rechargeRefund', refId: 'F2026112500001' },
];

beforeEach(async () => {
  call.mockReset();
  call.mockImplementation(async (e: Endpoint) => {
    if (e.name === capital.getCapitalDetail.name) return { custId: 7, custName: 'Acme IoT', level: 1, ...money };
    if (e.name === capital.getCapitalLedgerPage.name) return { list: ledger, total: ledger.length, current: 1, pageSize: 20 };
    return null;
  });
  useSession.getState().signIn({
    accessToken: 'tok-123456789012345678901', roleId: RoleType.Admin, loginName: 'admin', userName: 'Admin', channelCustId: null, custId: null,
    permissions: [Perm.BusinessCapital], mustResetPassword: false,
  });
});

describe('the capital ledger', () => {
  it.each([
    ['en', 'Refund reversed (the channel did not refund)', 'Refund · F2026112500001'],
    ['zh', '退款撤销（渠道未退款）', '退款单 · F2026112500001'],
  ] as const)('shows a refund reversal with its own label and colour, apart from the refund (%s)', async (lang, label, source) => {
    await setLanguage(lang);
    renderAt('/business/capital/detail/info/7', [{ path: '/business/capital/detail/info/:custId?', element: <CapitalDetail /> }]);
    const tag = await screen.findByText(label);
    expect(tag).toHaveClass('ant-tag-lime');
    const tr = tag.closest('tr')!;
    expect(within(tr).getByText(source)).toBeInTheDocument();
    const refund = screen.getByText(lang === 'en' ? 'Refund' : '退款', { selector: '.ant-tag' });
    expect(refund).toHaveClass('ant-tag-orange');
  });
});
