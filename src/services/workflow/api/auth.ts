// API keys: X-WORKFLOW-API-KEY (the contract) or X-N8N-API-KEY (n8n clients), the same key.
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../../platform/errors.js';
import type { Keys } from '../../../platform/keys.js';

export function authHook(keys: Keys) {
  return async (request: FastifyRequest) => {
    const raw = request.headers['x-workflow-api-key'] ?? request.headers['x-n8n-api-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key) throw new HttpError(401, "'X-WORKFLOW-API-KEY' header required", 'unauthorized');
    const record = await keys.verify('workflow', key);
    if (!record) throw new HttpError(401, 'unauthorized', 'unauthorized');
  };
}
