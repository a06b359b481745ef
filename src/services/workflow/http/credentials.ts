// /api/v1/credentials: n8n's credential API. Data goes in and is never shown again (stored
// encrypted, credentials/cipher.ts); answers carry the id, name, type, dates and `shared`.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { badRequest } from '../../../platform/errors.js';
import type { Credentials } from '../credentials/credentials.js';
import {
  CREDENTIAL_TYPES,
  credentialDataProblem,
  credentialSchema,
  knownCredentialType,
} from '../credentials/types.js';
import type { InstanceOwner } from '../projects/owner.js';
import type { ApiStore, CredentialRow } from '../store/api-store.js';
import { encodeCursor, notFoundError, requireObjectBody, requireProps, offsetWindow } from './common.js';
import { errors, IdParams, Page } from './schemas.js';

const open = { additionalProperties: true };
const Credential = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.String(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
    isManaged: Type.Boolean(),
    shared: Type.Unknown({
      description: "[{role: 'credential:owner', projectId, project, createdAt, updatedAt, credentialsId}]",
    }),
  },
  open,
);
const CredentialBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128 }),
    type: Type.String({ description: `one of: ${Object.keys(CREDENTIAL_TYPES).join(', ')}` }),
    data: Type.Object({}, { ...open, description: 'the fields of GET /credentials/schema/{type}' }),
    projectId: Type.Optional(Type.String()),
  },
  open,
);
const CredentialPatch = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    type: Type.Optional(Type.String()),
    data: Type.Optional(Type.Object({}, open)),
    isPartialData: Type.Optional(Type.Boolean({ description: 'merge data into the stored fields' })),
  },
  open,
);
const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 250, description: 'default 100' })),
  cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page' })),
});

const BODY_KEYS = ['name', 'type', 'data', 'projectId', 'isResolvable', 'isPartialData'];

function checkType(type: unknown): string {
  if (typeof type !== 'string') throw badRequest('request/body/type must be string');
  if (!knownCredentialType(type))
    throw badRequest(
      `req.body.type is not a known type: '${type}' (this instance knows ${Object.keys(CREDENTIAL_TYPES).join(', ')})`,
    );
  return type;
}

function checkData(type: string, data: unknown, partial: boolean): Record<string, unknown> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw badRequest('request/body/data must be object');
  const problem = credentialDataProblem(type, data as Record<string, unknown>, partial);
  if (problem) throw badRequest(problem);
  return data as Record<string, unknown>;
}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !name.trim()) throw badRequest('request/body/name must be string');
  if (name.length > 128) throw badRequest('request/body/name must NOT have more than 128 characters');
  return name;
}

export function credentialRoutes(
  app: App,
  d: { credentials: Credentials; store: ApiStore; owner: InstanceOwner },
): void {
  const toApi = (c: Omit<CredentialRow, 'data'>) => ({
    id: c.id,
    name: c.name,
    type: c.type,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
    isManaged: false,
    isGlobal: false,
    isResolvable: false,
    shared: d.owner.shared('credential', c.id, c.created_at, c.updated_at),
  });
  const load = async (id: string) => {
    const row = await d.store.getCredential(id);
    if (!row) throw notFoundError();
    return row;
  };
  const onlyKnownKeys = (body: Record<string, unknown>) => {
    for (const k of Object.keys(body))
      if (!BODY_KEYS.includes(k)) throw badRequest('request/body must NOT have additional properties');
    if (body.projectId !== undefined && !d.owner.matchesProject(String(body.projectId))) throw notFoundError();
    // A resolvable (per-user) credential is an n8n enterprise feature this instance does not have.
    if (body.isResolvable === true)
      throw badRequest('request/body/isResolvable: resolvable credentials are not supported');
  };

  // A credential's data is secret whatever its fields are called (a header auth's `value`): the trace keeps none of it.
  const secretData = { traceSecretFields: ['data'] };

  app.post(
    '/credentials',
    {
      schema: {
        summary: 'Create a credential (its data is stored encrypted and never returned)',
        tags: ['credentials'],
        body: CredentialBody,
        response: { 200: Credential, ...errors(400, 404) },
      },
      config: secretData,
    },
    async (req) => {
      const body = requireObjectBody(req.body);
      requireProps(body, ['name', 'type', 'data']);
      onlyKnownKeys(body);
      const name = checkName(body.name);
      const type = checkType(body.type);
      return toApi(await d.credentials.create({ name, type, data: checkData(type, body.data, false) }));
    },
  );

  app.get(
    '/credentials',
    {
      schema: {
        summary: 'List credentials (without their data)',
        tags: ['credentials'],
        querystring: ListQuery,
        response: { 200: Page(Credential), ...errors(400) },
      },
    },
    async (req) => {
      const q = req.query as Record<string, string | undefined>;
      const { limit, offset } = offsetWindow(q.limit, q.cursor);
      const rows = await d.store.listCredentials(limit + 1, offset);
      return {
        data: rows.slice(0, limit).map(toApi),
        nextCursor: rows.length > limit ? encodeCursor({ limit, offset: offset + limit }) : null,
      };
    },
  );

  app.get<{ Params: { type: string } }>(
    '/credentials/schema/:type',
    {
      schema: {
        summary: "A credential type's data schema (JSON schema)",
        tags: ['credentials'],
        params: Type.Object({ type: Type.String() }),
        response: { 200: Type.Object({}, open), ...errors(404) },
      },
    },
    async (req) => {
      if (!knownCredentialType(req.params.type)) throw notFoundError();
      return credentialSchema(req.params.type);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/credentials/:id',
    {
      schema: {
        summary: 'Get a credential (without its data)',
        tags: ['credentials'],
        params: IdParams,
        response: { 200: Credential, ...errors(404) },
      },
    },
    async (req) => toApi(await load(req.params.id)),
  );

  app.patch<{ Params: { id: string } }>(
    '/credentials/:id',
    {
      schema: {
        summary: 'Change a credential',
        tags: ['credentials'],
        params: IdParams,
        body: CredentialPatch,
        response: { 200: Credential, ...errors(400, 404) },
      },
      config: secretData,
    },
    async (req) => {
      const row = await load(req.params.id);
      const body = requireObjectBody(req.body);
      onlyKnownKeys(body);
      const name = body.name === undefined ? undefined : checkName(body.name);
      const type = body.type === undefined ? undefined : checkType(body.type);
      const partial = body.isPartialData === true;
      if (type && type !== row.type && body.data === undefined)
        throw badRequest("request/body must have required property 'data' when the type changes");
      let data: Record<string, unknown> | undefined;
      if (body.data !== undefined) {
        data = checkData(type ?? row.type, body.data, partial);
        // A merge must still give a complete credential of its type.
        if (partial) {
          const problem = credentialDataProblem(type ?? row.type, { ...d.credentials.clearData(row), ...data });
          if (problem) throw badRequest(problem);
        }
      }
      return toApi(await d.credentials.update(row, { name, type, data }, partial));
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/credentials/:id',
    {
      schema: {
        summary: 'Delete a credential',
        tags: ['credentials'],
        params: IdParams,
        response: { 200: Credential, ...errors(404) },
      },
    },
    async (req) => {
      const row = await load(req.params.id);
      await d.store.deleteCredential(row.id);
      return toApi(row);
    },
  );
}
