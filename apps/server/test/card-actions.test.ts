// What the card detail offers (issue 12) and what the server refuses come from one rule: the lifecycle engine's gate.
// First the rule itself as an explicit grid over states x actions (pure), then, against a real database, for every
// state x action: the detail's offer endpoint and the action's own endpoint agree (refused exactly when disabled or
// hidden, with the same code and message; done when allowed).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  CardState, ErrorCode, Operator, PlanCycleUnit, PlanGoodsType, PlanOperationMode, PlanRenewalMode, cardactions, carddetail, diagnose,
  errorMessage,
} from '@lynx/contract';
import type { CardPlan, CardSnapshot } from '../src/modules/card/lifecycle/engine.ts';
import { cardActionOffers, offerOf, offerOut, type OfferFacts } from '../src/modules/card/lifecycle/offers.ts';
import { backends, ownerOf, startTestApp, type Owner, type TestApp } from './harness.ts';
import { simulatorSecretFor } from '../src/operators/simulator.ts';

const ACTIONS = cardactions.CARD_DETAIL_ACTIONS;

// ---- the rule: states x actions -------------------------------------------------------------------------------------

// A standard-version card with a plan and a running contract, an MSISDN and an SMS route, in each state. Columns in
// CARD_DETAIL_ACTIONS order. ok = allowed; S = start-state cards unsupported; U = this state does not support the
// operation; A = already in this state; I = illegal transition; N = only active cards can renew or order event packs;
// P = deactivated state does not support permit; Q = no QR code for invalidated, retired or frozen cards;
// M = SMS only to test or activated cards.
const COLUMNS = ACTIONS.join(' ');
const GRID = `
      act dea sTe eTe toA toI inv ret frz unf  ren chP evP blk per sms rst qr  dia
60:   ok  I   ok  S   ok  ok  ok  I   I   S    S   S   S   S   S   M   S   S   S
61:   ok  ok  A   ok  ok  ok  ok  I   ok  U    N   ok  N   ok  ok  ok  ok  ok  ok
62:   ok  ok  ok  U   A   ok  ok  I   ok  U    N   ok  N   ok  ok  M   U   ok  ok
63:   ok  ok  I   U   ok  A   ok  I   ok  U    N   ok  N   ok  ok  M   U   ok  ok
64:   A   ok  I   U   I   I   I   I   ok  U    ok  ok  ok  ok  ok  ok  ok  ok  ok
65:   ok  A   I   U   I   I   ok  ok  ok  U    N   ok  N   ok  P   M   U   ok  ok
66:   I   I   I   U   I   I   A   ok  I   U    N   U   N   U   U   M   U   Q   ok
67:   I   I   I   U   I   I   I   A   I   U    N   U   N   U   U   M   U   Q   ok
68:   I   I   I   U   I   I   I   I   A   ok   N   U   N   U   U   M   U   Q   ok
`;
const CODES: Record<string, ErrorCode> = {
  S: ErrorCode.CardStartStateUnsupported, U: ErrorCode.CardOperationUnsupported, A: ErrorCode.CardAlreadyInState,
  I: ErrorCode.CardIllegalTransition, N: ErrorCode.CardNotActiveForOrder, P: ErrorCode.CardPermitDeactivated,
  Q: ErrorCode.CardQrNotDownloadable, M: ErrorCode.SmsCardNotReachable,
};
const STATES = [60, 61, 62, 63, 64, 65, 66, 67, 68];
/** The grid as state → action → expected code ('ok' when allowed). */
const EXPECTED: Record<number, Record<string, ErrorCode | 'ok'>> = Object.fromEntries(
  GRID.trim().split('\n').slice(1).map((line) => {
    const [head, ...cells] = line.trim().split(/\s+/);
    expect(cells, `row ${head}`).toHaveLength(ACTIONS.length);
    return [parseInt(head, 10), Object.fromEntries(ACTIONS.map((a, i) => [a, cells[i] === 'ok' ? 'ok' : CODES[cells[i]]]))];
  }),
);

const cst = (s: string): Date => new Date(`${s.replace(' ', 'T')}:00+08:00`);
const NOW = cst('2026-02-10 12:00');
const MONTHLY: CardPlan = {
  id: 1, goodsType: PlanGoodsType.Monthly, cycleUnit: PlanCycleUnit.Month, cycleValue: 1, durationMonths: 12,
  apns: ['ctnet'], testValidityDays: null, testPeriodMonths: 1, silentPeriodMonths: 1,
};
const FACTS: OfferFacts = { hasMsisdn: true, hasSmsGateway: true };

