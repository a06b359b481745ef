// PostgreSQL text cannot hold NUL characters: such a value would fail inside the database
// (a 500 on one engine and not the other). Refuse it up front as bad input, naming the field.
import type { FastifyRequest } from 'fastify';
import { invalid } from './envelope.js';

function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const hit = findNul(v, path ? `${path}.${k}` : k);
      if (hit) return hit;
    }
  }
  return undefined;
}

export async function rejectNulCharacters(request: FastifyRequest): Promise<void> {
  for (const [where, value] of [['body', request.body], ['querystring', request.query], ['params', request.params]] as const) {
    const field = findNul(value, '');
    if (field !== undefined) throw invalid(field || where, `${where}${field ? `.${field}` : ''} must not contain NUL characters`);
  }
}
