/**
 * Decimal helpers that work on digit strings, so rounding never goes through
 * binary floating point (1.005 * 100 === 100.49999999999999).
 */

export interface DecimalParts {
  negative: boolean;
  /** Integer digits without leading zeros ('0' for zero). */
  int: string;
  /** Fraction digits without trailing zeros ('' for integers). */
  frac: string;
}

const DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;
// Exponents beyond this would build megabyte-long digit strings from short input.
const MAX_EXPONENT = 400;

/**
 * Splits a number or numeric string into exact decimal digits. Numbers go through
 * String(), which yields the shortest representation that round-trips, i.e. the
 * value a human typed (1.005 stays "1.005" rather than 1.00499999...).
 */
export function parseDecimal(input: number | string): DecimalParts | null {
  let s: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return null;
    s = String(input);
  } else {
    s = input.trim();
  }
  const m = DECIMAL_RE.exec(s);
  if (!m) return null;
  const sign = m[1];
  const intRaw = m[2];
  const fracRaw = m[3] ?? '';
  if (intRaw === '' && fracRaw === '') return null;
  const exp = m[4] === undefined ? 0 : Number(m[4]);
  if (Math.abs(exp) > MAX_EXPONENT) return null;

  let digits = intRaw + fracRaw;
  let point = intRaw.length + exp;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);

  const int = digits.slice(0, point).replace(/^0+/, '') || '0';
  const frac = digits.slice(point).replace(/0+$/, '');
  // "-0" and "-0.00" are zero; a signed zero would print as "-0.00".
  return { negative: sign === '-' && (int !== '0' || frac !== ''), int, frac };
}

/** Rounds half away from zero; the result's `frac` has exactly `decimals` digits. */
export function roundHalfAwayFromZero(p: DecimalParts, decimals: number): DecimalParts {
  const frac = p.frac.padEnd(decimals + 1, '0');
  let scaled = BigInt(p.int + frac.slice(0, decimals));
  if (frac[decimals] >= '5') scaled += 1n;
  const s = scaled.toString().padStart(decimals + 1, '0');
  const cut = s.length - decimals;
  return {
    negative: p.negative && scaled !== 0n,
    int: s.slice(0, cut),
    frac: s.slice(cut),
  };
}

export function groupThousands(intDigits: string): string {
  return intDigits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Finite number from a number or a plain numeric string; anything else is null. */
export function toFiniteNumber(v: number | string | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  // Number() alone would accept '0x10', '' and ' ' as numbers.
  if (parseDecimal(v) === null) return null;
  const n = Number(v.trim());
  return Number.isFinite(n) ? n : null;
}

const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 });
/** A count with thousands separators, the same in both languages and every browser: 1,000,000. */
export function formatCount(n: number): string {
  return COUNT.format(n);
}
