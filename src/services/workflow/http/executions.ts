// /api/v1/executions: list (keyset cursor, newest first), get, delete, retry, stop.
import type { App } from '../../../platform/http.js';
import { HttpError, badRequest } from '../../../platform/errors.js';
import type { Runner } from '../executions/runner.js';
import type { ExecutionStopper, StopFilter } from '../executions/stop.js';
import { executionToApi } from '../executions/format.js';
import type { ExecutionRow, WorkflowStore } from '../store/index.js';
import type { ListCache } from '../workflows/list-cache.js';
import {
  decodeCursor,
  encodeCursor,
  notFoundError,
  parseBool,
  parseLimit,
  requireObjectBody,
  requireProps,
  sendJsonText,
} from './common.js';
import {
  errors,
  Execution,
  ExecutionListQuery,
  IdParams,
  IncludeDataQuery,
  Page,
  RetryBody,
  StopManyAnswer,
  StopManyBody,
} from './schemas.js';

const FILTERABLE = ['canceled', 'error', 'running', 'success', 'waiting'];

/** n8n's bulk stop statuses, and the stored status each stands for. */
const STOP_STATUSES: Record<string, string> = { queued: 'new', running: 'running', waiting: 'waiting' };

function parseStopFilter(raw: unknown): StopFilter {
  const body = requireObjectBody(raw);
  requireProps(body, ['status']);
  if (!Array.isArray(body.status)) throw badRequest('request/body/status must be array');
  if (!body.status.length) throw badRequest('request/body/status must NOT have fewer than 1 items');
  body.status.forEach((s, i) => {
    if (typeof s !== 'string' || !(s in STOP_STATUSES))
      throw badRequest(
        `request/body/status/${i} must be equal to one of the allowed values: ${Object.keys(STOP_STATUSES).join(', ')}`,
      );
  });
  if (body.workflowId !== undefined && typeof body.workflowId !== 'string')
    throw badRequest('request/body/workflowId must be string');
  const date = (name: 'startedAfter' | 'startedBefore') => {
    const v = body[name];
    if (v === undefined) return undefined;
    const d = typeof v === 'string' ? new Date(v) : undefined;
    if (!d || Number.isNaN(d.getTime())) throw badRequest(`request/body/${name} must match format "date-time"`);
    return d;
  };
  return {
    statuses: [...new Set((body.status as string[]).map((s) => STOP_STATUSES[s]))],
    workflowId: body.workflowId,
    startedAfter: date('startedAfter'),
    startedBefore: date('startedBefore'),
  };
}

export interface ExecutionRoutesDeps {
  store: WorkflowStore;
  runner: Runner;
  stopper: ExecutionStopper;
  lists: ListCache;
  /** Whether a `projectId` filter names the one project (projects/owner.ts). */
  matchesProject(projectId: string | undefined): boolean;
}

