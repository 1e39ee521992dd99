import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  AutoRuleChannel, AutoRuleDeliveryState, RoleType, WebhookAttemptOutcome, WebhookDeliveryState, autorule, webhook, type Endpoint, type ResponseOf,
} from '@lynx/contract';
import { renderAt } from '../../../../test/render.tsx';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import ExecuteDetail from './index.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../../../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

type Row = ResponseOf<typeof autorule.getActionRecords>['list'][number];
type Detail = ResponseOf<typeof webhook.getWebhookDeliveryDetail>;
const ICCID = '89860000000000000001';
const base: Row = {
  deliveryId: 1, alarmId: 9, iccid: ICCID, channel: AutoRuleChannel.Sms, state: AutoRuleDeliveryState.Sent, attempts: 1, lastError: null,
  createdAt: '2026-11-28T02:00:00.000Z', sentAt: '2026-11-28T02:00:05.000Z', webhook: null,
};
const dead: Row = { ...base, deliveryId: 2, channel: AutoRuleChannel.Webhook, webhook: { deliveryId: 41, state: WebhookDeliveryState.Dead, totalAttempts: 2, lastHttpStatus: 503 } };
const done: Row = { ...base, deliveryId: 3, iccid: '89860000000000000002', channel: AutoRuleChannel.Webhook, webhook: { deliveryId: 42, state: WebhookDeliveryState.Delivered, totalAttempts: 1, lastHttpStatus: 200 } };
const delivery: Detail['delivery'] = {
  deliveryId: 41, eventId: '6f1c2d3e-0000-4000-8000-000000000041', eventType: 2, eventName: 'automation.alarm', eventVersion: 1, custId: 7, custName: 'Acme IoT',
  url: 'https://hooks.acme.example/lynx', state: WebhookDeliveryState.Dead, attempts: 2, totalAttempts: 2, maxAttempts: 2, series: 1, nextAt: null,
  lastAttemptAt: '2026-11-28T02:00:07.000Z', lastOutcome: WebhookAttemptOutcome.HttpError, lastHttpStatus: 503, lastError: 'HTTP 503',
  deliveredAt: null, deadAt: '2026-11-28T02:00:07.000Z', createdAt: '2026-11-28T02:00:00.000Z',
};
const attempt = (no: number, o: Partial<Detail['attempts'][number]> = {}): Detail['attempts'][number] => ({
  attemptId: 100 + no, series: 1, attemptNo: no, url: delivery.url, keyId: 'wk_1', startedAt: `2026-11-28T02:00:0${no * 3}.000Z`,
  finishedAt: `2026-11-28T02:00:0${no * 3}.000Z`, latencyMs: 12 * no, outcome: WebhookAttemptOutcome.HttpError, httpStatus: 503, error: null,
  responseExcerpt: 'service unavailable', ...o,
});
let detail: Detail;

const signIn = (permissions: number[]) => useSession.getState().signIn({
  accessToken: 'tok-123456789012345678901', roleId: RoleType.Enterprise, loginName: 'u', userName: 'U', channelCustId: null, custId: 7, permissions, mustResetPassword: false,
});
const callsOf = (e: Endpoint) => call.mock.calls.filter(([x]) => (x as Endpoint).name === e.name).map(([, body]) => body as Record<string, unknown>);
const show = async () => {
  renderAt('/autorule/alarm-list/execute-detail/5/9', [{ path: '/autorule/alarm-list/execute-detail/:ruleId/:actionId', element: <ExecuteDetail /> }]);
  await screen.findAllByText(ICCID);
};
const rowOf = (deliveryId: number) => screen.getByTestId(`webhook-cell-${deliveryId}`).closest('tr')!;

beforeEach(async () => {
  await setLanguage('en');
  detail = { delivery, event: { id: delivery.eventId, type: 'automation.alarm', version: 1, createdAt: delivery.createdAt, data: {} }, attempts: [attempt(2), attempt(1, { httpStatus: null, outcome: WebhookAttemptOutcome.NetworkError, error: 'connection refused (ECONNREFUSED)', responseExcerpt: null })] };
  call.mockReset();
  call.mockImplementation(async (e: Endpoint, body: Record<string, unknown>) => {
    if (e.name === autorule.getActionRecords.name) return { list: [base, dead, done], total: 3, current: 1, pageSize: 20 };
    if (e.name === webhook.getWebhookDeliveryDetail.name) return detail;
    if (e.name === webhook.replayWebhookDelivery.name) return { ...delivery, deliveryId: body.deliveryId, state: WebhookDeliveryState.Pending, attempts: 0, series: 2 };
    return null;
  });
});

