// /api/v1/workflows/{id}/test-runs: evaluation test runs (test-runs/service.ts) as n8n's public
// API answers them (n8n-mcp's n8n_evaluations): list (status, limit, cursor), get, the cases of
// a run (paged), start and cancel. A run id of another workflow is a 404, as an unknown one.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { badRequest } from '../../../platform/errors.js';
import type { WorkflowStore } from '../store/index.js';
import { testCaseJson, testRunJson, type TestRuns } from '../test-runs/service.js';
import { encodeCursor, notFoundError, offsetWindow } from './common.js';
import { errors, Page } from './schemas.js';

const open = { additionalProperties: true };
const TestRun = Type.Object(
  {
    id: Type.String(),
    workflowId: Type.String(),
    status: Type.String({ description: 'new, running, completed, error or cancelled' }),
    runAt: Type.Union([Type.String(), Type.Null()]),
    completedAt: Type.Union([Type.String(), Type.Null()]),
    metrics: Type.Unknown(),
  },
  open,
);
const TestCase = Type.Object(
  {
    id: Type.String(),
    testRunId: Type.String(),
    executionId: Type.Union([Type.String(), Type.Null()]),
    status: Type.String(),
  },
  open,
);
const WfParams = Type.Object({ id: Type.String() });
const RunParams = Type.Object({ id: Type.String(), runId: Type.String() });
const PageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 250 })),
  cursor: Type.Optional(Type.String()),
});
const STATUSES = ['new', 'running', 'completed', 'error', 'cancelled'];

export function testRunRoutes(app: App, d: { store: WorkflowStore; testRuns: TestRuns }): void {
  const tags = ['test runs'];
  const workflow = async (id: string) => {
    const row = id.length <= 64 ? await d.store.getWorkflow(id) : undefined;
    if (!row) throw notFoundError();
    return row;
  };
  const run = async (workflowId: string, runId: string) => {
    await workflow(workflowId);
    const r = runId.length <= 64 ? await d.testRuns.store.getRun(runId) : undefined;
    if (!r || r.workflow_id !== workflowId) throw notFoundError();
    return r;
  };

  app.get<{ Params: { id: string } }>(
    '/workflows/:id/test-runs',
    {
      schema: {
        summary: "A workflow's test runs, newest first",
        tags,
        params: WfParams,
        querystring: Type.Composite([PageQuery, Type.Object({ status: Type.Optional(Type.String()) })]),
        response: { 200: Page(TestRun), ...errors(400, 404) },
      },
    },
    async (req) => {
      await workflow(req.params.id);
      const q = req.query as Record<string, string | undefined>;
      if (q.status !== undefined && !STATUSES.includes(q.status))
        throw badRequest(`request/query/status must be equal to one of the allowed values: ${STATUSES.join(', ')}`);
      const { limit, offset } = offsetWindow(q.limit, q.cursor);
      const rows = await d.testRuns.store.listRuns(req.params.id, q.status, limit + 1, offset);
      return {
        data: rows.slice(0, limit).map(testRunJson),
        nextCursor: rows.length > limit ? encodeCursor({ limit, offset: offset + limit }) : null,
      };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/workflows/:id/test-runs',
    {
      schema: {
        summary: "Start a test run over the Evaluation Trigger's data table",
        tags,
        params: WfParams,
        response: { 200: TestRun, ...errors(400, 404, 409) },
      },
    },
    async (req) => testRunJson(await d.testRuns.start(await workflow(req.params.id))),
  );

  app.get<{ Params: { id: string; runId: string } }>(
    '/workflows/:id/test-runs/:runId',
    {
      schema: {
        summary: 'A test run with its metrics',
        tags,
        params: RunParams,
        response: { 200: TestRun, ...errors(404) },
      },
    },
    async (req) => testRunJson(await run(req.params.id, req.params.runId)),
  );

  app.get<{ Params: { id: string; runId: string } }>(
    '/workflows/:id/test-runs/:runId/test-cases',
    {
      schema: {
        summary: 'The cases of a test run (paged)',
        tags,
        params: RunParams,
        querystring: PageQuery,
        response: { 200: Page(TestCase), ...errors(400, 404) },
      },
    },
    async (req) => {
      const r = await run(req.params.id, req.params.runId);
      const q = req.query as Record<string, string | undefined>;
      const { limit, offset } = offsetWindow(q.limit, q.cursor);
      const rows = await d.testRuns.store.listCases(r.id, limit + 1, offset);
      return {
        data: rows.slice(0, limit).map(testCaseJson),
        nextCursor: rows.length > limit ? encodeCursor({ limit, offset: offset + limit }) : null,
      };
    },
  );

  app.post<{ Params: { id: string; runId: string } }>(
    '/workflows/:id/test-runs/:runId/cancel',
    {
      schema: {
        summary: 'Cancel a new or running test run',
        tags,
        params: RunParams,
        response: { 200: TestRun, ...errors(404, 409) },
      },
    },
    async (req) => testRunJson(await d.testRuns.cancel(await run(req.params.id, req.params.runId))),
  );
}
