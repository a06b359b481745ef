// Home Assistant's error answer: {"message"} with HA's status codes, for every error.
import { Type } from '@sinclair/typebox';
import type { ErrorEnvelope } from '../../../platform/http.js';

export const homeEnvelope: ErrorEnvelope = (e) => ({ message: e.message });

const ErrorBody = Type.Object({ message: Type.String() }, { description: "Home Assistant's error envelope" });

/** Response schemas for the error statuses a route answers, e.g. errorResponses(400, 401, 404). */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}
