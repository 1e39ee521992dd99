import { parseDecimal, roundHalfAwayFromZero, toFiniteNumber } from './decimal.ts';

export const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;
const BYTES_PER_MB = 1024 * 1024;

function fixed2(n: number): { int: string; frac: string } {
  // n is a finite non-negative float here, so parseDecimal cannot fail.
  const r = roundHalfAwayFromZero(parseDecimal(n)!, 2);
  return { int: r.int, frac: r.frac };
}

/** Base-1024 size with two decimals: 1536 → '1.50 KB'. Missing/invalid → '-'. */
export function formatSize(bytes: number | string | null | undefined): string {
  const n = toFiniteNumber(bytes);
  if (n === null) return '-';
  let value = Math.abs(n);
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  let r = fixed2(value);
  // 1023.999 KB would otherwise print as '1024.00 KB'.
  if (r.int === '1024' && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
    r = fixed2(value);
  }
  const isZero = /^0*$/.test(r.int + r.frac);
  const sign = n < 0 && !isZero ? '-' : '';
  // No thousand separators: below PB the number is always under 1024.
  return `${sign}${r.int}.${r.frac} ${SIZE_UNITS[unit]}`;
}

/** Usage counters are stored in MB (base 1024) in some tables. */
export function formatSizeFromMB(mb: number | string | null | undefined): string {
  const n = toFiniteNumber(mb);
  return n === null ? '-' : formatSize(n * BYTES_PER_MB);
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
