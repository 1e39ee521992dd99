import { describe, it, expect, beforeEach } from 'vitest';
import { render, screen, fireEvent } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { AxiosAdapter } from 'axios';
import { CardChangeFailureState, CardChangeType, network, opconfig, pathOf } from '@lynx/contract';
import { setLanguage } from '../../../locales/i18n.ts';
import { useSession } from '../../../stores/session.ts';
import { http } from '../../../request/http.ts';
import AccessList from './list/index.tsx';
import AccessDetail from './detail/index.tsx';
import AccessFormPage from './form/index.tsx';
import FailureList from '../OperatorRetryFailureRecord/list/index.tsx';
import FailureDetail from '../OperatorRetryFailureRecord/detail/index.tsx';

const account = {
  operAccountId: 3, operatorId: 1, accountName: 'OneLink main', endpointUrl: 'https://api.example.com', apiVersion: 'v2', adapter: 'simulator',
  credentials: { appKey: { hasSecret: true, mask: '••••LPHA' }, appSecret: { hasSecret: true, mask: '••••9xQz' }, password: { hasSecret: false, mask: null } },
  simFailureRate: 0, simFailIccidPattern: '8986001*', remark: null, lastTestAt: '2026-11-22T02:00:00Z', lastTestOk: true, lastTestMessage: 'Lynx network simulator v2',
  lastTestLatencyMs: 7, commPlanCount: 2, createdBy: 'admin', createdAt: '2026-11-22T02:00:00Z', updatedAt: '2026-11-22T02:00:00Z',
};
const failure = {
  failureId: 9, msisdn: '1440012345678', iccid: '89860012345678901234', operatorId: 1, operAccountId: 3, operAccountName: 'OneLink main',
  changeType: CardChangeType.Plan, request: { planCode: 'CM-1G', effective: 'nextCycle' }, failureCode: 'CARD_REJECTED', failureReason: 'the operator refused',
  attempts: 2, state: CardChangeFailureState.RetryFailed, remark: null, handledBy: null, handledAt: null, lastAttemptAt: '2026-11-22T02:00:00Z', createdAt: '2026-11-22T01:00:00Z',
};

function serve(failures: unknown[], sent: string[] = [], bodies: Record<string, any> = {}) {
  const adapter: AxiosAdapter = async (config) => {
    const path = config.url!;
    sent.push(path);
    bodies[path] = JSON.parse(config.data ?? '{}');
    const page = (list: unknown[]) => ({ list, total: list.length, current: 1, pageSize: 20 });
    const data =
      path === pathOf(network.getOperatorList) ? [{ operatorId: 1, code: 'CMCC', nameZh: '中国移动', nameEn: 'China Mobile', billingDay: 1, apnCount: 0, createdAt: '2026-11-22T00:00:00Z' }]
        : path === pathOf(opconfig.getOperatorAccountPage) ? page([account])
          : path === pathOf(opconfig.getOperatorAccount) ? account
            : path === pathOf(opconfig.getCardChangeFailurePage) ? page(failures)
              : path === pathOf(opconfig.getCardChangeFailuresByMsisdn) ? failures.map((f) => ({ ...(f as object), attemptList: [{ attemptNo: 1, ok: false, message: 'CARD_REJECTED: refused', latencyMs: 5, triggeredBy: null, attemptedAt: '2026-11-22T01:00:00Z' }] }))
                : path === pathOf(opconfig.testOperatorAccount) ? { ok: false, latencyMs: 4, message: 'AUTH_FAILED: wrong secret', apiVersion: null, platform: null, testedAt: '2026-11-22T03:00:00Z' }
                  : null;
    return { status: 200, statusText: '', headers: {}, config, data: { success: true, msg: 'ok', errorCode: null, data } };
  };
  http.defaults.adapter = adapter;
}

