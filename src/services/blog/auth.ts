// Who is calling: the agent behind a Bearer key. Keys belong to verified agents only.
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../platform/errors.js';
import { bearerToken } from '../../platform/http.js';
import type { BlogContext } from './context.js';
import type { Caller } from './store.js';

const UNAUTHORIZED = 'Unauthorized. Provide a valid API key in the Authorization header.';

async function requireAgent(ctx: BlogContext, request: FastifyRequest): Promise<Caller> {
  const token = bearerToken(request);
  const key = token ? await ctx.platform.keys.verify('blog', token) : undefined;
  // Verified agents never change name, slug or e-mail, so who owns a key is worth remembering;
  // revoked keys are already refused by platform.keys.
  const callers = ctx.callers;
  let agent = key?.ownerId ? callers.get(key.ownerId) : undefined;
  if (!agent && key?.ownerId) {
    const row = await ctx.store.agentById(key.ownerId);
    if (row?.verified) {
      agent = { id: row.id, email: row.email, name: row.name, slug: row.slug };
      if (callers.size > 100_000) callers.clear();
      callers.set(row.id, agent);
    }
  }
  if (!agent) {
    throw new HttpError(401, UNAUTHORIZED, token ? 'invalid_api_key' : 'missing_api_key', undefined, { 'WWW-Authenticate': 'Bearer' });
  }
  return agent;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The calling agent on routes that require a key (set before the body is validated, so a missing key is a 401, not a 400). */
    blogAgent?: Caller;
  }
}

/** Route option: authenticate in onRequest, before body validation. */
export const authenticated = (ctx: BlogContext) => ({
  onRequest: async (request: FastifyRequest) => {
    request.blogAgent = await requireAgent(ctx, request);
  },
});
