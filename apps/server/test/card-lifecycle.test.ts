// Table-driven tests of the card lifecycle engine (spec §4): every legal and illegal transition in both
// operation modes, and every timing rule with dates. Pure: no database.
import { describe, it, expect } from 'vitest';
import {
  CardActionKind, CardState, ErrorCode, errorMessage, PlanCycleUnit, PlanGoodsType, PlanOperationMode, PlanRenewalMode,
} from '@lynx/contract';
import {
  contractCycles, contractEndsAt, cycleEndsAt, nextDeadline, STATE_ACTIONS, TRANSITIONS, transition,
  type CardAction, type CardPlan, type CardSnapshot, type Effect, type TransitionResult,
} from '../src/modules/card/lifecycle/engine.ts';
import { addBusinessMonths, sameBusinessMonth, startOfBusinessMonth, startOfNextBusinessDay } from '../src/modules/card/lifecycle/time.ts';

/** An instant given as China wall-clock time 'YYYY-MM-DD HH:mm' (UTC+8). */
const cst = (s: string): Date => new Date(`${s.replace(' ', 'T')}:00+08:00`);

const MONTHLY: CardPlan = {
  id: 1, goodsType: PlanGoodsType.Monthly, cycleUnit: PlanCycleUnit.Month, cycleValue: 1, durationMonths: 3,
  apns: ['cmiot', 'lynx.apn'], testValidityDays: 30, testPeriodMonths: 0, silentPeriodMonths: 2,
};
const MONTHLY_B: CardPlan = { ...MONTHLY, id: 2, apns: ['LYNX.APN', 'cmiot'] };
const PREPAID: CardPlan = {
  id: 3, goodsType: PlanGoodsType.Prepaid, cycleUnit: PlanCycleUnit.Month, cycleValue: 1, durationMonths: 12,
  apns: ['cmiot', 'lynx.apn'], testValidityDays: null, testPeriodMonths: 1, silentPeriodMonths: 0,
};
const OTHER_APN: CardPlan = { ...MONTHLY, id: 4, apns: ['cmiot'] };

function card(over: Partial<CardSnapshot> = {}): CardSnapshot {
  return {
    state: CardState.Activated, operationMode: PlanOperationMode.Standard, renewalMode: PlanRenewalMode.NoRenew,
    plan: MONTHLY, testEndsAt: null, silentEndsAt: null, activatedAt: null, contractStartAt: null, contractMonths: 0,
    cyclesUsed: 0, pendingPlanChange: null, pendingPriceChange: false, lastPlanChangeAt: null, frozenFrom: null,
    lastNetworkResetAt: null, ...over,
  };
}

/** An active monthly card activated on 2026-01-15 (contract Jan–Mar), current cycle February. */
const activeCard = (over: Partial<CardSnapshot> = {}) =>
  card({ contractStartAt: cst('2026-01-15 10:00'), contractMonths: 3, cyclesUsed: 2, activatedAt: cst('2026-01-15 10:00'), ...over });

const NOW = cst('2026-02-10 12:00');

function okOf(r: TransitionResult) {
  if (!r.ok) throw new Error(`expected success, got error ${r.error} ${JSON.stringify(r.params)}`);
  return r;
}
const errOf = (r: TransitionResult) => (r.ok ? 'ok' : r.error);
const history = (effects: Effect[]) =>
  effects.flatMap((e) => (e.kind === 'history' ? [{ action: e.action, from: e.from, to: e.to, at: e.at.toISOString() }] : []));

// ---- the full from × action matrix ------------------------------------------------------------------------

// Columns in STATE_ACTIONS order. A number is the target state; X = illegal transition, A = already in that
// state, U = the state does not support the action (for start-state cards: "start-state cards unsupported").
const COLUMNS = 'activate deactivate startTest endTest toActivationReady toInventory invalidate retire freeze unfreeze';
const STANDARD = `
60:  64  X  61  U  62  63  66  X   X   U
61:  64  65 A   63 62  63  66  X   68  U
62:  64  65 61  U  A   63  66  X   68  U
63:  64  65 X   U  62  A   66  X   68  U
64:  A   65 X   U  X   X   X   X   68  U
65:  64  A  X   U  X   X   66  67  68  U
66:  X   X  X   U  X   X   A   67  X   U
67:  X   X  X   U  X   X   X   A   X   U
68:  X   X  X   U  X   X   X   X   A   64
`;
// A professional card enters the five states from the platform stock (start) and never leaves them.
const PROFESSIONAL = `
60:  64  X  61  U  62  63  X   X   X   U
61:  64  65 A   63 62  63  X   X   X   U
62:  64  65 61  U  A   63  X   X   X   U
63:  64  65 X   U  62  A   X   X   X   U
64:  A   65 X   U  X   X   X   X   X   U
65:  64  A  X   U  X   X   X   X   X   U
66:  U   U  U   U  U   U   U   U   U   U
67:  U   U  U   U  U   U   U   U   U   U
68:  U   U  U   U  U   U   U   U   U   U
`;