/** A card in `state` with a contract started a month ago (12 months, in its second cycle). */
function snapshot(state: number, over: Partial<CardSnapshot> = {}): CardSnapshot {
  return {
    state, operationMode: PlanOperationMode.Standard, renewalMode: PlanRenewalMode.AutoRenew, plan: MONTHLY,
    testEndsAt: state === CardState.Test ? cst('2026-03-01 00:00') : null, silentEndsAt: state === CardState.Inventory ? cst('2026-04-01 00:00') : null,
    activatedAt: cst('2026-01-10 09:00'), contractStartAt: cst('2026-01-10 09:00'), contractMonths: 12, cyclesUsed: 2,
    pendingPlanChange: null, pendingPriceChange: false, lastPlanChangeAt: null, frozenFrom: state === CardState.Frozen ? CardState.Activated : null,
    lastNetworkResetAt: null, ...over,
  };
}
const codeOf = (card: CardSnapshot, action: (typeof ACTIONS)[number], facts = FACTS) => {
  const o = offerOf(card, action, NOW, facts);
  return o.offer === 'allowed' ? 'ok' : o.refusal.error;
};

describe('what the card detail offers, by state (the engine gate)', () => {
  it(`has a column for every action: ${COLUMNS}`, () => {
    expect(Object.keys(EXPECTED).map(Number)).toEqual(STATES);
  });
  for (const state of STATES) {
    it(`${CardState.label(state, 'en')}: every action as the grid says`, () => {
      const got = Object.fromEntries(ACTIONS.map((a) => [a, codeOf(snapshot(state), a)]));
      expect(got).toEqual(EXPECTED[state]);
      // nothing of a card with a plan is hidden: what is not allowed is disabled with its reason
      expect(cardActionOffers(snapshot(state), NOW, FACTS).filter((o) => o.offer === 'hidden')).toEqual([]);
    });
  }

  it('without a plan, renewal, plan change and event packs are not offered at all ("the card has no plan yet")', () => {
    for (const state of STATES) {
      const offers = cardActionOffers(snapshot(state, { plan: null, contractStartAt: null, contractMonths: 0, cyclesUsed: 0 }), NOW, FACTS);
      for (const o of offers) {
        if (['renew', 'changePlan', 'orderEventPack'].includes(o.action)) {
          expect(o).toMatchObject({ offer: 'hidden', refusal: { error: ErrorCode.CardHasNoPlan } });
        } else {
          expect(o.offer, `${state} ${o.action}`).not.toBe('hidden');
        }
      }
    }
  });

  it('renewal: not after a plan change, not while a price change is pending, not without a valid period', () => {
    const pending = { plan: { ...MONTHLY, id: 2 }, requestedAt: NOW, effectiveAt: cst('2026-03-01 00:00'), onActivation: false };
    expect(codeOf(snapshot(64, { pendingPlanChange: pending }), 'renew')).toBe(ErrorCode.CardRenewalChangePending);
    expect(codeOf(snapshot(64, { pendingPriceChange: true }), 'renew')).toBe(ErrorCode.CardRenewalChangePending);
    // a contract that ended: nothing to renew, no cycle to add an event pack to
    const ended = snapshot(64, { contractStartAt: cst('2024-01-10 09:00'), cyclesUsed: 12 });
    expect(codeOf(ended, 'renew')).toBe(ErrorCode.CardNoValidPeriod);
    expect(codeOf(ended, 'orderEventPack')).toBe(ErrorCode.CardNoValidPeriod);
    // one plan change a month
    expect(codeOf(snapshot(64, { lastPlanChangeAt: cst('2026-02-01 08:00') }), 'changePlan')).toBe(ErrorCode.CardPlanChangeMonthly);
    expect(codeOf(snapshot(64, { lastPlanChangeAt: cst('2026-01-31 23:00') }), 'changePlan')).toBe('ok');
  });

  it('network reset: not within 3 minutes of the last one, and the offer says when it comes back', () => {
    const o = offerOut(offerOf(snapshot(64, { lastNetworkResetAt: new Date(NOW.getTime() - 60_000) }), 'networkReset', NOW, FACTS));
    expect(o).toMatchObject({ offer: 'disabled', reasonCode: ErrorCode.CardNetworkResetTooSoon, availableAt: new Date(NOW.getTime() + 120_000).toISOString() });
    expect(o.reason).toEqual({ zh: '网络重置间隔不能少于 3 分钟', en: 'Network reset is not possible more often than every 3 minutes' });
    expect(codeOf(snapshot(64, { lastNetworkResetAt: new Date(NOW.getTime() - 180_000) }), 'networkReset')).toBe('ok');
  });

  it('SMS also needs an MSISDN and an access configuration to send through', () => {
    expect(codeOf(snapshot(64), 'sendSms', { hasMsisdn: false, hasSmsGateway: true })).toBe(ErrorCode.SmsNoMsisdn);
    expect(codeOf(snapshot(64), 'sendSms', { hasMsisdn: true, hasSmsGateway: false })).toBe(ErrorCode.SmsNoGateway);
    // a card that is not on the network is refused for that first
    expect(codeOf(snapshot(65), 'sendSms', { hasMsisdn: false, hasSmsGateway: false })).toBe(ErrorCode.SmsCardNotReachable);
  });

  it("a professional card's state changes stay inside its five states", () => {
    const pro = (state: number) => snapshot(state, { operationMode: PlanOperationMode.Professional });
    expect(codeOf(pro(64), 'freeze')).toBe(ErrorCode.CardIllegalTransition);
    expect(codeOf(pro(65), 'invalidate')).toBe(ErrorCode.CardIllegalTransition);
    expect(codeOf(pro(64), 'deactivate')).toBe('ok');
    expect(codeOf(pro(61), 'diagnose')).toBe('ok');
  });

  it("reasons are the spec's texts in both languages, with the card's state named", () => {
    expect(offerOut(offerOf(snapshot(65), 'permit', NOW, FACTS)).reason).toEqual({ zh: '停机状态不支持放开', en: 'The deactivated state does not support permit' });
    expect(offerOut(offerOf(snapshot(61), 'renew', NOW, FACTS)).reason).toEqual({
      zh: '只有已激活的卡才能续订或订购加油包', en: 'Only active cards can renew or order event packs',
    });
    expect(offerOut(offerOf(snapshot(64, { pendingPriceChange: true }), 'renew', NOW, FACTS)).reason).toEqual({
      zh: '变更套餐后或存在待生效的调价时不能续订', en: 'Renewal is not possible after a plan change or while a price change is pending',
    });
    expect(offerOut(offerOf(snapshot(60), 'changePlan', NOW, FACTS)).reason).toEqual({ zh: '不支持初始状态的卡', en: 'Cards in start state are not supported' });
    expect(offerOut(offerOf(snapshot(64), 'toInventory', NOW, FACTS)).reason).toEqual({
      zh: '不允许从“已激活”变更为“库存期”', en: 'Illegal transition from "Activated" to "Inventory"',
    });
    expect(offerOut(offerOf(snapshot(64), 'renew', NOW, FACTS))).toEqual({ action: 'renew', offer: 'allowed', reasonCode: null, reason: null, availableAt: null });
  });
});

