// Cron schedules on the home's clock and time zone (time and time_pattern triggers).
// croner computes the next occurrence; the clock-aware scheduler waits for it.
import { Cron } from 'croner';
import { timersFor } from '../../../platform/timers.js';
import type { Home } from '../core/home.js';

/** Calls fn at every occurrence of a 6-field cron pattern (sec min hour dom mon dow). Returns a stop function. */
export function onSchedule(home: Home, pattern: string, fn: (at: Date) => void): () => void {
  const cron = new Cron(pattern, { timezone: home.location.time_zone, paused: true });
  let cancel: (() => void) | undefined;
  let stopped = false;
  const arm = () => {
    // After a jump of the clock, missed occurrences are not replayed (HA does not either).
    const next = cron.nextRun(new Date(home.clock.ms()));
    if (!next || stopped) return;
    cancel = home.scheduler.at(next.getTime(), () => {
      fn(next);
      arm();
    });
  };
  arm();
  // Set back (a restored world): wait for the next occurrence after the new time.
  const stopRewinds = timersFor(home.clock).onRewind(() => {
    cancel?.();
    arm();
  });
  return () => {
    stopped = true;
    stopRewinds();
    cancel?.();
    cron.stop();
  };
}

/** Checks a cron pattern; returns an error message or undefined. */
export function cronProblem(pattern: string): string | undefined {
  try {
    new Cron(pattern, { paused: true }).stop();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
