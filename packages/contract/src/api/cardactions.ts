import { Type, type Static } from '@sinclair/typebox';
import { endpoint, Obj } from './endpoint.ts';
import { CARD_STATE_ACTIONS, type CardStateAction } from './carddata.ts';
import { CardDetailPerm } from './carddetail.ts';
import { DiagnosePerm } from './diagnose.ts';

/*
 * What the card detail offers now (issue 12): for every action of the page, whether the card's state allows it,
 * and if not, why, in the words the server refuses it with (spec §4 and §8). The server answers both this list and
 * the refusal of the action itself from one rule of the lifecycle engine, so what the console disables is exactly
 * what the server refuses. Whether the user may do an action at all is their button code (CARD_ACTION_PERM): the
 * console hides what the user lacks, the server refuses it.
 */

const tag = 'card';

/** The actions of the card detail: the state changes of "change status", then the card's other actions. */
export const CARD_DETAIL_ACTIONS = [
  ...CARD_STATE_ACTIONS, 'renew', 'changePlan', 'orderEventPack', 'block', 'permit', 'sendSms', 'networkReset', 'downloadQr', 'diagnose',
] as const;
export type CardDetailAction = (typeof CARD_DETAIL_ACTIONS)[number];

/** The button code each action needs (spec §6): without it the console does not show the action. */
export const CARD_ACTION_PERM: Readonly<Record<CardDetailAction, number>> = {
  ...(Object.fromEntries(CARD_STATE_ACTIONS.map((a) => [a, CardDetailPerm.ChangeStatus])) as Record<CardStateAction, number>),
  renew: CardDetailPerm.Renew,
  changePlan: CardDetailPerm.ChangePlan,
  orderEventPack: CardDetailPerm.OrderPack,
  block: CardDetailPerm.Edit,
  permit: CardDetailPerm.Edit,
  sendSms: CardDetailPerm.SendSms,
  networkReset: DiagnosePerm.Advanced,
  downloadQr: CardDetailPerm.CardList,
  diagnose: DiagnosePerm.Page,
};

/**
 * allowed: the card's state allows it now. disabled: not now, with the reason (the console shows it on the
 * disabled button). hidden: it does not apply to this card at all (renewal, plan change and event packs of a card
 * without a plan); the console does not offer it, and the server refuses it with the reason given.
 */
export const CARD_ACTION_OFFERS = ['allowed', 'disabled', 'hidden'] as const;
export type CardActionOfferKind = (typeof CARD_ACTION_OFFERS)[number];

export const CardActionOffer = Type.Object({
  action: Type.Union(CARD_DETAIL_ACTIONS.map((a) => Type.Literal(a))),
  offer: Type.Union(CARD_ACTION_OFFERS.map((o) => Type.Literal(o))),
  /** the error code the server refuses the action with now; null when allowed */
  reasonCode: Type.Union([Type.Integer(), Type.Null()]),
  /** that refusal's message in both languages (the spec's §8 text where it has one) */
  reason: Type.Union([Type.Object({ zh: Type.String(), en: Type.String() }), Type.Null()]),
  /** when a refused action becomes possible again by itself (a network reset 3 minutes after the last); else null */
  availableAt: Type.Union([Type.String(), Type.Null()]),
});

export const getCardActions = endpoint({
  name: 'core/sim/simDetails/getActions', method: 'POST', auth: 'session', perm: [CardDetailPerm.CardList], kind: 'query', tag,
  summary: {
    zh: '卡详情可做的操作：每个操作现在是否允许，不允许时给出与服务端拒绝相同的原因（中英文）',
    en: 'What the card detail offers now: for each action whether it is allowed, and if not the reason the server refuses it with (zh/en)',
  },
  body: Obj({ iccid: Type.String({ pattern: '^[0-9]{19,20}$' }) }),
  response: Type.Array(CardActionOffer),
});

export type CardActionOfferOut = Static<typeof CardActionOffer>;
