import type { ValidationResult } from './messages.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 18;

// Printable ASCII without space (0x21-0x7E): letters, digits and ASCII punctuation only.
const ALLOWED_RE = /^[\x21-\x7E]+$/;

export function validatePassword(pw: string | null | undefined): ValidationResult {
  if (pw === null || pw === undefined || pw === '') return { key: 'required' };
  if (!ALLOWED_RE.test(pw)) return { key: 'passwordChars' };
  if (pw.length < PASSWORD_MIN || pw.length > PASSWORD_MAX) {
    return { key: 'passwordLength', params: { min: PASSWORD_MIN, max: PASSWORD_MAX } };
  }
  if (!/[A-Za-z]/.test(pw) || !/\d/.test(pw)) return { key: 'passwordWeak' };
  return null;
}

/** New password plus its confirmation; the first entry's own problems are reported first. */
export function validatePasswordPair(pw: string | null | undefined, confirm: string | null | undefined): ValidationResult {
  const err = validatePassword(pw);
  if (err) return err;
  if (confirm === null || confirm === undefined || confirm === '') return { key: 'required' };
  return pw === confirm ? null : { key: 'passwordMismatch' };
}
