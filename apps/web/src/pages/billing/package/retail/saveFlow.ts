import { ErrorCode } from '@lynx/contract';
import { LogicError } from '../../../../request/http.ts';

export type SaveOutcome<T> = { saved: true; value: T } | { saved: false; reason: 'cancelled' } | { saved: false; reason: 'refused'; error: unknown };

/**
 * Saves a retail plan; when the customer already has one of that name the server answers
 * RetailNameExists, the user is asked, and only on "continue" the call is sent again with the
 * confirmation flag. Any other refusal is handed back for the form to show.
 */
export async function saveWithNameConfirm<T>(
  send: (confirmDuplicateName: boolean) => Promise<T>,
  ask: (message: string) => Promise<boolean>,
): Promise<SaveOutcome<T>> {
  try {
    return { saved: true, value: await send(false) };
  } catch (e) {
    if (!(e instanceof LogicError && e.errorCode === ErrorCode.RetailNameExists)) return { saved: false, reason: 'refused', error: e };
    if (!(await ask(e.message))) return { saved: false, reason: 'cancelled' };
  }
  try {
    return { saved: true, value: await send(true) };
  } catch (e) {
    return { saved: false, reason: 'refused', error: e };
  }
}

/** The form field a refusal belongs to (the server names it in `data.field`), if the form has that field. */
export function fieldOfRefusal<F extends string>(e: unknown, fields: readonly F[]): F | null {
  if (!(e instanceof LogicError)) return null;
  const field = (e.data as { field?: unknown } | null)?.field;
  return typeof field === 'string' && (fields as readonly string[]).includes(field) ? (field as F) : null;
}
