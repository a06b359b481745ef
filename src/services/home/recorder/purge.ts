// Retention: recorder rows older than keep_days are purged at start and then daily (HA
// purges nightly); `recorder.purge {keep_days}` purges on demand.
import { float } from '../core/fields.js';
import type { Home } from '../core/home.js';
import type { HomeStore } from '../store/index.js';

const DAY_MS = 86_400_000;

export function startPurging(home: Home, store: HomeStore, keepDays: number): () => void {
  const purge = async (days: number) => {
    const before = (home.clock.ms() - days * DAY_MS) / 1000;
    const removed = await store.purge(before);
    if (removed) home.logger.info({ removed, keepDays: days }, 'home recorder purged old rows');
    return removed;
  };
  let cancel = () => {};
  // The timer waits for the purge, so a clock advance of several days purges day by day, in order.
  const daily = () => {
    cancel = home.scheduler.after(DAY_MS, daily);
    return purge(keepDays).catch((err) => home.logger.error({ err, keepDays }, 'home recorder purge failed'));
  };
  void daily();
  home.registerService('recorder', {
    service: 'purge',
    name: 'Purge',
    description: 'Deletes recorded states and events older than keep_days.',
    fields: { keep_days: float({ min: 0 }), repack: { selector: { boolean: null }, parse: (v) => v } },
    run: async (d) => ({ removed: await purge((d.keep_days as number | undefined) ?? keepDays) }),
    response: 'optional',
  });
  return () => cancel();
}
