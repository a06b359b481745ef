// A unique key already taken (a client_id, an inbox address, an Idempotency-Key) is a conflict in
// the service's own terms: callers answer with the winner of a race, or refuse.
import { isUniqueViolation } from '../../../platform/db.js';
import { DomainError } from '../../../platform/errors.js';

const DUPLICATE = 'duplicate';

/** Runs an insert or update; a unique-key violation becomes a DomainError('conflict') with code 'duplicate'. */
export async function refusingDuplicates<T>(
  write: () => Promise<T>,
  message: string,
  details?: Record<string, unknown>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('conflict', message, DUPLICATE, details);
    throw err;
  }
}

export const isDuplicate = (err: unknown): err is DomainError => err instanceof DomainError && err.code === DUPLICATE;
