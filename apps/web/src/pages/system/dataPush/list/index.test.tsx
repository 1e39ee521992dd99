import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ErrorCode, Perm, RoleType, datapush, type Endpoint } from '@lynx/contract';
import { renderAt } from '../../../../test/render.tsx';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import { LogicError } from '../../../../request/http.ts';
import type { RunRow, TaskRow } from '../shared.tsx';
import DataPushList from './index.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

const task: TaskRow = {
  taskId: 5, custId: 7, custName: 'Acme IoT', taskName: 'Daily cards', fileType: datapush.DataPushFileType.CardList, host: 'sftp.acme.test', port: 22,
  account: 'pusher', authType: datapush.DataPushAuthType.Password, hasSecret: true, remotePath: '/upload', hostKey: null, pushTime: '02:30', open: 1,
  lastRun: { runId: 9, state: datapush.DataPushRunState.Succeeded, fileName: 'cards_7_20261127_023000.csv', at: '2026-11-26T18:30:00.000Z' },
  createdBy: 'ops', createdAt: '2026-11-20T02:00:00.000Z', updatedBy: null, updatedAt: '2026-11-20T02:00:00.000Z',
};
const run: RunRow = {
  runId: 9, taskId: 5, trigger: datapush.DataPushTrigger.Schedule, runDay: '2026-11-27', state: datapush.DataPushRunState.Succeeded,
  fileName: 'cards_7_20261127_023000.csv', sizeBytes: 1234567, rowCount: 8912, error: null, attempts: 1, requestedBy: null,
  createdAt: '2026-11-26T18:30:00.000Z', startedAt: '2026-11-26T18:30:01.000Z', finishedAt: '2026-11-26T18:30:09.000Z',
};
const KEY_A = 'SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8';
const KEY_B = 'SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s';
const failed: RunRow = { ...run, runId: 10, state: datapush.DataPushRunState.Failed, fileName: null, sizeBytes: null, rowCount: null, attempts: 3, error: 'The path /upload is not writable: permission denied' };

const signIn = () => useSession.getState().signIn({
  accessToken: 'tok-123456789012345678901', roleId: RoleType.Enterprise, loginName: 'u', userName: 'U', channelCustId: null, custId: 7,
  permissions: [Perm.System, Perm.SystemDataPush], mustResetPassword: false,
});
const callsOf = (e: Endpoint) => call.mock.calls.filter(([x]) => (x as Endpoint).name === e.name).map(([, body]) => body as Record<string, unknown>);

beforeEach(() => {
  call.mockReset();
  call.mockImplementation(async (e: Endpoint, body: Record<string, unknown>) => {
    if (e.name === datapush.getDataPushListPage.name) return { list: [task], total: 1, current: 1, pageSize: 20 };
    if (e.name === datapush.getDataPushRunPage.name) return { list: [failed, run], total: 2, current: 1, pageSize: 20 };
    if (e.name === datapush.testDataPushConnection.name) {
      return body.password === 'wrong'
        ? { ok: false, message: 'Sign-in as pusher failed: wrong account, password or private key', errorCode: ErrorCode.DataPushAuthFailed, elapsedMs: 40, hostKey: KEY_A, hostKeyChanged: false }
        : body.taskId
          ? { ok: true, message: 'Connected; the path /upload is writable. Note: the server\'s host key differs', errorCode: null, elapsedMs: 35, hostKey: KEY_B, hostKeyChanged: true }
          : { ok: true, message: 'Connected; the path /upload is writable', errorCode: null, elapsedMs: 35, hostKey: KEY_A, hostKeyChanged: false };
    }
    if (e.name === datapush.updateDataPush.name) return { ...task, hostKey: body.hostKey ?? null };
    if (e.name === datapush.insertDataPush.name) throw new LogicError('This customer already has a push task named "Daily cards"', ErrorCode.DataPushNameTaken, null);
    if (e.name === datapush.pushDataPushNow.name) return { ...run, runId: 11, state: datapush.DataPushRunState.Waiting };
    return null;
  });
});

const show = async () => {
  renderAt('/system/dataPush/list', [{ path: '/system/dataPush/list', element: <DataPushList /> }]);
  return (await screen.findByText('Daily cards')).closest('tr')!;
};