function parseGrid(grid: string): Map<string, string> {
  const out = new Map<string, string>();
  const cols = COLUMNS.split(' ');
  for (const line of grid.trim().split('\n')) {
    const [head, ...cells] = line.trim().split(/\s+/);
    expect(cells).toHaveLength(cols.length);
    cells.forEach((c, i) => out.set(`${parseInt(head, 10)}:${cols[i]}`, c));
  }
  return out;
}

function outcome(r: TransitionResult, from: number): string {
  if (r.ok) return String(r.to);
  switch (r.error) {
    case ErrorCode.CardIllegalTransition: return 'X';
    case ErrorCode.CardAlreadyInState: return 'A';
    case ErrorCode.CardOperationUnsupported: return from === CardState.Start ? 'unexpected' : 'U';
    case ErrorCode.CardStartStateUnsupported: return from === CardState.Start ? 'U' : 'unexpected';
    default: return `error ${r.error}`;
  }
}

describe('card lifecycle: every state × action', () => {
  it('the columns are exactly the state actions', () => {
    expect(COLUMNS.split(' ')).toEqual([...STATE_ACTIONS]);
  });

  for (const [modeName, mode, grid] of [
    ['standard', PlanOperationMode.Standard, STANDARD],
    ['professional', PlanOperationMode.Professional, PROFESSIONAL],
  ] as const) {
    describe(`${modeName} version`, () => {
      const expected = parseGrid(grid);
      for (const from of CardState.values) {
        for (const action of STATE_ACTIONS) {
          const want = expected.get(`${from}:${action}`);
          it(`${CardState.label(from, 'en')} --${action}--> ${want}`, () => {
            const c = card({ state: from, operationMode: mode, frozenFrom: from === CardState.Frozen ? CardState.Activated : null });
            expect(outcome(transition(c, { type: action }, NOW), from)).toBe(want);
          });
        }
      }
    });
  }

  it('the legal table has exactly the transitions of the expected grid (adding one fails)', () => {
    const expected = parseGrid(STANDARD);
    const legal = [...expected].filter(([, v]) => /^\d+$/.test(v)).map(([k]) => k).sort();
    const declared = Object.entries(TRANSITIONS)
      .flatMap(([from, row]) => Object.keys(row).map((a) => `${from}:${a}`))
      .sort();
    expect(declared).toEqual(legal);
    expect(legal).toHaveLength(31);
  });

  it('a professional card only ever holds the five states', () => {
    const five = [CardState.Test, CardState.ActivationReady, CardState.Inventory, CardState.Activated, CardState.Deactivated];
    for (const from of five) {
      for (const action of STATE_ACTIONS) {
        const r = transition(card({ state: from, operationMode: PlanOperationMode.Professional }), { type: action }, NOW);
        if (r.ok) expect(five).toContain(r.to);
      }
    }
  });

  it('the illegal-transition message names both states in each language', () => {
    const r = transition(card({ state: CardState.Retired }), { type: 'activate' }, NOW);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(errorMessage(r.error, 'en', r.params)).toBe('Illegal transition from "Retired" to "Activated"');
    expect(errorMessage(r.error, 'zh', r.params)).toBe('不允许从“已销户”变更为“已激活”');
  });

  it('every state change is recorded and sent to the operator', () => {
    const r = okOf(transition(card({ state: CardState.Inventory }), { type: 'deactivate' }, NOW));
    expect(history(r.effects)).toEqual([
      { action: CardActionKind.Deactivate, from: CardState.Inventory, to: CardState.Deactivated, at: NOW.toISOString() },
    ]);
    expect(r.effects).toContainEqual({ kind: 'gatewayStatus', state: CardState.Deactivated, at: NOW });
  });

  it('a refusal changes nothing and the input snapshot is never mutated', () => {
    const c = activeCard();
    const before = JSON.stringify(c);
    transition(c, { type: 'deactivate' }, NOW);
    transition(c, { type: 'tick' }, cst('2030-01-01 00:00'));
    transition(c, { type: 'changePlan', plan: MONTHLY_B }, NOW);
    expect(JSON.stringify(c)).toBe(before);
  });
});

// ---- the other operations by state ------------------------------------------------------------------------

// ok = allowed; S = start-state cards unsupported; U = not supported in this state; N = only active cards can renew
// or order event packs; P = deactivated state does not support permit; R = release of a zone not possible if
// deactivated; Q = QR code not downloadable. Diagnosis runs on standard-version cards too (issue 12: the checks that
// need no professional network), so only start-state cards are refused.
const OP_COLUMNS = ['changePlan', 'renew', 'orderEventPack', 'block', 'permit', 'releaseZone', 'downloadQr', 'diagnose', 'diagnosePro', 'networkReset'];
const OPS = `
60:  S   S   S   S   S   S   S   S   S   S
61:  ok  N   N   ok  ok  ok  ok  ok  ok  ok
62:  ok  N   N   ok  ok  ok  ok  ok  ok  U
63:  ok  N   N   ok  ok  ok  ok  ok  ok  U
64:  ok  ok  ok  ok  ok  ok  ok  ok  ok  ok
65:  ok  N   N   ok  P   R   ok  ok  ok  U
66:  U   N   N   U   U   U   Q   ok  ok  U
67:  U   N   N   U   U   U   Q   ok  ok  U
68:  U   N   N   U   U   U   Q   ok  ok  U
`;
const OP_CODES: Record<string, number> = {
  S: ErrorCode.CardStartStateUnsupported, U: ErrorCode.CardOperationUnsupported, N: ErrorCode.CardNotActiveForOrder,
  P: ErrorCode.CardPermitDeactivated, R: ErrorCode.CardZoneReleaseDeactivated, Q: ErrorCode.CardQrNotDownloadable,
};

