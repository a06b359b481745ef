// Request bodies as Home Assistant reads them: HA calls `json.loads` on the body whatever its
// Content-Type (curl -d sends application/x-www-form-urlencoded), so every body is parsed as
// JSON, and a body that was sent but is not JSON becomes INVALID_JSON (each route answers it
// with its own HA message). Only webhooks read a form body, as HA's webhook trigger does: they
// get the raw text (rawBodyOf). Routes with a body check it themselves, with HA's messages, so
// their body schema documents the request but does not refuse it.
import type { FastifyRequest, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { jsonOfText, NOT_JSON, type App } from '../../../platform/http.js';

/** A body that was sent but is not JSON (the platform's reading of body text: jsonOfText). */
export const INVALID_JSON = NOT_JSON;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const rawBodies = new WeakMap<object, string>();

/** The body's text as it was sent ('' when there was none). */
export const rawBodyOf = (request: FastifyRequest): string => rawBodies.get(request.raw) ?? '';

export function parseBodiesLikeHa(app: App): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    rawBodies.set(req.raw, body as string);
    done(null, jsonOfText(body as string));
  });
}

/**
 * Route options for a route that checks its own body, with HA's messages: its body schema
 * documents the request (OpenAPI) and is not compiled into a check, while params and query
 * strings are checked by the app's own compiler as on every other route.
 */
export function bodyCheckedByHandler(app: App): { validatorCompiler: FastifySchemaCompiler<FastifySchema> } {
  const compile = app.validatorCompiler!;
  return { validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : compile(route)) };
}
