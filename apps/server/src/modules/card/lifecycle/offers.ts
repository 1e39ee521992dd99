// What the card detail offers now (issue 12): the engine's gate for each action of the page, plus the two facts of
// the card the detail's own actions depend on (a plan for renewal, plan change and event packs; an MSISDN and an
// operator access configuration for SMS). The detail endpoints refuse with exactly this (requireOffer), so the
// console's disabled buttons and the server's refusals cannot drift apart. Pure.
import { ErrorCode, cardactions, errorMessage, type Bilingual } from '@lynx/contract';
import { gate } from './gate.ts';
import type { CardSnapshot, Refusal } from './model.ts';

export type CardDetailAction = cardactions.CardDetailAction;

/** What the detail knows of the card beyond its lifecycle snapshot. */
export interface OfferFacts {
  hasMsisdn: boolean;
  /** the card operator has an access configuration with an installed gateway (SMS goes through it) */
  hasSmsGateway: boolean;
}

export type Offer =
  | { action: CardDetailAction; offer: 'allowed' }
  | { action: CardDetailAction; offer: 'disabled' | 'hidden'; refusal: Refusal };

/** Actions that only make sense for a card with a plan: not offered at all without one (issue 12). */
const NEEDS_PLAN: ReadonlySet<CardDetailAction> = new Set(['renew', 'changePlan', 'orderEventPack']);

const refused = (error: ErrorCode): Refusal => ({ ok: false, error });

/** The offer of one action for a card at `now`. */
export function offerOf(card: CardSnapshot, action: CardDetailAction, now: Date, facts: OfferFacts): Offer {
  if (NEEDS_PLAN.has(action) && !card.plan) return { action, offer: 'hidden', refusal: refused(ErrorCode.CardHasNoPlan) };
  const g = gate(card, action, now);
  if (!g.ok) return { action, offer: 'disabled', refusal: g };
  if (action === 'sendSms') {
    if (!facts.hasMsisdn) return { action, offer: 'disabled', refusal: refused(ErrorCode.SmsNoMsisdn) };
    if (!facts.hasSmsGateway) return { action, offer: 'disabled', refusal: refused(ErrorCode.SmsNoGateway) };
  }
  return { action, offer: 'allowed' };
}

/** Every action of the card detail, in the page's order. */
export function cardActionOffers(card: CardSnapshot, now: Date, facts: OfferFacts): Offer[] {
  return cardactions.CARD_DETAIL_ACTIONS.map((action) => offerOf(card, action, now, facts));
}

/** An offer as the contract carries it: the reason in both languages, when it comes back by itself. */
export function offerOut(o: Offer): cardactions.CardActionOfferOut {
  if (o.offer === 'allowed') return { action: o.action, offer: 'allowed', reasonCode: null, reason: null, availableAt: null };
  const { error, params, availableAt } = o.refusal;
  const reason: Bilingual = { zh: errorMessage(error, 'zh', params), en: errorMessage(error, 'en', params) };
  return { action: o.action, offer: o.offer, reasonCode: error, reason, availableAt: availableAt?.toISOString() ?? null };
}