function opAction(col: string): CardAction {
  switch (col) {
    case 'changePlan': return { type: 'changePlan', plan: MONTHLY_B };
    case 'renew': return { type: 'renew' };
    case 'orderEventPack': return { type: 'orderEventPack', packId: 9 };
    case 'block': return { type: 'block', target: { kind: 'region', id: 7 } };
    case 'permit': return { type: 'permit', target: { kind: 'network', id: 3 } };
    case 'releaseZone': return { type: 'releaseZone', zoneId: 5 };
    case 'downloadQr': return { type: 'downloadQr' };
    case 'networkReset': return { type: 'networkReset' };
    default: return { type: 'diagnose' };
  }
}

describe('card operations by state', () => {
  const rows = OPS.trim().split('\n').map((l) => l.trim().split(/\s+/));
  for (const [head, ...cells] of rows) {
    const state = parseInt(head, 10);
    OP_COLUMNS.forEach((col, i) => {
      it(`${CardState.label(state, 'en')}: ${col} → ${cells[i]}`, () => {
        const c = activeCard({
          state, operationMode: col === 'diagnosePro' ? PlanOperationMode.Professional : PlanOperationMode.Standard,
        });
        const r = transition(c, opAction(col), NOW);
        expect(errOf(r)).toBe(cells[i] === 'ok' ? 'ok' : OP_CODES[cells[i]]);
        if (r.ok) expect(r.to).toBe(state);
      });
    });
  }
});

// ---- §4 rules with dates ----------------------------------------------------------------------------------

describe('test period → silent (inventory) period → activation', () => {
  it('starting a test sets the test end from the plan validity days', () => {
    const r = okOf(transition(card({ state: CardState.ActivationReady }), { type: 'startTest' }, cst('2026-01-01 08:00')));
    expect(r.next.testEndsAt).toEqual(cst('2026-01-31 08:00'));
    expect(nextDeadline(r.next)).toEqual(cst('2026-01-31 08:00'));
  });

  it('a test period in months ends on the same day next month (clamped)', () => {
    const r = okOf(transition(card({ state: CardState.Start, plan: PREPAID }), { type: 'startTest' }, cst('2026-01-31 09:00')));
    expect(r.next.testEndsAt).toEqual(cst('2026-02-28 09:00'));
  });

  it('nothing happens before the deadline', () => {
    const c = card({ state: CardState.Test, testEndsAt: cst('2026-01-31 08:00') });
    const r = okOf(transition(c, { type: 'tick' }, cst('2026-01-31 07:59')));
    expect(r.to).toBe(CardState.Test);
    expect(r.effects).toEqual([]);
  });

  it('test expiry starts the silent period, whose end activates the card and starts its contract', () => {
    const c = card({ state: CardState.Test, testEndsAt: cst('2026-01-31 08:00') });
    const r1 = okOf(transition(c, { type: 'tick' }, cst('2026-01-31 08:00')));
    expect(r1.to).toBe(CardState.Inventory);
    expect(r1.next.silentEndsAt).toEqual(cst('2026-03-31 08:00'));
    expect(history(r1.effects)[0].action).toBe(CardActionKind.TestExpired);
    const r2 = okOf(transition(r1.next, { type: 'tick' }, cst('2026-03-31 08:00')));
    expect(r2.to).toBe(CardState.Activated);
    expect(r2.next.activatedAt).toEqual(cst('2026-03-31 08:00'));
    expect(history(r2.effects)[0].action).toBe(CardActionKind.SilentExpired);
    // Monthly plan of 3 months: the activation month counts, the contract ends on 1 June, the cycle on 1 April.
    expect(cycleEndsAt(r2.next)).toEqual(cst('2026-04-01 00:00'));
    expect(contractEndsAt(r2.next)).toEqual(cst('2026-06-01 00:00'));
    expect(contractCycles(r2.next)).toEqual({ total: 3, used: 1, remaining: 2 });
  });

  it('with no silent period a test expiry activates the card at the same instant', () => {
    const c = card({ state: CardState.Test, plan: PREPAID, testEndsAt: cst('2026-02-01 00:00') });
    const r = okOf(transition(c, { type: 'tick' }, cst('2026-02-01 00:00')));
    expect(r.to).toBe(CardState.Activated);
    expect(history(r.effects).map((h) => h.to)).toEqual([CardState.Inventory, CardState.Activated]);
  });

  it('a card put into stock by hand without a silent period waits there for manual activation', () => {
    const r = okOf(transition(card({ state: CardState.ActivationReady, plan: PREPAID }), { type: 'toInventory' }, NOW));
    expect(r.next.silentEndsAt).toBeNull();
    expect(okOf(transition(r.next, { type: 'tick' }, cst('2027-01-01 00:00'))).to).toBe(CardState.Inventory);
    const withSilent = okOf(transition(card({ state: CardState.ActivationReady }), { type: 'toInventory' }, NOW));
    expect(withSilent.next.silentEndsAt).toEqual(cst('2026-04-10 12:00'));
  });

  it('ending a test by hand starts the silent period from that moment', () => {
    const r = okOf(transition(card({ state: CardState.Test, testEndsAt: cst('2026-03-01 00:00') }), { type: 'endTest' }, NOW));
    expect(r.to).toBe(CardState.Inventory);
    expect(r.next.testEndsAt).toBeNull();
    expect(r.next.silentEndsAt).toEqual(addBusinessMonths(NOW, 2));
  });
});

