// Lists that many read are answered from the response cache (see ../cache.ts) with an ETag.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedResponse } from '../cache.js';

/** The 304 a cached answer gives a client whose copy is current. */
export const NotModified = Type.Null({ description: 'Not modified: the ETag in If-None-Match is current' });

/** Sends a cached JSON body as it was serialized, answering 304 when the client already has it. */
export function sendCached(request: FastifyRequest, reply: FastifyReply, cached: CachedResponse) {
  reply.header('ETag', cached.etag).header('Cache-Control', 'public, max-age=0, must-revalidate');
  if (request.headers['if-none-match'] === cached.etag) return reply.code(304).send();
  return reply.type(cached.type).send(cached.body);
}
