// The home's part of the world: every home table (entities, the recorder's history, stored
// automations). After a restore the house in memory becomes what the restored rows hold.
//
// It also offers a seeder, 'home.history': readings of the house's entities at given times
// (a week of sensors), recorded as the REST API would record them one POST at a time, but
// written in one batch (one transaction; prepared statements on SQLite). The demo world's
// house history is most of its rows (src/demo/world-demo.ts); one API call per reading took
// minutes for the large world.
import type { RunningService } from '../../platform/service.js';
import type { Automations } from './automations/engine.js';
import { newContext } from './core/context.js';
import type { Home } from './core/home.js';
import { deepEqual, isValidEntityId, stateFromJson, State } from './core/state.js';
import type { Batch, HomeStore } from './store/index.js';
import { stateRow } from './store/rows.js';

/** One reading: what POST /api/states/<entity_id> would have been sent at `at` (epoch ms). */
export interface HomeReading {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  at: number;
}

interface Parts {
  home: Home;
  store: HomeStore;
  automations: Automations;
}

/** The home's reload after a restore and its seeder (RunningService.reload, .seeds). */
export function homeWorldHooks(parts: Parts): Pick<RunningService, 'reload' | 'seeds'> {
  return {
    reload: async () => {
      const states = (await parts.store.loadEntities()).map(stateFromJson).filter((s): s is State => !!s);
      parts.home.states.replaceAll(states);
      await parts.automations.reloadQuietly();
    },
    seeds: { 'home.history': (input) => recordReadings(parts, readingsOf(input)) },
  };
}

/** The seeder's input checked: a list of readings, each with an entity id, a state, attributes and a time. */
function readingsOf(input: unknown): HomeReading[] {
  if (!Array.isArray(input)) throw new RangeError('home.history takes a list of readings');
  for (const r of input as unknown[]) {
    const x = r as Partial<HomeReading> | null;
    if (
      !x ||
      typeof x !== 'object' ||
      typeof x.entity_id !== 'string' ||
      typeof x.state !== 'string' ||
      typeof x.at !== 'number' ||
      typeof x.attributes !== 'object' ||
      x.attributes === null
    ) {
      throw new RangeError(`not a reading: ${JSON.stringify(r)?.slice(0, 200)}`);
    }
  }
  return input as HomeReading[];
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
      latest.set(
        r.entity_id,
        new State(
          r.entity_id,
          old.state,
          old.attributes,
          old.lastChangedUs,
          old.lastUpdatedUs,
          Math.max(us, old.lastReportedUs),
          old.context,
        ),
      );
      continue;
    }
    const context = newContext({ ms: () => r.at });
    const next = new State(
      r.entity_id,
      r.state,
      Object.freeze({ ...r.attributes }),
      !old || old.state !== r.state ? us : old.lastChangedUs,
      us,
      us,
      context,
    );
    latest.set(r.entity_id, next);
    batch.states.push(stateRow(next));
  }
  for (const [id, s] of latest) batch.entities.set(id, s.json());
  await parts.store.write(batch);
  parts.home.states.restore([...latest.values()]);
}
