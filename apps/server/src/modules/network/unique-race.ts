import { AppError } from '../../platform/errors.ts';
import { isUniqueViolation } from '../account/customers.ts';

/**
 * Runs fn (usually a whole db.transaction), answering a lost race on a unique index the way the explicit
 * "name free" check does: two requests can pass the check at the same moment, and the index then refuses
 * the second insert or update. Without this the caller would see a server error (500) instead of the
 * field's friendly message. `indexes` maps an index name to the refusal to raise for it.
 */
export async function uniqueRace<T>(indexes: Record<string, () => AppError>, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    for (const [index, refusal] of Object.entries(indexes)) {
      if (isUniqueViolation(err, index)) throw refusal();
    }
    throw err;
  }
}
