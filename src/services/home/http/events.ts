// /api/events: event types with their listener counts, and firing an event.
import { Type } from '@sinclair/typebox';
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import { bodyCheckedByHandler, INVALID_JSON, isObject } from './body.js';
import { TAGS, type HttpDeps } from './deps.js';
import { errorResponses } from './envelope.js';
import { EventListeners, Message } from './schemas.js';

const bad = (message: string) => new HttpError(400, message);

export function registerEventRoutes(app: App, { home, persist }: HttpDeps): void {
  app.get(
    '/api/events',
    {
      schema: {
        tags: TAGS,
        summary: 'Event types and their listener counts',
        response: { 200: EventListeners, ...errorResponses(401) },
      },
    },
    async () => home.bus.listenerCounts(),
  );

  app.post(
    '/api/events/:event_type',
    {
      ...bodyCheckedByHandler(app),
      schema: {
        tags: TAGS,
        summary: 'Fire an event with the body as its data (not state_changed)',
        params: Type.Object({ event_type: Type.String() }),
        body: Type.Object({}, { additionalProperties: true, description: 'The event data' }),
        response: { 200: Message, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const body: unknown = request.body ?? {};
      if (body === INVALID_JSON) throw bad('Event data should be valid JSON.');
      if (!isObject(body)) throw bad('Event data should be a JSON object');
      const type = request.params.event_type;
      // state_changed carries state objects the home must have made itself.
      if (type === 'state_changed')
        throw bad('Event state_changed cannot be fired over the API; POST /api/states instead.');
      home.fire(type, body, home.context(request.homeUserId), 'REMOTE');
      await persist.commit();
      return { message: `Event ${type} fired.` };
    },
  );
}
