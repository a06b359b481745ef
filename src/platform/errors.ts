// A service throws HttpError for any answer that is not a success; the app's error handler
// turns it into that service's envelope. `code` is a machine-readable reason, `details`
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
export const forbidden = (message = 'Forbidden', code = 'forbidden') => new HttpError(403, message, code);
export const notFound = (message = 'Not found', code = 'not_found') => new HttpError(404, message, code);
export const conflict = (message: string, code = 'conflict', details?: Record<string, unknown>) =>
  new HttpError(409, message, code, details);

/** A failure that retrying cannot fix (jobs stop retrying on it). */
export class PermanentError extends Error {}
