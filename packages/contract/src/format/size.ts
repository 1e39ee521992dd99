import { groupThousands, parseDecimal, roundHalfAwayFromZero, toFiniteNumber } from './decimal.ts';

export const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];

function round2(n: number): { int: string; frac: string } {
  // n is a finite non-negative float here, so parseDecimal cannot fail.
  const r = roundHalfAwayFromZero(parseDecimal(n)!, 2);
  return { int: r.int, frac: r.frac };
}

/**
 * Base-1024 size in the largest unit the value reaches, at most two decimals with trailing zeros dropped:
 * 10 GiB → '10 GB', 1536 → '1.5 KB', 0 → '0 B'. The number stays under 1024 below PB, so thousand separators
 * (the same in zh and en) show only for 1,000–1,023 of a unit or past 1,000 PB. Missing/invalid → '-'.
 */
export function formatSize(bytes: number | string | null | undefined): string {
  const n = toFiniteNumber(bytes);
  if (n === null) return '-';
  let value = Math.abs(n);
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  let r = round2(value);
  // 1023.999 KB would otherwise print as '1024 KB'.
  if (r.int === '1024' && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
    r = round2(value);
  }
  const frac = r.frac.replace(/0+$/, '');
  const isZero = /^0*$/.test(r.int + frac);
  const sign = n < 0 && !isZero ? '-' : '';
  return `${sign}${groupThousands(r.int)}${frac ? `.${frac}` : ''} ${SIZE_UNITS[unit]}`;
}

/** A size stored in `unit` (quotas in MB, test-card data in KB), shown as `formatSize` shows bytes. */
export function formatSizeIn(value: number | string | null | undefined, unit: SizeUnit): string {
  const n = toFiniteNumber(value);
  return n === null ? '-' : formatSize(n * 1024 ** SIZE_UNITS.indexOf(unit));
}

/** Quotas and usage counters are stored in MB (base 1024) in several tables. */
export function formatSizeFromMB(mb: number | string | null | undefined): string {
  return formatSizeIn(mb, 'MB');
}

const SIZE_RE = /^(\d+(?:\.\d+)?|\.\d+)\s*(?:([kmgtp])(?:i?b)?|b)?$/i;

/**
 * Parses '1.5 GB', '512k', '10 MiB' or '2048' (bytes) into whole bytes, base 1024.
 * Negative or malformed input → null.
 */
export function parseSize(s: string | null | undefined): number | null {
  if (typeof s !== 'string') return null;
  const m = SIZE_RE.exec(s.trim());
  if (!m) return null;
  const power = m[2] ? 'kmgtp'.indexOf(m[2].toLowerCase()) + 1 : 0;
  return Math.round(Number(m[1]) * 1024 ** power);
}
