// Group commit. Every state write and recorded event is queued; the queue is flushed in one
// transaction on the next turn of the event loop, so a burst of writes costs one commit.
// A request that acknowledges a change awaits `commit()`: it answers only once its write
// is durable (DESIGN: nothing acknowledged is lost), while writes that arrive during a flush
// simply join the next one.
import type { Logger } from '../../../platform/logger.js';
import type { HomeBus } from '../core/bus.js';
import type { State } from '../core/state.js';
import type { StateMachine } from '../core/states.js';
import type { Batch, HomeStore } from '../store/index.js';
import { eventRow, stateRow } from '../store/rows.js';

/** Events the recorder does not keep (state changes are kept as state rows instead). */
const NOT_RECORDED = new Set([
  'state_changed',
  'state_reported',
  'time_changed',
  'service_registered',
  'component_loaded',
]);

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  // Not a swallowed error: flush() logs the failure, and every commit() caller gets the
  // rejection. This only keeps a batch nobody waited on from being an unhandled rejection.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

export class Persister {
  private batch: Batch = { entities: new Map(), states: [], events: [] };
  private pendingDone: Deferred | undefined;
  private flushing: Promise<void> | undefined;
  private scheduled = false;
  private readonly unsubscribe: Array<() => void> = [];

  /** Starts listening at once: every write and recorded event from here on is persisted. */
  constructor(
    private readonly store: HomeStore,
    source: { states: StateMachine; bus: HomeBus },
    private readonly logger: Logger,
  ) {
    this.unsubscribe.push(
      // A write another instance made is that instance's to store and record.
      source.states.onWrite((entityId, state, _changed, replicated) => {
        if (replicated) return;
        this.batch.entities.set(entityId, state ? state.json() : null);
        this.schedule();
      }),
      source.bus.listen('state_changed', (e) => {
        const s = e.data.new_state as State | null;
        if (!s || e.replicated) return;
        this.batch.states.push(stateRow(s));
        this.schedule();
      }),
      source.bus.listen('*', (e) => {
        if (NOT_RECORDED.has(e.event_type) || e.replicated) return;
        this.batch.events.push(eventRow(e));
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
        this.logger.error(
          {
            err,
            service: 'home',
            entities: batch.entities.size,
            states: batch.states.length,
            events: batch.events.length,
          },
          'home: writing to the database failed',
        );
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
