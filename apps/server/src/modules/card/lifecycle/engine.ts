// The card lifecycle engine (spec §4): the ONLY code that decides a card's state change. Pure: no database, no
// HTTP, no clock. The card service loads a CardSnapshot, calls transition(), persists `next`, and carries out
// the effects in order (history rows, operator gateway calls, zone blocks) in the same transaction.
// Design note: docs/card-lifecycle.md.
import { CardActionKind, CardState, ErrorCode, PlanRenewalMode, PROFESSIONAL_CARD_STATES } from '@lynx/contract';
import { addBusinessMonths, addDays, isMonthlyGoods, startOfBusinessMonth, startOfNextBusinessDay } from './time.ts';
import {
  ACTION_KIND, contractEndsAt, cycleEndsAt, fail, hasValidPeriod, MAX_TICK_STEPS,
  type CardAction, type CardPlan, type CardSnapshot, type Effect, type PendingPlanChange, type StateActionType, type TransitionResult,
  type ZoneTarget,
} from './model.ts';
import { gate } from './gate.ts';

export * from './model.ts';
export * from './gate.ts';

class Run {
  card: CardSnapshot;
  readonly effects: Effect[] = [];
  constructor(card: CardSnapshot) {
    this.card = { ...card };
  }

  setState(to: number, action: number, at: Date, extra?: { planId?: number }): void {
    const from = this.card.state;
    this.card.state = to;
    this.effects.push({ kind: 'history', action, from, to, at, ...extra });
    this.effects.push({ kind: 'gatewayStatus', state: to, at });
  }

  /** Applies a pending plan change now: the new plan's contract starts at the next activation (or now, if active). */
  applyPlan(change: PendingPlanChange, at: Date): void {
    const from = this.card.state;
    this.card.plan = change.plan;
    this.card.pendingPlanChange = null;
    this.card.contractStartAt = null;
    this.card.contractMonths = 0;
    this.card.cyclesUsed = 0;
    this.effects.push({ kind: 'history', action: CardActionKind.PlanChanged, from, to: from, at, planId: change.plan.id });
    this.effects.push({ kind: 'gatewayPlan', planId: change.plan.id, at });
    if (from === CardState.Activated) this.startContract(at);
  }

  startContract(at: Date): void {
    const plan = this.card.plan;
    if (!plan) return;
    this.card.contractStartAt = at;
    this.card.contractMonths = Math.max(1, plan.durationMonths);
    this.card.cyclesUsed = 1;
    this.effects.push({ kind: 'cycleStarted', start: at, end: cycleEndsAt(this.card)!, index: 1 });
  }

  /** Rolls the current cycle forward so that it contains `at` (reactivation inside a valid period). */
  rollTo(at: Date): void {
    const end = contractEndsAt(this.card);
    let cur = cycleEndsAt(this.card);
    while (cur && end && cur <= at && cur < end) {
      this.card.cyclesUsed++;
      const next = cycleEndsAt(this.card)!;
      this.effects.push({ kind: 'cycleStarted', start: cur, end: next, index: this.card.cyclesUsed });
      cur = next;
    }
  }

  enter(to: number, action: number, at: Date): void {
    const from = this.card.state;
    if (to === CardState.Frozen) this.card.frozenFrom = from;
    if (from === CardState.Frozen) this.card.frozenFrom = null;
    if (to !== CardState.Test) this.card.testEndsAt = null;
    if (to !== CardState.Inventory) this.card.silentEndsAt = null;
    const plan = this.card.plan;
    if (to === CardState.Test) {
      this.card.testEndsAt = plan?.testValidityDays
        ? addDays(at, plan.testValidityDays)
        : plan && plan.testPeriodMonths > 0 ? addBusinessMonths(at, plan.testPeriodMonths) : null;
    }
    // The silent period follows the test period; a card put into stock by hand with no silent period waits there.
    if (to === CardState.Inventory) {
      this.card.silentEndsAt = plan && (plan.silentPeriodMonths > 0 || from === CardState.Test) ? addBusinessMonths(at, plan.silentPeriodMonths) : null;
    }
    if (to === CardState.Activated && from !== CardState.Frozen) {
      const pending = this.card.pendingPlanChange;
      if (pending && (pending.onActivation || (pending.effectiveAt && pending.effectiveAt <= at))) {
        this.card.pendingPlanChange = null;
        this.card.plan = pending.plan;
        this.card.contractStartAt = null;
        this.effects.push({ kind: 'history', action: CardActionKind.PlanChanged, from, to: from, at, planId: pending.plan.id });
        this.effects.push({ kind: 'gatewayPlan', planId: pending.plan.id, at });
      }
      if (!this.card.activatedAt) this.card.activatedAt = at;
      this.setState(to, action, at);
      if (hasValidPeriod(this.card, at)) this.rollTo(at);
      else this.startContract(at);
      if (from === CardState.Deactivated) this.effects.push({ kind: 'restoreZones', at });
      return;
    }
    this.setState(to, action, at);
    if (to === CardState.Deactivated && from !== CardState.Frozen) this.effects.push({ kind: 'blockAllZones', at });
    if ((to === CardState.Invalidated || to === CardState.Retired) && this.card.pendingPlanChange) {
      this.effects.push({ kind: 'planChangeCancelled', planId: this.card.pendingPlanChange.plan.id });
      this.card.pendingPlanChange = null;
    }
  }

