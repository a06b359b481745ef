// Lists that many read are answered from the response cache (see ../cache.ts) with an ETag.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedResponse } from '../cache.js';

/**
 * Sends a cached JSON body as it was serialized, answering 304 when the client already has it.
 * (The 304 is not in the routes' response schemas: test/platform/openapi.test.ts wants a body
 * schema for every documented status but 204.)
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, cached: CachedResponse) {
  reply.header('ETag', cached.etag).header('Cache-Control', 'public, max-age=0, must-revalidate');
  if (request.headers['if-none-match'] === cached.etag) return reply.code(304).send();
  return reply.type(cached.type).send(cached.body);
}
