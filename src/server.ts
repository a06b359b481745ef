// Starting and stopping Hamlet: open storage, migrate, build the platform, start each
// selected service, then the job workers. Used by `hamlet start` and by the tests.
import type { HamletConfig, ServiceName } from './config.js';
import { systemClock, type Clock } from './platform/clock.js';
import { migrate, openDb, type Db } from './platform/db.js';
import { createEventBus } from './platform/events.js';
import { Jobs } from './platform/jobs.js';
import { BullJobs } from './platform/jobs-bullmq.js';
import { Keys } from './platform/keys.js';
import { createLogger, type Logger } from './platform/logger.js';
import { Mailer } from './platform/mailer.js';
import { platformMigrations } from './platform/migrations.js';
import { RateLimits } from './platform/ratelimit.js';
import { WsBudget } from './platform/ws-budget.js';
import type { Platform, RunningService, ServiceDefinition } from './platform/service.js';
import { loadService } from './services/registry.js';

export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  /** SQLite file name inside the data directory. */
  dbFileName?: string;
  /** Start job workers (default true); `false` for processes that only serve HTTP. */
  workers?: boolean;
}

export interface Hamlet {
  platform: Platform;
  services: Partial<Record<ServiceName, RunningService>>;
  stop(): Promise<void>;
}

/** Opens storage and builds the platform without starting any service (CLI commands use this). */
export async function openPlatform(config: HamletConfig, opts: StartOptions = {}): Promise<Platform> {
  const logger = opts.logger ?? createLogger({ level: config.logLevel, pretty: config.prettyLogs });
  const clock = opts.clock ?? systemClock;
  const db: Db = openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, fileName: opts.dbFileName });
  try {
    await migrate(db, 'platform', platformMigrations);
  } catch (err) {
    await db.close();
    throw err;
  }
  const events = createEventBus(config.redisUrl, logger);
  // Queue mode: with REDIS_URL, jobs run on BullMQ across processes (`hamlet worker`).
  const jobs = config.redisUrl
    ? new BullJobs(db, clock, logger, config.redisUrl, { runWorkers: config.env.HAMLET_WORKERS !== 'off', prefix: config.env.HAMLET_QUEUE_PREFIX })
    : new Jobs(db, clock, logger);
  const keys = new Keys(db, clock, events);
  const mailer = new Mailer(config, jobs, events, logger);
  const limits = new RateLimits(config);
  return { config, db, clock, events, jobs, keys, mailer, limits, logger, websockets: new WsBudget(config.websockets) };
}

export async function closePlatform(p: Platform): Promise<void> {
  await p.jobs.stop();
  p.mailer.close();
  await p.limits.close();
  await p.events.close();
  await p.db.close();
}

export async function loadDefinitions(names: ServiceName[]): Promise<ServiceDefinition[]> {
  const defs: ServiceDefinition[] = [];
  for (const name of names) {
    const def = await loadService(name);
    if (def) defs.push(def);
  }
  return defs;
}

export async function startHamlet(config: HamletConfig, opts: StartOptions = {}): Promise<Hamlet> {
  const platform = await openPlatform(config, opts);
  const services: Hamlet['services'] = {};
  const started: RunningService[] = [];
  try {
    const defs = await loadDefinitions(config.services);
    for (const def of defs) await migrate(platform.db, def.name, def.migrations);
    platform.mailer.registerWorker();
    for (const def of defs) {
      const running = await def.start(platform);
      services[def.name] = running;
      started.push(running);
    }
    if (opts.workers !== false) await platform.jobs.start();
  } catch (err) {
    for (const s of started.reverse()) await s.stop().catch(() => {});
    await closePlatform(platform);
    throw err;
  }
  let stopping: Promise<void> | undefined;
  return {
    platform,
    services,
    stop: () =>
      (stopping ??= (async () => {
        for (const s of [...started].reverse()) await s.stop().catch((err) => platform.logger.error({ err }, 'service stop failed'));
        await closePlatform(platform);
      })()),
  };
}
