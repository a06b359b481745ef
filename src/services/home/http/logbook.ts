// /api/logbook[/<start>]: state changes, automation runs and logbook entries with their causes.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import type { Home } from '../core/home.js';
import { isValidEntityId } from '../core/state.js';
import { parseIsoUs } from '../core/time.js';
import { logbook } from '../recorder/logbook.js';
import { TAGS, type HttpDeps } from './deps.js';
import { errorResponses } from './envelope.js';
import { LogbookEntries } from './schemas.js';

const DAY_US = 86_400_000_000;

const LogbookQuery = Type.Object(
  {
    period: Type.Optional(Type.String({ description: 'Days from start (default 1)' })),
    end_time: Type.Optional(Type.String({ description: 'ISO 8601; overrides period' })),
    entity: Type.Optional(Type.String({ description: 'Entity ids, comma-separated' })),
    context_id: Type.Optional(Type.String({ description: 'Only entries of this context (not with entity)' })),
  },
  { additionalProperties: true },
);
const StartParams = Type.Object({
  timestamp: Type.String({ description: 'ISO 8601 start; default the start of today' }),
});

const bad = (message: string) => new HttpError(400, message);

type LogbookRequest = FastifyRequest<{
  Params: { timestamp?: string };
  Querystring: Record<string, string | undefined>;
}>;

export function registerLogbookRoutes(app: App, { home, store }: HttpDeps): void {
  const handler = async (request: LogbookRequest) => {
    const q = request.query ?? {};
    let startUs: number;
    if (request.params.timestamp) {
      const t = parseIsoUs(request.params.timestamp);
      if (t === undefined) throw bad('Invalid datetime');
      startUs = t;
    } else {
      startUs = startOfToday(home);
    }
    const period = q.period === undefined ? 1 : Number(q.period);
    if (!Number.isFinite(period) || period <= 0) throw bad('Invalid period');
    let endUs = startUs + period * DAY_US;
    if (q.end_time !== undefined) {
      const t = parseIsoUs(q.end_time);
      if (t === undefined) throw bad('Invalid end_time');
      endUs = t;
    }
    let entityIds: string[] | undefined;
    if (q.entity !== undefined) {
      entityIds = q.entity.split(',').map((x) => x.trim().toLowerCase());
      if (entityIds.some((x) => !isValidEntityId(x))) throw bad('Invalid entity');
    }
    if (entityIds && q.context_id) throw bad("Can't combine entity with context_id");
    return (await logbook(store, { startUs, endUs, entityIds, contextId: q.context_id })) as Static<
      typeof LogbookEntries
    >;
  };
  const response = { 200: LogbookEntries, ...errorResponses(400, 401) };
  app.get(
    '/api/logbook',
    { schema: { tags: TAGS, summary: 'Logbook since the start of today', querystring: LogbookQuery, response } },
    handler,
  );
  app.get(
    '/api/logbook/:timestamp',
    {
      schema: { tags: TAGS, summary: 'Logbook from a time', params: StartParams, querystring: LogbookQuery, response },
    },
    handler,
  );
}

/** The start of today in the home's time zone, in microseconds (the logbook's default start). */
function startOfToday(home: Home): number {
  const now = new Date(home.clock.ms());
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: home.location.time_zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const sinceMidnightMs = ((get('hour') * 60 + get('minute')) * 60 + get('second')) * 1000 + now.getUTCMilliseconds();
  return (now.getTime() - sinceMidnightMs) * 1000;
}
