// The clock is injectable so tests and evaluators can move time (token expiry, ranking,
// schedules) without sleeping. Code that needs "now" asks the clock, never `new Date()` directly,
// and code that waits for a clock time uses the clock's timer queue (platform/timers.ts), never
// setTimeout, so a frozen clock holds it and an advance runs it.
import { EventEmitter } from 'node:events';

export interface Clock {
  now(): Date;
  /** Milliseconds since the epoch; cheaper than now() on hot paths. */
  ms(): number;
  /**
   * Fires after the clock is moved or frozen/unfrozen; schedulers listen to re-check what is due.
   * `previous` is the clock time just before the change (a rewind when later than `now`).
   */
  onAdvance(listener: (now: Date, previous: number) => void): () => void;
  /** True while time stands still until someone moves it (real timers must not re-arm then). */
  readonly frozen?: boolean;
}

/** Real time, unchangeable: for processes that never expose the clock (CLI commands). */
export const systemClock: Clock = {
  now: () => new Date(),
  ms: () => Date.now(),
  onAdvance: () => () => {},
  frozen: false,
};

/** What the operator sets and a world snapshot keeps: whether time stands still, and the time. */
export interface ClockState {
  frozen: boolean;
  /** ISO 8601. */
  now: string;
}

/**
 * The production clock: follows system time (plus an offset once someone jumped it) until
 * frozen; frozen, it stands at one instant until set, advanced or unfrozen. now()/ms() are an
 * addition or a field read, so hot paths may call them freely.
 *
 * Moving it only emits `advance`; running what became due in between, in time order, is the
 * timer queue's `advance` (platform/timers.ts), which steps this clock through each due time.
 */
export class ControllableClock implements Clock {
  /** While following system time: now = Date.now() + offset. */
  private offset = 0;
  /** While frozen: the instant the clock stands at. */
  private standing = 0;
  private isFrozen = false;
  private readonly emitter = new EventEmitter();

  constructor(start?: { frozen?: boolean; now?: Date | string | number }) {
    this.emitter.setMaxListeners(0);
    const at = start?.now === undefined ? Date.now() : toMs(start.now);
    // Frozen: exactly the given instant (tests compare times to the millisecond).
    if (start?.frozen) {
      this.isFrozen = true;
      this.standing = at;
    } else this.offset = at - Date.now();
  }

  get frozen(): boolean {
    return this.isFrozen;
  }

  ms(): number {
    return this.isFrozen ? this.standing : Date.now() + this.offset;
  }

  now(): Date {
    return new Date(this.ms());
  }

  /** Stops time at the current instant (a no-op when already frozen). */
  freeze(): void {
    if (this.isFrozen) return;
    const previous = this.ms();
    this.standing = previous;
    this.isFrozen = true;
    this.changed(previous);
  }

  /** Lets time run again from the instant it stood at (no jump). */
  unfreeze(): void {
    if (!this.isFrozen) return;
    this.offset = this.standing - Date.now();
    this.isFrozen = false;
    this.changed(this.standing);
  }

  /** Jumps to a time, frozen or not. Jumping skips: nothing due in between runs once per interval. */
  set(to: Date | string | number): void {
    const ms = toMs(to);
    const previous = this.ms();
    if (this.isFrozen) this.standing = ms;
    else this.offset = ms - Date.now();
    this.changed(previous);
  }

  /** Jumps ahead by `ms` (tests). To run what falls due in between in order, use Timers.advance. */
  advance(ms: number): void {
    this.set(this.ms() + ms);
  }

  state(): ClockState {
    return { frozen: this.isFrozen, now: this.now().toISOString() };
  }

  restore(state: ClockState): void {
    const ms = toMs(state.now);
    const previous = this.ms();
    this.isFrozen = state.frozen;
    if (state.frozen) this.standing = ms;
    else this.offset = ms - Date.now();
    this.changed(previous);
  }

  onAdvance(listener: (now: Date, previous: number) => void): () => void {
    this.emitter.on('advance', listener);
    return () => this.emitter.off('advance', listener);
  }

  private changed(previous: number): void {
    this.emitter.emit('advance', this.now(), previous);
  }
}

/** A clock that stands still until a test moves it. */
export class ManualClock extends ControllableClock {
  constructor(start: Date | string | number = '2026-01-01T00:00:00.000Z') {
    super({ frozen: true, now: start });
  }
}

/**
 * An ISO 8601 date-time someone gave (the clock API's `now`, a snapshot's clock), in ms; or
 * undefined when it is not one: not text, not starting with a date (so `12` or "tomorrow"
 * are refused, though Date.parse would take some of them), or no valid time.
 */
export function parseIsoTime(text: unknown): number | undefined {
  if (typeof text !== 'string' || text.length > 64 || !/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

function toMs(t: Date | string | number): number {
  const ms = new Date(t).getTime();
  if (Number.isNaN(ms)) throw new RangeError(`not a time: ${String(t)}`);
  return ms;
}
