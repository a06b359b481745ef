// /api/v1/projects and /api/v1/users: the one project and its owner of a self-hosted
// single-owner n8n (projects/owner.ts), in n8n's list shapes and offset cursors.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { InstanceOwner } from '../projects/owner.js';
import { encodeCursor, notFoundError, parseBool, offsetWindow } from './common.js';
import { errors, Page } from './schemas.js';

const open = { additionalProperties: true };

const Project = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.String({ description: "'personal'" }),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  open,
);
const User = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    isPending: Type.Boolean(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
    role: Type.Optional(Type.String({ description: "'global:owner', with includeRole=true" })),
  },
  open,
);
const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 250, description: 'default 100' })),
  cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page' })),
});
const UserListQuery = Type.Composite([
  ListQuery,
  Type.Object({ includeRole: Type.Optional(Type.Boolean()), projectId: Type.Optional(Type.String()) }),
]);

/** One page of a list that lives in memory, with n8n's `{limit, offset}` cursor. */
function offsetPage<T>(all: T[], rawLimit: unknown, rawCursor: unknown): { data: T[]; nextCursor: string | null } {
  const { limit, offset } = offsetWindow(rawLimit, rawCursor);
  return {
    data: all.slice(offset, offset + limit),
    nextCursor: all.length > offset + limit ? encodeCursor({ limit, offset: offset + limit }) : null,
  };
}

export function projectRoutes(app: App, d: { owner: InstanceOwner }): void {
  app.get(
    '/projects',
    {
      schema: {
        summary: "List projects (the owner's personal project)",
        tags: ['projects'],
        querystring: ListQuery,
        response: { 200: Page(Project), ...errors(400) },
      },
    },
    async (req) => {
      const q = req.query as Record<string, string | undefined>;
      return offsetPage([d.owner.projectJson()], q.limit, q.cursor);
    },
  );

  app.get(
    '/users',
    {
      schema: {
        summary: 'List users (the owner)',
        tags: ['users'],
        querystring: UserListQuery,
        response: { 200: Page(User), ...errors(400) },
      },
    },
    async (req) => {
      const q = req.query as Record<string, string | undefined>;
      const includeRole = parseBool('includeRole', q.includeRole) ?? false;
      const users = d.owner.matchesProject(q.projectId) ? [d.owner.userJson(includeRole)] : [];
      return offsetPage(users, q.limit, q.cursor);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/users/:id',
    {
      schema: {
        summary: 'Get a user by id or email',
        tags: ['users'],
        params: Type.Object({ id: Type.String({ description: 'id or email' }) }),
        querystring: Type.Object({ includeRole: Type.Optional(Type.Boolean()) }),
        response: { 200: User, ...errors(400, 404) },
      },
    },
    async (req) => {
      const includeRole =
        parseBool('includeRole', (req.query as Record<string, string | undefined>).includeRole) ?? false;
      if (!d.owner.isOwner(req.params.id)) throw notFoundError();
      return d.owner.userJson(includeRole);
    },
  );
}
