// The workflow automation service (contract 002 part B): n8n's public API and workflow
// format, an engine that runs n8n workflows with n8n's semantics, webhooks and schedules.
import { createApp, listen, type App } from '../../platform/http.js';
import { defineService, type Platform } from '../../platform/service.js';
import { authHook } from './api/auth.js';
import { methodNotAllowed } from './api/common.js';
import { executionRoutes } from './api/executions.js';
import { tagRoutes } from './api/tags.js';
import { workflowRoutes } from './api/workflows.js';
import { readWorkflowSettings, type WorkflowSettings } from './settings.js';
import { Runner } from './executions/runner.js';
import { ExecutionStopper } from './executions/stop.js';
import { ExecutionOwnership } from './executions/interrupted.js';
import { createExpressions } from './expressions/index.js';
import { migrations } from './migrations.js';
import { WorkflowStore } from './store.js';
import { Activation } from './triggers/activation.js';
import { badUrlNotFound, webhookRoutesPlugin } from './webhooks/routes.js';
import { addBodyParsers } from './webhooks/body.js';
import { WorkflowCache } from './workflows/model.js';
import { WorkflowWrites } from './workflows/service.js';
import { EXECUTIONS_CHANGED_TOPIC, ListCache } from './workflows/list-cache.js';

/** Everything a process that runs executions needs (the server, or `hamlet worker`). */
function createEngine(platform: Platform, config: WorkflowSettings) {
  const expressions = createExpressions(config.sandbox);
  const store = new WorkflowStore(platform.db);
  // Execution writes (here or in a `hamlet worker`) tell list caches on every instance.
  store.onExecutionsChanged = () => void platform.events.publish(EXECUTIONS_CHANGED_TOPIC, {}).catch((err) => platform.logger.warn({ err }, 'workflow: announcing changed executions failed'));
  const cache = new WorkflowCache();
  const ownership = new ExecutionOwnership(platform.db);
  // Until the HTTP side listens, links in executions use WORKFLOW_PUBLIC_URL or the directory.
  let listenUrl = '';
  const baseUrl = () => config.publicUrl ?? (listenUrl || platform.directory.url('workflow') || '');
  const runner = new Runner(platform, store, cache, config, expressions, baseUrl, ownership.key);
  return { config, expressions, store, cache, runner, ownership, baseUrl, listening: (url: string) => (listenUrl = url) };
}
type Engine = ReturnType<typeof createEngine>;

/** Runs queued executions; in queue mode a `hamlet worker` does only this (no triggers, no HTTP). */
async function queues(platform: Platform, config: WorkflowSettings) {
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
      engine.expressions.close();
    },
  };
}

async function start(platform: Platform, config: WorkflowSettings, engine: Engine) {
  const { store, cache, runner, baseUrl } = engine;
  const activation = new Activation(platform, store, cache, runner, config.timezone, true);
  const writes = new WorkflowWrites(store, cache, activation, platform.clock);
  const lists = new ListCache(platform.events);
  const executionLists = new ListCache(platform.events, EXECUTIONS_CHANGED_TOPIC);
  store.onExecutionsChanged = () => executionLists.invalidate();

  const app: App = await createApp({
    service: 'workflow',
    logger: platform.logger,
    envelope: (e) => ({ message: e.message }),
    bodyLimit: 16 * 1024 * 1024,
    http: platform.config.http,
    openapi: { title: 'Hamlet workflow automation (n8n-compatible)', version: '1.0.0' },
    onBadUrl: badUrlNotFound,
  });
  addBodyParsers(app);
  await app.register(
    async (api) => {
      api.addHook('onRequest', authHook(platform.keys));
      workflowRoutes(api as unknown as App, { store, writes, cache, runner, lists, baseUrl });
      executionRoutes(api as unknown as App, { store, runner, stopper: new ExecutionStopper(platform, store, runner), cache, lists: executionLists });
      tagRoutes(api as unknown as App, { store, clock: platform.clock, lists });
      methodNotAllowed(api as unknown as App, {
        '/workflows': ['GET', 'POST'],
        '/workflows/:id': ['GET', 'PUT', 'PATCH', 'DELETE'],
        '/workflows/:id/activate': ['POST'],
        '/workflows/:id/deactivate': ['POST'],
        '/workflows/:id/execute': ['POST'],
        '/workflows/:id/tags': ['GET', 'PUT'],
        '/executions': ['GET'],
        '/executions/:id': ['GET', 'DELETE'],
        '/executions/:id/retry': ['POST'],
        '/executions/:id/stop': ['POST'],
        '/tags': ['GET', 'POST'],
        '/tags/:id': ['GET', 'PUT', 'DELETE'],
      });
    },
    { prefix: '/api/v1' },
  );
  webhookRoutesPlugin(app, { activation, runner, store, cache, baseUrl });

  if (platform.db.dialect === 'sqlite') await engine.ownership.markInterrupted(platform.clock.now().toISOString());
  await activation.start();

  // Old executions go: at start, then hourly (WORKFLOW_EXECUTIONS_MAX_AGE / _MAX_COUNT).
  const prune = () => {
    const before = config.pruneMaxAgeMs ? new Date(platform.clock.ms() - config.pruneMaxAgeMs).toISOString() : undefined;
    return store.prune(before, config.pruneMaxCount || undefined).catch((err) => platform.logger.warn({ err }, 'execution pruning failed'));
  };
  await prune();
  const pruneTimer = setInterval(() => void prune(), 60 * 60_000);
  pruneTimer.unref();

  const url = await listen(app, platform.config.host, config.port);
  engine.listening(url);
  return {
    urls: { api: url },
    async stop() {
      clearInterval(pruneTimer);
      activation.stop();
      lists.close();
      executionLists.close();
      await app.close();
    },
  };
}

export default defineService({ name: 'workflow', migrations, adminKeys: true, settings: readWorkflowSettings, queues, start });