const at = (url: string) =>
  render(
    <AntApp>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/operator/config/list" element={<AccessList />} />
            <Route path="/operator/config/detail/:operAccountId" element={<AccessDetail />} />
            <Route path="/operator/config/edit/:operAccountId" element={<AccessFormPage />} />
            <Route path="/operationManagement/OperatorRetryFailureRecord/list" element={<FailureList />} />
            <Route path="/operationManagement/OperatorRetryFailureRecord/detail/:msisdn" element={<FailureDetail />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </AntApp>,
  );

const wait = { timeout: 8000 };

beforeEach(async () => {
  await setLanguage('en');
  useSession.getState().signIn({
    accessToken: 'tok-123456789012345678901', roleId: 1000, loginName: 'admin', userName: 'A', channelCustId: null, custId: null,
    permissions: [7060000, 7060002, 7060004, 7100000, 7100001], mustResetPassword: false,
  });
});

describe('operator access and failure screens', () => {
  it('lists access configurations with masked credentials, the last test and the buttons the user holds', async () => {
    serve([]);
    at('/operator/config/list');
    expect(await screen.findByText('OneLink main', undefined, wait)).toBeInTheDocument();
    expect(screen.getByText('••••LPHA')).toBeInTheDocument();
    expect(screen.getByText(/Succeeded · 7 ms/)).toBeInTheDocument();
    expect(screen.getByText('Test connection')).toBeInTheDocument();
    expect(screen.getByText('Edit')).toBeInTheDocument();
    expect(screen.queryByText('Delete')).toBeNull(); // 7060003 not held
    expect(screen.queryByText('Add access configuration')).toBeNull(); // 7060001 not held
  });

  it('shows the detail and reports a failed connection test', async () => {
    const sent: string[] = [];
    serve([], sent);
    at('/operator/config/detail/3');
    expect(await screen.findByText('••••9xQz', undefined, wait)).toBeInTheDocument();
    expect(screen.getByText('Not stored')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('access-test'));
    expect(await screen.findByText('Connection failed: AUTH_FAILED: wrong secret', undefined, wait)).toBeInTheDocument();
    expect(sent).toContain(pathOf(opconfig.testOperatorAccount));
  });

  it('explains the empty failure list, and shows records with their request and actions', async () => {
    serve([]);
    const first = at('/operationManagement/OperatorRetryFailureRecord/list');
    expect(await screen.findByText(/When the operator gateway refuses a card state or plan change/, undefined, wait)).toBeInTheDocument();
    first.unmount();
    serve([failure]);
    at('/operationManagement/OperatorRetryFailureRecord/list');
    expect(await screen.findByText('1440012345678', undefined, wait)).toBeInTheDocument();
    expect(screen.getByText('Plan code: CM-1G · Takes effect: Next cycle')).toBeInTheDocument();
    expect(screen.getByText('Retry failed')).toBeInTheDocument();
    expect(screen.getByText('Retry')).toBeInTheDocument();
    expect(screen.getByText('Mark handled')).toBeInTheDocument();
    fireEvent.click(screen.getByText('1440012345678'));
    expect(await screen.findByText('Card change failures of 1440012345678', undefined, wait)).toBeInTheDocument();
    expect(screen.getByText('Attempt 1')).toBeInTheDocument();
  });

  it('edits an access configuration without sending the stored secrets back', async () => {
    const bodies: Record<string, any> = {};
    serve([], [], bodies);
    at('/operator/config/edit/3');
    expect(await screen.findByText('Stored ••••9xQz; leave empty to keep it', undefined, wait)).toBeInTheDocument();
    expect(screen.getByText('Stored ••••LPHA; leave empty to keep it')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('access-save'));
    expect(await screen.findByText('Test connection', undefined, wait)).toBeInTheDocument(); // the detail page
    const update = bodies[pathOf(opconfig.updateOperatorAccount)];
    expect(update).toMatchObject({ operAccountId: 3, accountName: 'OneLink main', adapter: 'simulator', simFailIccidPattern: '8986001*' });
    expect(update).not.toHaveProperty('appSecret');
    expect(update).not.toHaveProperty('appKey');
    expect(update).not.toHaveProperty('password');
  });
});
