// Starting and stopping Hamlet: open storage, migrate, build the platform, then for each
// selected service register its queues and start it, then the job workers. Used by
// `hamlet start`, `hamlet worker` (queues only) and the tests.
import { configureServices, type HamletConfig, platformSettings } from './config.js';
import { ControllableClock, type Clock } from './platform/clock.js';
import { shareClock } from './platform/clock-sync.js';
import { flushClockStore, keepClockStored, storedClock } from './platform/clock-store.js';
import { migrate, openDb, type Db } from './platform/db.js';
import { Directory, reachableUrl } from './platform/directory.js';
import { createEventBus } from './platform/events.js';
import { Health } from './platform/health.js';
import { jobsAsDueSource, TableJobs } from './platform/jobs.js';
import { Keys } from './platform/keys.js';
import { Leaders } from './platform/leader.js';
import { createLogger, type Logger } from './platform/logger.js';
import { Mailer } from './platform/mailer.js';
import { platformMigrations } from './platform/migrations.js';
import { RateLimits } from './platform/ratelimit.js';
import { timersFor } from './platform/timers.js';
import { Trace } from './platform/trace.js';
import { WsBudget } from './platform/ws-budget.js';
import { WorldHooks } from './platform/world.js';
import type { ConfiguredService, Platform, RunningService, ServiceJobs } from './platform/service.js';
import type { ServiceName } from './services/registry.js';
import type { RunningConsole } from './console/index.js';

export interface StartOptions {
  /** Default: a controllable clock that follows system time until the operator freezes or moves it. */
  clock?: Clock;
  logger?: Logger;
  /** SQLite file name inside the data directory. */
  dbFileName?: string;
  /** Start job workers (default true); `false` for processes that only serve HTTP. */
  workers?: boolean;
  /** How long one service part may take to stop before shutdown goes on without it (default 20 s). */
  stopGraceMs?: number;
}

export interface Hamlet {
  platform: Platform;
  services: Partial<Record<ServiceName, RunningService>>;
  /** The web console and admin API, unless HAMLET_CONSOLE=off. */
  console?: RunningConsole;
  stop(): Promise<void>;
}

/** Opens storage and builds the platform without starting any service (CLI commands use this). */
export async function openPlatform(config: HamletConfig, opts: StartOptions = {}): Promise<Platform> {
  const logger = opts.logger ?? createLogger({ level: config.logLevel, pretty: config.prettyLogs });
  const db: Db = openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, fileName: opts.dbFileName });
  let clock: Clock;
  try {
    await migrate(db, 'platform', platformMigrations);
    // The clock the operator (or a restored world) left is taken up again (platform/clock-store.ts).
    clock = opts.clock ?? new ControllableClock(await storedClock(db));
  } catch (err) {
    await db.close();
    throw err;
  }
  if (!opts.clock) keepClockStored(clock as ControllableClock, db, logger);
  const timers = timersFor(clock);
  timers.logger ??= logger;
  // The queue prefix also names the bus's channels and the leader leases: deployments (and test runs) sharing one Redis stay apart.
  const events = createEventBus(config.redisUrl, logger, `${config.queue.prefix}:`);
  // Queue mode: with REDIS_URL, jobs run on BullMQ across processes (`hamlet worker`).
  // BullMQ (and ioredis under it) is imported only then: a default start does not load it.
  const jobs = config.redisUrl
    ? new (await import('./platform/jobs-bullmq.js')).BullJobs(db, clock, logger, config.redisUrl, {
        runWorkers: config.queue.workers,
        prefix: config.queue.prefix,
      })
    : new TableJobs(db, clock, logger);
  const keys = new Keys(db, clock, events);
  const mailer = new Mailer({ host: config.host, relay: config.smtpRelay }, jobs, events, logger);
  const limits = new RateLimits(
    config.rateLimits,
    clock,
    config.redisUrl ? { redisUrl: config.redisUrl, prefix: config.queue.prefix } : undefined,
  );
  const directory = new Directory(config.serviceUrls);
  const trace = new Trace(db, clock, events, logger, config.trace);
  const leaders = new Leaders(config.redisUrl, config.queue.prefix, logger);
  const world = new WorldHooks(events, logger);
  await trace.resume();
  // A restored or reset world is another timeline: its calls (the reloads' too) go in an epoch of their own.
  world.onRestored(() => void trace.startEpoch());
  // Keys the restored world no longer holds must stop verifying.
  world.onRestored(() => keys.forgetCached());
  // Messages missed while the Redis subscription was down (a revoked key, a dropped cache, a
  // home state set on another instance): everything kept in memory is read again, as after a restore.
  events.onGap(() => void world.reloadHere());
  return {
    config: platformSettings(config),
    db,
    clock,
    timers,
    events,
    jobs,
    keys,
    mailer,
    limits,
    logger,
    websockets: new WsBudget(config.websockets),
    directory,
    trace,
    leaders,
    health: new Health(db),
    world,
  };
}

