// /api/v1/workflows: the contract's CRUD, PATCH and /execute, plus n8n's activate,
// deactivate, PUT and tags.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { badRequest } from '../../../platform/errors.js';
import type { Item } from '../expressions/api.js';
import type { Runner } from '../executions/runner.js';
import { executionWithDataText } from '../executions/format.js';
import type { WorkflowStore, WorkflowRow } from '../store/index.js';
import { workflowToApi, tagToApi, type WorkflowCache } from '../workflows/model.js';
import type { ListCache } from '../workflows/list-cache.js';
import type { WorkflowWrites } from '../workflows/service.js';
import type { InstanceOwner } from '../projects/owner.js';
import { findStartNode, triggerKind } from '../workflows/triggers.js';
import { nodeRegistry, unknownNodeType } from '../nodes/registry.js';
import type { Clock } from '../../../platform/clock.js';
import { executeInput } from './execute-input.js';
import {
  encodeCursor,
  notFoundError,
  parseBool,
  requireObjectBody,
  requireProps,
  sendJsonText,
  offsetWindow,
} from './common.js';
import {
  errors,
  ExecuteBody,
  Execution,
  IdParams,
  Page,
  Tag,
  TagRefs,
  TransferBody,
  Workflow,
  WorkflowBody,
  WorkflowCreateQuery,
  WorkflowListQuery,
  WorkflowPatch,
} from './schemas.js';

export interface WorkflowRoutesDeps {
  store: WorkflowStore;
  writes: WorkflowWrites;
  cache: WorkflowCache;
  runner: Runner;
  lists: ListCache;
  owner: InstanceOwner;
  baseUrl(): string;
  /** The server's clock and default time zone: a schedule trigger's manual item reads them. */
  clock: Clock;
  timezone: string;
}

type Params = { id: string };

