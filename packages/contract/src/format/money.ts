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
