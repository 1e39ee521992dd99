import { describe, it, expect, beforeEach } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AxiosAdapter } from 'axios';
import {
  CardState, ErrorCode, Perm, cardactions, carddetail, cardcat, diagnose, errorMessage, pathOf, usage, type Endpoint,
} from '@lynx/contract';
import { setLanguage } from '../../../../locales/i18n.ts';
import { useSession } from '../../../../stores/session.ts';
import { http } from '../../../../request/http.ts';
import { renderAt } from '../../../../test/render.tsx';
import CardDetailPage from './index.tsx';

const ICCID = '89860326000000000042';
const GB = 1024 ** 3;
const NOW = Date.now();
const iso = (msAgo: number) => new Date(NOW - msAgo).toISOString();

const basic = {
  iccid: ICCID, msisdn: '1064900000042', imsi: '460110000000042', imei: null, state: CardState.Activated, operatorId: 3, custId: 11,
  custName: 'Acme Logistics', rootCustName: null, cardTypeId: null, cardTypeName: null, labels: [], custom1: null, custom2: null, online: true,
  lastSessionAt: iso(60_000), batchId: null, batchNo: null, poolId: 5, poolName: 'East fleet', poolState: 1, activatedAt: iso(40 * 86_400_000),
  firstUsedAt: null, testEndAt: null, silentEndAt: null, renewalMode: 1, operationMode: 1, euicc: false, eid: null,
  createdAt: iso(90 * 86_400_000), updatedAt: iso(86_400_000),
};
const plan = {
  goodsReleaseId: 3, name: 'Fleet 4G 10 GB', tariffType: 0, goodsType: 2, cycleUnit: 1, cycleValue: 1, durationMonths: 12, quotaMb: 10240,
  operationMode: 1, renewalMode: 1, apns: ['ctnet'],
};
const cycle = {
  plan, contractStartAt: iso(40 * 86_400_000), contractEndAt: null, cycleStartAt: '2026-11-01T00:00:00+08:00', cycleEndAt: '2026-12-01T00:00:00+08:00',
  bCycles: { total: 12, used: 2, remaining: 10 }, cCycles: null, pendingPlan: null, pendingPriceChange: false, lastPlanChangeAt: null, eventPacks: [],
};
const day = (d: string, bytes: number) => ({ day: d, bytes, bytesUp: bytes / 4, bytesDown: (bytes * 3) / 4, sms: 1, voiceSeconds: 125, sessions: 3 });
const cardUsage = {
  iccid: ICCID, cycleStart: '2026-10-31T16:00:00.000Z', cycleEnd: '2026-11-30T16:00:00.000Z', cycleKind: 'contract', planName: plan.name,
  quotaBytes: 10 * GB, usedBytes: 1.5 * GB, remainingBytes: 8.5 * GB, useUpAction: 1, exhaustedAt: null, fedUntil: '2026-11-02T05:00:00.000Z', from: '2026-11-01', to: '2026-11-02',
  days: [day('2026-11-01', GB), day('2026-11-02', 0.5 * GB)], total: day('2026-11-01', 1.5 * GB),
};
// an open session that started 2 h 43 min (and a few seconds) ago
const apnOnline = { online: true, lastSessionAt: iso(9_790_000), apn: 'ctnet', sessionStartAt: iso(9_790_000), sessionEndAt: null, planApns: ['ctnet'] };

type OfferOut = cardactions.CardActionOfferOut;
const allowed = (action: OfferOut['action']): OfferOut => ({ action, offer: 'allowed', reasonCode: null, reason: null, availableAt: null });
const refused = (action: OfferOut['action'], code: ErrorCode, offer: 'disabled' | 'hidden' = 'disabled', params?: Record<string, string>): OfferOut => ({
  action, offer, reasonCode: code, reason: { zh: errorMessage(code, 'zh', params), en: errorMessage(code, 'en', params) }, availableAt: null,
});
const state = { stateZh: '已停机', stateEn: 'Deactivated' };
/** What the server offers for a deactivated card with a plan. */
const deactivated: OfferOut[] = cardactions.CARD_DETAIL_ACTIONS.map((a) => {
  switch (a) {
    case 'activate': case 'invalidate': case 'retire': case 'freeze': case 'changePlan': case 'block': case 'downloadQr': case 'diagnose': return allowed(a);
    case 'renew': case 'orderEventPack': return refused(a, ErrorCode.CardNotActiveForOrder);
    case 'permit': return refused(a, ErrorCode.CardPermitDeactivated);
    case 'sendSms': return refused(a, ErrorCode.SmsCardNotReachable, 'disabled', state);
    case 'deactivate': return refused(a, ErrorCode.CardAlreadyInState, 'disabled', state);
    default: return refused(a, ErrorCode.CardOperationUnsupported, 'disabled', state);
  }
});

