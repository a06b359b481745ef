// The clock's timer queue: everything scheduled for a clock time (a delay, an automation's time
// trigger, a `for:` hold, a cron fire, a short Wait node, retention purges) waits here instead
// of in setTimeout, so it follows the clock: a frozen clock holds it, a jump runs what became
// due, and `advance` walks every due time between now and the target in time order, together
// with the other sources of due work (the durable jobs table: retries, scheduled sends, long
// Waits), each run with the clock standing at its due time.
//
// There is one queue per clock (`timersFor`), so services that only hold the clock share it and
// their timers interleave by time. Under a clock that follows real time, one unref'd real timer
// is armed for the earliest entry.
import { ControllableClock, type Clock } from './clock.js';
import type { Logger } from './logger.js';

/** Work that is due at clock times but kept elsewhere (the durable jobs table). */
export interface DueSource {
  /** The earliest clock time (ms) at which this source has work waiting, if any. */
  nextDue(): Promise<number | undefined>;
  /** Resolves once everything due at the current clock time has run. */
  settle(): Promise<void>;
}

interface Timer {
  due: number;
  seq: number;
  fn: () => unknown;
}

/** setTimeout's longest delay (~24.8 days); longer waits re-arm. */
const MAX_REAL_DELAY = 2 ** 31 - 1;
/**
 * Due times one advance walks at most (a minute schedule for two weeks; an hourly one for two
 * years); past them the rest of the window is jumped, so a job that retries every minute
 * forever (mail with no relay) cannot turn a year's advance into hours of stepping.
 */
const MAX_STEPS = 20_000;

export class Timers {
  /** Sorted by due time, then by the order they were added. */
  private readonly queue: Timer[] = [];
  private seq = 0;
  /** Timers run so far (settle() repeats until a pass runs none). */
  private ran = 0;
  private sleepers = 0;
  private real?: NodeJS.Timeout;
  private realFor = Number.NaN;
  /** Set while an async timer function runs; the queue continues after it. */
  private pumping?: Promise<void>;
  private readonly sources = new Set<DueSource>();
  private readonly rewinds = new Set<() => void>();
  private advancing: Promise<unknown> = Promise.resolve();
  /** Holds in force (hold()): while any is, no timer runs. */
  private holds = 0;
  logger?: Logger;

  constructor(readonly clock: Clock) {
    clock.onAdvance((now, previous) => {
      if (now.getTime() < previous) for (const rearm of [...this.rewinds]) rearm();
      this.pump();
    });
  }

  /**
   * Called when the clock is set back (a jump into the past, a world restored): repeating
   * schedules re-arm from the new time, or their next run would wait for the time they had
   * reached. One-off timers keep their absolute due time.
   */
  onRewind(rearm: () => void): () => void {
    this.rewinds.add(rearm);
    return () => this.rewinds.delete(rearm);
  }

  /**
   * Keeps every timer from running until the returned release is called. A world being
   * restored holds them: its clock jumps before its services have reloaded, and the timers of
   * the world being replaced (a workflow's schedule) must not run in the new one.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) this.pump();
    };
  }

  /** Runs fn when the clock reaches `due` (ms). Returns a cancel function. */
  at(due: number, fn: () => unknown): () => void {
    const timer: Timer = { due, seq: this.seq++, fn };
    this.queue.splice(this.insertionIndex(timer), 0, timer);
    if (this.queue[0] === timer && !this.pumping) this.arm();
    return () => this.cancel(timer);
  }

  after(ms: number, fn: () => unknown): () => void {
    return this.at(this.clock.ms() + ms, fn);
  }

  /**
   * Runs fn every `ms` of clock time, the first time `ms` from now. The next run is counted from
   * the current time when one runs, so a jump runs it once and `advance` runs it once per interval.
   */
  every(ms: number, fn: () => unknown): () => void {
    if (!(ms > 0)) throw new RangeError('every() needs a positive interval');
    let cancel = () => {};
    const tick = () => {
      cancel = this.after(ms, tick);
      return fn();
    };
    cancel = this.after(ms, tick);
    const stopRewinds = this.onRewind(() => {
      cancel();
      cancel = this.after(ms, tick);
    });
    return () => {
      stopRewinds();
      cancel();
    };
  }

  /** A promise that resolves after `ms` of clock time, or rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        cancel();
        reject(signal!.reason);
      };
      const cancel = this.after(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers++;
    }).finally(() => this.sleepers--);
  }

  /**
   * Work parked in sleep() until the clock moves (a short Wait node inside a running job). Settling
   * does not wait for such work, which only an advance can finish.
   */
  get sleeping(): number {
    return this.sleepers;
  }

  addSource(source: DueSource): () => void {
    this.sources.add(source);
    return () => this.sources.delete(source);
  }

