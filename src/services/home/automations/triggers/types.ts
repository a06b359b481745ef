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
    this.pending.set(
      id,
      this.home.scheduler.after(forMs, () => {
        this.pending.delete(id);
        run();
      }),
    );
  }

  clear(): void {
    for (const cancel of this.pending.values()) cancel();
    this.pending.clear();
  }
}