function serve(over: Partial<Record<string, unknown>> = {}) {
  const data = new Map<string, unknown>([
    [pathOf(carddetail.getCardDetail), basic], [pathOf(carddetail.getCardCycle), cycle], [pathOf(usage.getCardUsage), cardUsage],
    [pathOf(carddetail.getCardApnOnline), apnOnline], [pathOf(cardactions.getCardActions), cardactions.CARD_DETAIL_ACTIONS.map(allowed)],
    [pathOf(carddetail.getCardPolicy), { zones: [], blocks: [] }], [pathOf(carddetail.getChangePlanOptions), []], [pathOf(carddetail.getEventPackOptions), []],
    [pathOf(cardcat.getLabelOptions), []], [pathOf(carddetail.getCardHistoryPage), { list: [], total: 0, current: 1, pageSize: 10 }],
    ...Object.entries(over),
  ]);
  const adapter: AxiosAdapter = async (config) => ({
    status: 200, statusText: '', headers: {}, config, data: { success: true, msg: 'ok', errorCode: null, data: data.get(config.url!) ?? null },
  });
  http.defaults.adapter = adapter;
}
const path = (e: Endpoint) => pathOf(e);

const CARD_BUTTONS = Object.values(carddetail.CardDetailPerm);
const signIn = (permissions: number[]) =>
  useSession.getState().signIn({
    accessToken: 'tok-123456789012345678901', roleId: 1000, loginName: 'admin', userName: 'A', channelCustId: null, custId: null,
    permissions, mustResetPassword: false,
  });
const open = () => renderAt(`/card/card-list/detail/${ICCID}`, [{ path: '/card/card-list/detail/:iccid/:channelCustId?', element: <CardDetailPage /> }]);
const action = async (name: string) => screen.findByTestId(`action-${name}`, {}, { timeout: 15_000 });
/** The first render of the page loads antd and the page's chunks: slow on a busy machine. */
const SLOW = { timeout: 15_000 };
/** The offers load after the card: a button is disabled (without a reason) until then. */
const settled = async (name: string, enabled: boolean) => {
  await waitFor(async () => {
    const el = await action(name);
    if (enabled) expect(el).toBeEnabled();
    else expect(el.closest('[data-reason]')).not.toBeNull();
  }, SLOW);
  return action(name);
};
const reasonOf = (el: HTMLElement) => el.closest('[data-reason]')?.getAttribute('data-reason');
const CJK = /[\u3400-\u9fff]/;

beforeEach(async () => {
  await setLanguage('en');
  signIn([Perm.Card, Perm.Pool, ...CARD_BUTTONS, diagnose.DiagnosePerm.Page, diagnose.DiagnosePerm.Advanced]);
});