describe('the file push list', () => {
  it('lists tasks, tests a connection from the form with the answer in words, and puts a taken name on its field', async () => {
    await setLanguage('en');
    signIn();
    const tr = await show();
    expect(within(tr).getByText('sftp.acme.test')).toBeInTheDocument();
    expect(within(tr).getByText('Succeeded')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('data-push-add'));
    fireEvent.change(await screen.findByTestId('data-push-name'), { target: { value: 'Daily cards' } });
    fireEvent.change(screen.getByTestId('data-push-host'), { target: { value: 'sftp.acme.test' } });
    fireEvent.change(screen.getByTestId('data-push-account'), { target: { value: 'pusher' } });
    fireEvent.change(screen.getByTestId('data-push-password'), { target: { value: 'wrong' } });
    fireEvent.change(screen.getByTestId('data-push-path'), { target: { value: '/upload' } });
    fireEvent.click(screen.getByTestId('data-push-test'));
    expect(await screen.findByText(/Sign-in as pusher failed/)).toBeInTheDocument();
    expect(callsOf(datapush.testDataPushConnection)[0]).toEqual({ host: 'sftp.acme.test', port: 22, account: 'pusher', authType: 1, remotePath: '/upload', password: 'wrong' });

    fireEvent.change(screen.getByTestId('data-push-password'), { target: { value: 'right' } });
    fireEvent.click(screen.getByTestId('data-push-test'));
    expect(await screen.findByText(/Connected; the path \/upload is writable/)).toBeInTheDocument();
    // the server's fingerprint is shown; saving pins it
    expect(screen.getByTestId('data-push-host-key')).toHaveTextContent(KEY_A);
    expect(screen.getByText(/Saving pins this fingerprint/)).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('data-push-save'));
    expect(await screen.findByText('This customer already has a push task named "Daily cards"')).toBeInTheDocument();
    expect(callsOf(datapush.insertDataPush)[0]).toMatchObject({ taskName: 'Daily cards', fileType: 1, pushTime: '02:00', open: 1, password: 'right', hostKey: KEY_A });
    expect(callsOf(datapush.insertDataPush)[0]).not.toHaveProperty('custId');
  });

  it('editing shows the pinned fingerprint; a test meeting another key warns, and saving accepts it', async () => {
    await setLanguage('en');
    signIn();
    call.mockImplementation(async (e: Endpoint, body: Record<string, unknown>) => {
      if (e.name === datapush.getDataPushListPage.name) return { list: [{ ...task, hostKey: KEY_A }], total: 1, current: 1, pageSize: 20 };
      if (e.name === datapush.testDataPushConnection.name) {
        return { ok: true, message: 'Connected; the path /upload is writable', errorCode: null, elapsedMs: 35, hostKey: KEY_B, hostKeyChanged: true };
      }
      if (e.name === datapush.updateDataPush.name) return { ...task, hostKey: body.hostKey ?? null };
      return null;
    });
    await show();
    fireEvent.click(screen.getByTestId(`data-push-edit-${task.taskId}`));
    expect(await screen.findByTestId('data-push-host-key')).toHaveTextContent(KEY_A);
    expect(screen.getByText(/^Pinned\. A push to a server presenting another key is refused/)).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('data-push-test'));
    const warning = await screen.findByTestId('data-push-host-key-changed');
    expect(warning).toHaveTextContent('The server\'s host key has changed');
    expect(warning).toHaveTextContent(`The task accepted ${KEY_A}; the server now presents ${KEY_B}`);
    expect(screen.getByTestId('data-push-host-key')).toHaveTextContent(KEY_B);
    expect(callsOf(datapush.testDataPushConnection)[0]).toMatchObject({ taskId: task.taskId });
    fireEvent.click(screen.getByTestId('data-push-save'));
    await waitFor(() => expect(callsOf(datapush.updateDataPush)).toHaveLength(1));
    expect(callsOf(datapush.updateDataPush)[0]).toMatchObject({ taskId: task.taskId, hostKey: KEY_B });
  });

  it('pushes now after a confirmation and shows the push history with sizes, rows and the reason of a failure (zh)', async () => {
    await setLanguage('zh');
    signIn();
    await show();
    fireEvent.click(screen.getByTestId(`data-push-now-${task.taskId}`));
    fireEvent.click(await screen.findByTestId('data-push-push-confirm'));
    await waitFor(() => expect(callsOf(datapush.pushDataPushNow)).toEqual([{ taskId: task.taskId }]));
    const runs = await screen.findByTestId('data-push-runs');
    expect(await within(runs).findByText('cards_7_20261127_023000.csv')).toBeInTheDocument();
    expect(within(runs).getByText('1,234,567')).toBeInTheDocument();
    expect(within(runs).getByText('8,912')).toBeInTheDocument();
    expect(within(runs).getByText('失败')).toBeInTheDocument();
    expect(within(runs).getByText(failed.error!)).toBeInTheDocument();
    expect(screen.getByText('推送记录：Daily cards')).toBeInTheDocument();
  });
});
