import { describe, it, expect, beforeEach } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { AxiosAdapter } from 'axios';
import { PlatformType, opconfig, pathOf } from '@lynx/contract';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import { http } from '../../../../request/http.ts';
import PlatformFormPage from './index.tsx';
import { namedField } from '../../../../components/useFormSave.ts';
import { LogicError } from '../../../../request/http.ts';

const sms = opconfig.platformSchemaOf(PlatformType.SmsGateway)!;
const stored = {
  id: 5, platformType: PlatformType.SmsGateway, name: 'SMS main',
  fields: { protocol: 'cmpp3', host: 'sms.example.com', port: 7890, spId: 'SP1', serviceCode: '1064', signature: null, maxPerSecond: 50 },
  secrets: { password: { hasSecret: true, mask: '••••4471' } }, state: 1, remark: null, createdBy: 'admin', createdAt: '2026-11-22T02:00:00Z', updatedAt: '2026-11-22T02:00:00Z',
};

function serve(sent: { path: string; body: any }[]) {
  const adapter: AxiosAdapter = async (config) => {
    const path = config.url!;
    const body = JSON.parse(config.data ?? '{}');
    sent.push({ path, body });
    const data =
      path === pathOf(opconfig.getPlatformSchema) ? { platformType: sms.platformType, description: sms.description, fields: sms.fields }
        : path === pathOf(opconfig.getPlatformConfig) ? stored
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
            <Route path="/operator/platformConfig/add/:platformId" element={<PlatformFormPage />} />
            <Route path="/operator/platformConfig/edit/:platformId/:id" element={<PlatformFormPage />} />
            <Route path="/operator/platformConfig/detail/:platformId" element={<div>entries page</div>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </AntApp>,
  );

beforeEach(async () => {
  await setLanguage('en');
  useSession.getState().signIn({ accessToken: 'tok-123456789012345678901', roleId: 1000, loginName: 'admin', userName: 'A', channelCustId: null, custId: null, permissions: [7110000, 7110001, 7110002], mustResetPassword: false });
});

describe('schema-driven platform configuration form', () => {
  it('renders every field of the type schema and checks values with the server rules', async () => {
    const sent: { path: string; body: any }[] = [];
    serve(sent);
    at('/operator/platformConfig/add/1');
    expect(await screen.findByText('Gateway host', undefined, { timeout: 8000 })).toBeInTheDocument();
    for (const f of sms.fields) expect(screen.getByText(f.label.en)).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('platform-name').querySelector('input') ?? screen.getByTestId('platform-name'), { target: { value: 'Main SMS' } });
    const port = screen.getByTestId('platform-field-port').querySelector('input')!;
    fireEvent.change(port, { target: { value: '70000' } });
    const host = screen.getByTestId('platform-field-host').querySelector('input')!;
    fireEvent.change(host, { target: { value: 'not a host' } });
    fireEvent.click(screen.getByTestId('platform-save'));
    expect(await screen.findByText('must be a domain name or an IP address', undefined, { timeout: 8000 })).toBeInTheDocument();
    // the required secret of a new entry
    expect(screen.getAllByText('Please select or enter').length).toBeGreaterThan(0);
    expect(sent.some((s) => s.path === pathOf(opconfig.savePlatformConfig))).toBe(false);
  });

  it('on edit shows the stored secret masked and sends an empty secret so the server keeps it', async () => {
    const sent: { path: string; body: any }[] = [];
    serve(sent);
    at('/operator/platformConfig/edit/1/5');
    expect(await screen.findByText('Stored ••••4471; leave empty to keep it', undefined, { timeout: 8000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('platform-field-host').querySelector('input')!.value).toBe('sms.example.com'));
    fireEvent.click(screen.getByTestId('platform-save'));
    await screen.findByText('entries page', undefined, { timeout: 8000 });
    const update = sent.find((s) => s.path === pathOf(opconfig.updatePlatformConfig))!;
    expect(update.body).toMatchObject({ id: 5, name: 'SMS main', fields: { host: 'sms.example.com', port: 7890, password: '' } });
  });

  it('maps a refusal naming a nested field to its form path', () => {
    expect(namedField(new LogicError('bad', 20004, { field: 'fields.port' }))).toEqual(['fields', 'port']);
    expect(namedField(new LogicError('bad', 20200, null))).toBeNull();
    expect(namedField(new Error('x'))).toBeNull();
  });
});