describe('contract end: auto-renew vs renewal off', () => {
  const ending = (renewalMode: number) => activeCard({ renewalMode, cyclesUsed: 3 }); // current cycle March, contract ends 1 April

  it('renewal off: the card becomes deactivated at the end and all its zones are blocked', () => {
    const r = okOf(transition(ending(PlanRenewalMode.NoRenew), { type: 'tick' }, cst('2026-04-01 00:00')));
    expect(r.to).toBe(CardState.Deactivated);
    expect(history(r.effects)).toEqual([
      { action: CardActionKind.ContractEnded, from: CardState.Activated, to: CardState.Deactivated, at: cst('2026-04-01 00:00').toISOString() },
    ]);
    expect(r.effects).toContainEqual({ kind: 'blockAllZones', at: cst('2026-04-01 00:00') });
  });

  it('one minute before the end nothing happens', () => {
    const r = okOf(transition(ending(PlanRenewalMode.NoRenew), { type: 'tick' }, cst('2026-03-31 23:59')));
    expect(r.to).toBe(CardState.Activated);
  });

  it('auto-renew adds one more period and starts the next cycle', () => {
    const r = okOf(transition(ending(PlanRenewalMode.AutoRenew), { type: 'tick' }, cst('2026-04-01 00:00')));
    expect(r.to).toBe(CardState.Activated);
    expect(r.effects).toContainEqual({ kind: 'contractExtended', months: 3, endsAt: cst('2026-07-01 00:00'), auto: true });
    expect(r.effects).toContainEqual({ kind: 'cycleStarted', start: cst('2026-04-01 00:00'), end: cst('2026-05-01 00:00'), index: 4 });
    expect(history(r.effects).map((h) => h.action)).toEqual([CardActionKind.ContractRenewed]);
    expect(r.effects.some((e) => e.kind === 'blockAllZones')).toBe(false);
  });

  it('auto-renew keeps renewing across a long outage; renewal off stops at the first end', () => {
    const late = cst('2027-01-15 00:00');
    const on = okOf(transition(ending(PlanRenewalMode.AutoRenew), { type: 'tick' }, late));
    expect(on.to).toBe(CardState.Activated);
    expect(on.effects.filter((e) => e.kind === 'contractExtended')).toHaveLength(4); // Apr, Jul, Oct, Jan
    expect(cycleEndsAt(on.next)).toEqual(cst('2027-02-01 00:00'));
    const off = okOf(transition(ending(PlanRenewalMode.NoRenew), { type: 'tick' }, late));
    expect(off.to).toBe(CardState.Deactivated);
    expect(history(off.effects)[0].at).toBe(cst('2026-04-01 00:00').toISOString());
  });

  it('prepaid month cycles are anchored on the activation day without drift (31 Jan → 29 Feb → 31 Mar)', () => {
    const c = card({ plan: { ...PREPAID, durationMonths: 3 }, contractStartAt: cst('2028-01-31 10:00'), contractMonths: 3, cyclesUsed: 1 });
    expect(cycleEndsAt(c)).toEqual(cst('2028-02-29 10:00'));
    const r = okOf(transition(c, { type: 'tick' }, cst('2028-03-31 10:00')));
    expect(r.effects.filter((e) => e.kind === 'cycleStarted')).toEqual([
      { kind: 'cycleStarted', start: cst('2028-02-29 10:00'), end: cst('2028-03-31 10:00'), index: 2 },
      { kind: 'cycleStarted', start: cst('2028-03-31 10:00'), end: cst('2028-04-30 10:00'), index: 3 },
    ]);
    expect(contractEndsAt(r.next)).toEqual(cst('2028-04-30 10:00'));
  });

  it('day cycles of a prepaid plan', () => {
    const plan: CardPlan = { ...PREPAID, cycleUnit: PlanCycleUnit.Day, cycleValue: 7, durationMonths: 1 };
    const c = card({ plan, contractStartAt: cst('2026-02-01 00:00'), contractMonths: 1, cyclesUsed: 1 });
    expect(cycleEndsAt(c)).toEqual(cst('2026-02-08 00:00'));
    expect(contractCycles(c)).toEqual({ total: 4, used: 1, remaining: 3 });
    // The last cycle is cut at the contract end (1 March).
    const r = okOf(transition(c, { type: 'tick' }, cst('2026-02-28 00:00')));
    expect(cycleEndsAt(r.next)).toEqual(cst('2026-03-01 00:00'));
  });
});

