import { validateDelimitedList } from './list.ts';
import type { ValidationResult } from './messages.ts';

export const EMAIL_LIST_MAX = 5;

// Pragmatic subset of RFC 5321: dot-atom local part, LDH domain labels, alphabetic TLD.
const LOCAL_RE = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const DOMAIN_RE = new RegExp(`^(?:${LABEL}\\.)+[A-Za-z]{2,63}$`);

export function isEmail(s: string): boolean {
  if (s.length > 254) return false;
  const at = s.lastIndexOf('@');
  if (at <= 0) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  return local.length <= 64 && LOCAL_RE.test(local) && DOMAIN_RE.test(domain);
}

export function validateEmail(s: string | null | undefined): ValidationResult {
  if (s === null || s === undefined || s.trim() === '') return { key: 'required' };
  if (/\s/.test(s)) return { key: 'noSpaces' };
  return isEmail(s) ? null : { key: 'emailInvalid', params: { value: s } };
}

export function validateEmailList(
  s: string | null | undefined,
  { max = EMAIL_LIST_MAX }: { max?: number } = {},
): ValidationResult {
  // Mail systems treat addresses case-insensitively in practice, so A@x.com duplicates a@x.com.
  return validateDelimitedList(s, { max, validateItem: validateEmail, identity: (x) => x.toLowerCase() });
}
