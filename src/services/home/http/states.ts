// /api/states: every entity's state, one state, set what an entity reports, remove an entity.
import { Type } from '@sinclair/typebox';
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import { isValidEntityId } from '../core/state.js';
import { bodyCheckedByHandler, INVALID_JSON, isObject } from './body.js';
import { TAGS, type HttpDeps } from './deps.js';
import { errorResponses } from './envelope.js';
import { sendJsonText } from './json-text.js';
import { Message, StateList, StateObject } from './schemas.js';

const EntityParams = Type.Object({ entity_id: Type.String({ description: 'e.g. light.kitchen (case-insensitive)' }) });

const StateWrite = Type.Object(
  {
    state: Type.Union([Type.String({ maxLength: 255 }), Type.Number(), Type.Boolean()], {
      description: 'The new state (at most 255 characters)',
    }),
    attributes: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
    force_update: Type.Optional(
      Type.Boolean({ description: 'Write (and fire state_changed) even when nothing changed' }),
    ),
  },
  { additionalProperties: true },
);

const bad = (message: string) => new HttpError(400, message);
const entityNotFound = () => new HttpError(404, 'Entity not found.');

export function registerStateRoutes(app: App, { home, persist }: HttpDeps): void {
  app.get(
    '/api/states',
    { schema: { tags: TAGS, summary: 'Every entity state', response: { 200: StateList, ...errorResponses(401) } } },
    async (_req, reply) => {
      const parts: string[] = [];
      for (const s of home.states.all()) parts.push(s.json());
      return sendJsonText(reply, `[${parts.join(',')}]`);
    },
  );

  app.get(
    '/api/states/:entity_id',
    {
      schema: {
        tags: TAGS,
        summary: 'One entity state',
        params: EntityParams,
        response: { 200: StateObject, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const s = home.states.get(request.params.entity_id.toLowerCase());
      if (!s) throw entityNotFound();
      return sendJsonText(reply, s.json());
    },
  );

  app.post(
    '/api/states/:entity_id',
    {
      ...bodyCheckedByHandler(app),
      schema: {
        tags: TAGS,
        summary: 'Set what an entity reports (201 when it is new)',
        params: EntityParams,
        body: StateWrite,
        response: { 200: StateObject, 201: StateObject, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const body: unknown = request.body;
      if (body === INVALID_JSON) throw bad('Invalid JSON specified.');
      if (!isObject(body)) throw bad('State data should be a JSON object');
      const entityId = request.params.entity_id.toLowerCase();
      if (!isValidEntityId(entityId)) throw bad('Invalid entity ID specified.');
      if (body.state === undefined || body.state === null) throw bad('No state attribute specified.');
      if (typeof body.state === 'object') throw bad('Invalid state specified.');
      const state = String(body.state);
      if (state.length > 255) throw bad('Invalid state specified.');
      if (body.attributes !== undefined && body.attributes !== null && !isObject(body.attributes))
        throw bad('attributes: expected dict');
      const context = home.context(request.homeUserId);
      const r = home.states.set(
        entityId,
        state,
        (body.attributes as Record<string, unknown>) ?? {},
        context,
        body.force_update === true,
      );
      await persist.commit();
      reply.code(r.created ? 201 : 200).header('Location', `/api/states/${entityId}`);
      return sendJsonText(reply, r.state.json());
    },
  );

  app.delete(
    '/api/states/:entity_id',
    {
      schema: {
        tags: TAGS,
        summary: 'Remove an entity',
        params: EntityParams,
        response: { 200: Message, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      if (!home.states.remove(request.params.entity_id.toLowerCase(), home.context(request.homeUserId)))
        throw entityNotFound();
      await persist.commit();
      return { message: 'Entity removed.' };
    },
  );
}
