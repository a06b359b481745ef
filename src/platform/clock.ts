// The clock is injectable so tests can move time (token expiry, ranking, schedules)
// without sleeping. Code that needs "now" asks the clock, never `new Date()` directly.
import { EventEmitter } from 'node:events';

export interface Clock {
  now(): Date;
  /** Milliseconds since the epoch; cheaper than now() on hot paths. */
  ms(): number;
  /** Fires after the manual clock moves; schedulers listen to re-check what is due. */
  onAdvance(listener: (now: Date) => void): () => void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  ms: () => Date.now(),
  onAdvance: () => () => {},
};

/** A clock that stands still until a test moves it. */
export class ManualClock implements Clock {
  private current: number;
  private readonly emitter = new EventEmitter();

  constructor(start: Date | string | number = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
    this.emitter.setMaxListeners(0);
  }

  now(): Date {
    return new Date(this.current);
  }

  ms(): number {
    return this.current;
  }

  set(to: Date | string | number): void {
    this.current = new Date(to).getTime();
    this.emitter.emit('advance', this.now());
  }

  advance(ms: number): void {
    this.set(this.current + ms);
  }

  onAdvance(listener: (now: Date) => void): () => void {
    this.emitter.on('advance', listener);
    return () => this.emitter.off('advance', listener);
  }
}
