// /api/history/period[/<start>]: the recorder's rows of the requested entities, in HA's shapes.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import { isValidEntityId } from '../core/state.js';
import { parseIsoUs } from '../core/time.js';
import { history } from '../recorder/history.js';
import { TAGS, type HttpDeps } from './deps.js';
import { errorResponses } from './envelope.js';
import { sendJsonText } from './json-text.js';
import { History } from './schemas.js';

const DAY_US = 86_400_000_000;
const flag = (description: string) => Type.Optional(Type.String({ description: `${description} (present: on)` }));

const HistoryQuery = Type.Object(
  {
    filter_entity_id: Type.Optional(Type.String({ description: 'Required: entity ids, comma-separated' })),
    end_time: Type.Optional(Type.String({ description: 'ISO 8601; default start + 1 day' })),
    minimal_response: flag('Only state and last_changed after the first row'),
    no_attributes: flag('Empty attributes'),
    significant_changes_only: Type.Optional(Type.String({ description: '0 to include attribute-only changes' })),
    skip_initial_state: flag('Leave out the state in force at start'),
  },
  { additionalProperties: true },
);
const StartParams = Type.Object({ timestamp: Type.String({ description: 'ISO 8601 start; default a day ago' }) });

const bad = (message: string) => new HttpError(400, message);

type HistoryRequest = FastifyRequest<{
  Params: { timestamp?: string };
  Querystring: Record<string, string | undefined>;
}>;

export function registerHistoryRoutes(app: App, { home, store }: HttpDeps): void {
  const handler = async (request: HistoryRequest, reply: FastifyReply) => {
    const q = request.query ?? {};
    const nowUs = home.nowUs();
    let startUs = nowUs - DAY_US;
    if (request.params.timestamp) {
      const t = parseIsoUs(request.params.timestamp);
      if (t === undefined) throw bad('Invalid datetime');
      startUs = t;
    }
    if (startUs > nowUs) return sendJsonText(reply, '[]');
    let endUs = startUs + DAY_US;
    if (q.end_time !== undefined) {
      const t = parseIsoUs(q.end_time);
      if (t === undefined) throw bad('Invalid end_time');
      endUs = t;
    }
    if (!q.filter_entity_id) throw bad('filter_entity_id is missing');
    const ids = q.filter_entity_id.split(',').map((x) => x.trim().toLowerCase());
    if (ids.some((x) => !isValidEntityId(x))) throw bad('Invalid filter_entity_id');
    const body = await history(store, {
      entityIds: ids,
      startUs,
      endUs,
      minimalResponse: 'minimal_response' in q,
      noAttributes: 'no_attributes' in q,
      skipInitialState: 'skip_initial_state' in q,
      significantChangesOnly: q.significant_changes_only !== '0',
    });
    return sendJsonText(reply, body);
  };
  const response = { 200: History, ...errorResponses(400, 401) };
  app.get(
    '/api/history/period',
    { schema: { tags: TAGS, summary: 'State history since a day ago', querystring: HistoryQuery, response } },
    handler,
  );
  app.get(
    '/api/history/period/:timestamp',
    {
      schema: {
        tags: TAGS,
        summary: 'State history from a time',
        params: StartParams,
        querystring: HistoryQuery,
        response,
      },
    },
    handler,
  );
}
