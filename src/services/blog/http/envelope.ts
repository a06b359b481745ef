// The blog's error answer: the contract's Error envelope `{error}`, plus a machine-readable
// code and any details (e.g. `reserved: true`), for every failure the app produces.
import { Type } from '@sinclair/typebox';
import type { ErrorEnvelope } from '../../../platform/http.js';

export const blogEnvelope: ErrorEnvelope = (err) => ({ error: err.message, code: err.code, ...err.details });

const ErrorBody = Type.Object(
  { error: Type.String(), code: Type.Optional(Type.String()) },
  { additionalProperties: true, description: 'Error envelope: the message, a machine-readable code and any details' },
);

/** The error statuses a route answers, each with the envelope (documentation: errors are sent as written). */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody])) as Record<S, typeof ErrorBody>;
}
