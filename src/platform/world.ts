// The world: everything the services hold for their users (database rows, the house, queued
// jobs, waiting executions), which the console saves, restores and resets (src/console/world/).
// Here are the two things the platform contributes: what a service may declare about its part
// of the world, and the hook through which every instance reloads what it keeps in memory
// after the rows under it were replaced.
import { randomUUID } from 'node:crypto';
import type { EventBus } from './events.js';
import type { Logger } from './logger.js';
import { WORLD_RESTORED } from './topics.js';

export type WorldRow = Record<string, unknown>;

/**
 * Rows of a table that belong to the instance: a row is the instance's when it matches one of
 * the patterns (every column a pattern names holds that value). Declared as data, not code, so
 * the same rule filters rows wherever they are read or written (the world worker too) and
 * reads at a glance.
 */
export type InstanceRows = Record<string, Array<Record<string, string | number>>>;

/** What a service (or the platform) declares about its tables' place in the world. */
export interface ServiceWorld {
  /** Which of the owner's tables (those named with its prefix) hold world state; default all of them. */
  tables?(owned: string[]): string[];
  /**
   * Rows that belong to this instance rather than to the world (the console's own keys): left
   * out of snapshots, kept through restore and reset, and never taken from a snapshot (a file
   * that brings such rows has them dropped, so no file can plant a key of the instance).
   * Whole tables of the instance (the workflow owner, mail's secrets) are left out by `tables`.
   */
  instanceRows?: InstanceRows;
}

/** Whether a row of a table is the instance's under a rule (ServiceWorld.instanceRows). */
export function isInstanceRow(rule: InstanceRows | undefined, table: string, row: WorldRow): boolean {
  const patterns = rule?.[table];
  if (!patterns) return false;
  return patterns.some((pattern) => Object.keys(pattern).every((column) => row[column] === pattern[column]));
}

/** The platform's part: API keys and the durable job queue are world state; the trace is not. */
export const PLATFORM_WORLD: ServiceWorld = {
  tables: (owned) => owned.filter((t) => t === 'platform_keys' || t === 'platform_jobs'),
  // Admin keys open the console and `hamlet-console` keys are the console's own way into the
  // services (src/console/service-client.ts): a restore must not lock the evaluator out, and a
  // snapshot must not let anyone in.
  instanceRows: { platform_keys: [{ service: 'admin' }, { name: 'hamlet-console' }] },
};

type Reload = () => void | Promise<void>;

/**
 * A bulk writer a running service offers for generating worlds (RunningService.seeds), by name:
 * what the service's API would record one call at a time, written at once. The world code calls
 * it by name (it imports no service code) and the service checks the input; only for a world
 * being made in a private instance (the demo, src/commands/world-demo.ts): other instances of
 * a cluster are not told.
 */
export type WorldSeeder = (input: unknown) => Promise<void>;

/**
 * Reloads after a restore. What to reload (caches, the house, active triggers) is registered
 * with `onRestored` (the server does it for each running service's declared reload); the process that restored calls `restored()`, which runs this
 * instance's reloads and awaits them, and tells the other instances over the bus.
 */
export class WorldHooks {
  private readonly reloads = new Set<Reload>();
  private readonly seeders = new Map<string, WorldSeeder>();
  private readonly origin = randomUUID();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly events: EventBus,
    private readonly logger: Logger,
  ) {
    this.unsubscribe = events.subscribe(WORLD_RESTORED, async (msg) => {
      if (msg.origin !== this.origin) await this.runReloads();
    });
  }

  onRestored(reload: Reload): () => void {
    this.reloads.add(reload);
    return () => this.reloads.delete(reload);
  }

  /** Offers a seeder under its name; returns a function that withdraws it. */
  onSeed(name: string, seeder: WorldSeeder): () => void {
    this.seeders.set(name, seeder);
    return () => {
      if (this.seeders.get(name) === seeder) this.seeders.delete(name);
    };
  }

  /** The seeder of a name, when its service runs in this process. */
  seeder(name: string): WorldSeeder | undefined {
    return this.seeders.get(name);
  }

  async restored(): Promise<void> {
    await this.runReloads();
    await this.events.publish(WORLD_RESTORED, { origin: this.origin });
  }

  /** Runs this instance's reloads only: after the bus dropped messages (events.ts onGap), not a restore. */
  reloadHere(): Promise<void> {
    return this.runReloads();
  }

  close(): void {
    this.unsubscribe();
  }

  private async runReloads(): Promise<void> {
    for (const reload of this.reloads) {
      try {
        await reload();
      } catch (err) {
        this.logger.error({ err }, 'reloading after a world restore failed');
      }
    }
  }
}