export async function closePlatform(p: Platform): Promise<void> {
  await p.jobs.stop();
  await p.leaders.close();
  // After the jobs, whose runs record events in it; before the database it writes to.
  await p.trace.close();
  p.mailer.close();
  p.world.close();
  await p.limits.close();
  await p.events.close();
  await flushClockStore(p.db);
  await p.db.close();
}

/** Migrates each service's tables and registers its queues: what both `hamlet start` and `hamlet worker` do. */
export async function prepareServices(
  platform: Platform,
  services: ConfiguredService[],
): Promise<Array<{ service: ConfiguredService; jobs: ServiceJobs<unknown> }>> {
  for (const { definition } of services) await migrate(platform.db, definition.name, definition.migrations);
  platform.mailer.registerWorker();
  const prepared: Array<{ service: ConfiguredService; jobs: ServiceJobs<unknown> }> = [];
  try {
    for (const service of services) {
      const { port } = service.settings;
      if (port) platform.directory.expect(service.definition.name, reachableUrl(platform.config.host, port));
      platform.directory.takesKeysIn(service.definition.name, service.definition.keyHeader);
      prepared.push({ service, jobs: await service.definition.queues(platform, service.settings) });
    }
  } catch (err) {
    // What the earlier services built (sandbox workers, caches subscribed to the bus) must not outlive a failed start.
    for (const { jobs } of prepared.reverse())
      await jobs.stop().catch((e) => platform.logger.error({ err: e }, 'stopping after a failed start failed'));
    throw err;
  }
  return prepared;
}

export async function startHamlet(
  config: HamletConfig,
  opts: StartOptions & { services?: ConfiguredService[] } = {},
): Promise<Hamlet> {
  const selected = opts.services ?? (await configureServices(config));
  const platform = await openPlatform(config, opts);
  const services: Hamlet['services'] = {};
  const stops: Array<() => Promise<void>> = [];
  let consoleService: RunningConsole | undefined;
  try {
    if (platform.clock instanceof ControllableClock) {
      const unshare = shareClock(platform.clock, platform.events, platform.logger);
      stops.push(async () => unshare());
    }
    for (const { service, jobs } of await prepareServices(platform, selected)) {
      stops.push(() => jobs.stop());
      const running = await service.definition.start(platform, service.settings, jobs.core);
      if (running.urls.api) platform.directory.listening(service.definition.name, running.urls.api);
      services[service.definition.name] = running;
      stops.push(() => running.stop());
      // What the service declared for the world: its reload after a restore, its seeders.
      const withdraw = [
        running.reload && platform.world.onRestored(running.reload),
        ...Object.entries(running.seeds ?? {}).map(([name, seed]) => platform.world.onSeed(name, seed)),
      ];
      stops.push(async () => withdraw.forEach((w) => w?.()));
    }
    if (config.console.enabled) {
      const { startConsole } = await import('./console/index.js');
      consoleService = await startConsole(platform, services, selected, {
        ...config.console,
        world: config.world,
        evals: config.evals,
      });
      const running = consoleService;
      stops.push(() => running.stop());
    }
    if (opts.workers !== false) {
      await platform.jobs.start();
      // Advancing the clock runs the jobs that fall due on the way, in time order with the timers.
      const removeSource = platform.timers.addSource(jobsAsDueSource(platform.jobs, platform.timers));
      stops.push(async () => removeSource());
    }
    platform.health.serving();
  } catch (err) {
    for (const stop of stops.reverse())
      await stop().catch((e) => platform.logger.error({ err: e }, 'stopping after a failed start failed'));
    await closePlatform(platform);
    throw err;
  }
  let stopping: Promise<void> | undefined;
  return {
    platform,
    services,
    console: consoleService,
    stop: () =>
      (stopping ??= (async () => {
        // Readiness turns 503 first; during the drain the process still serves, so a load
        // balancer's next check moves traffic away before the listeners close. Each service's
        // stop then refuses new connections and finishes the requests in flight (Fastify's close).
        platform.health.stopping();
        if (config.shutdownDrainMs > 0) await new Promise((r) => setTimeout(r, config.shutdownDrainMs));
        for (const stop of [...stops].reverse())
          await withinGrace(stop, opts.stopGraceMs ?? STOP_GRACE_MS, platform.logger);
        await closePlatform(platform);
      })()),
  };
}

const STOP_GRACE_MS = 20_000;

/**
 * Runs one part's stop, bounded: a part that hangs (a request that never ends, a run that
 * ignores its abort) is logged as an error, and shutdown continues, so SIGTERM always ends
 * the process and the storage is closed.
 */
async function withinGrace(stop: () => Promise<void>, graceMs: number, logger: Platform['logger']): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  try {
    const outcome = await Promise.race([stop().then(() => 'stopped' as const), late]);
    if (outcome === 'late')
      logger.error({ graceMs }, 'a service did not stop within its grace period; shutting down without waiting for it');
  } catch (err) {
    logger.error({ err }, 'service stop failed');
  } finally {
    clearTimeout(timer);
  }
}
