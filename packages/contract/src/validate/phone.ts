import { validateDelimitedList } from './list.ts';
import type { ValidationResult } from './messages.ts';

export const PHONE_LIST_MAX = 5;

const CN_MOBILE_RE = /^1[3-9]\d{9}$/;
// E.164: country code never starts with 0; 8-15 digits in total after '+'.
const E164_RE = /^\+[1-9]\d{7,14}$/;

export function isPhone(s: string): boolean {
  return CN_MOBILE_RE.test(s) || E164_RE.test(s);
}

export function validatePhone(s: string | null | undefined): ValidationResult {
  if (s === null || s === undefined || s.trim() === '') return { key: 'required' };
  if (/\s/.test(s)) return { key: 'noSpaces' };
  return isPhone(s) ? null : { key: 'phoneInvalid', params: { value: s } };
}

export function validatePhoneList(
  s: string | null | undefined,
  { max = PHONE_LIST_MAX }: { max?: number } = {},
): ValidationResult {
  return validateDelimitedList(s, { max, validateItem: validatePhone });
}
