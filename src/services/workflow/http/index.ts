// The service's HTTP side: n8n's public API under /api/v1 (key-checked, documented in
// /docs/json with request and response schemas) and the webhook endpoints, whose paths the
// workflows define (catch-alls, so hidden from the document).
import type { Platform } from '../../../platform/service.js';
import { createApp, type App } from '../../../platform/http.js';
import type { ExecutionStopper } from '../executions/stop.js';
import type { Runner } from '../executions/runner.js';
import type { WorkflowStore } from '../store/index.js';
import type { Activation } from '../triggers/activation.js';
import type { ListCaches } from '../workflows/list-cache.js';
import type { WorkflowCache } from '../workflows/model.js';
import type { WorkflowWrites } from '../workflows/service.js';
import { authHook } from './auth.js';
import { addBodyParsers } from './body-parsers.js';
import type { InstanceOwner } from '../projects/owner.js';
import type { ApiStore } from '../store/api-store.js';
import { healthRoutes } from './health.js';
import { projectRoutes } from './projects.js';
import type { Credentials } from '../credentials/credentials.js';
import type { Variables } from '../variables/variables.js';
import { credentialRoutes } from './credentials.js';
import { variableRoutes } from './variables.js';
import { auditRoutes } from './audit.js';
import { methodNotAllowed } from './common.js';
import { envelope } from './envelope.js';
import { executionRoutes } from './executions.js';
import { tagRoutes } from './tags.js';
import { badUrlNotFound, webhookEndpoints } from './webhooks.js';
import { workflowRoutes } from './workflows.js';
import type { DataTables } from '../data-tables/service.js';
import { dataTableRoutes } from './data-tables.js';
import type { McpAccess } from '../mcp/access.js';
import { mcpServerRoutes } from './mcp-server.js';
import type { Folders } from '../folders/service.js';
import { folderRoutes } from './folders.js';
import type { TestRuns } from '../test-runs/service.js';
import { testRunRoutes } from './test-runs.js';

export interface WorkflowHttpDeps {
  store: WorkflowStore;
  cache: WorkflowCache;
  runner: Runner;
  lists: ListCaches;
  writes: WorkflowWrites;
  stopper: ExecutionStopper;
  activation: Activation;
  owner: InstanceOwner;
  apiStore: ApiStore;
  variables: Variables;
  credentials: Credentials;
  dataTables: DataTables;
  mcpAccess: McpAccess;
  folders: Folders;
  testRuns: TestRuns;
  baseUrl(): string;
  /** The default time zone (WORKFLOW_TIMEZONE) of workflows that set none. */
  timezone: string;
}