export function workflowRoutes(app: App, d: WorkflowRoutesDeps): void {
  const load = async (id: string): Promise<WorkflowRow> => {
    const row = await d.store.getWorkflow(id);
    if (!row) throw notFoundError();
    return row;
  };
  /** Tag references `[{id}]` (PATCH also takes plain ids); an unknown id is 404 on /tags, 400 in a PATCH body. */
  const checkTagRefs = async (refs: unknown, where: string, unknownTag?: () => Error): Promise<string[]> => {
    if (!Array.isArray(refs)) throw badRequest(`${where} must be array`);
    const ids: string[] = [];
    for (const [i, t] of (refs as unknown[]).entries()) {
      const id = typeof t === 'string' && where !== 'request/body' ? t : (t as { id?: unknown })?.id;
      if (typeof id !== 'string') throw badRequest(`${where}/${i} must have required property 'id'`);
      if (!(await d.store.getTag(id)))
        throw unknownTag ? unknownTag() : badRequest(`${where}/${i}: no tag has the id '${id}'`);
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  };
  const sharedOf = (row: WorkflowRow) => d.owner.shared('workflow', row.id, row.created_at, row.updated_at);
  const show = async (row: WorkflowRow) =>
    workflowToApi(row, (await d.store.tagsOf([row.id])).get(row.id) ?? [], sharedOf(row));

  app.get(
    '/workflows',
    {
      schema: {
        summary: 'List workflows',
        tags: ['workflows'],
        querystring: WorkflowListQuery,
        response: { 200: Page(Workflow), ...errors(400) },
      },
    },
    async (req, reply) => {
      const key = req.url.slice(req.url.indexOf('?') + 1);
      const cached = d.lists.get(key);
      if (cached) return sendJsonText(reply, cached);
      const generation = d.lists.generation;
      const q = req.query as Record<string, string | undefined>;
      const { limit, offset } = offsetWindow(q.limit, q.cursor);
      const active = parseBool('active', q.active);
      const tagNames = q.tags
        ? q.tags
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean)
        : undefined;
      // One project owns every workflow: its id filters nothing out, any other id everything.
      const rows = d.owner.matchesProject(q.projectId)
        ? await d.store.listWorkflows({ active, name: q.name, tagNames, limit: limit + 1, offset })
        : [];
      const page = rows.slice(0, limit);
      const tags = await d.store.tagsOf(page.map((r) => r.id));
      const excludePinned = parseBool('excludePinnedData', q.excludePinnedData);
      const body = JSON.stringify({
        data: page.map((r) => {
          const w = workflowToApi(r, tags.get(r.id) ?? [], sharedOf(r));
          if (!excludePinned) return w;
          const { pinData: _pinData, ...withoutPinData } = w;
          return withoutPinData;
        }),
        nextCursor: rows.length > limit ? encodeCursor({ limit, offset: offset + limit }) : null,
      });
      d.lists.set(key, body, generation);
      return sendJsonText(reply, body);
    },
  );

  app.post<{ Querystring: { keepId?: unknown } }>(
    '/workflows',
    {
      schema: {
        summary: 'Create a workflow (an n8n export imports unchanged)',
        tags: ['workflows'],
        querystring: WorkflowCreateQuery,
        body: WorkflowBody,
        response: { 200: Workflow, ...errors(400, 409) },
      },
    },
    async (req) => {
      const body = requireObjectBody(req.body);
      // Placement asked by n8n clients (n8n-mcp sends both): the one project, and no folders.
      if (body.projectId !== undefined && body.projectId !== null && !d.owner.matchesProject(String(body.projectId)))
        throw notFoundError();
      if (body.parentFolderId !== undefined && body.parentFolderId !== null)
        throw badRequest('request/body/parentFolderId: this instance has no folders');
      const row = await d.writes.create(body, { keepId: parseBool('keepId', req.query.keepId) === true });
      d.lists.invalidate();
      return show(row);
    },
  );

  app.get<{ Params: Params }>(
    '/workflows/:id',
    {
      schema: {
        summary: 'Get a workflow',
        tags: ['workflows'],
        params: IdParams,
        response: { 200: Workflow, ...errors(404) },
      },
    },
    async (req) => show(await load(req.params.id)),
  );

  app.patch<{ Params: Params }>(
    '/workflows/:id',
    {
      schema: {
        summary: 'Change part of a workflow, or activate/deactivate it',
        tags: ['workflows'],
        params: IdParams,
        body: WorkflowPatch,
        response: { 200: Workflow, ...errors(400, 404) },
      },
    },
    async (req) => {
      const body = requireObjectBody(req.body);
      const current = await load(req.params.id);
      const tagIds = body.tags === undefined ? undefined : await checkTagRefs(body.tags, 'request/body/tags');
      const row = await d.writes.patch(current, body);
      if (tagIds) await d.store.setWorkflowTags(row.id, tagIds);
      d.lists.invalidate();
      return show(row);
    },
  );

  app.put<{ Params: Params }>(
    '/workflows/:id',
    {
      schema: {
        summary: 'Replace a workflow',
        tags: ['workflows'],
        params: IdParams,
        body: WorkflowBody,
        response: { 200: Workflow, ...errors(400, 404) },
      },
    },
    async (req) => {
      const body = requireObjectBody(req.body);
      const row = await d.writes.replace(await load(req.params.id), body);
      d.lists.invalidate();
      return show(row);
    },
  );

  app.delete<{ Params: Params }>(
    '/workflows/:id',
    {
      schema: {
        summary: 'Delete a workflow',
        tags: ['workflows'],
        params: IdParams,
        response: { 200: Workflow, ...errors(404) },
      },
    },
    async (req) => {
      const row = await load(req.params.id);
      const shown = await show(row);
      await d.writes.remove(row);
      d.lists.invalidate();
      return shown;
    },
  );

  app.post<{ Params: Params }>(
    '/workflows/:id/activate',
    {
      schema: {
        summary: 'Activate (registers its webhooks, schedules and event triggers)',
        tags: ['workflows'],
        params: IdParams,
        response: { 200: Workflow, ...errors(400, 404) },
      },
    },
    async (req) => {
      const row = await d.writes.activate(await load(req.params.id));
      d.lists.invalidate();
      return show(row);
    },
  );
  app.post<{ Params: Params }>(
    '/workflows/:id/deactivate',
    {
      schema: {
        summary: 'Deactivate',
        tags: ['workflows'],
        params: IdParams,
        response: { 200: Workflow, ...errors(404) },
      },
    },
    async (req) => {
      const row = await d.writes.deactivate(await load(req.params.id));
      d.lists.invalidate();
      return show(row);
    },
  );

  // n8n moves a workflow to another project; this instance has one project, so a transfer is
  // either to the project that already owns it (n8n's 400) or to one that does not exist (404).
  app.put<{ Params: Params }>(
    '/workflows/:id/transfer',
    {
      schema: {
        summary: 'Transfer a workflow to another project',
        tags: ['workflows'],
        params: IdParams,
        body: TransferBody,
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
    },
    async (req) => {
      await load(req.params.id);
      const body = requireObjectBody(req.body);
      requireProps(body, ['destinationProjectId']);
      if (typeof body.destinationProjectId !== 'string')
        throw badRequest('request/body/destinationProjectId must be string');
      if (body.destinationProjectId !== d.owner.projectId) throw notFoundError();
      throw badRequest("You can't transfer a workflow into the project that's already owning it.");
    },
  );

  app.get<{ Params: Params }>(
    '/workflows/:id/tags',
    {
      schema: {
        summary: "A workflow's tags",
        tags: ['workflows'],
        params: IdParams,
        response: { 200: Type.Array(Tag), ...errors(404) },
      },
    },
    async (req) => {
      const row = await load(req.params.id);
      return ((await d.store.tagsOf([row.id])).get(row.id) ?? []).map(tagToApi);
    },
  );

  app.put<{ Params: Params }>(
    '/workflows/:id/tags',
    {
      schema: {
        summary: "Set a workflow's tags",
        tags: ['workflows'],
        params: IdParams,
        body: TagRefs,
        response: { 200: Type.Array(Tag), ...errors(400, 404) },
      },
    },
    async (req) => {
      const row = await load(req.params.id);
      const ids = await checkTagRefs(req.body, 'request/body', notFoundError);
      await d.store.setWorkflowTags(row.id, ids);
      d.lists.invalidate();
      return ((await d.store.tagsOf([row.id])).get(row.id) ?? []).map(tagToApi);
    },
  );

  // The contract's manual run: starts at the Manual Trigger (else the first trigger) with the
  // request's items (execute-input.ts), waits for the end, answers with the execution and its data.
  app.post<{ Params: Params }>(
    '/workflows/:id/execute',
    {
      schema: {
        summary: 'Run a workflow now and return the execution',
        tags: ['workflows'],
        params: IdParams,
        body: ExecuteBody,
        response: { 200: Execution, ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      const row = await load(req.params.id);
      const inputs = executeInput(req.body);
      const prepared = d.cache.get(row);
      // As n8n: a node type neither n8n nor this engine knows (the legacy Start node is one) refuses the run.
      const unknown = unknownNodeType(prepared.definition);
      if (unknown) throw badRequest(`Unrecognized node type: ${unknown}`);
      const start = findStartNode(prepared.definition, 'manual');
      if (!start) throw badRequest('Workflow has no trigger node to start from: add a Manual Trigger');
      const node = prepared.graph.nodes.get(start)!;
      const body = (req.body ?? {}) as { data?: unknown; inputData?: unknown };
      const given = body.data !== undefined || body.inputData !== undefined;
      const manualItems = nodeRegistry.get(node.type)?.manualItems;
      // A Webhook start gets webhook-shaped items, each request body being one input; another
      // trigger run without data starts with what n8n's editor run of it gives.
      const items: Item[] =
        triggerKind(node) === 'webhook'
          ? inputs.map((i) => ({
              ...i,
              json: {
                headers: {},
                params: {},
                query: {},
                body: i.json,
                webhookUrl: `${d.baseUrl()}/webhook-test/${String(node.parameters?.path ?? '')}`,
                executionMode: 'test',
              },
            }))
          : !given && manualItems
            ? manualItems({
                now: d.clock.now(),
                timezone: String(prepared.definition.settings?.timezone ?? d.timezone),
                baseUrl: d.baseUrl(),
              })
            : inputs;
      const { row: exec } = await d.runner.run({ prepared, mode: 'manual', start: { node: start, items } });
      return sendJsonText(reply, executionWithDataText(exec));
    },
  );
}
