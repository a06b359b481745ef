// Request bodies as Home Assistant reads them: JSON when it parses, a form as {__form}, and a
// body that was sent but is not JSON as INVALID_JSON (each route answers it with its own HA
// message; webhooks take any body). Routes with a body check it themselves, with HA's
// messages, so their body schema documents the request but does not refuse it.
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { App } from '../../../platform/http.js';

/** A body that was sent but is not JSON. */
export const INVALID_JSON = Symbol('invalid json');

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseBodiesLikeHa(app: App): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    const text = (body as string).trim();
    const type = String(req.headers['content-type'] ?? '');
    if (text === '') return done(null, undefined);
    if (type.includes('x-www-form-urlencoded')) return done(null, { __form: Object.fromEntries(new URLSearchParams(text)) });
    try {
      done(null, JSON.parse(text));
    } catch {
      done(null, INVALID_JSON);
    }
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
