// History in the compressed format of the WebSocket commands (history/history_during_period,
// history/stream): {entity_id: [{s, a?, lu, lc?}]}, epoch-second times, `lc` only when it
// differs from `lu`, `a` left out with no_attributes; minimal_response rows are {s, lu}.
import type { State } from '../core/state.js';
import type { HomeStore } from '../store/index.js';
import type { StateRow } from '../store/tables.js';
import { FULL_ROW_DOMAINS, SIGNIFICANT_DOMAINS } from './history.js';

export interface CompressedHistoryOptions {
  entityIds: string[];
  startUs: number;
  endUs: number;
  includeStartTimeState: boolean;
  significantChangesOnly: boolean;
  minimalResponse: boolean;
  noAttributes: boolean;
}

export type CompressedRow = { s: string; a?: Record<string, unknown>; lu: number; lc?: number };

const domainOf = (id: string) => id.slice(0, id.indexOf('.'));

/** Whether only state-string changes of this entity are wanted. */
const stateChangesOnly = (
  entityId: string,
  o: Pick<CompressedHistoryOptions, 'significantChangesOnly' | 'minimalResponse'>,
) =>
  (o.significantChangesOnly && !SIGNIFICANT_DOMAINS.has(domainOf(entityId))) ||
  (o.minimalResponse && !FULL_ROW_DOMAINS.has(domainOf(entityId)));

const minimalFor = (entityId: string, o: Pick<CompressedHistoryOptions, 'minimalResponse'>) =>
  o.minimalResponse && !FULL_ROW_DOMAINS.has(domainOf(entityId));

function fullRow(
  state: string,
  attributes: () => Record<string, unknown>,
  lu: number,
  lc: number,
  noAttributes: boolean,
): CompressedRow {
  const row: CompressedRow = { s: state, ...(noAttributes ? {} : { a: attributes() }), lu };
  if (lc !== lu) row.lc = lc;
  return row;
}

export async function compressedHistory(
  store: HomeStore,
  o: CompressedHistoryOptions,
): Promise<Record<string, CompressedRow[]>> {
  const start = o.startUs / 1_000_000;
  const end = o.endUs / 1_000_000;
  const results = await Promise.all(
    o.entityIds.map((id) =>
      Promise.all([
        o.includeStartTimeState ? store.stateAt(id, start) : undefined,
        store.statesBetween(id, start, end, stateChangesOnly(id, o)),
      ]),
    ),
  );
  const out: Record<string, CompressedRow[]> = {};
  o.entityIds.forEach((entityId, i) => {
    const [initial, rows] = results[i];
    const minimal = minimalFor(entityId, o);
    const list: CompressedRow[] = [];
    const attrs = (r: StateRow) => () => JSON.parse(r.attributes) as Record<string, unknown>;
    // The state in force at start, stamped with the start time as HA does.
    if (initial && initial.state !== null)
      list.push(fullRow(initial.state, attrs(initial), start, start, o.noAttributes));
    for (const r of rows) {
      if (r.state === null) continue;
      if (minimal && list.length > 0) list.push({ s: r.state, lu: r.last_updated_ts });
      else list.push(fullRow(r.state, attrs(r), r.last_updated_ts, r.last_changed_ts, o.noAttributes));
    }
    if (list.length) out[entityId] = list;
  });
  return out;
}

/** A live state (history/stream) as a history row; undefined when the options leave it out. */
export function liveHistoryRow(
  old: State | null,
  next: State,
  o: Pick<CompressedHistoryOptions, 'significantChangesOnly' | 'minimalResponse' | 'noAttributes'>,
  first: boolean,
): CompressedRow | undefined {
  if (old && old.state === next.state && stateChangesOnly(next.entity_id, o)) return undefined;
  const lu = next.lastUpdatedUs / 1_000_000;
  if (minimalFor(next.entity_id, o) && !first) return { s: next.state, lu };
  return fullRow(next.state, () => next.attributes, lu, next.lastChangedUs / 1_000_000, o.noAttributes);
}