describe('trigger record notifications: webhook deliveries', () => {
  it('shows where each webhook delivery stands, and replay only on a failed one', async () => {
    signIn([autorule.AutoRulePerm.Alarms]);
    await show();
    expect(within(rowOf(41)).getByText('Dead letter')).toHaveClass('ant-tag-error');
    expect(within(rowOf(41)).getByText('HTTP 503')).toBeInTheDocument();
    expect(within(rowOf(42)).getByText('Delivered')).toHaveClass('ant-tag-success');
    expect(within(rowOf(42)).queryByText('HTTP 200')).toBeNull();
    expect(screen.getByTestId('webhook-replay-41')).toHaveTextContent('Replay');
    expect(screen.queryByTestId('webhook-replay-42')).toBeNull();
    expect(screen.getByTestId('webhook-open-42')).toHaveTextContent('Attempts');
    // the SMS notification has no webhook delivery
    expect(screen.getByText('SMS').closest('tr')!.querySelector('[data-testid^=webhook-]')).toBeNull();
  });

  it('without the trigger records code (only the rules page) shows the state but neither attempts nor replay', async () => {
    signIn([autorule.AutoRulePerm.Page]);
    await show();
    expect(within(rowOf(41)).getByText('Dead letter')).toBeInTheDocument();
    expect(screen.queryByTestId('webhook-open-41')).toBeNull();
    expect(screen.queryByTestId('webhook-replay-41')).toBeNull();
  });

  it('opens the attempts (time, HTTP status, latency, error) and replays after a confirmation, then says so and reloads', async () => {
    signIn([autorule.AutoRulePerm.Alarms]);
    await show();
    fireEvent.click(screen.getByTestId('webhook-open-41'));
    const drawer = await screen.findByTestId('webhook-drawer');
    const table = await within(drawer).findByTestId('webhook-attempts');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Series 1 · #2');
    expect(rows[0]).toHaveTextContent('2026-11-28 10:00:06');
    expect(rows[0]).toHaveTextContent('503');
    expect(rows[0]).toHaveTextContent('24 ms');
    expect(rows[0]).toHaveTextContent('service unavailable');
    expect(rows[1]).toHaveTextContent('Network error');
    expect(rows[1]).toHaveTextContent('connection refused (ECONNREFUSED)');
    expect(within(drawer).getByText('https://hooks.acme.example/lynx')).toBeInTheDocument();
    expect(within(drawer).getByText(/Every retry was used/)).toBeInTheDocument();

    const loads = callsOf(webhook.getWebhookDeliveryDetail).length;
    fireEvent.click(within(drawer).getByTestId('webhook-replay'));
    expect(await screen.findByText(/with the same event ID \(the receiver dedupes by it\)/)).toBeInTheDocument();
    expect(screen.getAllByText('Replay webhook delivery #41?').length).toBeGreaterThan(0);
    expect(callsOf(webhook.replayWebhookDelivery)).toHaveLength(0);
    fireEvent.click(screen.getByTestId('webhook-replay-ok'));
    await waitFor(() => expect(callsOf(webhook.replayWebhookDelivery)).toEqual([{ deliveryId: 41 }]));
    expect(await screen.findByText('Replayed: attempt series 2 has started')).toBeInTheDocument();
    await waitFor(() => expect(callsOf(webhook.getWebhookDeliveryDetail).length).toBeGreaterThan(loads));
  });

  it('says when no attempt was made yet', async () => {
    signIn([autorule.AutoRulePerm.Alarms]);
    detail = { ...detail, delivery: { ...delivery, state: WebhookDeliveryState.Retrying, nextAt: '2026-11-28T03:00:00.000Z', deadAt: null }, attempts: [] };
    await show();
    fireEvent.click(screen.getByTestId('webhook-open-41'));
    expect(await screen.findByText('No attempt yet; the first is due at 2026-11-28 11:00:00.')).toBeInTheDocument();
  });

  it('says when the delivery cannot be loaded', async () => {
    signIn([autorule.AutoRulePerm.Alarms]);
    await show();
    call.mockImplementation(async (e: Endpoint) => {
      if (e.name === autorule.getActionRecords.name) return { list: [dead], total: 1, current: 1, pageSize: 20 };
      throw new Error('record not found');
    });
    fireEvent.click(screen.getByTestId('webhook-open-42'));
    expect(await screen.findByText('The delivery could not be loaded; try again')).toBeInTheDocument();
  });

  it('opens on one card\'s notifications from the trigger record (?iccid=)', async () => {
    signIn([autorule.AutoRulePerm.Alarms]);
    renderAt(`/autorule/alarm-list/execute-detail/5/9?iccid=${ICCID}`, [{ path: '/autorule/alarm-list/execute-detail/:ruleId/:actionId', element: <ExecuteDetail /> }]);
    await screen.findAllByText(ICCID);
    expect(callsOf(autorule.getActionRecords)[0]).toMatchObject({ alarmId: 9, iccid: ICCID });
    await waitFor(() => expect(screen.getByLabelText('ICCID')).toHaveValue(ICCID));
  });

  it('reads in Chinese', async () => {
    await setLanguage('zh');
    signIn([autorule.AutoRulePerm.Alarms]);
    await show();
    expect(within(rowOf(41)).getByText('投递失败')).toBeInTheDocument();
    expect(screen.getByTestId('webhook-replay-41')).toHaveTextContent('重新投递');
    fireEvent.click(screen.getByTestId('webhook-replay-41'));
    expect((await screen.findAllByText('重新投递 Webhook #41？')).length).toBeGreaterThan(0);
    expect(screen.getByText(/事件 ID 不变，接收方应按事件 ID 去重/)).toBeInTheDocument();
  });
});
