// A failure of a home operation, with HA's WebSocket error code. REST maps the code to a
// status (rest.ts); the WebSocket sends the code as is.
export type HomeErrorCode =
  | 'not_found'
  | 'invalid_format'
  | 'service_validation_error'
  | 'home_assistant_error'
  | 'not_supported'
  | 'unknown_error';

export class HomeError extends Error {
  constructor(
    public readonly code: HomeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const invalid = (field: string, reason: string) => new HomeError('invalid_format', `${field}: ${reason}`);
export const validation = (message: string) => new HomeError('service_validation_error', message);
export const notFound = (message: string) => new HomeError('not_found', message);

/** HTTP status for a home error: never 500 for something the caller can fix. */
export function statusOf(code: HomeErrorCode): number {
  return code === 'not_found' ? 404 : code === 'unknown_error' ? 500 : 400;
}