  /** The earliest time anything (a timer or a source) is due, if anything is. */
  async nextDue(): Promise<number | undefined> {
    let next = this.queue[0]?.due;
    for (const source of this.sources) {
      const due = await source.nextDue();
      if (due !== undefined && (next === undefined || due < next)) next = due;
    }
    return next;
  }

  /** Resolves once every timer and every source has run what is due at the current time. */
  async settle(): Promise<void> {
    // Until a pass runs no timer: what the sources ran may have added timers due now, and what
    // the timers ran may have queued jobs.
    for (;;) {
      const before = this.ran;
      this.pump();
      while (this.pumping) await this.pumping;
      for (const source of this.sources) await source.settle();
      if (this.ran === before) return;
    }
  }

  /**
   * Moves a controllable clock forward by `ms`, running what falls due on the way in time order:
   * the clock steps to each due time (timers and sources alike), and each step settles before
   * the next, so an hourly schedule fires 24 times over a day, each at its own time. Resolves
   * with the new time once everything due by then has run. Calls are serialised.
   */
  advance(ms: number): Promise<Date> {
    const run = this.advancing.then(() => this.walk(ms));
    this.advancing = run.catch(() => {});
    return run;
  }

  private async walk(ms: number): Promise<Date> {
    const clock = this.clock;
    if (!(clock instanceof ControllableClock)) throw new Error('this clock cannot be moved');
    const target = clock.ms() + ms;
    const wasFrozen = clock.frozen;
    // Standing still between steps: each due item runs with the clock at exactly its time.
    clock.freeze();
    try {
      let stuckAt = Number.NaN;
      for (let step = 0; ; step++) {
        if (step === MAX_STEPS) {
          this.logger?.warn(
            { steps: MAX_STEPS, from: clock.now().toISOString(), to: new Date(target).toISOString() },
            'clock advance: too many due times on the way; jumping the rest of the window',
          );
          break;
        }
        await this.settle();
        const next = await this.nextDue();
        if (next === undefined || next > target) break;
        if (next > clock.ms()) clock.set(next);
        else if (next === stuckAt) {
          // Settling ran nothing: the work is not ours to run (e.g. a queue this process has no worker for).
          this.logger?.warn({ due: new Date(next).toISOString() }, 'clock advance: due work did not run; moving on');
          break;
        } else stuckAt = next;
      }
      if (clock.ms() < target) clock.set(target);
      await this.settle();
    } finally {
      if (!wasFrozen) clock.unfreeze();
    }
    return clock.now();
  }

  /** Runs due timers in order; synchronous ones run at once (a test moving a manual clock sees them done). */
  private pump(): void {
    if (this.pumping) return; // the running pass picks up what became due when its await ends
    if (this.holds) return; // the release pumps
    for (;;) {
      const head = this.queue[0];
      if (!head || head.due > this.clock.ms()) break;
      this.queue.shift();
      this.ran++;
      let result: unknown;
      try {
        result = head.fn();
      } catch (err) {
        this.report(err);
        continue;
      }
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        this.pumping = Promise.resolve(result)
          .catch((err) => this.report(err))
          .then(() => {
            this.pumping = undefined;
            this.pump();
          });
        return;
      }
    }
    this.arm();
  }

  /** One real timer for the earliest entry: at once when it is due, never in the future of a frozen clock. */
  private arm(): void {
    const head = this.queue[0];
    const wait = head ? head.due - this.clock.ms() : Number.NaN;
    const want = !head ? Number.NaN : wait <= 0 ? 0 : this.clock.frozen ? Number.NaN : Math.min(wait, MAX_REAL_DELAY);
    if (this.real && head && this.realFor === head.due && !Number.isNaN(want)) return;
    clearTimeout(this.real);
    this.real = undefined;
    if (Number.isNaN(want)) return;
    this.realFor = head.due;
    this.real = setTimeout(() => {
      this.real = undefined;
      this.pump();
    }, want);
    this.real.unref();
  }

  private cancel(timer: Timer): void {
    const i = this.queue.indexOf(timer);
    if (i < 0) return;
    this.queue.splice(i, 1);
    if (i === 0 && !this.pumping) this.arm();
  }

  private insertionIndex(timer: Timer): number {
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.queue[mid].due <= timer.due) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private report(err: unknown): void {
    if (this.logger) this.logger.error({ err }, 'a timer failed');
    else console.error('a timer failed', err);
  }
}

const queues = new WeakMap<Clock, Timers>();

/** The one timer queue of a clock (created on first use), shared by everything that holds the clock. */
export function timersFor(clock: Clock): Timers {
  let timers = queues.get(clock);
  if (!timers) queues.set(clock, (timers = new Timers(clock)));
  return timers;
}