describe('catch-up after downtime', () => {
  it('a tick long after several deadlines applies them in time order', () => {
    const c = card({ state: CardState.Test, testEndsAt: cst('2026-01-31 08:00') });
    // test ends 31 Jan → silent until 31 Mar → active; contract Mar–May (3 natural months) → deactivated 1 June
    const r = okOf(transition(c, { type: 'tick' }, cst('2026-09-01 00:00')));
    expect(r.to).toBe(CardState.Deactivated);
    expect(history(r.effects)).toEqual([
      { action: CardActionKind.TestExpired, from: CardState.Test, to: CardState.Inventory, at: cst('2026-01-31 08:00').toISOString() },
      { action: CardActionKind.SilentExpired, from: CardState.Inventory, to: CardState.Activated, at: cst('2026-03-31 08:00').toISOString() },
      { action: CardActionKind.ContractEnded, from: CardState.Activated, to: CardState.Deactivated, at: cst('2026-06-01 00:00').toISOString() },
    ]);
    expect(r.effects.filter((e) => e.kind === 'cycleStarted').map((e) => (e.kind === 'cycleStarted' ? e.index : 0))).toEqual([1, 2, 3]);
    expect(nextDeadline(r.next)).toBeNull();
  });

  it('ticking twice is the same as ticking once (exactly once)', () => {
    const c = card({ state: CardState.Test, testEndsAt: cst('2026-01-31 08:00') });
    const once = okOf(transition(c, { type: 'tick' }, cst('2026-09-01 00:00')));
    const again = okOf(transition(once.next, { type: 'tick' }, cst('2026-09-01 00:00')));
    expect(again.effects).toEqual([]);
    expect(again.next).toEqual(once.next);
    const stepwise = ['2026-02-15', '2026-04-10', '2026-05-20', '2026-09-01'].reduce(
      (cur, d) => okOf(transition(cur, { type: 'tick' }, cst(`${d} 00:00`))).next, c);
    expect(stepwise).toEqual(once.next);
  });

  it('a pending plan change due during the outage is applied at its own time, before later deadlines', () => {
    const c = activeCard({
      renewalMode: PlanRenewalMode.NoRenew,
      pendingPlanChange: { plan: MONTHLY_B, requestedAt: cst('2026-02-05 00:00'), effectiveAt: cst('2026-03-01 00:00'), onActivation: false },
    });
    const r = okOf(transition(c, { type: 'tick' }, cst('2026-07-01 00:00')));
    expect(history(r.effects)).toEqual([
      { action: CardActionKind.PlanChanged, from: CardState.Activated, to: CardState.Activated, at: cst('2026-03-01 00:00').toISOString() },
      { action: CardActionKind.ContractEnded, from: CardState.Activated, to: CardState.Deactivated, at: cst('2026-06-01 00:00').toISOString() },
    ]);
    expect(r.next.plan?.id).toBe(MONTHLY_B.id);
    expect(r.effects).toContainEqual({ kind: 'gatewayPlan', planId: MONTHLY_B.id, at: cst('2026-03-01 00:00') });
  });
});

