// The workflow part of `hamlet worker` (queue mode): run queued executions, own no triggers,
// serve no HTTP. Webhook and schedule registration stay with the main processes.
import type { Platform } from '../../platform/service.js';
import { createEngine } from './index.js';

export async function startWorkflowWorker(platform: Platform): Promise<() => Promise<void>> {
  const engine = createEngine(platform, { baseUrl: () => engine.config.publicUrl ?? '', ownsTriggers: false });
  await engine.ownership.start();
  // A worker shares PostgreSQL with other live processes; the lock check keeps their executions safe.
  if (platform.db.dialect === 'postgres') await engine.ownership.markInterrupted(platform.clock.now().toISOString());
  engine.runner.registerWorker();
  return async () => {
    engine.activation.stop();
    await engine.runner.drain();
    await engine.ownership.stop();
    engine.expressions.close();
  };
}
