import type { ValidationResult } from './messages.ts';

/** Character limits from the spec for remark/note fields. */
export const NOTE_LIMITS = { inventoryRemark: 10, short: 20, medium: 40, long: 500 } as const;

/** Unicode code points, so an emoji or a rare CJK character (surrogate pair) counts once. */
export function countChars(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Empty is within any limit; pair with validateRequired when the field is mandatory. */
export function validateLength(s: string | null | undefined, max: number): ValidationResult {
  if (s === null || s === undefined) return null;
  return countChars(s) > max ? { key: 'tooLong', params: { max } } : null;
}

/**
 * Empty means: null, undefined, NaN (an empty numeric input), a blank string or an
 * empty array. 0 and false are real answers and pass.
 */
export function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'number') return Number.isNaN(v);
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  return false;
}

export function validateRequired(v: unknown): ValidationResult {
  return isEmptyValue(v) ? { key: 'required' } : null;
}

// The server substitutes the literal '{host}' with the portal host, so it must match exactly.
const HOST_PLACEHOLDER = '{host}';
const HTTP_RE = /^https?:\/\/[^/?#]/i;

export function validateJumpUrl(s: string | null | undefined): ValidationResult {
  if (s === null || s === undefined || s.trim() === '') return { key: 'required' };
  if (/\s/.test(s)) return { key: 'jumpUrlInvalid' };
  return HTTP_RE.test(s) || s.startsWith(HOST_PLACEHOLDER) ? null : { key: 'jumpUrlInvalid' };
}

// A list of addresses: the spec's separators (';', also full-width) or a second address after a comma.
const ADDRESS_LIST_RE = /[;；]|[,，、]\s*https?:\/\//i;

/** The customer's API callback is one address (spec §9), a jump-style address otherwise. */
export function validateCallbackUrl(s: string | null | undefined): ValidationResult {
  if (s != null && ADDRESS_LIST_RE.test(s)) return { key: 'callbackOneAddress' };
  return validateJumpUrl(s);
}
