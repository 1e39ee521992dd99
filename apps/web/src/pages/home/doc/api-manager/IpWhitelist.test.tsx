import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Perm, RoleType, apiservice, type Endpoint } from '@lynx/contract';
import { renderAt } from '../../../../test/render.tsx';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import { IpWhitelist } from './IpWhitelist.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

const callsOf = (e: Endpoint) => call.mock.calls.filter(([x]) => (x as Endpoint).name === e.name).map(([, body]) => body as Record<string, unknown>);

beforeEach(() => {
  call.mockReset();
  call.mockImplementation(async (e: Endpoint) => {
    if (e.name === apiservice.getUserIpListPage.name) return { list: [], total: 0, current: 1, pageSize: 20 };
    if (e.name === apiservice.getApiConfig.name) return { custId: 7, callbackUrl: null, callLimitPerMinute: 600, ipWhitelistEnabled: true };
    if (e.name === apiservice.saveUserIp.name) return { id: 1 };
    return null;
  });
  useSession.getState().signIn({
    accessToken: 'tok-123456789012345678901', roleId: RoleType.Enterprise, loginName: 'u', userName: 'U', channelCustId: null, custId: 7,
    permissions: [Perm.Home, Perm.HomeApiManage], mustResetPassword: false,
  });
});

const open = async () => {
  renderAt('/ip', [{ path: '/ip', element: <IpWhitelist custId={undefined} /> }]);
  fireEvent.click(await screen.findByTestId('ip-add'));
  return screen.findByTestId('ip-start');
};
const save = () => fireEvent.click(screen.getByRole('button', { name: /Save|保\s*存/ }));

describe('the IP whitelist form', () => {
  it('takes IPv6 addresses and CIDR blocks of both families, and says what is wrong in the form', async () => {
    await setLanguage('en');
    const start = await open();
    fireEvent.change(start, { target: { value: '10.0.0.1/24' } });
    expect(await screen.findByText('Network address should be 10.0.0.0/24')).toBeInTheDocument();
    fireEvent.change(start, { target: { value: '2001:db8::g' } });
    expect(await screen.findByText(/Invalid IP address or CIDR block: 2001:db8::g/)).toBeInTheDocument();
    fireEvent.change(start, { target: { value: '10.0.0.1' } });
    fireEvent.change(screen.getByTestId('ip-end'), { target: { value: 'fd00::1' } });
    expect(await screen.findByText('The start and end IP must both be IPv4 or both IPv6')).toBeInTheDocument();
    fireEvent.change(start, { target: { value: '2001:db8:aa::/48' } });
    expect(await screen.findByText('A CIDR block is a range already: leave the end IP empty')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('ip-end'), { target: { value: '' } });
    save();
    await waitFor(() => expect(callsOf(apiservice.saveUserIp)).toEqual([{ custId: undefined, startIp: '2001:db8:aa::/48' }]));
  });

  it('checks an IPv6 range in Chinese', async () => {
    await setLanguage('zh');
    const start = await open();
    fireEvent.change(start, { target: { value: 'fd00::9' } });
    fireEvent.change(screen.getByTestId('ip-end'), { target: { value: 'fd00::1' } });
    expect(await screen.findByText('结束 IP 必须大于起始 IP')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('ip-end'), { target: { value: 'fd00::1f' } });
    save();
    await waitFor(() => expect(callsOf(apiservice.saveUserIp)).toEqual([{ custId: undefined, startIp: 'fd00::9', endIp: 'fd00::1f' }]));
  });
});