describe('card detail: actions follow the card state', () => {
  it('a deactivated card: what its state does not allow is disabled with the server\'s reason; the rest is enabled', async () => {
    serve({ [path(cardactions.getCardActions)]: deactivated, [path(carddetail.getCardDetail)]: { ...basic, state: CardState.Deactivated, online: false } });
    open();
    const renew = await settled('renew', false);
    expect(renew).toBeDisabled();
    expect(reasonOf(renew)).toBe('Only active cards can renew or order event packs');
    expect(reasonOf(await action('orderEventPack'))).toBe('Only active cards can renew or order event packs');
    expect(reasonOf(await action('sendSms'))).toBe('SMS can only be sent to cards in test or activated state (this card is "Deactivated")');
    expect(reasonOf(await action('networkReset'))).toBe('A card in state "Deactivated" does not support this operation');
    for (const enabled of ['changeStatus', 'changePlan', 'zone', 'diagnose', 'edit']) expect(await settled(enabled, true)).toBeEnabled();

    // inside "Block / permit", permit is disabled with the spec's text; inside "Change status", only what the state allows
    fireEvent.click(await action('zone'));
    const zone = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.mouseDown(within(zone).getAllByRole('combobox')[0]);
    const permit = await screen.findByTitle('The deactivated state does not support permit', {}, SLOW);
    expect(permit).toHaveAttribute('aria-disabled', 'true');
    expect(within(permit).getByText('The deactivated state does not support permit')).toBeInTheDocument();
    const block = screen.getAllByTitle('Block').find((el) => el.classList.contains('ant-select-item-option'))!;
    expect(block).toHaveAttribute('aria-disabled', 'false');
  });

  it('a card without a plan: renewal, plan change and event packs are not offered at all', async () => {
    const noPlan = cardactions.CARD_DETAIL_ACTIONS.map((a) => (['renew', 'changePlan', 'orderEventPack'].includes(a) ? refused(a, ErrorCode.CardHasNoPlan, 'hidden') : allowed(a)));
    serve({ [path(cardactions.getCardActions)]: noPlan, [path(carddetail.getCardCycle)]: { ...cycle, plan: null } });
    open();
    await settled('changeStatus', true);
    for (const hidden of ['renew', 'changePlan', 'orderEventPack']) expect(screen.queryByTestId(`action-${hidden}`)).toBeNull();
    expect(within(await screen.findByTestId('overview-plan')).getByText('No plan')).toBeInTheDocument();
  });

  it('without the button code an allowed action is not shown (not-permitted differs from not-now)', async () => {
    signIn([Perm.Card, carddetail.CardDetailPerm.ChangeStatus]);
    serve();
    open();
    await settled('changeStatus', true);
    for (const absent of ['renew', 'changePlan', 'orderEventPack', 'zone', 'sendSms', 'networkReset', 'diagnose', 'edit']) {
      expect(screen.queryByTestId(`action-${absent}`)).toBeNull();
    }
  });

  it('a network reset done a moment ago says when the next one is possible', async () => {
    const at = '2026-11-24T02:03:00.000Z';
    const offers = cardactions.CARD_DETAIL_ACTIONS.map((a) => (a === 'networkReset' ? { ...refused(a, ErrorCode.CardNetworkResetTooSoon), availableAt: at } : allowed(a)));
    serve({ [path(cardactions.getCardActions)]: offers });
    open();
    const reset = await settled('networkReset', false);
    expect(reset).toBeDisabled();
    expect(reasonOf(reset))
      .toBe('Network reset is not possible more often than every 3 minutes · Possible again after 2026-11-24 10:03:00');
  });
});

describe('card detail: the overview', () => {
  it('shows state, plan, usage against quota, online time, operator, customer and pool in English', async () => {
    serve();
    open();
    const overview = await screen.findByTestId('card-overview');
    expect(await within(overview).findByText('1.5 GB of 10 GB')).toBeInTheDocument();
    expect(within(overview).getByText('Cycle 2026-11-01 – 2026-11-30')).toBeInTheDocument();
    expect(within(screen.getByTestId('overview-quota-bar')).getByText('15%')).toBeInTheDocument();
    expect(await within(overview).findByText('this session for 2 h 43 min')).toBeInTheDocument();
    expect(within(overview).getByText(/Fleet 4G 10 GB/)).toBeInTheDocument();
    expect(within(overview).getByText('China Telecom')).toBeInTheDocument();
    expect(within(overview).getByText('Acme Logistics')).toBeInTheDocument();
    // the pool opens for a user who may open pools
    expect(within(screen.getByTestId('overview-pool')).getByRole('link', { name: 'East fleet' })).toHaveAttribute('href', '/card/pool/detail/5');
    expect(overview.textContent).not.toMatch(CJK);

    // daily usage: the same days as a table
    fireEvent.click(within(screen.getByTestId('daily-usage-view')).getByText('Table'));
    const table = await screen.findByTestId('daily-usage-table');
    expect(within(table).getByText('2026-11-02')).toBeInTheDocument();
    expect(within(table).getByText('512 MB')).toBeInTheDocument();
    expect(within(table).getAllByText('2 min 5 s')).toHaveLength(2);
  });

  it('in Chinese: durations read 2小时43分, an offline card says how long ago its last session was, and a pool is not a link without the pool page', async () => {
    await setLanguage('zh');
    signIn([Perm.Card, ...CARD_BUTTONS]);
    serve({
      [path(carddetail.getCardDetail)]: { ...basic, online: false },
      [path(carddetail.getCardApnOnline)]: { ...apnOnline, online: false, sessionEndAt: iso(3 * 3_600_000 + 12 * 60_000 + 5_000) },
    });
    open();
    const overview = await screen.findByTestId('card-overview');
    expect(await within(overview).findByText('最近会话在 3小时12分前')).toBeInTheDocument();
    expect(within(overview).getByText('1.5 GB / 10 GB')).toBeInTheDocument();
    expect(within(screen.getByTestId('overview-pool')).queryByRole('link')).toBeNull();
    expect(within(screen.getByTestId('overview-pool')).getByText('East fleet')).toBeInTheDocument();
  });
});
