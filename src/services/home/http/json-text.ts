// Answers made of JSON text computed elsewhere (a state's cached JSON, history spliced from
// stored rows). Fastify sends a string with a JSON content type as it is, so the route's
// response schema documents these answers without re-serializing them.
import type { FastifyReply } from 'fastify';

const JSON_TYPE = 'application/json; charset=utf-8';

export const sendJsonText = (reply: FastifyReply, text: string) => reply.type(JSON_TYPE).send(text);
