// The home's part of the world: every home table (entities, the recorder's history, stored
// automations). After a restore the house in memory becomes what the restored rows hold.
//
// It also offers a seeder, 'home.history': readings of the house's entities at given times
// (a week of sensors), recorded as the REST API would record them one POST at a time, but
// written in one batch (one transaction; prepared statements on SQLite). The demo world's
// house history is most of its rows (src/commands/world-demo.ts); one API call per reading took
// minutes for the large world.
import type { Platform } from '../../platform/service.js';
import type { WorldSeeds } from '../../platform/world.js';
import type { Automations } from './automations/engine.js';
import { newContext } from './core/context.js';
import type { Home } from './core/home.js';
import { deepEqual, isValidEntityId, stateFromJson, State } from './core/state.js';
import type { Batch, HomeStore } from './store/index.js';
import { stateRow } from './store/rows.js';

/** One reading: what POST /api/states/<entity_id> would have been sent at `at` (epoch ms). */
export type HomeReading = WorldSeeds['home.history'][number];

interface Parts {
  home: Home;
  store: HomeStore;
  automations: Automations;
}

export function registerHomeWorld(platform: Platform, parts: Parts): () => void {
  const stopReloading = platform.world.onRestored(async () => {
    const states = (await parts.store.loadEntities()).map(stateFromJson).filter((s): s is State => !!s);
    parts.home.states.replaceAll(states);
    await parts.automations.reloadQuietly();
  });
  const stopSeeding = platform.world.onSeed('home.history', (readings) => recordReadings(parts, readings));
  return () => {
    stopReloading();
    stopSeeding();
  };
}

/**
 * Records readings in time order with the state machine's rules (HA's): a reading that repeats
 * the state and attributes makes no recorder row; one that changes attributes alone keeps
 * last_changed. Each change gets its own context (no user: the house's own sensors) stamped at
 * its time. The latest state of each entity becomes its stored and in-memory state, without
 * events: nothing listens to a world being made.
 */
async function recordReadings(parts: Parts, readings: HomeReading[]): Promise<void> {
  const bad = readings.find((r) => !isValidEntityId(r.entity_id) || !Number.isFinite(r.at));
  if (bad) throw new RangeError(`not a reading: ${JSON.stringify(bad.entity_id)} at ${String(bad.at)}`);
  const ordered = [...readings].sort((a, b) => a.at - b.at);
  const latest = new Map<string, State>();
  const batch: Batch = { entities: new Map(), states: [], events: [] };
  for (const r of ordered) {
    const old = latest.get(r.entity_id) ?? parts.home.states.get(r.entity_id);
    const us = r.at * 1000;
    if (old && old.state === r.state && deepEqual(old.attributes, r.attributes)) {
      latest.set(r.entity_id, new State(r.entity_id, old.state, old.attributes, old.lastChangedUs, old.lastUpdatedUs, Math.max(us, old.lastReportedUs), old.context));
      continue;
    }
    const context = newContext({ ms: () => r.at });
    const next = new State(r.entity_id, r.state, Object.freeze({ ...r.attributes }), !old || old.state !== r.state ? us : old.lastChangedUs, us, us, context);
    latest.set(r.entity_id, next);
    batch.states.push(stateRow(next));
  }
  for (const [id, s] of latest) batch.entities.set(id, s.json());
  await parts.store.write(batch);
  parts.home.states.restore([...latest.values()]);
}
