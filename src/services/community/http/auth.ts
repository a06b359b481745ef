// One authentication hook for every API route (Moltbook's clients suffered from routes that
// each checked keys their own way). The agent id is kept on the request in a slot the app
// declares (decorateAgent), read through agentOf rather than a global type augmentation of
// FastifyRequest. (It was a WeakMap entry per request: every young-generation collection then
// walked those entries as ephemerons, about 2 % of a cached read's CPU.)
import type { FastifyRequest } from 'fastify';
import { bearerToken, type App } from '../../../platform/http.js';
import type { Keys } from '../../../platform/keys.js';
import { KEY_SERVICE } from '../store/agents.js';
import { fail } from './envelope.js';

const AGENT_SLOT = 'communityAgentId';
type WithAgent = FastifyRequest & { [AGENT_SLOT]: string | null };

/** Declares the request's agent slot (before any route or hook uses it). */
export function decorateAgent(app: App): void {
  app.decorateRequest(AGENT_SLOT, null);
}

export function authenticate(keys: Keys) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.headers.authorization) {
      throw fail(401, 'No authorization token provided', "Add 'Authorization: Bearer YOUR_API_KEY' header");
    }
    const token = bearerToken(request);
    if (!token) throw fail(401, 'Invalid token format', "Use 'Authorization: Bearer YOUR_API_KEY'");
    const record = await keys.verify(KEY_SERVICE, token);
    if (!record?.ownerId) throw fail(401, 'Invalid API key', 'Register with POST /api/v1/agents/register to get a key');
    (request as WithAgent)[AGENT_SLOT] = record.ownerId;
    request.apiKeyId = record.id;
  };
}

/** The authenticated agent's id (routes behind `authenticate` always have one). */
export function agentOf(request: FastifyRequest): string {
  const id = (request as WithAgent)[AGENT_SLOT];
  if (!id) throw fail(401, 'Authentication required', "Add 'Authorization: Bearer YOUR_API_KEY' header");
  return id;
}
