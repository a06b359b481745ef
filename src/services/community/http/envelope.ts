// Moltbook's error body, `{success:false, error, code, hint}`, for every failure the app
// produces: the stores' DomainErrors, the routes' HttpErrors, schema validation, malformed JSON,
// unknown routes, 429s.
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../../platform/errors.js';
import type { ErrorInfo } from '../../../platform/http.js';

/** Moltbook's upper-case codes, by status. */
const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

export function communityEnvelope(info: ErrorInfo, request: FastifyRequest): Record<string, unknown> {
  const { hint, ...extra } = (info.details ?? {}) as { hint?: string } & Record<string, unknown>;
  let error = info.message;
  let code = info.code === 'validation_error' ? 'VALIDATION_ERROR' : (CODES[info.statusCode] ?? 'INTERNAL_ERROR');
  if (/^[A-Z_]+$/.test(info.code)) code = info.code; // a code this service chose itself
  let advice = hint ?? null;
  // The platform's not-found handler (no route matched) says "Route … not found".
  if (info.statusCode === 404 && info.code === 'not_found' && error.startsWith('Route ')) {
    error = 'Endpoint not found';
    advice = `${request.method} ${request.url.split('?')[0]} does not exist. Check the API documentation at /docs/json.`;
  }
  if (info.statusCode === 429 && advice === null && typeof extra.retry_after === 'number')
    advice = `Try again in ${extra.retry_after} seconds`;
  if (info.statusCode >= 500) {
    error = 'Internal server error';
    advice = null;
  }
  return { success: false, error, code, hint: advice, ...extra };
}

/** An error in this service's words: a status, the message and an optional hint. */
export function fail(status: number, error: string, hint?: string): HttpError {
  return new HttpError(status, error, CODES[status] ?? 'INTERNAL_ERROR', hint ? { hint } : {});
}

export const invalid = (field: string, error: string, hint?: string) =>
  new HttpError(400, error, 'VALIDATION_ERROR', { field, ...(hint ? { hint } : {}) });
