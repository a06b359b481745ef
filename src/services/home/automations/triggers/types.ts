// A trigger type: validates its config and, once attached, calls `fire` with its trigger
// variables whenever it triggers. Used by automations and by WS `subscribe_trigger`.
import type { Context } from '../../core/context.js';
import type { Home } from '../../core/home.js';

export type TriggerVars = Record<string, unknown>;
/** `replicated`: the input was an event fired on another instance of a cluster (see engine.ts). */
export type Fire = (vars: TriggerVars, context?: Context, replicated?: boolean) => void;

export interface TriggerType {
  /** Returns the normalized config or throws an Error whose message names the bad key. */
  validate(config: Record<string, unknown>): Record<string, unknown>;
  attach(config: Record<string, unknown>, home: Home, fire: Fire): () => void;
  describe(config: Record<string, unknown>): string;
}

/** Config errors carry HA-like text, e.g. "required key not provided @ data['entity_id']". */
export class ConfigProblem extends Error {}

export const need = (config: Record<string, unknown>, key: string): unknown => {
  if (config[key] === undefined || config[key] === null) throw new ConfigProblem(`required key not provided @ data['${key}']`);
  return config[key];
};

export const idList = (value: unknown, key: string): string[] => {
  const list = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : Array.isArray(value) ? value : undefined;
  if (!list || list.length === 0 || list.some((x) => typeof x !== 'string' || !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(x.toLowerCase()))) {
    throw new ConfigProblem(`Entity ID ${JSON.stringify(value)} is an invalid entity ID for dictionary value @ data['${key}']`);
  }
  return (list as string[]).map((x) => x.toLowerCase());
};

/** HA durations: "HH:MM[:SS]", a number of seconds, or {days, hours, minutes, seconds, milliseconds}. */
export function parseDuration(value: unknown, key: string): number {
  if (typeof value === 'number' && value >= 0) return value * 1000;
  if (typeof value === 'string') {
    const m = /^(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d+)?))?$/.exec(value.trim());
    if (m) return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3] ?? 0)) * 1000;
    if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    const units: Record<string, number> = { days: 86_400_000, hours: 3_600_000, minutes: 60_000, seconds: 1000, milliseconds: 1 };
    let ms = 0;
    for (const [k, n] of Object.entries(v)) {
      if (!(k in units) || typeof n !== 'number' || n < 0) throw new ConfigProblem(`offset ${JSON.stringify(value)} should be format 'HH:MM', 'HH:MM:SS' or a mapping of days/hours/minutes/seconds for dictionary value @ data['${key}']`);
      ms += n * units[k]!;
    }
    return ms;
  }
  throw new ConfigProblem(`offset ${JSON.stringify(value)} should be format 'HH:MM', 'HH:MM:SS' or a mapping of days/hours/minutes/seconds for dictionary value @ data['${key}']`);
}

/**
 * The `for:` wait of state-like triggers: fire at once, or after the entity has held for
 * `forMs`; one wait per entity, cancelled when the entity stops qualifying or the trigger detaches.
 */
export class HoldTimers {
  private readonly pending = new Map<string, () => void>();

  constructor(private readonly home: Home) {}

  has(id: string): boolean {
    return this.pending.has(id);
  }

  cancel(id: string): void {
    this.pending.get(id)?.();
    this.pending.delete(id);
  }

  fireAfter(id: string, forMs: number | undefined, run: () => void): void {
    if (forMs === undefined) return run();
    this.cancel(id);
    this.pending.set(id, this.home.scheduler.after(forMs, () => {
      this.pending.delete(id);
      run();
    }));
  }

  clear(): void {
    for (const cancel of this.pending.values()) cancel();
    this.pending.clear();
  }
}
