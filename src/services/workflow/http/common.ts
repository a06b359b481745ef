// Shared pieces of the /api/v1 surface: n8n's cursors, limits and error wording.
import type { FastifyReply } from 'fastify';
import { HttpError, badRequest } from '../../../platform/errors.js';

export const notFoundError = () => new HttpError(404, 'Not Found', 'not_found');

const MAX_LIMIT = 250;
const DEFAULT_LIMIT = 100;

export function parseLimit(raw: unknown): number {
  if (raw === undefined || raw === '') return DEFAULT_LIMIT;
  const n = Number(raw);
  if (!/^-?\d+$/.test(String(raw))) throw badRequest('request/query/limit must be integer');
  if (n < 1) throw badRequest('request/query/limit must be >= 1');
  if (n > MAX_LIMIT) throw badRequest(`request/query/limit must be <= ${MAX_LIMIT}`);
  return n;
}

export function encodeCursor(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64');
}

export function decodeCursor<T extends Record<string, unknown>>(
  raw: unknown,
  check: (v: Record<string, unknown>) => boolean,
): T {
  const invalid = () => badRequest('An invalid cursor was provided');
  if (typeof raw !== 'string' || raw.length > 2000) throw invalid();
  try {
    const v = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
    if (!v || typeof v !== 'object' || !check(v)) throw invalid();
    return v as T;
  } catch {
    throw invalid();
  }
}

/**
 * The `{limit, offset}` a list request asks for: its `limit`, or n8n's offset cursor
 * (base64 JSON `{"limit":1,"offset":1}`) from the previous page, which wins when given.
 * Workflows, tags, users, variables and credentials page this way (executions use a keyset).
 */
export function offsetWindow(rawLimit: unknown, rawCursor: unknown): { limit: number; offset: number } {
  const limit = parseLimit(rawLimit);
  if (!rawCursor) return { limit, offset: 0 };
  const c = decodeCursor<{ limit: number; offset: number }>(
    rawCursor,
    (v) =>
      Number.isInteger(v.limit) && Number.isInteger(v.offset) && (v.limit as number) > 0 && (v.offset as number) >= 0,
  );
  return { limit: Math.min(c.limit, MAX_LIMIT), offset: c.offset };
}

export function parseBool(name: string, raw: unknown): boolean | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true' || raw === true) return true;
  if (raw === 'false' || raw === false) return false;
  throw badRequest(`request/query/${name} must be boolean`);
}

/** n8n reports the first problem of a body, e.g. "request/body must have required property 'nodes'". */
export function requireObjectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) {
    throw badRequest('request/body must be object');
  }
  return body as Record<string, unknown>;
}

export function requireProps(body: Record<string, unknown>, props: string[]): void {
  for (const p of props) if (body[p] === undefined) throw badRequest(`request/body must have required property '${p}'`);
}

const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** n8n answers 405 "<METHOD> method not allowed" for a method an existing path does not define. */
export function methodNotAllowed(app: import('../../../platform/http.js').App, routes: Record<string, string[]>): void {
  for (const [url, defined] of Object.entries(routes)) {
    const missing = ALL_METHODS.filter((m) => !defined.includes(m));
    if (!missing.length) continue;
    app.route({
      method: missing,
      url,
      schema: { hide: true },
      handler: async (req) => {
        throw new HttpError(405, `${req.method} method not allowed`, 'method_not_allowed');
      },
    });
  }
}

/**
 * Answers with JSON already serialized (a cached list page, an execution with its stored data
 * spliced in): sent as is, past the response schema's serializer, which it already matches.
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply
    .type('application/json; charset=utf-8')
    .serializer((p: unknown) => p as string)
    .send(text);
}