export function executionRoutes(app: App, d: ExecutionRoutesDeps): void {
  app.get(
    '/executions',
    {
      schema: {
        summary: 'List executions, newest first',
        tags: ['executions'],
        querystring: ExecutionListQuery,
        response: { 200: Page(Execution), ...errors(400) },
      },
    },
    async (req, reply) => {
      // Pages without run data are served from memory until an execution is written.
      const key = req.url.slice(req.url.indexOf('?') + 1);
      const cached = d.lists.get(key);
      if (cached) return sendJsonText(reply, cached);
      const generation = d.lists.generation;
      const q = req.query as Record<string, string | undefined>;
      let limit = parseLimit(q.limit);
      let lastId: number | undefined;
      if (q.cursor) {
        const c = decodeCursor<{ lastId: string; limit: number }>(
          q.cursor,
          (v) => /^\d{1,15}$/.test(String(v.lastId)) && Number.isInteger(v.limit) && (v.limit as number) > 0,
        );
        limit = Math.min(c.limit, 250);
        lastId = Number(c.lastId);
      }
      if (q.status !== undefined && !FILTERABLE.includes(q.status)) {
        throw badRequest(`request/query/status must be equal to one of the allowed values: ${FILTERABLE.join(', ')}`);
      }
      const includeData = parseBool('includeData', q.includeData) ?? false;
      const rows = d.matchesProject(q.projectId)
        ? await d.store.listExecutions({
            workflowId: q.workflowId,
            status: q.status,
            lastId,
            limit: limit + 1,
            withData: includeData,
          })
        : [];
      const page = rows.slice(0, limit);
      const body = {
        data: page.map((r) => executionToApi(r, includeData)),
        nextCursor: rows.length > limit ? encodeCursor({ lastId: String(page[page.length - 1].id), limit }) : null,
      };
      if (includeData) return body;
      const text = JSON.stringify(body);
      d.lists.set(key, text, generation);
      return sendJsonText(reply, text);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/executions/:id',
    {
      schema: {
        summary: 'Get an execution',
        tags: ['executions'],
        params: IdParams,
        querystring: IncludeDataQuery,
        response: { 200: Execution, ...errors(400, 404) },
      },
    },
    async (req) => {
      const includeData = parseBool('includeData', (req.query as Record<string, string>).includeData) ?? false;
      const row = await d.store.getExecution(req.params.id, includeData);
      if (!row) throw notFoundError();
      return executionToApi(row, includeData);
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/executions/:id',
    {
      schema: {
        summary: 'Delete an execution',
        tags: ['executions'],
        params: IdParams,
        response: { 200: Execution, ...errors(404) },
      },
    },
    async (req) => {
      const row = await d.store.getExecution(req.params.id, false);
      if (!row) throw notFoundError();
      if (row.status === 'running' || row.status === 'new') d.runner.cancel(String(row.id));
      await d.runner.deleteWithFiles(req.params.id);
      return executionToApi(row, false);
    },
  );

  // n8n's stop: the execution as it ended (status canceled); running and waiting ones only.
  app.post<{ Params: { id: string } }>(
    '/executions/:id/stop',
    {
      schema: {
        summary: 'Stop a running or waiting execution',
        tags: ['executions'],
        params: IdParams,
        response: { 200: Execution, ...errors(404, 409) },
      },
    },
    async (req) => {
      const outcome = await d.stopper.stop(req.params.id);
      if ('notFound' in outcome) throw notFoundError();
      if ('conflict' in outcome) throw new HttpError(409, outcome.conflict, 'conflict');
      return executionToApi(outcome.row, false);
    },
  );

  app.post(
    '/executions/stop',
    {
      schema: {
        summary: 'Stop the executions matching a filter',
        tags: ['executions'],
        body: StopManyBody,
        response: { 200: StopManyAnswer, ...errors(400) },
      },
    },
    async (req) => {
      return { stopped: await d.stopper.stopMany(parseStopFilter(req.body)) };
    },
  );

  // n8n retries a failed execution from the node that failed, with the data it had then.
  app.post<{ Params: { id: string } }>(
    '/executions/:id/retry',
    {
      schema: {
        summary: 'Retry a failed execution',
        tags: ['executions'],
        params: IdParams,
        body: RetryBody,
        response: { 200: Execution, ...errors(400, 404, 409) },
      },
    },
    async (req) => {
      const row = (await d.store.getExecution(req.params.id, true)) as ExecutionRow | undefined;
      if (!row) throw notFoundError();
      if (row.status === 'success')
        throw new HttpError(409, 'The execution succeeded, so it cannot be retried.', 'conflict');
      if (!['error', 'crashed', 'canceled'].includes(row.status))
        throw new HttpError(409, `The execution is ${row.status}, so it cannot be retried.`, 'conflict');
      const body = (req.body ?? {}) as { loadWorkflow?: unknown };
      if (body.loadWorkflow !== undefined && typeof body.loadWorkflow !== 'boolean')
        throw badRequest('request/body/loadWorkflow must be boolean');
      const exec = await d.runner.retry(row, body.loadWorkflow === true);
      return executionToApi(exec, false);
    },
  );
}
