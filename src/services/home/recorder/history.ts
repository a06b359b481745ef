// `/api/history/period/<start>`: for each requested entity that has rows, the state in force
// at start (unless skip_initial_state) and every change up to end, with HA's
// minimal_response, no_attributes and significant_changes_only shapes.
import type { HomeStore } from '../store/index.js';
import type { StateRow } from '../store/tables.js';
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
export const SIGNIFICANT_DOMAINS = new Set(['climate', 'device_tracker', 'humidifier', 'thermostat', 'water_heater']);
export const FULL_ROW_DOMAINS = new Set(['climate', 'humidifier', 'input_datetime', 'thermostat', 'water_heater']);

const iso = (seconds: number) => isoUs(Math.round(seconds * 1_000_000));
const domainOf = (id: string) => id.slice(0, id.indexOf('.'));

/**
 * Returns the answer as JSON text: rows are spliced from the stored attribute JSON without
 * parsing it (a day of a busy sensor is thousands of rows), as the DESIGN's hot-path habit asks.
 */
export async function history(store: HomeStore, o: HistoryOptions): Promise<string> {
  const start = o.startUs / 1_000_000;
  const end = o.endUs / 1_000_000;
  const out: string[] = [];
  const results = await Promise.all(
    o.entityIds.map((entityId) => {
      const domain = domainOf(entityId);
      const stateChangesOnly =
        (o.significantChangesOnly && !SIGNIFICANT_DOMAINS.has(domain)) ||
        (o.minimalResponse && !FULL_ROW_DOMAINS.has(domain));
      return Promise.all([
        o.skipInitialState ? undefined : store.stateAt(entityId, start),
        store.statesBetween(entityId, start, end, stateChangesOnly),
      ]);
    }),
  );
  o.entityIds.forEach((entityId, i) => {
    const [initial, rows] = results[i];
    const minimal = o.minimalResponse && !FULL_ROW_DOMAINS.has(domainOf(entityId));
    const idJson = JSON.stringify(entityId);
    const full = (r: StateRow, at?: number) => {
      const changed = iso(at ?? r.last_changed_ts);
      const updated = at === undefined ? iso(r.last_updated_ts) : changed;
      return `{"entity_id":${idJson},"state":${JSON.stringify(r.state)},"attributes":${o.noAttributes ? '{}' : r.attributes},"last_changed":"${changed}","last_updated":"${updated}"}`;
    };
    const list: string[] = [];
    // The state in force at start, stamped with the start time as HA does.
    if (initial && initial.state !== null) list.push(full(initial, start));
    for (const r of rows) {
      if (r.state === null) continue;
      if (minimal && list.length > 0)
        list.push(`{"state":${JSON.stringify(r.state)},"last_changed":"${iso(r.last_changed_ts)}"}`);
      else list.push(full(r));
    }
    if (list.length) out.push(`[${list.join(',')}]`);
  });
  return `[${out.join(',')}]`;
}
