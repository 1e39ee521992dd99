import { formatValidationMessage, type ValidationError } from '@lynx/contract';
import { FieldError } from './errors.ts';

/** Throws a bilingual FieldError when a contract validator reports a problem. */
export function check(field: string, err: ValidationError | null): void {
  if (err) throw new FieldError(field, { zh: formatValidationMessage(err, 'zh'), en: formatValidationMessage(err, 'en') });
}

/** Empty strings from forms mean "not given". */
export const blankToNull = (v: string | undefined | null): string | null => (v == null || v.trim() === '' ? null : v.trim());
