// Who is calling: the agent behind a Bearer key. Keys belong to verified agents only.
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../platform/errors.js';
import { bearerToken } from '../../platform/http.js';
import type { BlogContext } from './context.js';
import type { AgentRow } from './store.js';

export const UNAUTHORIZED = 'Unauthorized. Provide a valid API key in the Authorization header.';

export async function requireAgent(ctx: BlogContext, request: FastifyRequest): Promise<AgentRow> {
  const token = bearerToken(request);
  const key = token ? await ctx.platform.keys.verify('blog', token) : undefined;
  const agent = key?.ownerId ? await ctx.store.agentById(key.ownerId) : undefined;
  if (!agent || !agent.verified) {
    throw new HttpError(401, UNAUTHORIZED, token ? 'invalid_api_key' : 'missing_api_key', undefined, { 'WWW-Authenticate': 'Bearer' });
  }
  return agent;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The calling agent on routes that require a key (set before the body is validated, so a missing key is a 401, not a 400). */
    blogAgent?: AgentRow;
  }
}

/** Route option: authenticate in onRequest, before body validation. */
export const authenticated = (ctx: BlogContext) => ({
  onRequest: async (request: FastifyRequest) => {
    request.blogAgent = await requireAgent(ctx, request);
  },
});
