import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RoleType, carddetail, sms, type Endpoint } from '@lynx/contract';
import { renderAt } from '../../../../test/render.tsx';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import type { SmsRow } from '../shared.tsx';
import SmsList from './index.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

const { SmsStatus, SmsDirection, SmsSource, SmsPerm } = sms;
const base: SmsRow = {
  smsId: '00000000-0000-4000-8000-000000000001', iccid: '89861122000000000001', msisdn: '1064900000001', direction: SmsDirection.ToDevice,
  content: 'REBOOT', status: SmsStatus.Sent, source: SmsSource.Batch, encoding: sms.SmsEncoding.Gsm7, batchId: null, messageId: 'SIM-ABC',
  reportCode: 'DELIVRD', reportAt: '2026-11-20T02:00:05.000Z', failReason: null, submittedAt: '2026-11-20T02:00:01.000Z', createdBy: 'enterprise',
  createdAt: '2026-11-20T02:00:00.000Z', updatedAt: '2026-11-20T02:00:05.000Z',
};
const mo: SmsRow = {
  ...base, smsId: '00000000-0000-4000-8000-000000000002', direction: SmsDirection.FromDevice, content: 'TEMP=21.5;HUM=40;BAT=88%', source: SmsSource.Device,
  messageId: 'MO-1', reportCode: null, reportAt: null, submittedAt: null, createdBy: null,
};
const failed: SmsRow = { ...base, smsId: '00000000-0000-4000-8000-000000000003', content: 'CFG', status: SmsStatus.SendFailed, reportCode: 'UNDELIV', failReason: 'UNDELIV: the device did not acknowledge the message' };

const signIn = (permissions: number[]) => useSession.getState().signIn({
  accessToken: 'tok-123456789012345678901', roleId: RoleType.Enterprise, loginName: 'u', userName: 'U', channelCustId: null, custId: 7, permissions, mustResetPassword: false,
});
const callsOf = (e: Endpoint) => call.mock.calls.filter(([x]) => (x as Endpoint).name === e.name).map(([, body]) => body as Record<string, unknown>);
const show = async () => {
  renderAt('/card/sms/list', [{ path: '/card/sms/list', element: <SmsList /> }]);
  await screen.findByText('REBOOT');
};

beforeEach(async () => {
  await setLanguage('en');
  call.mockReset();
  call.mockImplementation(async (e: Endpoint, body: Record<string, unknown>) => {
    if (e.name === sms.getSmsListPage.name) {
      return body.after
        ? { list: [failed], total: 3, totalCapped: false, current: 1, pageSize: 20, next: null }
        : { list: [base, mo], total: 3, totalCapped: false, current: 1, pageSize: 20, next: '2026-11-20T02:00:00.000Z|00000000-0000-4000-8000-000000000002' };
    }
    if (e.name === carddetail.sendCardSms.name) return { ...base, status: SmsStatus.Submitted };
    return null;
  });
});

describe('the SMS list', () => {
  it('shows the states of sent messages, received ones as received, and pages by key', async () => {
    signIn([SmsPerm.Sms]);
    await show();
    const sent = screen.getByText('REBOOT').closest('tr')!;
    expect(within(sent).getByText('Sending succeeded')).toHaveClass('ant-tag-success');
    expect(within(sent).getByText('To the device')).toBeInTheDocument();
    const received = screen.getByText(mo.content).closest('tr')!;
    expect(within(received).getByText('Received')).toBeInTheDocument();
    // its direction and its source
    expect(within(received).getAllByText('From the device')).toHaveLength(2);
    expect(screen.getByTestId('sms-page')).toHaveTextContent('Page 1 · 3 in all');
    fireEvent.click(screen.getByTestId('sms-next'));
    expect(await screen.findByText('CFG')).toBeInTheDocument();
    expect(callsOf(sms.getSmsListPage).at(-1)).toMatchObject({ after: '2026-11-20T02:00:00.000Z|00000000-0000-4000-8000-000000000002' });
    expect(screen.getByText('Sending failed')).toHaveClass('ant-tag-error');
    // no send or batch button without their codes
    expect(screen.queryByTestId('sms-send')).toBeNull();
    expect(screen.queryByTestId('sms-batch')).toBeNull();
  });

  it('in Chinese too', async () => {
    await setLanguage('zh');
    signIn([SmsPerm.Sms]);
    await show();
    expect(screen.getByText('发送成功')).toBeInTheDocument();
    expect(screen.getByText('已接收')).toBeInTheDocument();
    expect(screen.getByTestId('sms-page')).toHaveTextContent('第 1 页 · 共 3 条');
  });

  it('sends to one card: the length in the message\'s encoding is checked before the call', async () => {
    signIn([SmsPerm.Sms, SmsPerm.SendSms, SmsPerm.BatchSms]);
    await show();
    expect(screen.getByTestId('sms-batch')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('sms-send'));
    fireEvent.change(await screen.findByTestId('sms-send-iccid'), { target: { value: '89861122000000000001' } });
    fireEvent.change(screen.getByTestId('sms-send-content'), { target: { value: '中'.repeat(71) } });
    await waitFor(() => expect(screen.getByTestId('sms-send-counter')).toHaveTextContent('71 / 70 characters (UCS-2 (Chinese etc.)'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getAllByText(/71 \/ 70 characters/).length).toBeGreaterThan(1));
    expect(callsOf(carddetail.sendCardSms)).toHaveLength(0);
    fireEvent.change(screen.getByTestId('sms-send-content'), { target: { value: 'REBOOT NOW' } });
    await waitFor(() => expect(screen.getByTestId('sms-send-counter')).toHaveTextContent('10 / 160 characters (GSM 7-bit'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(callsOf(carddetail.sendCardSms)).toEqual([{ iccid: '89861122000000000001', content: 'REBOOT NOW' }]));
  });
});
