import { parseDecimal } from '../format/decimal.ts';
import type { ValidationResult } from './messages.ts';

export interface AmountOptions {
  min?: number;
  max?: number;
  allowZero?: boolean;
  maxDecimals?: number;
}

// Plain decimal notation only: '1e3', '.5', '5.' and '0x10' are not how people type money.
const AMOUNT_RE = /^-?\d+(?:\.\d+)?$/;

/**
 * Money (CNY). Decimals are counted on the exact decimal value, so trailing zeros
 * ('1.500') are fine and float artefacts (0.1 + 0.2) are caught.
 */
export function validateAmount(v: number | string | null | undefined, options: AmountOptions = {}): ValidationResult {
  const { min, max, allowZero = false, maxDecimals = 2 } = options;
  if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) return { key: 'required' };
  if (typeof v === 'string' && !AMOUNT_RE.test(v.trim())) return { key: 'amountInvalid' };
  const parts = parseDecimal(v);
  if (!parts) return { key: 'amountInvalid' };
  if (parts.negative) return { key: 'amountNegative' };
  if (parts.frac.length > maxDecimals) return { key: 'amountDecimals', params: { max: maxDecimals } };
  if (!allowZero && parts.int === '0' && parts.frac === '') return { key: 'amountZero' };
  const n = Number(`${parts.int}.${parts.frac || '0'}`);
  if (min !== undefined && n < min) return { key: 'amountMin', params: { min } };
  if (max !== undefined && n > max) return { key: 'amountMax', params: { max } };
  return null;
}

/** Profit-sharing percentage: 0-100 inclusive, at most 2 decimals. */
export function validateProportion(v: number | string | null | undefined): ValidationResult {
  const err = validateAmount(v, { allowZero: true, min: 0, max: 100, maxDecimals: 2 });
  if (!err || err.key === 'required') return err;
  return { key: 'proportionInvalid' };
}
