// /api/v1/tags: n8n's tag CRUD.
import type { App } from '../../../platform/http.js';
import { isUniqueViolation } from '../../../platform/db.js';
import { HttpError, badRequest } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/clock.js';
import { randomBase62 } from '../../../platform/ids.js';
import type { WorkflowStore } from '../store.js';
import { tagToApi } from '../workflows/model.js';
import type { ListCache } from '../workflows/list-cache.js';
import { decodeCursor, encodeCursor, notFoundError, parseLimit, requireObjectBody } from './common.js';

const exists = () => new HttpError(409, 'Tag already exists', 'conflict');

function tagName(body: unknown): string {
  const b = requireObjectBody(body);
  if (b.name === undefined) throw badRequest("request/body must have required property 'name'");
  if (typeof b.name !== 'string' || !b.name.trim()) throw badRequest('request/body/name must be string');
  if (b.name.length > 24) throw badRequest('request/body/name must NOT have more than 24 characters');
  return b.name.trim();
}

export function tagRoutes(app: App, d: { store: WorkflowStore; clock: Clock; lists: ListCache }): void {
  app.post('/tags', { schema: { summary: 'Create a tag', tags: ['tags'] } }, async (req, reply) => {
    const name = tagName(req.body);
    const now = d.clock.now().toISOString();
    const row = { id: randomBase62(16), name, created_at: now, updated_at: now };
    try {
      await d.store.insertTag(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw exists();
      throw err;
    }
    return reply.code(201).send(tagToApi(row));
  });

  app.get('/tags', { schema: { summary: 'List tags', tags: ['tags'] } }, async (req) => {
    const q = req.query as Record<string, string | undefined>;
    let limit = parseLimit(q.limit);
    let offset = 0;
    if (q.cursor) {
      const c = decodeCursor<{ limit: number; offset: number }>(q.cursor, (v) => Number.isInteger(v.limit) && Number.isInteger(v.offset) && (v.limit as number) > 0);
      limit = Math.min(c.limit, 250);
      offset = c.offset;
    }
    const rows = await d.store.listTags(limit + 1, offset);
    return { data: rows.slice(0, limit).map(tagToApi), nextCursor: rows.length > limit ? encodeCursor({ limit, offset: offset + limit }) : null };
  });

  const load = async (id: string) => {
    const t = await d.store.getTag(id);
    if (!t) throw notFoundError();
    return t;
  };

  app.get<{ Params: { id: string } }>('/tags/:id', { schema: { summary: 'Get a tag', tags: ['tags'] } }, async (req) => tagToApi(await load(req.params.id)));

  app.put<{ Params: { id: string } }>('/tags/:id', { schema: { summary: 'Rename a tag', tags: ['tags'] } }, async (req) => {
    const tag = await load(req.params.id);
    const name = tagName(req.body);
    const now = d.clock.now().toISOString();
    try {
      await d.store.updateTag(tag.id, name, now);
    } catch (err) {
      if (isUniqueViolation(err)) throw exists();
      throw err;
    }
    d.lists.invalidate();
    return tagToApi({ ...tag, name, updated_at: now });
  });

  app.delete<{ Params: { id: string } }>('/tags/:id', { schema: { summary: 'Delete a tag', tags: ['tags'] } }, async (req) => {
    const tag = await load(req.params.id);
    await d.store.deleteTag(tag.id);
    d.lists.invalidate();
    return tagToApi(tag);
  });
}