export async function createWorkflowApp(platform: Platform, d: WorkflowHttpDeps): Promise<App> {
  const app: App = await createApp(platform, {
    service: 'workflow',
    envelope,
    bodyLimit: 16 * 1024 * 1024,
    readiness: false, // n8n's own /healthz/readiness, below
    openapi: { title: 'Hamlet workflow automation (n8n-compatible)', version: '1.0.0' },
    index: {
      title: 'Hamlet workflow',
      summary:
        "A workflow engine that runs n8n's workflow JSON, with n8n's public API under /api/v1 (X-N8N-API-KEY) and webhooks under /webhook.",
      docs: 'docs/workflow.md',
    },
    onBadUrl: badUrlNotFound,
  });
  addBodyParsers(app);
  // n8n's documented readiness path, answered from the platform's readiness (starting, stopping, database) like every other port.
  healthRoutes(app, { ping: async () => (await platform.health.readiness()).ready });
  await app.register(
    async (api) => {
      // The handlers check requests themselves, in n8n's order and words ("request/query/limit
      // must be <= 250", a 404 before a bad body); the request schemas document what they accept.
      api.setValidatorCompiler(() => () => true);
      api.addHook('onRequest', authHook(platform.keys));
      workflowRoutes(api as unknown as App, {
        store: d.store,
        writes: d.writes,
        cache: d.cache,
        runner: d.runner,
        lists: d.lists.workflows,
        owner: d.owner,
        baseUrl: d.baseUrl,
        clock: platform.clock,
        timezone: d.timezone,
      });
      executionRoutes(api as unknown as App, {
        store: d.store,
        runner: d.runner,
        stopper: d.stopper,
        lists: d.lists.executions,
        matchesProject: (id) => d.owner.matchesProject(id),
      });
      projectRoutes(api as unknown as App, { owner: d.owner });
      variableRoutes(api as unknown as App, {
        store: d.apiStore,
        variables: d.variables,
        owner: d.owner,
        clock: platform.clock,
      });
      credentialRoutes(api as unknown as App, { credentials: d.credentials, store: d.apiStore, owner: d.owner });
      auditRoutes(api as unknown as App, {
        store: d.store,
        apiStore: d.apiStore,
        cache: d.cache,
        clock: platform.clock,
      });
      tagRoutes(api as unknown as App, { store: d.store, clock: platform.clock, lists: d.lists.workflows });
      dataTableRoutes(api as unknown as App, { tables: d.dataTables, owner: d.owner });
      folderRoutes(api as unknown as App, { folders: d.folders, owner: d.owner });
      testRunRoutes(api as unknown as App, { store: d.store, testRuns: d.testRuns });
      methodNotAllowed(api as unknown as App, {
        '/workflows': ['GET', 'POST'],
        '/workflows/:id': ['GET', 'PUT', 'PATCH', 'DELETE'],
        '/workflows/:id/activate': ['POST'],
        '/workflows/:id/deactivate': ['POST'],
        '/workflows/:id/execute': ['POST'],
        '/workflows/:id/tags': ['GET', 'PUT'],
        '/workflows/:id/transfer': ['PUT'],
        '/projects': ['GET'],
        '/users': ['GET'],
        '/users/:id': ['GET'],
        '/variables': ['GET', 'POST'],
        '/variables/:id': ['PUT', 'PATCH', 'DELETE'],
        '/credentials': ['GET', 'POST'],
        '/credentials/:id': ['GET', 'PATCH', 'DELETE'],
        '/credentials/schema/:type': ['GET'],
        '/audit': ['POST'],
        '/executions': ['GET'],
        '/executions/:id': ['GET', 'DELETE'],
        '/executions/:id/retry': ['POST'],
        '/executions/:id/stop': ['POST'],
        '/tags': ['GET', 'POST'],
        '/tags/:id': ['GET', 'PUT', 'DELETE'],
        '/data-tables': ['GET', 'POST'],
        '/data-tables/:dataTableId': ['GET', 'PATCH', 'DELETE'],
        '/data-tables/:dataTableId/rows': ['GET', 'POST'],
        '/data-tables/:dataTableId/rows/update': ['PATCH'],
        '/data-tables/:dataTableId/rows/upsert': ['POST'],
        '/data-tables/:dataTableId/rows/delete': ['DELETE'],
        '/workflows/:id/test-runs': ['GET', 'POST'],
        '/workflows/:id/test-runs/:runId': ['GET'],
        '/workflows/:id/test-runs/:runId/test-cases': ['GET'],
        '/workflows/:id/test-runs/:runId/cancel': ['POST'],
        '/projects/:projectId/folders': ['GET', 'POST'],
        '/projects/:projectId/folders/:folderId': ['GET', 'PATCH', 'DELETE'],
      });
    },
    { prefix: '/api/v1' },
  );
  mcpServerRoutes(app, platform, platform.keys, {
    access: d.mcpAccess,
    owner: d.owner,
    store: d.store,
    writes: d.writes,
    tools: {
      store: d.store,
      cache: d.cache,
      runner: d.runner,
      clock: platform.clock,
      timezone: d.timezone,
      baseUrl: d.baseUrl,
      headerName: async (node) => {
        const name = (await d.credentials.resolve(node, 'httpHeaderAuth')).name;
        return typeof name === 'string' ? name : undefined;
      },
    },
  });
  webhookEndpoints(app, {
    activation: d.activation,
    runner: d.runner,
    store: d.store,
    cache: d.cache,
    credential: (node, type) => d.credentials.resolve(node, type),
    nowS: () => Math.floor(platform.clock.ms() / 1000),
    baseUrl: d.baseUrl,
  });
  return app;
}
