// When an action may run on a card (spec §4 and §8): the ONE rule behind every refusal of the lifecycle engine
// (transition() asks it before anything else) and behind what the card detail offers (offers.ts). Pure: no
// database, no clock. Design note: docs/card-lifecycle.md "Allowed now".
import { CardState, ErrorCode, PROFESSIONAL_CARD_STATES } from '@lynx/contract';
import { sameBusinessMonth } from './time.ts';
import {
  ACTION_TARGET, cycleEndsAt, fail, hasValidPeriod, isProfessional, NETWORK_RESET_INTERVAL_MS, stateParams, targetOf, unsupported,
  type CardSnapshot, type Refusal, type StateActionType,
} from './model.ts';

/** Every action whose precondition is the card's (state, plan, contract, last reset); `tick` has none. */
export type GatedAction =
  | StateActionType
  | 'changePlan' | 'renew' | 'orderEventPack' | 'block' | 'permit' | 'releaseZone' | 'downloadQr' | 'diagnose' | 'networkReset'
  /** SMS is not a lifecycle change, but only a card on the network can receive one */
  | 'sendSms';

/** Allowed now (`to`: where a state action leads), or the refusal. */
export type Gate = { ok: true; to?: number } | Refusal;

const OK: Gate = { ok: true };
const ON_NETWORK: readonly number[] = [CardState.Test, CardState.Activated];
const NO_QR: readonly number[] = [CardState.Invalidated, CardState.Retired, CardState.Frozen];

function stateGate(card: CardSnapshot, action: StateActionType): Gate {
  const from = card.state;
  // A professional card lives in the five states; it enters them from the platform stock (start) like any card.
  if (isProfessional(card) && from !== CardState.Start && !PROFESSIONAL_CARD_STATES.includes(from)) return unsupported(from);
  // Ending a test and lifting a forced shutdown only make sense for test and frozen cards.
  if ((action === 'endTest' && from !== CardState.Test) || (action === 'unfreeze' && from !== CardState.Frozen)) return unsupported(from);
  const to = targetOf(from, action, card.operationMode, card.frozenFrom);
  if (to === null) {
    const nominal = ACTION_TARGET[action];
    if (nominal === from) return fail(ErrorCode.CardAlreadyInState, stateParams('state', from));
    if (nominal === null) return unsupported(from);
    return fail(ErrorCode.CardIllegalTransition, { ...stateParams('from', from), ...stateParams('to', nominal) });
  }
  return { ok: true, to };
}

/**
 * Whether `action` may run on `card` at `now`, and if not, the spec's reason. Only what the card itself decides:
 * refusals that depend on what the caller asks for (the same plan again, another APN set, a zone not on the plan,
 * a number of periods) are the engine's and the services' after this.
 */
export function gate(card: CardSnapshot, action: GatedAction, now: Date): Gate {
  const s = card.state;
  switch (action) {
    case 'changePlan':
      if (s === CardState.Start) return fail(ErrorCode.CardStartStateUnsupported);
      if (!PROFESSIONAL_CARD_STATES.includes(s)) return unsupported(s);
      // one plan change per calendar month (the business time zone), whichever plan it was to
      if (card.lastPlanChangeAt && sameBusinessMonth(card.lastPlanChangeAt, now)) return fail(ErrorCode.CardPlanChangeMonthly);
      return OK;
    case 'renew':
      if (s === CardState.Start) return fail(ErrorCode.CardStartStateUnsupported);
      if (s !== CardState.Activated) return fail(ErrorCode.CardNotActiveForOrder);
      if (card.pendingPlanChange || card.pendingPriceChange) return fail(ErrorCode.CardRenewalChangePending);
      if (!card.plan || !hasValidPeriod(card, now)) return fail(ErrorCode.CardNoValidPeriod);
      return OK;
    case 'orderEventPack': {
      if (s === CardState.Start) return fail(ErrorCode.CardStartStateUnsupported);
      if (s !== CardState.Activated) return fail(ErrorCode.CardNotActiveForOrder);
      // an event pack ends with the base cycle: without a running cycle there is nothing to add it to
      const endsAt = cycleEndsAt(card);
      if (!endsAt || endsAt <= now) return fail(ErrorCode.CardNoValidPeriod);
      return OK;
    }
    case 'block':
    case 'permit':
    case 'releaseZone':
      if (!PROFESSIONAL_CARD_STATES.includes(s)) return unsupported(s);
      if (s === CardState.Deactivated && action === 'permit') return fail(ErrorCode.CardPermitDeactivated);
      if (s === CardState.Deactivated && action === 'releaseZone') return fail(ErrorCode.CardZoneReleaseDeactivated);
      return OK;
    case 'downloadQr':
      if (s === CardState.Start) return fail(ErrorCode.CardStartStateUnsupported);
      if (NO_QR.includes(s)) return fail(ErrorCode.CardQrNotDownloadable);
      return OK;
    case 'diagnose':
      // Every other card is diagnosed: a standard-version card gets the checks that need no professional network
      // (docs/diagnosis.md); a start-state card has nothing to diagnose yet.
      if (s === CardState.Start) return fail(ErrorCode.CardStartStateUnsupported);
      return OK;
    case 'networkReset': {
      if (!ON_NETWORK.includes(s)) return unsupported(s);
      const last = card.lastNetworkResetAt;
      if (last && now.getTime() - last.getTime() < NETWORK_RESET_INTERVAL_MS) {
        return { ...fail(ErrorCode.CardNetworkResetTooSoon), availableAt: new Date(last.getTime() + NETWORK_RESET_INTERVAL_MS) };
      }
      return OK;
    }
    case 'sendSms':
      if (!ON_NETWORK.includes(s)) return fail(ErrorCode.SmsCardNotReachable, stateParams('state', s));
      return OK;
    default:
      return stateGate(card, action);
  }
}