  /** Earliest due time-driven event at or before `now`, or null. */
  nextDue(now: Date): { at: Date; run: () => void } | null {
    const c = this.card;
    const cands: { at: Date; order: number; run: () => void }[] = [];
    const pending = c.pendingPlanChange;
    const pendingAt = pendingPlanDueAt(c);
    if (pending && pendingAt && pendingAt <= now) cands.push({ at: pendingAt, order: 0, run: () => this.applyPlan(pending, pendingAt) });
    if (c.state === CardState.Test && c.testEndsAt && c.testEndsAt <= now) {
      const at = c.testEndsAt;
      cands.push({ at, order: 1, run: () => this.enter(CardState.Inventory, CardActionKind.TestExpired, at) });
    }
    if (c.state === CardState.Inventory && c.silentEndsAt && c.silentEndsAt <= now) {
      const at = c.silentEndsAt;
      cands.push({ at, order: 1, run: () => this.enter(CardState.Activated, CardActionKind.SilentExpired, at) });
    }
    const cycleEnd = c.state === CardState.Activated ? cycleEndsAt(c) : null;
    if (cycleEnd && cycleEnd <= now) cands.push({ at: cycleEnd, order: 1, run: () => this.cycleEnd(cycleEnd) });
    if (cands.length === 0) return null;
    cands.sort((a, b) => a.at.getTime() - b.at.getTime() || a.order - b.order);
    return cands[0];
  }

  /** The current base cycle of an active card ends at `at`. */
  cycleEnd(at: Date): void {
    const c = this.card;
    const end = contractEndsAt(c)!;
    if (at.getTime() >= end.getTime()) {
      if (c.renewalMode === PlanRenewalMode.AutoRenew && c.plan) {
        this.extend(1, true, at);
      } else {
        this.enter(CardState.Deactivated, CardActionKind.ContractEnded, at);
        return;
      }
    }
    c.cyclesUsed++;
    this.effects.push({ kind: 'cycleStarted', start: at, end: cycleEndsAt(c)!, index: c.cyclesUsed });
  }

  extend(periods: number, auto: boolean, at: Date): void {
    const c = this.card;
    const months = Math.max(1, c.plan!.durationMonths) * periods;
    c.contractMonths += months;
    const endsAt = contractEndsAt(c)!;
    this.effects.push({ kind: 'contractExtended', months, endsAt, auto });
    const s = c.state;
    this.effects.push({ kind: 'history', action: auto ? CardActionKind.ContractRenewed : CardActionKind.Renewed, from: s, to: s, at });
  }
}

function ok(run: Run): TransitionResult {
  return { ok: true, to: run.card.state, next: run.card, effects: run.effects };
}

/** A manual state change the gate allowed: enter the target state. */
function stateAction(card: CardSnapshot, action: StateActionType, to: number, now: Date): TransitionResult {
  const run = new Run(card);
  run.enter(to, ACTION_KIND[action], now);
  return ok(run);
}

function tick(card: CardSnapshot, now: Date): TransitionResult {
  const run = new Run(card);
  for (let i = 0; i < MAX_TICK_STEPS; i++) {
    const due = run.nextDue(now);
    if (!due) break;
    due.run();
  }
  return ok(run);
}

const apnKey = (apns: readonly string[]) => [...new Set(apns.map((a) => a.trim().toLowerCase()))].sort().join('\n');

function changePlan(card: CardSnapshot, plan: CardPlan, now: Date): TransitionResult {
  const s = card.state;
  if (card.plan?.id === plan.id) return fail(ErrorCode.CardPlanChangeSamePlan);
  if (card.plan && apnKey(card.plan.apns) !== apnKey(plan.apns)) return fail(ErrorCode.CardPlanApnMismatch);
  let effectiveAt: Date | null;
  let onActivation = false;
  const cycleEnd = cycleEndsAt(card);
  const byGoods = () => (isMonthlyGoods(plan.goodsType) ? startOfBusinessMonth(now, 1) : startOfNextBusinessDay(now));
  if (s === CardState.Activated) {
    effectiveAt = cycleEnd && cycleEnd > now ? cycleEnd : byGoods();
  } else if (s === CardState.Deactivated) {
    if (hasValidPeriod(card, now)) {
      effectiveAt = contractEndsAt(card);
    } else {
      effectiveAt = byGoods();
      onActivation = true;
    }
  } else {
    // Test, activation ready, inventory: the card starts its contract on the new plan when it is activated.
    effectiveAt = null;
    onActivation = true;
  }
  const run = new Run(card);
  if (card.pendingPlanChange) run.effects.push({ kind: 'planChangeCancelled', planId: card.pendingPlanChange.plan.id });
  run.card.pendingPlanChange = { plan, requestedAt: now, effectiveAt, onActivation };
  run.card.lastPlanChangeAt = now;
  run.effects.push({ kind: 'planChangeScheduled', planId: plan.id, effectiveAt, onActivation });
  run.effects.push({ kind: 'history', action: CardActionKind.PlanChangeScheduled, from: s, to: s, at: now, planId: plan.id });
  return ok(run);
}