describe('plan change timing', () => {
  const scheduled = (r: TransitionResult) => okOf(r).effects.find((e) => e.kind === 'planChangeScheduled');

  it('an active card changes at the next cycle', () => {
    const r = okOf(transition(activeCard(), { type: 'changePlan', plan: MONTHLY_B }, NOW));
    expect(r.to).toBe(CardState.Activated);
    expect(r.next.plan?.id).toBe(MONTHLY.id);
    expect(scheduled(r)).toEqual({ kind: 'planChangeScheduled', planId: 2, effectiveAt: cst('2026-03-01 00:00'), onActivation: false });
    expect(nextDeadline(r.next)).toEqual(cst('2026-03-01 00:00'));
    const early = okOf(transition(r.next, { type: 'tick' }, cst('2026-02-28 23:59')));
    expect(early.next.plan?.id).toBe(MONTHLY.id);
    const at = okOf(transition(r.next, { type: 'tick' }, cst('2026-03-01 00:00')));
    expect(at.next.plan?.id).toBe(MONTHLY_B.id);
    expect(at.next.pendingPlanChange).toBeNull();
    // The new plan starts a contract at the change.
    expect(at.next.contractStartAt).toEqual(cst('2026-03-01 00:00'));
    expect(contractEndsAt(at.next)).toEqual(cst('2026-06-01 00:00'));
  });

  it('a prepaid active card changes at the end of its own cycle (day after anchor month)', () => {
    const c = card({ plan: PREPAID, contractStartAt: cst('2026-01-20 15:00'), contractMonths: 12, cyclesUsed: 1 });
    const r = okOf(transition(c, { type: 'changePlan', plan: { ...PREPAID, id: 30 } }, cst('2026-02-03 09:00')));
    expect(scheduled(r)).toMatchObject({ effectiveAt: cst('2026-02-20 15:00') });
  });

  it('a deactivated card with no valid period: monthly → next month, prepaid → next day, or on manual activation', () => {
    const dead = card({ state: CardState.Deactivated, contractStartAt: cst('2025-10-01 00:00'), contractMonths: 3, cyclesUsed: 3 });
    const monthly = okOf(transition(dead, { type: 'changePlan', plan: MONTHLY_B }, cst('2026-01-31 23:30')));
    expect(scheduled(monthly)).toEqual({ kind: 'planChangeScheduled', planId: 2, effectiveAt: cst('2026-02-01 00:00'), onActivation: true });
    const prepaid = okOf(transition(dead, { type: 'changePlan', plan: PREPAID }, cst('2026-01-31 23:30')));
    expect(scheduled(prepaid)).toEqual({ kind: 'planChangeScheduled', planId: 3, effectiveAt: cst('2026-02-01 00:00'), onActivation: true });
    const prepaidMid = okOf(transition(dead, { type: 'changePlan', plan: PREPAID }, cst('2026-02-10 12:00')));
    expect(scheduled(prepaidMid)).toMatchObject({ effectiveAt: cst('2026-02-11 00:00') });
    const monthlyMid = okOf(transition(dead, { type: 'changePlan', plan: MONTHLY_B }, cst('2026-02-10 12:00')));
    expect(scheduled(monthlyMid)).toMatchObject({ effectiveAt: cst('2026-03-01 00:00') });

    // the scheduler applies it; the card stays deactivated with no contract
    const applied = okOf(transition(monthlyMid.next, { type: 'tick' }, cst('2026-03-01 00:00')));
    expect(applied.to).toBe(CardState.Deactivated);
    expect(applied.next.plan?.id).toBe(2);
    expect(contractEndsAt(applied.next)).toBeNull();

    // manual activation before then applies it at once and starts the new plan's contract
    const act = okOf(transition(monthlyMid.next, { type: 'activate' }, cst('2026-02-12 09:00')));
    expect(act.to).toBe(CardState.Activated);
    expect(act.next.plan?.id).toBe(2);
    expect(act.next.pendingPlanChange).toBeNull();
    expect(act.next.contractStartAt).toEqual(cst('2026-02-12 09:00'));
    expect(history(act.effects).map((h) => h.action)).toEqual([CardActionKind.PlanChanged, CardActionKind.Activate]);
    expect(act.effects).toContainEqual({ kind: 'restoreZones', at: cst('2026-02-12 09:00') });
  });

  it('a deactivated card with a valid period changes after that period ends, not on activation', () => {
    const dead = activeCard({ state: CardState.Deactivated }); // contract until 1 April
    const r = okOf(transition(dead, { type: 'changePlan', plan: PREPAID }, NOW));
    expect(scheduled(r)).toEqual({ kind: 'planChangeScheduled', planId: 3, effectiveAt: cst('2026-04-01 00:00'), onActivation: false });
    const act = okOf(transition(r.next, { type: 'activate' }, cst('2026-03-05 00:00')));
    expect(act.next.plan?.id).toBe(MONTHLY.id);
    expect(act.next.cyclesUsed).toBe(3); // rolled to the March cycle of the still-valid contract
    const applied = okOf(transition(r.next, { type: 'tick' }, cst('2026-04-01 00:00')));
    expect(applied.next.plan?.id).toBe(PREPAID.id);
    expect(applied.to).toBe(CardState.Deactivated);
  });

  it('an active card deactivated while a change waits keeps its plan until its valid period ends', () => {
    const scheduledOnActive = okOf(transition(activeCard(), { type: 'changePlan', plan: MONTHLY_B }, NOW)).next; // due 1 March
    const off = okOf(transition(scheduledOnActive, { type: 'deactivate' }, cst('2026-02-20 00:00'))).next;
    expect(nextDeadline(off)).toEqual(cst('2026-04-01 00:00'));
    expect(okOf(transition(off, { type: 'tick' }, cst('2026-03-15 00:00'))).next.plan?.id).toBe(MONTHLY.id);
    const applied = okOf(transition(off, { type: 'tick' }, cst('2026-04-01 00:00')));
    expect(applied.next.plan?.id).toBe(MONTHLY_B.id);
    expect(history(applied.effects)[0].at).toBe(cst('2026-04-01 00:00').toISOString());
  });

  it('test, activation-ready and inventory cards get the new plan on activation', () => {
    for (const state of [CardState.Test, CardState.ActivationReady, CardState.Inventory]) {
      const r = okOf(transition(card({ state }), { type: 'changePlan', plan: MONTHLY_B }, NOW));
      expect(scheduled(r)).toMatchObject({ effectiveAt: null, onActivation: true });
      const act = okOf(transition(r.next, { type: 'activate' }, NOW));
      expect(act.next.plan?.id).toBe(MONTHLY_B.id);
    }
  });

  it('only one plan change per calendar month (China time), allowed again in the next month', () => {
    const first = okOf(transition(activeCard(), { type: 'changePlan', plan: MONTHLY_B }, cst('2026-02-01 00:00')));
    const again = transition(first.next, { type: 'changePlan', plan: { ...MONTHLY, id: 5 } }, cst('2026-02-28 23:59'));
    expect(errOf(again)).toBe(ErrorCode.CardPlanChangeMonthly);
    // 2026-02-28 16:30 UTC is already 1 March in Beijing
    const next = okOf(transition(first.next, { type: 'changePlan', plan: { ...MONTHLY, id: 5 } }, new Date('2026-02-28T16:30:00Z')));
    expect(next.effects[0]).toEqual({ kind: 'planChangeCancelled', planId: 2 });
    expect(next.next.pendingPlanChange?.plan.id).toBe(5);
    // the same month of another year is another month
    const c = activeCard({ lastPlanChangeAt: cst('2025-02-10 00:00') });
    expect(errOf(transition(c, { type: 'changePlan', plan: MONTHLY_B }, cst('2026-02-10 00:00')))).toBe('ok');
  });

  it('only plans with the same APN info (order and case do not matter)', () => {
    expect(errOf(transition(activeCard(), { type: 'changePlan', plan: OTHER_APN }, NOW))).toBe(ErrorCode.CardPlanApnMismatch);
    expect(errOf(transition(activeCard(), { type: 'changePlan', plan: MONTHLY_B }, NOW))).toBe('ok');
    expect(errOf(transition(activeCard(), { type: 'changePlan', plan: { ...MONTHLY, id: 6, apns: ['cmiot', 'lynx.apn', 'x'] } }, NOW)))
      .toBe(ErrorCode.CardPlanApnMismatch);
  });

  it('changing to the plan the card already has is refused', () => {
    expect(errOf(transition(activeCard(), { type: 'changePlan', plan: MONTHLY }, NOW))).toBe(ErrorCode.CardPlanChangeSamePlan);
  });
});

