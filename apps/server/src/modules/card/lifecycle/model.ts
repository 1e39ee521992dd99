// Types, transition table and contract arithmetic of the card lifecycle engine (see lifecycle.ts). Pure.
import { CardActionKind, CardState, ErrorCode, PlanOperationMode, PROFESSIONAL_CARD_STATES } from '@lynx/contract';
import { contractEndOf, cycleBoundary, type CycleRule } from './time.ts';

/** The basic plan facts the engine needs (from the plan tables). */
export interface CardPlan extends CycleRule {
  id: number;
  /** APN names of the plan; a plan change is only allowed to a plan with the same set. */
  apns: readonly string[];
  testValidityDays: number | null;
  testPeriodMonths: number;
  silentPeriodMonths: number;
}

export interface PendingPlanChange {
  plan: CardPlan;
  requestedAt: Date;
  /** When the scheduler applies it; null = only on the next activation. */
  effectiveAt: Date | null;
  /** Applied at once when the card is activated before effectiveAt. */
  onActivation: boolean;
}

export interface CardSnapshot {
  state: number;
  operationMode: number;
  renewalMode: number;
  plan: CardPlan | null;
  testEndsAt: Date | null;
  silentEndsAt: Date | null;
  /** First activation; kept once set. */
  activatedAt: Date | null;
  /** Start of the current contract (valid period); null = no contract yet or it was reset by a plan change. */
  contractStartAt: Date | null;
  /** Length of the contract in months, renewals included. */
  contractMonths: number;
  /** Cycles begun in this contract (the current one included). */
  cyclesUsed: number;
  pendingPlanChange: PendingPlanChange | null;
  /** A price change of the card's plan is waiting to take effect. */
  pendingPriceChange: boolean;
  /** When the last plan change was requested (one per calendar month). */
  lastPlanChangeAt: Date | null;
  /** State the card had before a forced shutdown. */
  frozenFrom: number | null;
  lastNetworkResetAt: Date | null;
}

export type StateActionType =
  | 'activate' | 'deactivate' | 'startTest' | 'endTest' | 'toActivationReady' | 'toInventory'
  | 'invalidate' | 'retire' | 'freeze' | 'unfreeze';
export const STATE_ACTIONS: readonly StateActionType[] = [
  'activate', 'deactivate', 'startTest', 'endTest', 'toActivationReady', 'toInventory', 'invalidate', 'retire', 'freeze', 'unfreeze',
];

export interface ZoneTarget {
  kind: 'zone' | 'region' | 'network';
  id: number;
}

export type CardAction =
  | { type: StateActionType }
  | { type: 'tick' }
  | { type: 'changePlan'; plan: CardPlan }
  | { type: 'renew'; periods?: number }
  | { type: 'orderEventPack'; packId: number }
  | { type: 'block'; target: ZoneTarget }
  | { type: 'permit'; target: ZoneTarget }
  | { type: 'releaseZone'; zoneId: number }
  | { type: 'downloadQr' }
  | { type: 'diagnose' }
  | { type: 'networkReset' };

/** What the caller must do, in order. */
export type Effect =
  | { kind: 'history'; action: number; from: number; to: number; at: Date; planId?: number }
  | { kind: 'gatewayStatus'; state: number; at: Date }
  | { kind: 'gatewayPlan'; planId: number; at: Date }
  | { kind: 'gatewayZone'; op: 'block' | 'permit' | 'release'; target: ZoneTarget }
  | { kind: 'gatewayNetworkReset' }
  /** Block every zone of the card (deactivation); remember they were blocked by deactivation. */
  | { kind: 'blockAllZones'; at: Date }
  /** Permit again the zones blocked by the last deactivation (reactivation). */
  | { kind: 'restoreZones'; at: Date }
  | { kind: 'planChangeScheduled'; planId: number; effectiveAt: Date | null; onActivation: boolean }
  | { kind: 'planChangeCancelled'; planId: number }
  | { kind: 'cycleStarted'; start: Date; end: Date; index: number }
  | { kind: 'contractExtended'; months: number; endsAt: Date; auto: boolean }
  | { kind: 'eventPackAdded'; packId: number; startsAt: Date; endsAt: Date };

/** Why an action cannot run: the spec's message code, its parameters, and when it can run again by itself (if it will). */
export type Refusal = { ok: false; error: ErrorCode; params?: Record<string, string | number>; availableAt?: Date };

export type TransitionResult =
  | { ok: true; to: number; next: CardSnapshot; effects: Effect[] }
  | Refusal;

