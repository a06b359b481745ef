// The admin API over the trace of what agents did (platform/trace.ts):
//   GET /admin/api/trace?key=&service=&kind=&since=&until=&limit=&cursor=&order=   one page, JSON
//   GET /admin/api/trace.jsonl?… (or /admin/api/trace?format=jsonl)               every match, streamed
// Newest first unless order=oldest; `service` and `kind` take comma-separated lists; `key` is a
// key's id (as `hamlet keys list` shows it), never the key itself.
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { HttpError } from '../../platform/errors.js';
import {
  TRACE_KINDS,
  decodeCursor,
  type Trace,
  type TraceEntry,
  type TraceKind,
  type TraceQuery,
} from '../../platform/trace.js';
import type { ConsoleModule } from '../context.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const TraceEntrySchema = Type.Object({
  id: Type.String(),
  epoch: Type.Integer({ description: 'The world timeline: every restore or reset starts the next epoch' }),
  seq: Type.Integer({ description: 'Increasing with every entry: the order when the clock is frozen' }),
  at: Type.String({ description: 'ISO 8601, by the platform clock' }),
  service: Type.String(),
  kind: Type.Union(TRACE_KINDS.map((k) => Type.Literal(k))),
  keyId: Nullable(Type.String({ description: 'The id of the API key that acted' })),
  method: Nullable(
    Type.String({ description: 'HTTP method, DATA for SMTP, the command type for WebSocket, tools/call for MCP' }),
  ),
  route: Nullable(
    Type.String({
      description: 'The route pattern (HTTP), the port (SMTP), the socket path (WebSocket) or the tool (MCP)',
    }),
  ),
  path: Nullable(Type.String({ description: 'The concrete URL, credentials masked' })),
  status: Nullable(Type.Integer()),
  ok: Type.Boolean(),
  durationMs: Nullable(Type.Number()),
  summary: Nullable(Type.String({ description: 'A sentence for people (events)' })),
  detail: Nullable(Type.Record(Type.String(), Type.Unknown())),
  requestBody: Nullable(Type.String()),
  responseBody: Nullable(Type.String()),
});

const TraceQuerystring = Type.Object({
  key: Type.Optional(Type.String({ description: 'A key id' })),
  epoch: Type.Optional(
    Type.String({
      description: 'Only this epoch (a whole number), or `current`: the entries since the last restore or reset',
    }),
  ),
  service: Type.Optional(Type.String({ description: 'Comma-separated service names' })),
  kind: Type.Optional(Type.String({ description: `Comma-separated kinds: ${TRACE_KINDS.join(', ')}` })),
  since: Type.Optional(Type.String({ description: 'ISO 8601 time, inclusive' })),
  until: Type.Optional(Type.String({ description: 'ISO 8601 time, exclusive' })),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1000,
      description: 'Entries per page (default 100); with JSONL, at most this many in all',
    }),
  ),
  cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page' })),
  order: Type.Optional(
    Type.Union([Type.Literal('newest'), Type.Literal('oldest')], {
      description: 'newest first (default) or oldest first',
    }),
  ),
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('jsonl')])),
});
type TraceQuerystring = Static<typeof TraceQuerystring>;

const TracePageSchema = Type.Object({ entries: Type.Array(TraceEntrySchema), nextCursor: Nullable(Type.String()) });
const ErrorSchema = Type.Object({ message: Type.String(), code: Type.String() });

/** The query string as a trace query; a 400 naming the parameter for anything malformed. */
function traceQueryOf(q: TraceQuerystring, trace: Trace): TraceQuery {
  const list = (text: string | undefined) =>
    text
      ? text
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;
  const time = (name: string, text: string | undefined) => {
    if (text === undefined || text === '') return undefined;
    const ms = Date.parse(text);
    if (Number.isNaN(ms))
      throw new HttpError(
        400,
        `querystring.${name} must be an ISO 8601 time, e.g. 2026-01-01T00:00:00Z`,
        'validation_error',
      );
    return new Date(ms).toISOString();
  };
  const kind = list(q.kind);
  const unknown = kind?.filter((k) => !(TRACE_KINDS as readonly string[]).includes(k));
  if (unknown?.length)
    throw new HttpError(400, `querystring.kind must be one of: ${TRACE_KINDS.join(', ')}`, 'validation_error');
  let epoch: number | undefined;
  if (q.epoch !== undefined && q.epoch !== '') {
    epoch = q.epoch === 'current' ? trace.epoch : Number(q.epoch);
    if (!Number.isSafeInteger(epoch) || epoch < 0)
      throw new HttpError(400, 'querystring.epoch must be a whole number or `current`', 'validation_error');
  }
  if (q.cursor && !decodeCursor(q.cursor))
    throw new HttpError(400, 'querystring.cursor is not a cursor this API handed out', 'validation_error');
  return {
    keyId: q.key || undefined,
    epoch,
    service: list(q.service),
    kind: kind as TraceKind[] | undefined,
    since: time('since', q.since),
    until: time('until', q.until),
    limit: q.limit,
    cursor: q.cursor || undefined,
    order: q.order,
  };
}

/** Streams every matching entry as JSON Lines, read page by page while the client takes them. */
function sendJsonl(reply: FastifyReply, trace: Trace, query: TraceQuery): FastifyReply {
  async function* lines(): AsyncGenerator<string> {
    let left = query.limit ?? Number.POSITIVE_INFINITY;
    const { limit: _limit, cursor: _cursor, ...rest } = query;
    for await (const entry of trace.all(rest)) {
      if (left-- <= 0) return;
      yield JSON.stringify(entry satisfies TraceEntry) + '\n';
    }
  }
  // A stream skips the route's serializer: the JSON page schema does not apply to it.
  return reply.type('application/x-ndjson; charset=utf-8').send(Readable.from(lines()));
}

export const traceAdminApi: ConsoleModule = (app, ctx) => {
  const { trace } = ctx.platform;
  const schema = { tags: ['trace'], querystring: TraceQuerystring };

  app.get(
    '/admin/api/trace',
    {
      schema: {
        ...schema,
        summary:
          'What agents did: API calls, SMTP messages, WebSocket commands, MCP tool calls and events (format=jsonl streams every match)',
        response: { 200: TracePageSchema, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request, reply) => {
      const query = traceQueryOf(request.query, trace);
      if (request.query.format === 'jsonl') return sendJsonl(reply, trace, query);
      return trace.query(query);
    },
  );

  app.get(
    '/admin/api/trace.jsonl',
    {
      schema: {
        ...schema,
        summary: 'Every matching trace entry as JSON Lines (one entry per line), streamed',
        response: { 200: Type.String({ description: 'application/x-ndjson' }), 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request, reply) => sendJsonl(reply as unknown as FastifyReply, trace, traceQueryOf(request.query, trace)),
  );
};
