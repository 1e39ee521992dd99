import { describe, it, expect, beforeEach } from 'vitest';
import { render, screen, waitFor, fireEvent } from '@testing-library/react';
import { App as AntApp, Form, Input } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { AxiosAdapter } from 'axios';
import { AccountStatus, system, validatePhoneList } from '@lynx/contract';
import { setLanguage } from '../locales/i18n.ts';
import { useSession } from '../stores/session.ts';
import { http } from '../request/http.ts';
import { PermButton } from './PermButton.tsx';
import { StatusTag } from './StatusTag.tsx';
import { ruleOf } from './rules.ts';
import { SearchTable } from './SearchTable.tsx';
import { useSearchTable, cleanFilters } from './useSearchTable.ts';

const wrap = (ui: React.ReactNode) =>
  render(
    <AntApp>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>{ui}</MemoryRouter>
      </QueryClientProvider>
    </AntApp>,
  );

beforeEach(async () => {
  await setLanguage('en');
  useSession.getState().signIn({ accessToken: 'tok-123456789012345678901', roleId: 3000, loginName: 'e', userName: 'E', channelCustId: 1, custId: 1, permissions: [1000002], mustResetPassword: false });
});

describe('shared building blocks', () => {
  it('PermButton renders only for a held permission code', () => {
    wrap(<><PermButton perm={1000002}>Allowed</PermButton><PermButton perm={14020001}>Forbidden</PermButton></>);
    expect(screen.getByText('Allowed')).toBeInTheDocument();
    expect(screen.queryByText('Forbidden')).toBeNull();
  });

  it('StatusTag shows the contract label in the current language', async () => {
    const { rerender } = wrap(<StatusTag enumOf={AccountStatus} value={2} />);
    expect(screen.getByText('Frozen')).toBeInTheDocument();
    await setLanguage('zh');
    rerender(<AntApp><StatusTag enumOf={AccountStatus} value={2} /></AntApp>);
    expect(screen.getByText('冻结')).toBeInTheDocument();
    rerender(<AntApp><StatusTag enumOf={AccountStatus} value={null} /></AntApp>);
    expect(screen.getByText('-')).toBeInTheDocument();
  });

  it('form rules use the contract validators and their bilingual messages', async () => {
    function F() {
      const [form] = Form.useForm();
      return (
        <Form form={form} onFinish={() => {}}>
          <Form.Item name="phone" rules={[ruleOf(validatePhoneList)]}><Input aria-label="phone" /></Form.Item>
          <button type="submit">go</button>
        </Form>
      );
    }
    wrap(<F />);
    fireEvent.change(screen.getByLabelText('phone'), { target: { value: '13800138000; 13900139000' } });
    fireEvent.click(screen.getByText('go'));
    expect(await screen.findByText('Spaces are not allowed')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('phone'), { target: { value: '13800138000;13900139000' } });
    fireEvent.click(screen.getByText('go'));
    await waitFor(() => expect(screen.queryByText('Spaces are not allowed')).toBeNull());
  });

  it('cleanFilters drops empty values', () => {
    expect(cleanFilters({ a: '', b: undefined, c: null, d: [], e: 0, f: 'x' })).toEqual({ e: 0, f: 'x' });
  });

  it('SearchTable loads a page, shows totals, searches with the form and explains an empty result', async () => {
    const bodies: any[] = [];
    const adapter: AxiosAdapter = async (config) => {
      const body = JSON.parse(config.data);
      bodies.push(body);
      const list = body.loginName === 'none' ? [] : [{ id: 1, loginName: 'admin', action: 1, target: null, detail: null, ip: '1.1.1.1', custId: null, createdAt: '2026-11-22T02:00:00Z' }];
      return { status: 200, statusText: '', headers: {}, config, data: { success: true, msg: 'ok', errorCode: null, data: { list, total: list.length ? 41 : 0, current: 1, pageSize: 20 } } };
    };
    http.defaults.adapter = adapter;
    function Page() {
      const table = useSearchTable(system.getBehaviorLogListPage);
      return (
        <SearchTable table={table} title="Log" rowKey="id" fields={[{ name: 'loginName', label: 'Login name' }]}
          columns={[{ title: 'Login name', dataIndex: 'loginName' }]} emptyHint="Nothing logged yet" />
      );
    }
    wrap(<Page />);
    expect(await screen.findByText('admin')).toBeInTheDocument();
    expect(screen.getByText('41 in total')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ current: 1, pageSize: 20 });
    fireEvent.change(screen.getByPlaceholderText('Login name'), { target: { value: 'none' } });
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    expect(await screen.findByText('Nothing logged yet')).toBeInTheDocument();
    expect(bodies.at(-1)).toMatchObject({ loginName: 'none', current: 1 });
  });
});
