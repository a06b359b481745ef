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

/** One row that differs between two states of the world (the row diff's unit, console/world/diff.ts). */
export interface WorldRowChange {
  change: 'added' | 'changed' | 'removed';
  table: string;
  key: Record<string, unknown>;
  /** The row before (changed, removed) and after (added, changed). */
  before?: WorldRow;
  after?: WorldRow;
  /** The columns that differ (changed). */
  columns?: string[];
}

/** A change as a person reads it: `kind` and `subject` for rules to match, `text` to read. */
export interface WorldChangeNote {
  /** What happened, e.g. `entity.changed`, `message.sent`, `post.created`, `workflow.activated`. */
  kind: string;
  /** What it happened to, e.g. `light.kitchen`, `citydesk`, a workflow's name. */
  subject: string;
  /** A sentence, e.g. `light.kitchen: state off → on; brightness 0 → 180`. */
  text: string;
}

/** Other rows of the state a change belongs to (the newer one, else the older), for names behind ids. */
export type WorldRowLookup = (table: string, key: Record<string, unknown>) => WorldRow | undefined;

/**
 * A service's reading of one changed row: a note; `null` for bookkeeping a person would not
 * call a change (a thread's counters, a queued job, a token); `undefined` when it does not
 * know the row (it is then shown as the row diff says it).
 */
export type WorldChangeDescriber = (
  change: WorldRowChange,
  lookup: WorldRowLookup,
) => WorldChangeNote | null | undefined;

/** A value as a note shows it: text as it is (cut at 80 characters), anything else as JSON. */
export function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** `a → b` for each named field that differs between two objects, joined with `; ` (empty when none does). */
export function fieldChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  fields: string[],
): string {
  return fields
    .filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]))
    .map((f) => `${f} ${shown(before[f])} → ${shown(after[f])}`)
    .join('; ');
}

/** What a service (or the platform) declares about its tables' place in the world. */
export interface ServiceWorld {
  /** Its changed rows as people read them (the semantic diff of evaluations, src/eval/). */
  describe?: WorldChangeDescriber;
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
  // Keys made and revoked are changes; queued jobs are the services' bookkeeping.
  describe: (c) => {
    if (c.table === 'platform_jobs') return null;
    if (c.table !== 'platform_keys') return undefined;
    const row = (c.after ?? c.before)!;
    const subject = String(row.service);
    const named = row.name ? ` "${shown(row.name)}"` : '';
    if (c.change === 'added')
      return { kind: 'key.created', subject, text: `${subject} key${named} created (${shown(row.hint)})` };
    if (c.change === 'removed') return { kind: 'key.deleted', subject, text: `${subject} key${named} deleted` };
    if (c.columns?.includes('revoked_at') && c.after?.revoked_at)
      return { kind: 'key.revoked', subject, text: `${subject} key${named} revoked` };
    return undefined;
  },
};

type Reload = () => void | Promise<void>;

/**
 * A bulk writer a running service offers for generating worlds (RunningService.seeds), by name:
 * what the service's API would record one call at a time, written at once. The world code calls
 * it by name (it imports no service code) and the service checks the input; only for a world
 * being made in a private instance (the demo, src/demo/world-demo.ts): other instances of
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
