// Waiting for a Redis-backed event bus to be live: RedisEventBus.subscribe sends SUBSCRIBE
// without waiting for Redis to confirm it, so a message published right after can be missed.
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../src/platform/events.js';
import { waitFor } from './wait.js';

/**
 * Resolves once a message published on `from` reaches `to`, through a probe topic of its own.
 * Redis handles one connection's commands in order, so every subscription `to` asked for
 * before the probe's is live too.
 */
export async function busLinked(from: EventBus, to: EventBus, timeoutMs = 10_000): Promise<void> {
  const topic = `test.probe.${randomUUID()}`;
  let arrived = false;
  const off = to.subscribe(topic, () => void (arrived = true));
  try {
    await waitFor(
      async () => {
        await from.publish(topic, {});
        return arrived;
      },
      { timeoutMs, intervalMs: 25, message: 'a probe message from one event bus to the other' },
    );
  } finally {
    off();
  }
}