describe('renewal and event packs', () => {
  it('renewal adds periods to an active card', () => {
    const r = okOf(transition(activeCard(), { type: 'renew', periods: 2 }, NOW));
    expect(r.effects).toContainEqual({ kind: 'contractExtended', months: 6, endsAt: cst('2026-10-01 00:00'), auto: false });
    expect(history(r.effects).map((h) => h.action)).toEqual([CardActionKind.Renewed]);
  });

  it('renewal is refused while a plan change or a price change is pending', () => {
    const pendingPlan = okOf(transition(activeCard(), { type: 'changePlan', plan: MONTHLY_B }, NOW)).next;
    expect(errOf(transition(pendingPlan, { type: 'renew' }, NOW))).toBe(ErrorCode.CardRenewalChangePending);
    expect(errOf(transition(activeCard({ pendingPriceChange: true }), { type: 'renew' }, NOW))).toBe(ErrorCode.CardRenewalChangePending);
    expect(errorMessage(ErrorCode.CardRenewalChangePending, 'en')).toBe(
      'Renewal is not possible after a plan change or while a price change is pending');
  });

  it('renewal without a valid period and invalid period counts are refused', () => {
    expect(errOf(transition(card(), { type: 'renew' }, NOW))).toBe(ErrorCode.CardNoValidPeriod);
    expect(errOf(transition(activeCard(), { type: 'renew', periods: 0 }, NOW))).toBe(ErrorCode.BadRequest);
  });

  it('an event pack ends with the base cycle', () => {
    const r = okOf(transition(activeCard(), { type: 'orderEventPack', packId: 9 }, NOW));
    expect(r.effects[0]).toEqual({ kind: 'eventPackAdded', packId: 9, startsAt: NOW, endsAt: cst('2026-03-01 00:00') });
    expect(errOf(transition(card(), { type: 'orderEventPack', packId: 9 }, NOW))).toBe(ErrorCode.CardNoValidPeriod);
  });
});

