// /api/services: every service with its fields, and calling one (answers with the states it
// changed; with ?return_response, also the service's response).
import { Type, type Static } from '@sinclair/typebox';
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import { bodyCheckedByHandler, INVALID_JSON, isObject } from './body.js';
import { TAGS, type HttpDeps } from './deps.js';
import { errorResponses } from './envelope.js';
import { sendJsonText } from './json-text.js';
import { ServiceCallAnswer, ServiceDomains } from './schemas.js';

const CallParams = Type.Object({ domain: Type.String(), service: Type.String() });
const CallQuery = Type.Object(
  {
    return_response: Type.Optional(
      Type.String({ description: 'Present (any value): answer with the service response too' }),
    ),
  },
  { additionalProperties: true },
);
const ServiceData = Type.Object(
  {},
  {
    additionalProperties: true,
    description: "The service's fields, and entity_id (a list or comma-separated) for entity services",
  },
);

export function registerServiceRoutes(app: App, { home, persist }: HttpDeps): void {
  app.get(
    '/api/services',
    {
      schema: {
        tags: TAGS,
        summary: 'Every service with its fields',
        response: { 200: ServiceDomains, ...errorResponses(401) },
      },
    },
    async () =>
      Object.entries(home.describeServices()).map(([domain, services]) => ({ domain, services })) as Static<
        typeof ServiceDomains
      >,
  );

  app.post(
    '/api/services/:domain/:service',
    {
      ...bodyCheckedByHandler(app),
      schema: {
        tags: TAGS,
        summary: 'Call a service; answers with the states it changed',
        params: CallParams,
        querystring: CallQuery,
        body: ServiceData,
        response: { 200: ServiceCallAnswer, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const body: unknown = request.body ?? {};
      if (body === INVALID_JSON || !isObject(body)) throw new HttpError(400, 'Data should be valid JSON.');
      const returnResponse = 'return_response' in (request.query ?? {});
      const { domain, service } = request.params;
      const context = home.context(request.homeUserId);
      const result = await home.callService(domain.toLowerCase(), service.toLowerCase(), body, {
        context,
        returnResponse,
      });
      await persist.commit();
      const changed = `[${result.changed.map((s) => s.json()).join(',')}]`;
      return sendJsonText(
        reply,
        returnResponse
          ? `{"changed_states":${changed},"service_response":${JSON.stringify(result.response ?? {})}}`
          : changed,
      );
    },
  );
}
