import { groupThousands, parseDecimal, roundHalfAwayFromZero } from './decimal.ts';

/**
 * CNY amount with two decimals and thousand separators: 1234567.891 → '1,234,567.89'.
 * Missing or non-numeric values render as '-' so tables never show 'NaN'.
 */
export function formatMoney(v: number | string | null | undefined): string {
  if (v === null || v === undefined) return '-';
  const parts = parseDecimal(v);
  if (!parts) return '-';
  const r = roundHalfAwayFromZero(parts, 2);
  return `${r.negative ? '-' : ''}${groupThousands(r.int)}.${r.frac}`;
}

/**
 * Money in code is integer fen (1 CNY = 100 fen) as a bigint: exact, and never a JavaScript float. An amount that
 * has more than two decimals or is not a plain decimal is refused (null), never rounded.
 */
export function moneyToFen(v: string | number): bigint | null {
  const parts = parseDecimal(v);
  if (!parts || parts.frac.length > 2) return null;
  const fen = BigInt(parts.int) * 100n + BigInt(parts.frac.padEnd(2, '0') || '0');
  return parts.negative ? -fen : fen;
}

/** Integer fen as the contract's money text: two decimals, no separators ('-1234.50'). */
export function fenToMoney(fen: bigint): string {
  const neg = fen < 0n;
  const abs = neg ? -fen : fen;
  return `${neg ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/**
 * Any exact decimal (a typed '12.5', a numeric column's '12.50', an old audit record's 12.5) as the contract's money
 * text ('12.50'); null when it is missing, not a plain decimal or has more than two decimals (never rounded).
 */
export function toMoneyText(v: string | number | null | undefined): string | null {
  if (v === null || v === undefined || v === '') return null;
  const fen = moneyToFen(v);
  return fen === null ? null : fenToMoney(fen);
}
