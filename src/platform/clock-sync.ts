// One time for all instances: with REDIS_URL several Hamlet processes serve one world, so a
// change of the controllable clock on one (frozen, jumped, advanced, restored) is published on
// the event bus and applied by the others. Each instance then runs its own timers for the new
// time; what runs once across instances (schedules, jobs) is decided by leases and leadership.
import { randomUUID } from 'node:crypto';
import type { ControllableClock } from './clock.js';
import type { EventBus } from './events.js';
import type { Logger } from './logger.js';
import { CLOCK_CHANGED } from './topics.js';

/** Publishes this clock's changes and applies the other instances'; returns a stop function. */
export function shareClock(clock: ControllableClock, events: EventBus, logger: Logger): () => void {
  const origin = randomUUID();
  let applying = false;
  let last = '';
  const stopListening = clock.onAdvance(() => {
    if (applying) return;
    const { frozen } = clock;
    const now = clock.ms();
    // A running clock emits nothing by itself, but the same state twice is not worth a message.
    const key = `${frozen}:${now}`;
    if (key === last) return;
    last = key;
    events
      .publish(CLOCK_CHANGED, { origin, frozen, now, sentAt: Date.now() })
      .catch((err) => logger.warn({ err }, 'publishing a clock change failed'));
  });
  const stopHearing = events.subscribe(CLOCK_CHANGED, (msg) => {
    if (msg.origin === origin) return;
    applying = true;
    try {
      const now = msg.frozen ? msg.now : msg.now + (Date.now() - msg.sentAt);
      clock.restore({ frozen: msg.frozen, now: new Date(now).toISOString() });
    } finally {
      applying = false;
    }
  });
  return () => {
    stopListening();
    stopHearing();
  };
}