/** Legal manual state changes of the standard version: from → action → to ('restore' = back to frozenFrom). */
export const TRANSITIONS: Readonly<Record<number, Partial<Record<StateActionType, number | 'restore'>>>> = {
  [CardState.Start]: {
    startTest: CardState.Test, toActivationReady: CardState.ActivationReady, toInventory: CardState.Inventory,
    activate: CardState.Activated, invalidate: CardState.Invalidated,
  },
  [CardState.Test]: {
    endTest: CardState.Inventory, toInventory: CardState.Inventory, toActivationReady: CardState.ActivationReady,
    activate: CardState.Activated, deactivate: CardState.Deactivated, invalidate: CardState.Invalidated, freeze: CardState.Frozen,
  },
  [CardState.ActivationReady]: {
    startTest: CardState.Test, toInventory: CardState.Inventory, activate: CardState.Activated,
    deactivate: CardState.Deactivated, invalidate: CardState.Invalidated, freeze: CardState.Frozen,
  },
  [CardState.Inventory]: {
    toActivationReady: CardState.ActivationReady, activate: CardState.Activated, deactivate: CardState.Deactivated,
    invalidate: CardState.Invalidated, freeze: CardState.Frozen,
  },
  [CardState.Activated]: { deactivate: CardState.Deactivated, freeze: CardState.Frozen },
  [CardState.Deactivated]: {
    activate: CardState.Activated, invalidate: CardState.Invalidated, retire: CardState.Retired, freeze: CardState.Frozen,
  },
  [CardState.Invalidated]: { retire: CardState.Retired },
  [CardState.Retired]: {},
  [CardState.Frozen]: { unfreeze: 'restore' },
};

/** The state an action aims at, used in messages; null when it depends on the card (unfreeze). */
export const ACTION_TARGET: Readonly<Record<StateActionType, number | null>> = {
  activate: CardState.Activated, deactivate: CardState.Deactivated, startTest: CardState.Test, endTest: CardState.Inventory,
  toActivationReady: CardState.ActivationReady, toInventory: CardState.Inventory, invalidate: CardState.Invalidated,
  retire: CardState.Retired, freeze: CardState.Frozen, unfreeze: null,
};

export const ACTION_KIND: Readonly<Record<StateActionType, number>> = {
  activate: CardActionKind.Activate, deactivate: CardActionKind.Deactivate, startTest: CardActionKind.StartTest,
  endTest: CardActionKind.EndTest, toActivationReady: CardActionKind.ToActivationReady, toInventory: CardActionKind.ToInventory,
  invalidate: CardActionKind.Invalidate, retire: CardActionKind.Retire, freeze: CardActionKind.Freeze, unfreeze: CardActionKind.Unfreeze,
};

/** Network reset at most once per this many milliseconds (spec §9). */
export const NETWORK_RESET_INTERVAL_MS = 3 * 60_000;
/** Safety bound of one catch-up tick. */
export const MAX_TICK_STEPS = 10_000;

export const isProfessional = (card: CardSnapshot) => card.operationMode === PlanOperationMode.Professional;

/** Message parameters naming a state in both languages (errorMessages use {xZh} / {xEn}). */
export function stateParams(prefix: string, state: number): Record<string, string> {
  return { [`${prefix}Zh`]: CardState.label(state, 'zh'), [`${prefix}En`]: CardState.label(state, 'en') };
}

export const fail = (error: ErrorCode, params?: Record<string, string | number>): Refusal => ({ ok: false, error, params });
export const unsupported = (state: number) =>
  state === CardState.Start ? fail(ErrorCode.CardStartStateUnsupported) : fail(ErrorCode.CardOperationUnsupported, stateParams('state', state));

/** Where a state action leads from `state` in the card's operation mode, or null when it is not legal. */
export function targetOf(state: number, action: StateActionType, operationMode: number, frozenFrom: number | null = null): number | null {
  const to = TRANSITIONS[state]?.[action];
  if (to === undefined) return null;
  const resolved = to === 'restore' ? (frozenFrom ?? CardState.Deactivated) : to;
  if (operationMode === PlanOperationMode.Professional) {
    // the five states, entered from the platform stock (start) too
    if ((state !== CardState.Start && !PROFESSIONAL_CARD_STATES.includes(state)) || !PROFESSIONAL_CARD_STATES.includes(resolved)) return null;
  }
  return resolved;
}

// ---- cycles and contract ------------------------------------------------------------------------------------

/** End of the valid period, or null without a contract. */
export function contractEndsAt(card: CardSnapshot): Date | null {
  if (!card.plan || !card.contractStartAt) return null;
  return contractEndOf(card.plan, card.contractStartAt, card.contractMonths);
}

/** End of the current base cycle (never after the contract end), or null without a contract. */
export function cycleEndsAt(card: CardSnapshot): Date | null {
  const end = contractEndsAt(card);
  if (!card.plan || !card.contractStartAt || !end) return null;
  const b = cycleBoundary(card.plan, card.contractStartAt, Math.max(1, card.cyclesUsed));
  return b < end ? b : end;
}

/** The card has a valid (paid, unexpired) period at `now`. */
export function hasValidPeriod(card: CardSnapshot, now: Date): boolean {
  const end = contractEndsAt(card);
  return end !== null && end > now;
}

/** Contract cycles total / used / remaining (spec §3, B-end). */
export function contractCycles(card: CardSnapshot): { total: number; used: number; remaining: number } {
  if (!card.plan || !card.contractStartAt) return { total: 0, used: 0, remaining: 0 };
  const end = contractEndOf(card.plan, card.contractStartAt, card.contractMonths);
  let total = 0;
  while (total < 100_000 && cycleBoundary(card.plan, card.contractStartAt, total) < end) total++;
  return { total, used: card.cyclesUsed, remaining: Math.max(0, total - card.cyclesUsed) };
}
