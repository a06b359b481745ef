// Group commit. Every state write and recorded event is queued; the queue is flushed in one
// transaction on the next turn of the event loop, so a burst of writes costs one commit.
// A request that acknowledges a change awaits `commit()`: it answers only once its write
// is durable (DESIGN: nothing acknowledged is lost), while writes that arrive during a flush
// simply join the next one.
import type { Logger } from '../../platform/logger.js';
import type { HomeBus, HomeEvent } from './core/bus.js';
import type { State } from './core/state.js';
import type { StateMachine } from './core/states.js';
import type { Batch, HomeStore } from './store.js';

/** Events the recorder does not keep (state changes are kept as state rows instead). */
const NOT_RECORDED = new Set(['state_changed', 'state_reported', 'time_changed', 'service_registered', 'component_loaded']);

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => {});
  return { promise, resolve, reject };
}

const ts = (us: number) => us / 1_000_000;

export class Persister {
  private batch: Batch = { entities: new Map(), states: [], events: [] };
  private pendingDone: Deferred | undefined;
  private flushing: Promise<void> | undefined;
  private scheduled = false;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly store: HomeStore,
    private readonly logger: Logger,
  ) {}

  attach(states: StateMachine, bus: HomeBus): void {
    this.unsubscribe.push(
      states.onWrite((entityId, state) => {
        this.batch.entities.set(entityId, state ? state.json() : null);
        this.schedule();
      }),
      bus.listen('state_changed', (e) => {
        const s = e.data.new_state as State | null;
        if (!s) return;
        this.batch.states.push({
          entity_id: s.entity_id,
          state: s.state,
          attributes: JSON.stringify(s.attributes),
          last_changed_ts: ts(s.lastChangedUs),
          last_updated_ts: ts(s.lastUpdatedUs),
          context_id: s.context.id,
          context_user_id: s.context.user_id,
          context_parent_id: s.context.parent_id,
        });
        this.schedule();
      }),
      bus.listen('*', (e: HomeEvent) => {
        if (NOT_RECORDED.has(e.event_type)) return;
        this.batch.events.push({
          event_type: e.event_type,
          data: JSON.stringify(e.data),
          origin: e.origin,
          time_fired_ts: ts(e.timeUs),
          context_id: e.context.id,
          context_user_id: e.context.user_id,
          context_parent_id: e.context.parent_id,
        });
        this.schedule();
      }),
    );
  }

  private get empty(): boolean {
    return this.batch.entities.size === 0 && this.batch.states.length === 0 && this.batch.events.length === 0;
  }

  private schedule() {
    this.pendingDone ??= deferred();
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.flushing || this.empty) return;
    const batch = this.batch;
    const done = this.pendingDone!;
    this.batch = { entities: new Map(), states: [], events: [] };
    this.pendingDone = undefined;
    this.flushing = (async () => {
      try {
        await this.store.write(batch);
        done.resolve();
      } catch (err) {
        this.logger.error({ err }, 'home: writing to the database failed');
        done.reject(err);
      }
    })();
    await this.flushing;
    this.flushing = undefined;
    if (!this.empty) this.schedule();
  }

  /** Resolves when everything written so far is committed. */
  async commit(): Promise<void> {
    if (this.pendingDone) return this.pendingDone.promise.then(() => undefined);
    if (this.flushing) return this.flushing;
  }

  async close(): Promise<void> {
    for (const u of this.unsubscribe) u();
    while (this.flushing || !this.empty) {
      if (this.flushing) await this.flushing;
      else await this.flush();
    }
  }
}