// ---- offer and refusal agree on stored cards ------------------------------------------------------------------------

const CHANGE_STATUS = 'core/sim/singleCard/changeStatus';
const OFFERS = cardactions.getCardActions.name;
const APP_KEY = 'LYNXKEY4412OFFERS';
type OfferOut = cardactions.CardActionOfferOut;

describe.each(backends)('the detail refuses exactly what it does not offer, on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  let enterprise: string;
  let channel: string;
  let sub: string;
  let ent: Owner;
  const plan: Record<string, number> = {};
  let seq = 0;

  beforeAll(async () => {
    t = await startTestApp(backend);
    [admin, enterprise, channel, sub] = await Promise.all(['admin', 'enterprise', 'channel', 'subcustomer'].map((l) => t.login(l)));
    ent = await ownerOf(t, 'enterprise');
    for (const r of await t.database.sql.query<{ code: string; id: number }>('select code, goods_release_id id from basic_plans')) plan[r.code] = r.id;
    // China Telecom cards' changes, resets and SMS go through the simulator
    const saved = await t.call('network/operatorsAccount/save', {
      operatorId: Operator.ChinaTelecom, accountName: '操作一致性', endpointUrl: 'https://api.ctwing.example.com/openapi', apiVersion: 'v2',
      adapter: 'simulator', appKey: APP_KEY, appSecret: simulatorSecretFor(APP_KEY), password: 'Plain-Password-Offers-2026',
    }, { token: admin });
    expect(saved.body.success, saved.body.msg).toBe(true);
  });
  afterAll(() => t?.stop());

  /** A card of the demo enterprise on the monthly demo plan, in `state`, its contract started a minute ago. */
  const card = async (state: number, o: { plan?: number | null; msisdn?: boolean; owner?: Owner | null } = {}) => {
    seq++;
    const iccid = `89860399${String(seq).padStart(12, '0')}`;
    const planId = o.plan === undefined ? plan['CTCC-M10G'] : o.plan;
    const started = planId != null && state !== CardState.Start ? new Date(Date.now() - 60_000) : null;
    const owner = o.owner === undefined ? ent : o.owner;
    await t.database.sql.query(
      `insert into cards (iccid, msisdn, imsi, state, operator_id, cust_id, root_cust_id, goods_release_id, operation_mode, renewal_mode,
         activated_at, contract_start_at, contract_months, cycles_used, test_end_at, silent_end_at, frozen_from)
       values ($1, $2, $3, $4, $5, $6, $7, $8, 1, 1, $9, $9, $10, $11, $12, $13, $14)`,
      [iccid, o.msisdn === false ? null : `1064399${String(seq).padStart(6, '0')}`, `4601199${String(seq).padStart(8, '0')}`, state, Operator.ChinaTelecom,
        owner?.cust_id ?? null, owner?.root_cust_id ?? null, planId, started, started ? 12 : 0, started ? 1 : 0,
        state === CardState.Test ? new Date(Date.now() + 20 * 86_400_000) : null, state === CardState.Inventory ? new Date(Date.now() + 60 * 86_400_000) : null,
        state === CardState.Frozen ? CardState.Activated : null],
    );
    return iccid;
  };
  const offersOf = async (iccid: string, token = admin, lang: 'zh' | 'en' = 'en') => {
    const r = await t.call<OfferOut[]>(OFFERS, { iccid }, { token, lang });
    expect(r.body.success, r.body.msg).toBe(true);
    return r.body.data;
  };
  /** Does the action through its own endpoint, as the console's button would. */
  const perform = (action: (typeof ACTIONS)[number], iccid: string, lang: 'zh' | 'en' = 'en') => {
    const call = (endpoint: string, body: object) => t.call(endpoint, body, { token: admin, lang });
    switch (action) {
      case 'renew': return call(carddetail.renewCard.name, { iccid, periods: 1 });
      case 'changePlan': return call(carddetail.changeCardPlan.name, { iccid, goodsReleaseId: plan['CTCC-P2G12'] });
      case 'orderEventPack': return call(carddetail.orderEventPack.name, { iccid, packId: plan['CTCC-EV5G'] });
      case 'block': case 'permit': return call(carddetail.changeCardZone.name, { iccid, op: action, kind: 'network', targetId: 2 });
      case 'sendSms': return call(carddetail.sendCardSms.name, { iccid, content: 'status?' });
      case 'networkReset': return call(diagnose.networkReset.name, { iccid });
      case 'downloadQr': return call(carddetail.exportQrCodes.name, { iccids: [iccid] });
      case 'diagnose': return call(diagnose.diagnoseCard.name, { iccid });
      default: return call(CHANGE_STATUS, { iccid, action });
    }
  };

  it('every state x action: the endpoint refuses exactly what the offer disables, with its code and message, and does the rest', async () => {
    const mismatches: string[] = [];
    for (const state of STATES) {
      for (const action of ACTIONS) {
        const iccid = await card(state);
        const offer = (await offersOf(iccid)).find((o) => o.action === action)!;
        const expected = EXPECTED[state][action];
        if ((offer.offer === 'allowed' ? 'ok' : offer.reasonCode) !== expected) mismatches.push(`${state} ${action}: offer ${offer.offer} ${offer.reasonCode}, grid ${expected}`);
        const r = (await perform(action, iccid)).body;
        if (offer.offer === 'allowed') {
          if (!r.success) mismatches.push(`${state} ${action}: offered but refused ${r.errorCode} ${r.msg}`);
        } else if (r.success || r.errorCode !== offer.reasonCode || r.msg !== offer.reason!.en) {
          mismatches.push(`${state} ${action}: offer disabled "${offer.reason?.en}", endpoint ${r.success ? 'did it' : `${r.errorCode} "${r.msg}"`}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('a card without a plan: renewal, plan change and event packs are hidden, and refused with the same reason', async () => {
    const iccid = await card(CardState.Activated, { plan: null });
    const offers = await offersOf(iccid, enterprise, 'zh');
    for (const action of ['renew', 'changePlan', 'orderEventPack'] as const) {
      expect(offers.find((o) => o.action === action)).toMatchObject({ offer: 'hidden', reasonCode: ErrorCode.CardHasNoPlan, reason: { zh: '卡还没有套餐' } });
      const r = (await perform(action, iccid, 'zh')).body;
      expect(r).toMatchObject({ success: false, errorCode: ErrorCode.CardHasNoPlan, msg: '卡还没有套餐' });
    }
    // the card's other actions are offered as for any active card
    expect(offers.find((o) => o.action === 'deactivate')?.offer).toBe('allowed');
  });

  it('what changes on the card changes the offer: a plan change blocks renewal, a network reset waits 3 minutes', async () => {
    const iccid = await card(CardState.Activated);
    expect((await offersOf(iccid)).find((o) => o.action === 'renew')?.offer).toBe('allowed');
    expect((await perform('changePlan', iccid)).body.success).toBe(true);
    const after = await offersOf(iccid);
    expect(after.find((o) => o.action === 'renew')).toMatchObject({ offer: 'disabled', reasonCode: ErrorCode.CardRenewalChangePending });
    expect(after.find((o) => o.action === 'changePlan')).toMatchObject({ offer: 'disabled', reasonCode: ErrorCode.CardPlanChangeMonthly });
    expect((await perform('renew', iccid)).body.errorCode).toBe(ErrorCode.CardRenewalChangePending);

    expect((await perform('networkReset', iccid)).body.success).toBe(true);
    const reset = (await offersOf(iccid, admin, 'zh')).find((o) => o.action === 'networkReset')!;
    expect(reset).toMatchObject({ offer: 'disabled', reasonCode: ErrorCode.CardNetworkResetTooSoon, reason: { zh: errorMessage(ErrorCode.CardNetworkResetTooSoon, 'zh') } });
    expect(new Date(reset.availableAt!).getTime()).toBeGreaterThan(Date.now() + 150_000);
    expect((await perform('networkReset', iccid, 'zh')).body).toMatchObject({ success: false, errorCode: ErrorCode.CardNetworkResetTooSoon, msg: '网络重置间隔不能少于 3 分钟' });

    // no MSISDN: no SMS, said before the click
    const mute = await card(CardState.Activated, { msisdn: false });
    expect((await offersOf(mute)).find((o) => o.action === 'sendSms')).toMatchObject({ offer: 'disabled', reasonCode: ErrorCode.SmsNoMsisdn });
    expect((await perform('sendSms', mute)).body.errorCode).toBe(ErrorCode.SmsNoMsisdn);
  });

  it("tenancy: another customer's card, a stock card and a missing card answer 20005 like each other", async () => {
    const mine = await card(CardState.Activated);
    expect((await t.call(OFFERS, { iccid: mine }, { token: enterprise })).body.success).toBe(true);
    // the channel customer, and the enterprise's second-level customer, cannot see the enterprise's own card
    for (const token of [channel, sub]) {
      expect((await t.call(OFFERS, { iccid: mine }, { token, lang: 'en' })).body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound, msg: 'Record not found' });
    }
    const stock = await card(CardState.Start, { owner: null });
    for (const iccid of [stock, '89860399999999999999']) {
      expect((await t.call(OFFERS, { iccid }, { token: enterprise, lang: 'en' })).body).toMatchObject({ success: false, errorCode: ErrorCode.NotFound, msg: 'Record not found' });
    }
    expect((await t.call(OFFERS, { iccid: stock }, { token: admin })).body.success).toBe(true);
    // a session is needed, and the ICCID must be one
    expect((await t.call(OFFERS, { iccid: mine }, { token: null })).body.errorCode).toBe(ErrorCode.SessionInvalid);
    expect((await t.call(OFFERS, { iccid: 'x' }, { token: admin })).body.success).toBe(false);
  });
});
