// /api/webhook/<id>: inbound webhooks (no token) that start the automations listening on them.
// An unknown id also answers 200 so ids cannot be probed; invalid JSON does not fire (HA).
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import type { Home } from '../core/home.js';
import { bodyCheckedByHandler, INVALID_JSON, rawBodyOf } from './body.js';
import { TAGS } from './deps.js';
import { errorResponses } from './envelope.js';
import { isLocalAddress } from './local-address.js';
import { Empty } from './schemas.js';

type WebhookRequest = FastifyRequest<{ Params: { webhook_id: string }; Querystring: Record<string, unknown> }>;

export function registerWebhookRoutes(app: App, home: Home): void {
  const handler = async (request: WebhookRequest, reply: FastifyReply) => {
    const webhook = home.webhooks.get(request.params.webhook_id);
    if (webhook) {
      if (!webhook.allowedMethods.includes(request.method) && request.method !== 'HEAD')
        throw new HttpError(405, 'Method not allowed');
      const local = isLocalAddress(request.ip);
      const body = request.body;
      const isJson = String(request.headers['content-type'] ?? '').includes('json');
      // HA's webhook trigger: a JSON content type gives `json`, anything else is read as a form (`data`).
      const form = isJson ? {} : Object.fromEntries(new URLSearchParams(rawBodyOf(request).trim()));
      if (!(isJson && body === INVALID_JSON) && (local || !webhook.localOnly) && request.method !== 'HEAD') {
        try {
          webhook.handle({
            method: request.method,
            json: isJson ? (body ?? {}) : {},
            data: form,
            query: request.query ?? {},
            headers: request.headers,
            local,
          });
        } catch (err) {
          request.log.error({ err, webhook: request.params.webhook_id }, 'webhook handler failed');
        }
      }
    }
    return reply.code(200).send();
  };
  const summary = 'Inbound webhook (no auth): triggers the automations that listen on it';
  const params = Type.Object({ webhook_id: Type.String() });
  const querystring = Type.Object({}, { additionalProperties: true });
  const response = { 200: Empty, ...errorResponses(405) };
  app.get('/api/webhook/:webhook_id', { schema: { tags: TAGS, summary, params, querystring, response } }, handler);
  app.route({
    method: ['POST', 'PUT'],
    url: '/api/webhook/:webhook_id',
    ...bodyCheckedByHandler(app),
    schema: {
      tags: TAGS,
      summary,
      params,
      querystring,
      body: Type.Unknown({ description: 'JSON, a form, or anything (passed to the trigger as json or data)' }),
      response,
    },
    handler,
  });
}
