// The one place where tests wait. Tests wait on the condition they depend on (`waitFor`), bound
// an event-driven wait (`withDeadline`), or move the injectable clock (src/platform/clock.ts),
// never sleep a fixed time. `settle` is the single exception, for asserting that something does
// NOT happen when the code under test offers no signal to wait for; see its comment.
import { inspect } from 'node:util';

export interface WaitOptions {
  /** Give up after this long (default 20 s: a worker thread or a server can take 10 s to start on a loaded two-core machine; the suite's test timeout is 30 s). */
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

const show = (value: unknown) =>
  inspect(value, { depth: 3, breakLength: Infinity, maxArrayLength: 10, maxStringLength: 300 });

/**
 * Checks `condition` until it returns a truthy value, and resolves with that value. The
 * condition may be sync or async; a throw (e.g. a failed `expect`) counts as "not yet". On
 * timeout it rejects with what was awaited and the last value or error seen.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  options: WaitOptions = {},
): Promise<Exclude<T, Falsy>> {
  const { timeoutMs = 20_000, intervalMs = 20, message } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last: Last;
    try {
      const value = await condition();
      if (value) return value as Exclude<T, Falsy>;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= deadline) {
      const what =
        (typeof message === 'function' ? message() : message) ??
        condition.toString().replace(/\s+/g, ' ').slice(0, 200);
      throw timedOut(timeoutMs, what, last);
    }
    await pause(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
}

/** What the condition's last check gave: a falsy value, or an error. */
type Last = { value: unknown } | { error: unknown };

function timedOut(timeoutMs: number, what: string, last: Last): Error {
  if ('value' in last)
    return new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${show(last.value)}`);
  const reason = last.error instanceof Error ? last.error.message : show(last.error);
  return new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last error: ${reason}`, { cause: last.error });
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

/**
 * Lets `ms` of real time pass. Only for asserting that something does NOT happen (no second
 * delivery, no run while disabled) where the code under test offers no signal that it is done
 * deciding: absence can only be observed over a stretch of time. Wait on a condition, an
 * event, a job queue's `idle()` or the manual clock whenever one exists; name the reason at
 * the call site.
 */
export function settle(ms: number): Promise<void> {
  return pause(ms);
}