describe('zones, deactivation, freeze, network reset', () => {
  it('deactivating blocks all zones at once; reactivation restores them', () => {
    const off = okOf(transition(activeCard(), { type: 'deactivate' }, NOW));
    expect(off.effects).toContainEqual({ kind: 'blockAllZones', at: NOW });
    const on = okOf(transition(off.next, { type: 'activate' }, cst('2026-02-11 00:00')));
    expect(on.effects).toContainEqual({ kind: 'restoreZones', at: cst('2026-02-11 00:00') });
    // still inside the valid period: the same contract continues
    expect(on.next.contractStartAt).toEqual(cst('2026-01-15 10:00'));
    expect(on.effects.some((e) => e.kind === 'cycleStarted')).toBe(false);
  });

  it('block and permit reach the operator; permit and release are refused for deactivated cards with the spec text', () => {
    const blocked = okOf(transition(activeCard(), { type: 'block', target: { kind: 'region', id: 2 } }, NOW));
    expect(blocked.effects[0]).toEqual({ kind: 'gatewayZone', op: 'block', target: { kind: 'region', id: 2 } });
    const dead = activeCard({ state: CardState.Deactivated });
    expect(errOf(transition(dead, { type: 'block', target: { kind: 'zone', id: 1 } }, NOW))).toBe('ok');
    const permit = transition(dead, { type: 'permit', target: { kind: 'zone', id: 1 } }, NOW);
    expect(errOf(permit)).toBe(ErrorCode.CardPermitDeactivated);
    expect(errorMessage(ErrorCode.CardPermitDeactivated, 'en')).toBe('The deactivated state does not support permit');
    expect(errOf(transition(dead, { type: 'releaseZone', zoneId: 1 }, NOW))).toBe(ErrorCode.CardZoneReleaseDeactivated);
  });

  it('unfreezing restores the state before the forced shutdown', () => {
    for (const from of [CardState.Test, CardState.ActivationReady, CardState.Inventory, CardState.Activated, CardState.Deactivated]) {
      const frozen = okOf(transition(activeCard({ state: from }), { type: 'freeze' }, NOW));
      expect(frozen.to).toBe(CardState.Frozen);
      expect(frozen.next.frozenFrom).toBe(from);
      const back = okOf(transition(frozen.next, { type: 'unfreeze' }, NOW));
      expect(back.to).toBe(from);
      expect(back.next.frozenFrom).toBeNull();
      expect(back.effects.some((e) => e.kind === 'blockAllZones' || e.kind === 'cycleStarted')).toBe(false);
    }
    // unknown previous state: back to deactivated, never straight to service
    expect(okOf(transition(card({ state: CardState.Frozen }), { type: 'unfreeze' }, NOW)).to).toBe(CardState.Deactivated);
  });

  it('a frozen card is not moved by the scheduler', () => {
    const c = activeCard({ state: CardState.Frozen, frozenFrom: CardState.Activated });
    expect(okOf(transition(c, { type: 'tick' }, cst('2027-01-01 00:00'))).effects).toEqual([]);
    expect(nextDeadline(c)).toBeNull();
  });

  it('network reset not more often than every 3 minutes', () => {
    const r = okOf(transition(activeCard(), { type: 'networkReset' }, NOW));
    expect(r.effects).toEqual([{ kind: 'gatewayNetworkReset' }]);
    const soon = transition(r.next, { type: 'networkReset' }, new Date(NOW.getTime() + 179_999));
    expect(errOf(soon)).toBe(ErrorCode.CardNetworkResetTooSoon);
    expect(errOf(transition(r.next, { type: 'networkReset' }, new Date(NOW.getTime() + 180_000)))).toBe('ok');
  });

  it('spec texts of QR, start state and diagnosis refusals', () => {
    expect(errorMessage(ErrorCode.CardQrNotDownloadable, 'en')).toContain('invalidated, retired or frozen');
    expect(errorMessage(ErrorCode.CardStandardNoDiagnosis, 'zh')).toBe('标准版卡不支持诊断');
    expect(errorMessage(ErrorCode.CardStartStateUnsupported, 'en')).toBe('Cards in start state are not supported');
  });
});

describe('China-time calendar helpers', () => {
  it('month and day boundaries are in UTC+8 whatever the host zone', () => {
    expect(startOfNextBusinessDay(new Date('2026-01-31T16:00:00Z'))).toEqual(new Date('2026-02-01T16:00:00Z'));
    expect(startOfNextBusinessDay(new Date('2026-01-31T15:59:59Z'))).toEqual(new Date('2026-01-31T16:00:00Z'));
    expect(startOfBusinessMonth(cst('2026-12-15 10:00'), 1)).toEqual(cst('2027-01-01 00:00'));
    expect(sameBusinessMonth(new Date('2026-02-28T15:59:59Z'), cst('2026-02-01 00:00'))).toBe(true);
    expect(sameBusinessMonth(new Date('2026-02-28T16:00:00Z'), cst('2026-02-01 00:00'))).toBe(false);
  });

  it('adding months clamps to the month end, including leap years', () => {
    expect(addBusinessMonths(cst('2028-01-31 08:00'), 1)).toEqual(cst('2028-02-29 08:00'));
    expect(addBusinessMonths(cst('2027-01-31 08:00'), 1)).toEqual(cst('2027-02-28 08:00'));
    expect(addBusinessMonths(cst('2028-02-29 08:00'), 12)).toEqual(cst('2029-02-28 08:00'));
    expect(addBusinessMonths(cst('2026-11-30 23:59'), 3)).toEqual(cst('2027-02-28 23:59'));
  });
});
