// Timers on the injectable clock. Each entry is due at a clock time; a real timer is armed
// for the wait (unref'd), and a manual clock's advance re-checks what is due, so delays,
// cover movement and time triggers run the same under the system clock and in tests.
import { systemClock, type Clock } from '../../../platform/clock.js';

interface Entry {
  due: number;
  fn: () => void;
  timer?: NodeJS.Timeout;
}

export class Scheduler {
  private readonly entries = new Set<Entry>();
  private readonly stopAdvance: () => void;

  constructor(readonly clock: Clock) {
    this.stopAdvance = clock.onAdvance(() => this.runDue());
  }

  /** Runs fn at clock time `due` (ms); returns a cancel function. */
  at(due: number, fn: () => void): () => void {
    const entry: Entry = { due, fn };
    this.entries.add(entry);
    this.arm(entry);
    return () => {
      clearTimeout(entry.timer);
      this.entries.delete(entry);
    };
  }

  after(ms: number, fn: () => void): () => void {
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

  private arm(entry: Entry) {
    const wait = Math.max(0, entry.due - this.clock.ms());
    // Long waits re-arm in steps (setTimeout's limit is ~24.8 days).
    entry.timer = setTimeout(() => this.fire(entry), Math.min(wait, 2 ** 31 - 1));
    entry.timer.unref();
  }

  private fire(entry: Entry) {
    if (!this.entries.has(entry)) return;
    // Under a manual clock the real timer may fire before the clock reaches `due`: wait for an advance.
    if (this.clock.ms() < entry.due) {
      if (entry.due - this.clock.ms() > 2 ** 31 - 1 || this.isSystemTime()) this.arm(entry);
      return;
    }
    this.entries.delete(entry);
    entry.fn();
  }

  /** Real time moves by itself (a timer that fired early is re-armed); a manual clock waits for advances. */
  private isSystemTime(): boolean {
    return this.clock === systemClock;
  }

  private runDue() {
    const now = this.clock.ms();
    const due = [...this.entries].filter((e) => e.due <= now).sort((a, b) => a.due - b.due);
    for (const e of due) {
      if (!this.entries.has(e)) continue;
      clearTimeout(e.timer);
      this.entries.delete(e);
      e.fn();
    }
  }

  stop(): void {
    this.stopAdvance();
    for (const e of this.entries) clearTimeout(e.timer);
    this.entries.clear();
  }
}
