// `/api/history/period/<start>`: for each requested entity that has rows, the state in force
// at start (unless skip_initial_state) and every change up to end, with HA's
// minimal_response, no_attributes and significant_changes_only shapes.
import type { StateRow, HomeStore } from '../store.js';
import { isoUs } from '../core/time.js';

export interface HistoryOptions {
  entityIds: string[];
  startUs: number;
  endUs: number;
  minimalResponse: boolean;
  noAttributes: boolean;
  significantChangesOnly: boolean;
  skipInitialState: boolean;
}

/** Domains whose attribute changes are significant and always get full rows (HA's list). */
const SIGNIFICANT_DOMAINS = new Set(['climate', 'device_tracker', 'humidifier', 'thermostat', 'water_heater']);
const FULL_ROW_DOMAINS = new Set(['climate', 'humidifier', 'input_datetime', 'thermostat', 'water_heater']);

const iso = (seconds: number) => isoUs(Math.round(seconds * 1_000_000));
const domainOf = (id: string) => id.slice(0, id.indexOf('.'));

export async function history(store: HomeStore, o: HistoryOptions): Promise<unknown[][]> {
  const start = o.startUs / 1_000_000;
  const end = o.endUs / 1_000_000;
  const out: unknown[][] = [];
  for (const entityId of o.entityIds) {
    const domain = domainOf(entityId);
    const stateChangesOnly = o.significantChangesOnly && !SIGNIFICANT_DOMAINS.has(domain);
    const [initial, rows] = await Promise.all([
      o.skipInitialState ? undefined : store.stateAt(entityId, start),
      store.statesBetween(entityId, start, end, stateChangesOnly || (o.minimalResponse && !FULL_ROW_DOMAINS.has(domain))),
    ]);
    const list: unknown[] = [];
    const full = (r: StateRow, at?: number) => ({
      entity_id: r.entity_id,
      state: r.state,
      attributes: o.noAttributes ? {} : JSON.parse(r.attributes),
      last_changed: iso(at ?? r.last_changed_ts),
      last_updated: iso(at ?? r.last_updated_ts),
    });
    // The state in force at start, stamped with the start time as HA does.
    if (initial && initial.state !== null) list.push(full(initial, start));
    for (const r of rows) {
      if (r.state === null) continue;
      if (o.minimalResponse && list.length > 0 && !FULL_ROW_DOMAINS.has(domain)) list.push({ state: r.state, last_changed: iso(r.last_changed_ts) });
      else list.push(full(r));
    }
    if (list.length) out.push(list);
  }
  return out;
}
