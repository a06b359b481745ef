// /api/v1/variables: n8n's variables (read in expressions as $vars.KEY). As n8n's public API:
// create answers 201 and update/delete 204, all without a body; lists use offset cursors.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { badRequest } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/clock.js';
import { randomBase62 } from '../../../platform/ids.js';
import type { InstanceOwner } from '../projects/owner.js';
import type { ApiStore, VariableRow } from '../store/api-store.js';
import type { Variables } from '../variables/variables.js';
import { encodeCursor, notFoundError, requireObjectBody, offsetWindow } from './common.js';
import { errors, IdParams, Page } from './schemas.js';

const open = { additionalProperties: true };
const Variable = Type.Object(
  {
    id: Type.String(),
    key: Type.String(),
    value: Type.String(),
    type: Type.String({ description: "'string'" }),
    project: Type.Union([Type.Object({}, open), Type.Null()]),
  },
  open,
);
const VariableBody = Type.Object(
  {
    key: Type.String({ maxLength: 50, pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
    value: Type.String({ maxLength: 1000 }),
    projectId: Type.Optional(Type.String({ description: "the owner's project (the only one)" })),
  },
  { additionalProperties: false },
);
const VariableListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 250, description: 'default 100' })),
  cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page' })),
  projectId: Type.Optional(Type.String()),
  state: Type.Optional(Type.Literal('empty', { description: 'only variables whose value is empty' })),
});
const NoBody = Type.Null({ description: 'No body (n8n answers 201 empty)' });

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEY_MAX = 50;
const VALUE_MAX = 1000;

function variableToApi(v: VariableRow) {
  return { id: v.id, key: v.key, value: v.value, type: v.type, project: null };
}

/** The checked fields of a variable body; `partial` (PATCH) allows either alone. */
function readBody(raw: unknown, owner: InstanceOwner, partial: boolean): { key?: string; value?: string } {
  const body = requireObjectBody(raw);
  for (const k of Object.keys(body))
    if (!['key', 'value', 'projectId', 'type'].includes(k))
      throw badRequest('request/body must NOT have additional properties');
  if (!partial)
    for (const p of ['key', 'value'])
      if (body[p] === undefined) throw badRequest(`request/body must have required property '${p}'`);
  if (body.key !== undefined) {
    if (typeof body.key !== 'string') throw badRequest('request/body/key must be string');
    if (body.key.length > KEY_MAX) throw badRequest(`request/body/key must NOT have more than ${KEY_MAX} characters`);
    if (!KEY.test(body.key))
      throw badRequest('request/body/key can only contain letters, numbers (not as first character), and underscores');
  }
  if (body.value !== undefined) {
    if (typeof body.value !== 'string') throw badRequest('request/body/value must be string');
    if (body.value.length > VALUE_MAX)
      throw badRequest(`request/body/value must NOT have more than ${VALUE_MAX} characters`);
  }
  // Only string variables exist (n8n's type); one project, which every variable belongs to.
  if (body.type !== undefined && body.type !== 'string')
    throw badRequest('request/body/type must be equal to one of the allowed values: string');
  if (body.projectId !== undefined && body.projectId !== null && !owner.matchesProject(String(body.projectId)))
    throw notFoundError();
  return { key: body.key, value: body.value };
}

export function variableRoutes(
  app: App,
  d: { store: ApiStore; variables: Variables; owner: InstanceOwner; clock: Clock },
): void {
  app.get(
    '/variables',
    {
      schema: {
        summary: 'List variables',
        tags: ['variables'],
        querystring: VariableListQuery,
        response: { 200: Page(Variable), ...errors(400) },
      },
    },
    async (req) => {
      const q = req.query as Record<string, string | undefined>;
      const { limit, offset } = offsetWindow(q.limit, q.cursor);
      if (q.state !== undefined && q.state !== 'empty')
        throw badRequest('request/query/state must be equal to one of the allowed values: empty');
      if (!d.owner.matchesProject(q.projectId)) return { data: [], nextCursor: null };
      const rows = await d.store.listVariables(limit + 1, offset, q.state === 'empty');
      return {
        data: rows.slice(0, limit).map(variableToApi),
        nextCursor: rows.length > limit ? encodeCursor({ limit, offset: offset + limit }) : null,
      };
    },
  );

  app.post(
    '/variables',
    {
      schema: {
        summary: 'Create a variable (201, no body, as n8n)',
        tags: ['variables'],
        body: VariableBody,
        response: { 201: NoBody, ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      const { key, value } = readBody(req.body, d.owner, false);
      const now = d.clock.now().toISOString();
      await d.store.insertVariable({
        id: randomBase62(16),
        key: key!,
        value: value!,
        type: 'string',
        created_at: now,
        updated_at: now,
      });
      d.variables.changed();
      return reply.code(201).send(undefined as never);
    },
  );

  const update =
    (partial: boolean) => async (req: { params: unknown; body: unknown }, reply: import('fastify').FastifyReply) => {
      const { id } = req.params as { id: string };
      const current = await d.store.getVariable(id);
      if (!current) throw notFoundError();
      const { key, value } = readBody(req.body, d.owner, partial);
      await d.store.updateVariable(id, {
        key: key ?? current.key,
        value: value ?? current.value,
        updated_at: d.clock.now().toISOString(),
      });
      d.variables.changed();
      return reply.code(204).send(undefined);
    };
  app.put(
    '/variables/:id',
    {
      schema: {
        summary: 'Replace a variable (204, no body, as n8n)',
        tags: ['variables'],
        params: IdParams,
        body: VariableBody,
        response: { 204: NoBody, ...errors(400, 404) },
      },
    },
    update(false),
  );
  app.patch(
    '/variables/:id',
    {
      schema: {
        summary: "Change a variable's key or value (204)",
        tags: ['variables'],
        params: IdParams,
        body: Type.Partial(VariableBody),
        response: { 204: NoBody, ...errors(400, 404) },
      },
    },
    update(true),
  );

  app.delete(
    '/variables/:id',
    {
      schema: {
        summary: 'Delete a variable (204, no body, as n8n)',
        tags: ['variables'],
        params: IdParams,
        response: { 204: NoBody, ...errors(404) },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      if (!(await d.store.getVariable(id))) throw notFoundError();
      await d.store.deleteVariable(id);
      d.variables.changed();
      return reply.code(204).send(undefined as never);
    },
  );
}
