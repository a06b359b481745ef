// The one place where tests wait. Tests wait on the condition they depend on (`waitFor`), on
// an event (`nextEvent`), or on the injectable clock (src/platform/clock.ts), never on a fixed
// sleep. `settle` is the single exception, for asserting that something does NOT happen when
// the code under test offers no signal to wait for; see its comment.
import type { EventEmitter } from 'node:events';
import { inspect } from 'node:util';

export interface WaitOptions {
  /** Give up after this long (default 10 s; the suite's test timeout is 30 s). */
  timeoutMs?: number;
  /** Pause between two checks (default 20 ms). */
  intervalMs?: number;
  /**
   * What is awaited, in words: the failure reads "timed out after … waiting for <message>". A
   * function is called at the timeout, so it can describe what had arrived by then.
   */
  message?: string | (() => string);
}

type Falsy = false | 0 | '' | null | undefined;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const show = (value: unknown) => inspect(value, { depth: 3, breakLength: Infinity, maxArrayLength: 10, maxStringLength: 300 });

/**
 * Checks `condition` until it returns a truthy value, and resolves with that value. The
 * condition may be sync or async; a throw (e.g. a failed `expect`) counts as "not yet". On
 * timeout it rejects with what was awaited and the last value or error seen.
 */
export async function waitFor<T>(condition: () => T | Promise<T>, options: WaitOptions = {}): Promise<Exclude<T, Falsy>> {
  const { timeoutMs = 10_000, intervalMs = 20, message } = options;
  const deadline = Date.now() + timeoutMs;
  let last: { value: unknown } | { error: unknown } | undefined;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as Exclude<T, Falsy>;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= deadline) {
      const what = (typeof message === 'function' ? message() : message) ?? condition.toString().replace(/\s+/g, ' ').slice(0, 200);
      const seen = !last ? 'nothing' : 'error' in last ? `error: ${last.error instanceof Error ? last.error.message : show(last.error)}` : `value: ${show(last.value)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last ${seen}`, { cause: 'error' in (last ?? {}) ? (last as { error: unknown }).error : undefined });
    }
    await pause(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
}

/**
 * Resolves with `promise`'s value, or rejects with `message` if it has not settled within
 * `timeoutMs`: for waits that are event-driven already (a callback resolves them) and only
 * need a bound so a missing event fails the test with a reason instead of a hang.
 */
export function withDeadline<T>(promise: Promise<T>, timeoutMs: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${message}`)), timeoutMs);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** Resolves with the first `event` from `emitter` whose arguments pass `filter` (default: any). */
export function nextEvent<A extends unknown[] = unknown[]>(
  emitter: EventEmitter,
  event: string,
  options: { filter?: (...args: A) => boolean; timeoutMs?: number } = {},
): Promise<A> {
  const { filter = () => true, timeoutMs = 10_000 } = options;
  let listener!: (...args: A) => void;
  const seen = new Promise<A>((resolve) => {
    listener = (...args: A) => {
      if (filter(...args)) resolve(args);
    };
    emitter.on(event, listener as (...args: unknown[]) => void);
  });
  return withDeadline(seen, timeoutMs, `event '${event}'`).finally(() => emitter.off(event, listener as (...args: unknown[]) => void));
}

/**
 * Lets `ms` of real time pass. Only for asserting that something does NOT happen (no second
 * delivery, no run while disabled) where the code under test offers no signal that it is done
 * deciding: absence can only be observed over a stretch of time. Wait on a condition, an
 * event, a job queue's `idle()` or the manual clock whenever one exists; name the reason at
 * the call site.
 */
export function settle(ms = 50): Promise<void> {
  return pause(ms);
}
