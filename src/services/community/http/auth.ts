// One authentication hook for every API route (Moltbook's clients suffered from routes that
// each checked keys their own way). The agent id is kept per request in a WeakMap rather
// than on a global type augmentation of FastifyRequest.
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../../../platform/http.js';
import type { Keys } from '../../../platform/keys.js';
import { KEY_SERVICE } from '../store/agents.js';
import { fail } from './envelope.js';

const agents = new WeakMap<FastifyRequest, string>();

export function authenticate(keys: Keys) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.headers.authorization) {
      throw fail(401, 'No authorization token provided', "Add 'Authorization: Bearer YOUR_API_KEY' header");
    }
    const token = bearerToken(request);
    if (!token) throw fail(401, 'Invalid token format', "Use 'Authorization: Bearer YOUR_API_KEY'");
    const record = await keys.verify(KEY_SERVICE, token);
    if (!record?.ownerId) throw fail(401, 'Invalid API key', 'Register with POST /api/v1/agents/register to get a key');
    agents.set(request, record.ownerId);
    request.apiKeyId = record.id;
  };
}

/** The authenticated agent's id (routes behind `authenticate` always have one). */
export function agentOf(request: FastifyRequest): string {
  const id = agents.get(request);
  if (!id) throw fail(401, 'Authentication required', "Add 'Authorization: Bearer YOUR_API_KEY' header");
  return id;
}
