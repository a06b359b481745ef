// The mail service's error body: the contract's {error:{type,message,details}} plus
// AgentMail's top-level name/message/code, so both the contract and the SDK read it.
import type { ErrorInfo } from '../../../platform/http.js';

const NAMES: Record<number, [type: string, name: string]> = {
  400: ['validation_error', 'ValidationError'],
  401: ['unauthorized', 'UnauthorizedError'],
  403: ['forbidden', 'ForbiddenError'],
  404: ['not_found', 'NotFoundError'],
  409: ['conflict', 'ConflictError'],
  413: ['payload_too_large', 'PayloadTooLargeError'],
  415: ['validation_error', 'ValidationError'],
  422: ['unprocessable', 'UnprocessableError'],
  429: ['rate_limit_exceeded', 'RateLimitError'],
};

export function mailEnvelope(info: ErrorInfo) {
  const [type, name] =
    NAMES[info.statusCode] ?? (info.statusCode >= 500 ? ['internal_error', 'InternalServerError'] : ['error', 'Error']);
  const details: Record<string, unknown> = { ...(info.details ?? {}) };
  // Validation errors from a schema name the field in the message ("body.to …"): expose it.
  if (info.statusCode === 400 && details.field === undefined) {
    const m = /^(?:body|querystring|params|headers)\.([\w.[\]-]+)/.exec(info.message);
    if (m) details.field = m[1];
  }
  if (details.code === undefined && info.statusCode === 400) details.code = 'INVALID_VALUE';
  return {
    error: { type, message: info.message, details },
    name,
    message: info.message,
    code: type,
  };
}
