// Prices on the plan and retail forms (pure, tested). The inputs run in string mode, so a price stays the text the
// user typed; it goes to the request as decimal text and is compared in fen (bigint), never as a JavaScript float.
import { moneyToFen, parseDecimal, toMoneyText } from '@lynx/contract';

/** What a price field holds: text from an input in string mode or from the server; a number only from old code. */
export type PriceValue = string | number | null | undefined;

/**
 * A price field's value as the request's decimal text ('12.5' → '12.50', 0 → '0.00'); null when the field is empty.
 * A value with more than two decimals goes out as a plain decimal, unrounded, so that the server refuses it with the
 * field's own message.
 */
export function priceText(v: PriceValue): string | null {
  if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) return null;
  const text = toMoneyText(typeof v === 'string' ? v.trim() : v);
  if (text !== null) return text;
  const parts = parseDecimal(v);
  if (!parts) return String(v).trim();
  return `${parts.negative ? '-' : ''}${parts.int}${parts.frac ? `.${parts.frac}` : ''}`;
}

/** A price field's value in fen; null when empty or not a valid amount (the field's own rule says why). */
export function priceFen(v: PriceValue): bigint | null {
  if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) return null;
  return moneyToFen(v);
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`; null when either is empty or not an amount. */
export function comparePrices(a: PriceValue, b: PriceValue): -1 | 0 | 1 | null {
  const x = priceFen(a);
  const y = priceFen(b);
  if (x === null || y === null) return null;
  return x < y ? -1 : x > y ? 1 : 0;
}
