// The mail service's refusals in its own terms (DomainError): the HTTP layer answers them in
// the mail envelope (http/envelope.ts); jobs and SMTP handle them without knowing HTTP.
import { DomainError } from '../../platform/errors.js';

/** A refused value (400 over HTTP), naming the offending field. */
export const invalid = (field: string, message: string, code = 'INVALID_VALUE') =>
  new DomainError('invalid', `${field}: ${message}`, 'validation_error', { field, code });

export const notFoundError = (what: string) => new DomainError('not_found', `${what} not found`);
