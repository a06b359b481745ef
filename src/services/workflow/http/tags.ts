// /api/v1/tags: n8n's tag CRUD.
import type { App } from '../../../platform/http.js';
import { badRequest } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/clock.js';
import { randomBase62 } from '../../../platform/ids.js';
import type { WorkflowStore } from '../store/index.js';
import { tagToApi } from '../workflows/model.js';
import type { ListCache } from '../workflows/list-cache.js';
import { encodeCursor, notFoundError, requireObjectBody, offsetWindow } from './common.js';
import { errors, IdParams, Page, Tag, TagBody, TagListQuery } from './schemas.js';

function tagName(body: unknown): string {
  const b = requireObjectBody(body);
  if (b.name === undefined) throw badRequest("request/body must have required property 'name'");
  if (typeof b.name !== 'string' || !b.name.trim()) throw badRequest('request/body/name must be string');
  if (b.name.length > 24) throw badRequest('request/body/name must NOT have more than 24 characters');
  return b.name.trim();
}

export function tagRoutes(app: App, d: { store: WorkflowStore; clock: Clock; lists: ListCache }): void {
  app.post(
    '/tags',
    { schema: { summary: 'Create a tag', tags: ['tags'], body: TagBody, response: { 201: Tag, ...errors(400, 409) } } },
    async (req, reply) => {
      const name = tagName(req.body);
      const now = d.clock.now().toISOString();
      const row = { id: randomBase62(16), name, created_at: now, updated_at: now };
      await d.store.insertTag(row);
      return reply.code(201).send(tagToApi(row));
    },
  );

  app.get(
    '/tags',
    {
      schema: {
        summary: 'List tags',
        tags: ['tags'],
        querystring: TagListQuery,
        response: { 200: Page(Tag), ...errors(400) },
      },
    },
    async (req) => {
      const q = req.query as Record<string, string | undefined>;
      const { limit, offset } = offsetWindow(q.limit, q.cursor);
      const rows = await d.store.listTags(limit + 1, offset);
      return {
        data: rows.slice(0, limit).map(tagToApi),
        nextCursor: rows.length > limit ? encodeCursor({ limit, offset: offset + limit }) : null,
      };
    },
  );

  const load = async (id: string) => {
    const t = await d.store.getTag(id);
    if (!t) throw notFoundError();
    return t;
  };

  app.get<{ Params: { id: string } }>(
    '/tags/:id',
    { schema: { summary: 'Get a tag', tags: ['tags'], params: IdParams, response: { 200: Tag, ...errors(404) } } },
    async (req) => tagToApi(await load(req.params.id)),
  );

  app.put<{ Params: { id: string } }>(
    '/tags/:id',
    {
      schema: {
        summary: 'Rename a tag',
        tags: ['tags'],
        params: IdParams,
        body: TagBody,
        response: { 200: Tag, ...errors(400, 404, 409) },
      },
    },
    async (req) => {
      const tag = await load(req.params.id);
      const name = tagName(req.body);
      const now = d.clock.now().toISOString();
      await d.store.updateTag(tag.id, name, now);
      d.lists.invalidate();
      return tagToApi({ ...tag, name, updated_at: now });
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/tags/:id',
    { schema: { summary: 'Delete a tag', tags: ['tags'], params: IdParams, response: { 200: Tag, ...errors(404) } } },
    async (req) => {
      const tag = await load(req.params.id);
      await d.store.deleteTag(tag.id);
      d.lists.invalidate();
      return tagToApi(tag);
    },
  );
}
