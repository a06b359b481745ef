// The house's timers (delays, cover movement, time triggers, `for:` holds, the recorder's daily
// purge) on the platform clock's timer queue, so they follow the clock: frozen, nothing fires;
// advanced, everything due fires in time order, interleaved with the other services' timers.
// This wrapper only remembers its own timers, so stopping the house cancels just those.
import type { Clock } from '../../../platform/clock.js';
import { timersFor, type Timers } from '../../../platform/timers.js';

export class Scheduler {
  private readonly timers: Timers;
  private readonly cancels = new Set<() => void>();

  constructor(readonly clock: Clock) {
    this.timers = timersFor(clock);
  }

  /** Runs fn at clock time `due` (ms); returns a cancel function. A promise fn returns is awaited before later timers run. */
  at(due: number, fn: () => unknown): () => void {
    const cancel = this.timers.at(due, () => {
      this.cancels.delete(cancel);
      return fn();
    });
    this.cancels.add(cancel);
    return () => {
      cancel();
      this.cancels.delete(cancel);
    };
  }

  after(ms: number, fn: () => unknown): () => void {
    return this.at(this.clock.ms() + ms, fn);
  }

  /** A promise that resolves after `ms` of clock time, or rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const cancel = this.after(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      const onAbort = () => {
        cancel();
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  stop(): void {
    for (const cancel of this.cancels) cancel();
    this.cancels.clear();
  }
}
