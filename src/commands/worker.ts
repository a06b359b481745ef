// `hamlet worker`: queue mode's worker process. Registers every selected service's queues (mail
// deliveries, webhooks, scheduled drafts, workflow executions…) and runs their jobs from BullMQ
// against the shared database; serves no HTTP.
import { closePlatform, openPlatform, prepareServices } from '../server.js';
import type { Command } from './command.js';
import { configured } from './setup.js';

export const command: Command = {
  name: 'worker',
  usage: 'hamlet worker [--concurrency N]',
  summary:
    "Runs every selected service's queued jobs from Redis (queue mode: REDIS_URL, and DATABASE_URL for a database the server shares); serves no HTTP.",
  flags: [
    '--concurrency N   workflow executions run at once in this process (WORKFLOW_CONCURRENCY)',
    '--services LIST   the services whose jobs to run (HAMLET_SERVICES)',
  ],
  example: 'REDIS_URL=redis://127.0.0.1:6379 DATABASE_URL=postgres://hamlet@db/hamlet hamlet worker --concurrency 8',
  async run(_args, flags) {
    // `--concurrency N` is the workflow's WORKFLOW_CONCURRENCY for this process.
    const env = flags['concurrency'] ? { ...process.env, WORKFLOW_CONCURRENCY: flags['concurrency'] } : process.env;
    const { config, services } = await configured(flags, env);
    if (!config.redisUrl) {
      console.error(
        'hamlet worker runs queued jobs from Redis: set REDIS_URL (and DATABASE_URL for a database the server shares)',
      );
      return 1;
    }
    const platform = await openPlatform(config);
    const prepared = await prepareServices(platform, services);
    await platform.jobs.start();
    const stopRequested = new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    console.log('worker ready');
    await stopRequested;
    for (const { jobs } of prepared.reverse()) await jobs.stop();
    await closePlatform(platform);
    return 0;
  },
};
