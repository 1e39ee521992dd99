// The state rules of a stock item (spec §4 "Stock"; docs/stock.md): which operation an item may undergo, as a pure
// verdict shared by validation (nothing changes) and the job (checked again on the locked row).
import { CardState, ErrorCode, StockMatchState, StockOutState, StockOpType, carddata } from '@lynx/contract';

export interface ItemState {
  matchState: number;
  outState: number;
  imsi: string | null;
  msisdn: string | null;
}

/** The card row of a stock item's ICCID, when one exists. */
export interface CardOf {
  state: number;
  custId: number | null;
}

export interface Refusal {
  code: ErrorCode;
  /** parameters that differ by language (state labels) */
  zh?: Record<string, string>;
  en?: Record<string, string>;
}

const states = (item: ItemState, lang: 'zh' | 'en') => ({
  state: StockMatchState.label(item.matchState, lang),
  match: StockMatchState.label(item.matchState, lang),
  out: StockOutState.label(item.outState, lang),
});
const refuse = (code: ErrorCode, item?: ItemState): Refusal => (item ? { code, zh: states(item, 'zh'), en: states(item, 'en') } : { code });

/** A received row: the three codes' formats (ICCID required; IMSI and MSISDN may come later, before matching). */
export function inRowRefusal(row: { iccid: string; imsi?: string | null; msisdn?: string | null }): Refusal | null {
  if (!carddata.ICCID_RE.test(row.iccid)) return refuse(ErrorCode.StockIccidInvalid);
  if (row.imsi && !carddata.IMSI_RE.test(row.imsi)) return refuse(ErrorCode.StockImsiInvalid);
  if (row.msisdn && !carddata.MSISDN_RE.test(row.msisdn)) return refuse(ErrorCode.StockMsisdnInvalid);
  return null;
}

/**
 * Match: a stock item not matched, with its IMSI and MSISDN, whose ICCID is no card yet, becomes a card in the
 * platform stock. Out: a matched item not out (nor outgoing) is picked for a customer; it is out once its card is
 * allocated. Scrap: an item not out and not being matched; a matched one only while its card is still unallocated
 * in the start state (the card row is then removed with it).
 */
export function opRefusal(type: number, item: ItemState | null, card: CardOf | null): Refusal | null {
  if (!item) return refuse(ErrorCode.StockItemNotFound);
  switch (type) {
    case StockOpType.Match:
      if (item.matchState !== StockMatchState.NotMatched) return refuse(ErrorCode.StockNotMatchable, item);
      if (!item.imsi || !item.msisdn) return refuse(ErrorCode.StockCodesIncomplete);
      if (card) return refuse(ErrorCode.StockCardExists);
      return null;
    case StockOpType.Out:
      if (item.matchState !== StockMatchState.Matched || item.outState !== StockOutState.NotOut) return refuse(ErrorCode.StockNotOutable, item);
      return null;
    case StockOpType.Scrap:
      if (item.outState !== StockOutState.NotOut || item.matchState === StockMatchState.Matching || item.matchState === StockMatchState.Scrapped) {
        return refuse(ErrorCode.StockNotScrappable, item);
      }
      if (item.matchState === StockMatchState.Matched && (!card || card.custId !== null || card.state !== CardState.Start)) return refuse(ErrorCode.StockCardInUse);
      return null;
    default:
      return null;
  }
}
