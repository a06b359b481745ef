// What changed between two states, per service and by primary key: the evaluator's check that
// a task was done and that nothing else was touched.
import type { WorldRow } from '../../platform/world.js';
import { canonicalJson, rowKey } from './canonical.js';
import type { TableState, WorldState } from './state.js';

export interface RowChange {
  table: string;
  key: Record<string, unknown>;
}

export interface ServiceChanges {
  added: Array<RowChange & { row: WorldRow }>;
  changed: Array<RowChange & { columns: string[]; before: WorldRow; after: WorldRow }>;
  removed: Array<RowChange & { row: WorldRow }>;
}

const keyOf = (row: WorldRow, key: string[]) => Object.fromEntries(key.map((c) => [c, row[c]]));
const byKey = (t: TableState | undefined) => new Map((t?.rows ?? []).map((r) => [rowKey(r, t!.key), r]));

/** Every service of either state appears, with empty lists when nothing of it changed. */
export function diffWorlds(from: WorldState, to: WorldState): Record<string, ServiceChanges> {
  const tables = new Map<string, { owner: string; key: string[]; from?: TableState; to?: TableState }>();
  for (const t of from.tables) tables.set(t.name, { owner: t.owner, key: t.key, from: t });
  for (const t of to.tables) tables.set(t.name, { ...tables.get(t.name), owner: t.owner, key: t.key, to: t });
  const services: Record<string, ServiceChanges> = {};
  for (const [table, t] of [...tables].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const out = (services[t.owner] ??= { added: [], changed: [], removed: [] });
    const before = byKey(t.from);
    const after = byKey(t.to);
    for (const [k, row] of after) {
      const old = before.get(k);
      if (!old) out.added.push({ table, key: keyOf(row, t.key), row });
      else {
        const columns = [...new Set([...Object.keys(old), ...Object.keys(row)])].filter((c) => canonicalJson(old[c]) !== canonicalJson(row[c])).sort();
        if (columns.length) out.changed.push({ table, key: keyOf(row, t.key), columns, before: old, after: row });
      }
    }
    for (const [k, row] of before) if (!after.has(k)) out.removed.push({ table, key: keyOf(row, t.key), row });
  }
  return services;
}
