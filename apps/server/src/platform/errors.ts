import { ErrorCode, errorMessage, type Lang } from '@lynx/contract';

/** A refusal the caller can act on. Sent as HTTP `status` (200 for business rules) with success false. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly params?: Record<string, string | number>,
    readonly status = 200,
    readonly data: unknown = null,
  ) {
    super(`error ${code}${params ? ' ' + JSON.stringify(params) : ''}`);
  }
  message_(lang: Lang): string {
    return errorMessage(this.code, lang, this.params);
  }
}

/** Used for a missing record and for one outside the caller's tenant alike, so existence never leaks. */
export const notFound = () => new AppError(ErrorCode.NotFound);
export const denied = () => new AppError(ErrorCode.PermissionDenied);
export const invalid = (field: string, reason: { zh: string; en: string } | string) =>
  new FieldError(field, reason);

/** A validation failure that names the field; the reason is in both languages. */
export class FieldError extends AppError {
  constructor(
    readonly field: string,
    readonly reason: { zh: string; en: string } | string,
  ) {
    super(ErrorCode.Validation, undefined, 400, { field });
  }
  override message_(lang: Lang): string {
    const reason = typeof this.reason === 'string' ? this.reason : this.reason[lang];
    return errorMessage(ErrorCode.Validation, lang, { field: this.field, reason });
  }
}
