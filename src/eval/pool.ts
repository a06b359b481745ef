// Warm Hamlet instances for episodes: each its own data directory (SQLite), its own free ports,
// its console (the MCP endpoint the agent is handed), in this process. An episode takes one,
// restores its task's world into it (tens of milliseconds, where starting an instance takes
// a second or more) and gives it back; no two episodes ever share one.
import { accessSync, constants, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configure } from '../config.js';
import { createLogger } from '../platform/logger.js';
import type { ConfiguredService } from '../platform/service.js';
import type { Env } from '../platform/settings.js';
import { startHamlet, type Hamlet } from '../server.js';
import { worldOf } from '../console/world/index.js';
import type { World } from '../console/world/state.js';
import type { FileLimits } from '../console/world/file.js';

export interface Instance {
  /** 0, 1, …: which instance of the pool (named in the episode's record). */
  index: number;
  hamlet: Hamlet;
  services: ConfiguredService[];
  world: World;
  dataDir: string;
  /** The console's MCP endpoint (Streamable HTTP). */
  mcpUrl: string;
  /** Limits of world files (HAMLET_WORLD_*), for snapshots and diffs. */
  limits: FileLimits;
  /** Each running service's URLs by label (api, smtp, …). */
  urls: Record<string, Record<string, string>>;
}

/** Settings an episode's instance never takes from the environment: it is private, local and on SQLite. */
const PRIVATE = ['DATABASE_URL', 'REDIS_URL', 'HAMLET_SMTP_RELAY'];

/** Memory a data directory in /dev/shm must leave free (containers often give it 64 MiB). */
const SHM_MIN_FREE = 1024 ** 3;

/**
 * Where instances keep their data: HAMLET_EVAL_TMP, else memory (/dev/shm) where the system
 * has a roomy one, else the temporary folder. An episode's world is thrown away and every
 * restore rewrites its tables: in memory a reset took 5–15% less (measured under load).
 */
function dataRoot(env: Env): string {
  if (env.HAMLET_EVAL_TMP) return env.HAMLET_EVAL_TMP;
  try {
    accessSync('/dev/shm', constants.W_OK);
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize >= SHM_MIN_FREE) return '/dev/shm';
  } catch {
    // No /dev/shm here.
  }
  return os.tmpdir();
}

async function startInstance(index: number, env: Env, services: string[]): Promise<Instance> {
  const dataDir = mkdtempSync(path.join(dataRoot(env), `hamlet-eval-${index}-`));
  const base: Env = Object.fromEntries(Object.entries(env).filter(([k]) => !PRIVATE.includes(k)));
  const own: Env = {
    ...base,
    HAMLET_DATA_DIR: dataDir,
    HAMLET_SERVICES: services.join(','),
    HAMLET_CONSOLE: 'on',
    HAMLET_RATE_LIMITS: 'off',
  };
  // Every port this configuration would listen on, free ones instead.
  const { ports } = await configure(own, {});
  const { config, services: configured } = await configure(
    { ...own, ...Object.fromEntries(ports.map((p) => [p.setting, '0'])), HAMLET_CONSOLE_PORT: '0' },
    {},
  );
  try {
    const hamlet = await startHamlet(config, {
      services: configured,
      logger: createLogger({ level: env.HAMLET_EVAL_LOG_LEVEL ?? 'error', pretty: false }),
    });
    const urls = Object.fromEntries(Object.entries(hamlet.services).map(([name, s]) => [name, { ...s!.urls }]));
    return {
      index,
      hamlet,
      services: configured,
      world: worldOf(hamlet.platform, configured),
      dataDir,
      limits: config.world,
      mcpUrl: `${hamlet.console!.urls.web}/mcp`,
      urls,
    };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/** Instances started at once (see InstancePool.start). */
const STARTS_AT_ONCE = 4;

export class InstancePool {
  private readonly idle: Instance[] = [];
  private readonly waiting: Array<(i: Instance) => void> = [];

  private constructor(readonly instances: Instance[]) {
    this.idle.push(...instances);
  }

  /**
   * Starts `size` instances, a few at a time: a start waits on its files and sockets as much
   * as it computes, so starting four at once took 10-40% less than one after another (measured
   * on two cores under load), and more at once only queue behind each other.
   */
  static async start(size: number, env: Env, services: string[]): Promise<InstancePool> {
    const started: Instance[] = [];
    try {
      for (let first = 0; first < size; first += STARTS_AT_ONCE) {
        const batch = Array.from({ length: Math.min(STARTS_AT_ONCE, size - first) }, (_, i) =>
          startInstance(first + i, env, services),
        );
        const settled = await Promise.allSettled(batch);
        for (const s of settled) if (s.status === 'fulfilled') started.push(s.value);
        const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
        if (failed) throw failed.reason;
      }
    } catch (err) {
      await Promise.all(started.map(stopInstance));
      throw err;
    }
    return new InstancePool(started.sort((a, b) => a.index - b.index));
  }

  /** An instance no episode holds, waiting for one when all are taken. */
  acquire(): Promise<Instance> {
    const free = this.idle.shift();
    if (free) return Promise.resolve(free);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(instance: Instance): void {
    const next = this.waiting.shift();
    if (next) next(instance);
    else this.idle.push(instance);
  }

  async stop(): Promise<void> {
    await Promise.all(this.instances.map(stopInstance));
  }
}

async function stopInstance(instance: Instance): Promise<void> {
  try {
    await instance.hamlet.stop();
  } finally {
    rmSync(instance.dataDir, { recursive: true, force: true });
  }
}
