// One time for several instances: each instance's clock publishes its changes on the event bus
// and applies the others'. In process here (two clocks on one local bus), and through Redis
// when TEST_REDIS_URL is set.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ControllableClock } from '../../src/platform/clock.js';
import { shareClock } from '../../src/platform/clock-sync.js';
import { createEventBus, LocalEventBus, type EventBus } from '../../src/platform/events.js';
import { createLogger } from '../../src/platform/logger.js';
import { waitFor } from '../helpers/wait.js';

const logger = createLogger({ level: 'silent', pretty: false });
const stops: Array<() => unknown> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

function pair(busA: EventBus, busB: EventBus) {
  const a = new ControllableClock();
  const b = new ControllableClock();
  stops.push(shareClock(a, busA, logger), shareClock(b, busB, logger));
  return { a, b };
}

describe('clock sharing', () => {
  it('a freeze, a jump, an unfreeze and a restore on one instance reach the other', async () => {
    const bus = new LocalEventBus(logger);
    const { a, b } = pair(bus, bus);
    a.freeze();
    a.set('2026-02-01T10:00:00.000Z');
    expect(b.state()).toEqual({ frozen: true, now: '2026-02-01T10:00:00.000Z' });
    b.advance(60_000);
    expect(a.state()).toEqual({ frozen: true, now: '2026-02-01T10:01:00.000Z' });
    a.unfreeze();
    expect(b.frozen).toBe(false);
    // Both run on from the same instant (give or take the real time between the two reads).
    expect(Math.abs(b.ms() - a.ms())).toBeLessThan(1000);
    b.restore({ frozen: true, now: '2030-01-01T00:00:00.000Z' });
    expect(a.state()).toEqual({ frozen: true, now: '2030-01-01T00:00:00.000Z' });
  });

  it('a running clock keeps its offset across instances', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00.000Z'), toFake: ['Date'] });
    try {
      const bus = new LocalEventBus(logger);
      const { a, b } = pair(bus, bus);
      a.set('2026-06-01T00:00:00.000Z');
      vi.setSystemTime(Date.parse('2026-01-01T00:00:05.000Z'));
      expect(b.now().toISOString()).toBe('2026-06-01T00:00:05.000Z');
    } finally {
      vi.useRealTimers();
    }
  });

  it.skipIf(!process.env.TEST_REDIS_URL)('through Redis', async () => {
    const busA = createEventBus(process.env.TEST_REDIS_URL, logger);
    const busB = createEventBus(process.env.TEST_REDIS_URL, logger);
    stops.push(
      () => busA.close(),
      () => busB.close(),
    );
    const { a, b } = pair(busA, busB);
    // Redis subscriptions are asynchronous: publish until the other side hears (each try a new
    // time, since the same state twice is not published again), then it follows every change.
    const base = Date.parse('2040-01-01T00:00:00.000Z');
    let n = 0;
    await waitFor(
      () => {
        a.restore({ frozen: true, now: new Date(base + n++ * 1000).toISOString() });
        return b.frozen && b.ms() >= base;
      },
      { message: 'the other instance to apply the frozen clock' },
    );
    a.set('2041-03-04T00:00:00.000Z');
    await waitFor(() => b.state().now === '2041-03-04T00:00:00.000Z', {
      message: 'the jump to reach the other instance',
    });
    a.unfreeze();
    await waitFor(() => !b.frozen, { message: 'the unfreeze to reach the other instance' });
  });
});
