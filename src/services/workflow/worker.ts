// The workflow part of `hamlet worker` (queue mode): run queued executions, own no triggers,
// serve no HTTP. Webhook and schedule registration stay with the main processes.
import type { Platform } from '../../platform/service.js';
import { createEngine } from './index.js';

export async function startWorkflowWorker(platform: Platform): Promise<() => Promise<void>> {
  const engine = createEngine(platform, { baseUrl: () => engine.config.publicUrl ?? '', ownsTriggers: false });
  engine.runner.registerWorker();
  return async () => {
    engine.activation.stop();
    await engine.runner.drain();
    engine.expressions.close();
  };
}