function renew(card: CardSnapshot, periods: number, now: Date): TransitionResult {
  if (!Number.isInteger(periods) || periods < 1) return fail(ErrorCode.BadRequest, { detail: 'periods' });
  const run = new Run(card);
  run.extend(periods, false, now);
  return ok(run);
}

function orderEventPack(card: CardSnapshot, packId: number, now: Date): TransitionResult {
  const endsAt = cycleEndsAt(card)!;
  const run = new Run(card);
  run.effects.push({ kind: 'eventPackAdded', packId, startsAt: now, endsAt });
  run.effects.push({ kind: 'history', action: CardActionKind.EventPackOrdered, from: card.state, to: card.state, at: now });
  return ok(run);
}

function zoneAction(card: CardSnapshot, op: 'block' | 'permit' | 'release', target: ZoneTarget, now: Date): TransitionResult {
  const s = card.state;
  const run = new Run(card);
  const action = op === 'block' ? CardActionKind.ZoneBlocked : op === 'permit' ? CardActionKind.ZonePermitted : CardActionKind.ZoneReleased;
  run.effects.push({ kind: 'gatewayZone', op, target });
  run.effects.push({ kind: 'history', action, from: s, to: s, at: now });
  return ok(run);
}

/**
 * Decides what `action` does to `card` at `now`. Refusals carry the spec's message code: whether the card allows the
 * action at all is `gate()` (the same rule the card detail offers from), then what the request itself asks for;
 * success returns the new snapshot and the effects to carry out in order. `tick` applies every time-driven change
 * due by `now`, in time order, so a tick long after several deadlines catches up exactly as if it had run on time.
 */
export function transition(card: CardSnapshot, action: CardAction, now: Date): TransitionResult {
  if (action.type === 'tick') return tick(card, now);
  const allowed = gate(card, action.type, now);
  if (!allowed.ok) return allowed;
  switch (action.type) {
    case 'changePlan':
      return changePlan(card, action.plan, now);
    case 'renew':
      return renew(card, action.periods ?? 1, now);
    case 'orderEventPack':
      return orderEventPack(card, action.packId, now);
    case 'block':
      return zoneAction(card, 'block', action.target, now);
    case 'permit':
      return zoneAction(card, 'permit', action.target, now);
    case 'releaseZone':
      return zoneAction(card, 'release', { kind: 'zone', id: action.zoneId }, now);
    case 'downloadQr':
    case 'diagnose':
      return { ok: true, to: card.state, next: card, effects: [] };
    case 'networkReset': {
      const run = new Run(card);
      run.card.lastNetworkResetAt = now;
      run.effects.push({ kind: 'gatewayNetworkReset' });
      return ok(run);
    }
    default:
      return stateAction(card, action.type, allowed.to!, now);
  }
}

/** When the scheduler applies the pending plan change, or null. A card deactivated while a change was waiting
 * keeps its plan until its valid period ends (spec §4: "with a valid period, after that period ends"). */
export function pendingPlanDueAt(card: CardSnapshot): Date | null {
  const p = card.pendingPlanChange;
  if (!p?.effectiveAt || !PROFESSIONAL_CARD_STATES.includes(card.state)) return null;
  if (card.state === CardState.Deactivated) {
    const end = contractEndsAt(card);
    if (end && end > p.effectiveAt) return end;
  }
  return p.effectiveAt;
}

/** Next time a tick would change this card (for the scheduler's due index), or null. */
export function nextDeadline(card: CardSnapshot): Date | null {
  const times: Date[] = [];
  const pendingAt = pendingPlanDueAt(card);
  if (pendingAt) times.push(pendingAt);
  if (card.state === CardState.Test && card.testEndsAt) times.push(card.testEndsAt);
  if (card.state === CardState.Inventory && card.silentEndsAt) times.push(card.silentEndsAt);
  const ce = card.state === CardState.Activated ? cycleEndsAt(card) : null;
  if (ce) times.push(ce);
  if (times.length === 0) return null;
  return new Date(Math.min(...times.map((t) => t.getTime())));
}
