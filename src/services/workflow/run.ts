// The running part of the workflow automation service (contract 002 part B): n8n's public API and workflow
// format, an engine that runs n8n workflows with n8n's semantics, webhooks and schedules.
//
// Two halves: `queues` builds the engine (store, runner, list caches) in every process that
// runs executions — `hamlet start`, and `hamlet worker` in queue mode; `start` adds what only
// a serving process has: trigger activation, the HTTP side, pruning.
import path from 'node:path';
import { BinarySpill } from './binary/spill.js';
import { listen } from '../../platform/http.js';
import type { Platform } from '../../platform/service.js';
import type { WorkflowSettings } from './settings.js';
import { Runner } from './executions/runner.js';
import { ExecutionStopper } from './executions/stop.js';
import { ExecutionOwnership } from './executions/interrupted.js';
import { createExpressions } from './expressions/index.js';
import { createWorkflowApp } from './http/index.js';
import { WorkflowStore } from './store/index.js';
import { ApiStore } from './store/api-store.js';
import { InstanceOwner } from './projects/owner.js';
import { CredentialCipher } from './credentials/cipher.js';
import { Credentials } from './credentials/credentials.js';
import { Variables } from './variables/variables.js';
import { DataTables } from './data-tables/service.js';
import { DataTableStore } from './store/data-tables.js';
import { nodeDataTables } from './data-tables/node-access.js';
import { McpAccess } from './mcp/access.js';
import { McpAccessStore } from './store/mcp-access.js';
import { Folders } from './folders/service.js';
import { FolderStore } from './store/folders.js';
import { TestRuns } from './test-runs/service.js';
import { TestRunStore } from './store/test-runs.js';
import { Activation } from './triggers/activation.js';
import { WorkflowCache } from './workflows/model.js';
import { WorkflowWrites } from './workflows/service.js';
import { createListCaches } from './workflows/list-cache.js';
import { reloadWorkflowAfterRestore } from './world.js';

/** Everything a process that runs executions needs (the server, or `hamlet worker`). */
function createEngine(platform: Platform, config: WorkflowSettings) {
  const expressions = createExpressions(config.sandbox);
  // Execution writes (here or in a `hamlet worker`) drop cached execution lists on every instance.
  const lists = createListCaches(platform.events, platform.logger);
  const store = new WorkflowStore(platform.db, lists.executions);
  const apiStore = new ApiStore(platform.db);
  const variables = new Variables(apiStore, platform.events, platform.logger);
  const credentials = new Credentials(
    apiStore,
    CredentialCipher.load(config.encryptionKey, platform.config.dataDir),
    platform.clock,
  );
  const cache = new WorkflowCache();
  const dataTables = new DataTables(new DataTableStore(platform.db), platform.clock, config.dataTablesMaxBytes);
  // The Data Table node sees the tables of the workflows' project: the instance owner's, made at
  // the serving process's start (a worker reads it from the database).
  // Its id never changes once made; its name follows the owner's, so it is read again now and then.
  let known: { at: number; project: { id: string; name: string; type: string } } | undefined;
  const ownerProject = async () => {
    if (known && platform.clock.ms() - known.at < 60_000) return known.project;
    const user = await apiStore.firstUser();
    const project = user && (await apiStore.projectOf(user.id));
    if (!project) throw new Error('The instance has no owner project yet');
    known = { at: platform.clock.ms(), project: { id: project.id, name: project.name, type: project.type } };
    return known.project;
  };
  const ownership = new ExecutionOwnership(platform.db, store);
  // Until the HTTP side listens, links in executions use WORKFLOW_PUBLIC_URL or the directory.
  let listenUrl = '';
  const baseUrl = () => config.publicUrl ?? (listenUrl || platform.directory.url('workflow') || '');
  const binary = new BinarySpill(path.join(platform.config.dataDir, 'workflow-binary'), config.binarySpillBytes);
  const runner = new Runner(platform, store, cache, config, expressions, baseUrl, lists.workflows, ownership.key, {
    vars: () => variables.snapshot(),
    credential: (node, type) => credentials.resolve(node, type),
    binary,
    dataTables: nodeDataTables(dataTables, dataTables.store, ownerProject),
  });
  return {
    expressions,
    store,
    apiStore,
    variables,
    credentials,
    dataTables,
    cache,
    lists,
    runner,
    ownership,
    baseUrl,
    binary,
    listening: (url: string) => (listenUrl = url),
  };
}
type Engine = ReturnType<typeof createEngine>;

/** Runs queued executions; in queue mode a `hamlet worker` does only this (no triggers, no HTTP). */
export async function queues(platform: Platform, config: WorkflowSettings) {
  const engine = createEngine(platform, config);
  await engine.ownership.start();
  // Executions a dead process left `running` are `crashed` now. On PostgreSQL the lock check
  // keeps other live processes' executions safe (see interrupted.ts); an embedded SQLite file
  // belongs to the one process that serves it, which marks them at start.
  if (platform.db.dialect === 'postgres') await engine.ownership.markInterrupted(platform.clock.now().toISOString());
  engine.runner.registerWorker();
  return {
    core: engine,
    async stop() {
      await engine.runner.drain();
      await engine.ownership.stop();
      engine.lists.close();
      engine.variables.close();
      engine.expressions.close();
    },
  };
}

export async function start(platform: Platform, config: WorkflowSettings, engine: Engine) {
  const { store, apiStore, variables, credentials, dataTables, cache, runner, lists, baseUrl, binary } = engine;
  const owner = new InstanceOwner(apiStore, platform.clock);
  await owner.start(config.owner);
  const activation = new Activation(platform, store, cache, runner, config.timezone, true);
  const writes = new WorkflowWrites(store, cache, activation, platform.clock, (wf) =>
    credentials.activationProblem(wf),
  );
  const stopper = new ExecutionStopper(platform, store, runner);
  const testRuns = new TestRuns(new TestRunStore(platform.db), {
    runner,
    cache,
    tables: dataTables,
    clock: platform.clock,
    logger: platform.logger,
  });
  const app = await createWorkflowApp(platform, {
    store,
    cache,
    runner,
    lists,
    writes,
    stopper,
    activation,
    owner,
    apiStore,
    variables,
    credentials,
    dataTables,
    mcpAccess: new McpAccess(new McpAccessStore(platform.db), platform.clock),
    folders: new Folders(new FolderStore(platform.db), platform.clock),
    testRuns,
    baseUrl,
    timezone: config.timezone,
  });

  if (platform.db.dialect === 'sqlite') await engine.ownership.markInterrupted(platform.clock.now().toISOString());
  await activation.start();
  const reload = reloadWorkflowAfterRestore({ activation, lists, variables });

  // Old executions go: at start, then hourly (WORKFLOW_EXECUTIONS_MAX_AGE / _MAX_COUNT).
  const prune = () => {
    const before = config.pruneMaxAgeMs
      ? new Date(platform.clock.ms() - config.pruneMaxAgeMs).toISOString()
      : undefined;
    return (
      store
        .prune(before, config.pruneMaxCount || undefined)
        // The files of pruned executions go with them.
        .then(() => binary.sweep(async (id) => (await store.getExecution(id, false)) !== undefined))
        .catch((err) => platform.logger.warn({ err, service: 'workflow' }, 'execution pruning failed'))
    );
  };
  await prune();
  const stopPruning = platform.timers.every(60 * 60_000, prune);

  const url = await listen(app, platform.config.host, config.port);
  engine.listening(url);
  return {
    urls: { api: url },
    reload,
    async stop() {
      stopPruning();
      activation.stop();
      await app.close();
      await testRuns.drain();
    },
  };
}
