// /api/v1/projects/{projectId}/folders: workflow folders (folders/service.ts) of the owner's
// project, addressed by its id or n8n's alias `personal`; any other project is n8n's 404.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { badRequest } from '../../../platform/errors.js';
import type { Folders } from '../folders/service.js';
import type { InstanceOwner } from '../projects/owner.js';
import { notFoundError, requireObjectBody } from './common.js';
import { errors } from './schemas.js';

const open = { additionalProperties: true };
const Folder = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    parentFolderId: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  open,
);
const FolderList = Type.Object({
  count: Type.Integer(),
  data: Type.Array(Type.Object({ id: Type.String(), name: Type.String() }, open)),
});
const ProjectParams = Type.Object({ projectId: Type.String({ description: "the owner's project id, or 'personal'" }) });
const FolderParams = Type.Object({ projectId: Type.String(), folderId: Type.String() });
const ListQuery = Type.Object({
  filter: Type.Optional(Type.String({ description: 'JSON {name?, parentFolderId?} (parentFolderId "0": the root)' })),
  select: Type.Optional(Type.String({ description: 'JSON array of fields (all are always answered)' })),
  sortBy: Type.Optional(Type.String({ description: 'name|createdAt|updatedAt:asc|desc, default updatedAt:desc' })),
  skip: Type.Optional(Type.Integer({ minimum: 0 })),
  take: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});
const SORTS = ['name:asc', 'name:desc', 'createdAt:asc', 'createdAt:desc', 'updatedAt:asc', 'updatedAt:desc'];

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min) throw badRequest(`request/query/${name} must be >= ${min}`);
  if (n > max) throw badRequest(`request/query/${name} must be <= ${max}`);
  return n;
}

function jsonQuery(name: string, raw: string | undefined): unknown {
  if (raw === undefined || raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest(`request/query/${name} must be valid JSON`);
  }
}

export function folderRoutes(app: App, d: { folders: Folders; owner: InstanceOwner }): void {
  const tags = ['folders'];
  /** The project a path names: the owner's (by id or `personal`), else 404. */
  const project = (id: string) => {
    if (id === 'personal' || id === d.owner.projectId) return d.owner.projectId;
    throw notFoundError();
  };

  app.post<{ Params: { projectId: string } }>(
    '/projects/:projectId/folders',
    {
      schema: {
        summary: 'Create a folder',
        tags,
        params: ProjectParams,
        body: Type.Object({ name: Type.String(), parentFolderId: Type.Optional(Type.String()) }),
        response: { 201: Folder, ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      const projectId = project(req.params.projectId);
      const body = requireObjectBody(req.body);
      return reply.code(201).send(await d.folders.create(projectId, body.name, body.parentFolderId));
    },
  );

  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId/folders',
    {
      schema: {
        summary: 'List folders (with counts and path)',
        tags,
        params: ProjectParams,
        querystring: ListQuery,
        response: { 200: FolderList, ...errors(400, 404) },
      },
    },
    async (req) => {
      const projectId = project(req.params.projectId);
      const q = req.query as Record<string, string | undefined>;
      const filter = jsonQuery('filter', q.filter) ?? {};
      if (typeof filter !== 'object' || filter === null || Array.isArray(filter))
        throw badRequest('request/query/filter must be an object');
      const select = jsonQuery('select', q.select);
      if (select !== undefined && !Array.isArray(select)) throw badRequest('request/query/select must be an array');
      const sortBy = q.sortBy ?? 'updatedAt:desc';
      if (!SORTS.includes(sortBy)) throw badRequest(`request/query/sortBy must be one of ${SORTS.join(', ')}`);
      const f = filter as Record<string, unknown>;
      return d.folders.list(projectId, {
        name: f.name === undefined ? undefined : String(f.name),
        parentFolderId: f.parentFolderId === undefined ? undefined : String(f.parentFolderId),
        sortBy,
        skip: integer('skip', q.skip, 0, 0, 1_000_000),
        take: integer('take', q.take, 10, 1, 1000),
      });
    },
  );

  app.get<{ Params: { projectId: string; folderId: string } }>(
    '/projects/:projectId/folders/:folderId',
    {
      schema: {
        summary: 'Get a folder with its recursive totals',
        tags,
        params: FolderParams,
        response: { 200: Folder, ...errors(404) },
      },
    },
    async (req) => d.folders.get(project(req.params.projectId), req.params.folderId),
  );

  app.patch<{ Params: { projectId: string; folderId: string } }>(
    '/projects/:projectId/folders/:folderId',
    {
      schema: {
        summary: "Rename a folder or move it ('0': the root)",
        tags,
        params: FolderParams,
        body: Type.Object({
          name: Type.Optional(Type.String()),
          parentFolderId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        }),
        response: { 200: Folder, ...errors(400, 404) },
      },
    },
    async (req) => d.folders.update(project(req.params.projectId), req.params.folderId, requireObjectBody(req.body)),
  );

  app.delete<{ Params: { projectId: string; folderId: string } }>(
    '/projects/:projectId/folders/:folderId',
    {
      schema: {
        summary: "Delete a folder (its sub-folders go too, unless moved to transferToFolderId; '0': the root)",
        tags,
        params: FolderParams,
        querystring: Type.Object({ transferToFolderId: Type.Optional(Type.String()) }),
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      await d.folders.delete(
        project(req.params.projectId),
        req.params.folderId,
        (req.query as Record<string, string | undefined>).transferToFolderId,
      );
      return reply.code(204).send();
    },
  );
}
