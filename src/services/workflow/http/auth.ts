// API keys: X-WORKFLOW-API-KEY (the contract) or X-N8N-API-KEY (n8n clients), the same key.
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../../platform/errors.js';
import type { Keys } from '../../../platform/keys.js';

export function authHook(keys: Keys) {
  return async (request: FastifyRequest) => {
    const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;
    const key = first(request.headers['x-workflow-api-key']) ?? first(request.headers['x-n8n-api-key']);
    if (!key) throw new HttpError(401, "'X-WORKFLOW-API-KEY' header required", 'unauthorized');
    const record = await keys.verify('workflow', key);
    if (!record) throw new HttpError(401, 'unauthorized', 'unauthorized');
    request.apiKeyId = record.id;
  };
}
