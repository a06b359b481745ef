// The HTTP layer of a service throws HttpError for an answer that is not a success, and its
// domain code and store throw DomainError (below); the app's error handler turns either into
// that service's envelope. `code` is a machine-readable reason, `details`
// anything the envelope may carry beside the message (field names, hints, limits).
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly code?: string,
    public readonly details?: Record<string, unknown>,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'bad_request', details?: Record<string, unknown>) =>
  new HttpError(400, message, code, details);
export const unauthorized = (message = 'Unauthorized', code = 'unauthorized') => new HttpError(401, message, code);

/** The kinds of refusal a service's domain code (its store, its rules) can state without knowing HTTP. */
export type DomainErrorKind =
  'invalid' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_large' | 'limited';

/** The status each kind is answered with over HTTP (platform/http.ts). */
export const DOMAIN_ERROR_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  limited: 429,
};

/**
 * A refusal in a service's own terms, thrown by stores and domain code ("no such inbox",
 * "that name is taken"). The HTTP layer answers it with the status of its kind in the
 * service's envelope; code outside HTTP (jobs, SMTP) can handle it without HTTP knowledge.
 */
export class DomainError extends Error {
  constructor(
    public readonly kind: DomainErrorKind,
    message: string,
    /** A machine-readable reason (defaults to the kind). */
    public readonly code?: string,
    public readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** A failure that retrying cannot fix (jobs stop retrying on it). */
export class PermanentError extends Error {}
