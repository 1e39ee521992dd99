// Exact amounts of rating (docs/billing.md): prices in integer fen, tax rates in hundredths of a percent, quotas and
// usage in bytes, all bigint, so no amount ever passes through a float. Pure.
import { moneyToFen, parseDecimal } from '@lynx/contract';

/** 1 MB in bytes (the usage module's unit base, 1024). */
export const MB_BYTES = 1_048_576n;
export const KB_BYTES = 1024n;

/** A price column's text ('39.90', numeric(14, 2) read as a string) in fen; a missing price is 0. */
export function priceFen(price: string | null | undefined): bigint {
  if (price == null || price === '') return 0n;
  const fen = moneyToFen(price);
  if (fen === null || fen < 0n) throw new RangeError(`"${price}" is not a price`);
  return fen;
}

/**
 * An exact non-negative decimal with at most `decimals` digits after the point, scaled to an integer
 * (6.5 with 2 → 650n). The plan's tax rate and quota are numeric(…, 2) columns read as numbers; a number with
 * two decimals prints back exactly (String(6.5) = '6.5'), so this is exact for every value the columns hold.
 */
export function scaledDecimal(v: number | string, decimals: number): bigint {
  const parts = parseDecimal(v);
  if (!parts || parts.negative || parts.frac.length > decimals) throw new RangeError(`"${v}" is not a non-negative decimal with at most ${decimals} decimals`);
  return BigInt(parts.int + parts.frac.padEnd(decimals, '0'));
}

/** A tax rate in percent (the plan's `tax_rate`, 6 = 6 %) in hundredths of a percent (basis points): 6 → 600n. */
export const taxRateBp = (taxRate: number | string): bigint => scaledDecimal(taxRate, 2);

/** a / b rounded half up, for a ≥ 0 and b > 0 */
export const divHalfUp = (a: bigint, b: bigint): bigint => (2n * a + b) / (2n * b);

/** a / b rounded up, for a ≥ 0 and b > 0 */
export const divCeil = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

export interface TaxSplit {
  /** amount excluding tax (fen) */
  exclFen: bigint;
  /** tax (fen) */
  taxFen: bigint;
  /** amount including tax (fen): exclFen + taxFen */
  inclFen: bigint;
}

/**
 * Prices include VAT (Chinese B2B prices are quoted tax-inclusive; the invoice shows the split): the amount excluding
 * tax is incl / (1 + rate) rounded half up to the fen, and the tax is the rest, so excl + tax = incl exactly.
 * Done per bill line, as a VAT invoice does per line.
 */
export function splitTax(inclFen: bigint, taxRate: number | string): TaxSplit {
  if (inclFen < 0n) throw new RangeError('a charge is never negative');
  const bp = taxRateBp(taxRate);
  const exclFen = divHalfUp(inclFen * 10_000n, 10_000n + bp);
  return { exclFen, taxFen: inclFen - exclFen, inclFen };
}

/**
 * A quota in MB (`quota_mb`, numeric(14, 2)) in bytes: round(quota_mb × 1048576) half up, as the database computes
 * `cycle_quota_bytes` (migration 0019), so rating and the quota check agree to the byte.
 */
export const quotaBytesOfMb = (quotaMb: number | string): bigint => divHalfUp(scaledDecimal(quotaMb, 2) * MB_BYTES, 100n);

/** A count of bytes from the usage tables (bigint read as a number, or a bigint); never negative. */
export function bytesOf(v: bigint | number): bigint {
  if (typeof v === 'number' && !Number.isSafeInteger(v)) throw new RangeError(`${v} is not a whole number of bytes`);
  const b = BigInt(v);
  if (b < 0n) throw new RangeError('usage is never negative');
  return b;
}
