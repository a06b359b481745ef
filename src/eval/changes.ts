// What an episode changed: the row diff of the world between its start and its end (as the
// console's diff of two snapshot files answers it), and beside it the same changes as a person
// reads them, each service describing its own rows (ServiceWorld.describe, in the service's
// store/ folder). A row no describer knows is shown as the row diff says it, so nothing
// changed goes unseen by the collateral rule.
import { canonicalJson, canonicalRow, compareRows } from '../console/world/canonical.js';
import type { ServiceChanges } from '../console/world/diff.js';
import type { WorldState } from '../console/world/state.js';
import {
  PLATFORM_WORLD,
  type WorldChangeDescriber,
  type WorldChangeNote,
  type WorldRow,
  type WorldRowChange,
} from '../platform/world.js';
import type { ConfiguredService } from '../platform/service.js';

/** A note with the service it belongs to. */
export interface SemanticChange extends WorldChangeNote {
  service: string;
}

export interface EpisodeChanges {
  /** Per service: the rows added, changed and removed (as GET /admin/api/world/diff answers). */
  rows: Record<string, ServiceChanges>;
  /** The changes as people read them, bookkeeping left out. */
  semantic: SemanticChange[];
}

/** A row as a snapshot file holds it (bytes as {"$base64": …}): what describers and diff.json get. */
const asInFile = (line: string): WorldRow => JSON.parse(line) as WorldRow;

/**
 * The row diff of two world states in memory, the same as the console's diff of their snapshot
 * files (src/console/world/diff.ts) answers, per service: rows added, changed and removed, by
 * key. An episode has both states at hand, and reading them back from files (gunzip, a line at
 * a time) cost more than the rest of the episode's bookkeeping together.
 */
export function rowDiff(from: WorldState, to: WorldState): Record<string, ServiceChanges> {
  const tables = new Map<string, { owner: string; key: string[]; a: WorldRow[]; b: WorldRow[] }>();
  for (const [side, state] of [
    ['a', from],
    ['b', to],
  ] as const) {
    for (const t of state.tables) {
      const entry = tables.get(t.name) ?? { owner: t.owner, key: t.key, a: [], b: [] };
      entry[side] = t.rows;
      tables.set(t.name, entry);
    }
  }
  const out: Record<string, ServiceChanges> = {};
  for (const name of [...tables.keys()].sort()) {
    const { owner, key, a, b } = tables.get(name)!;
    const changes = (out[owner] ??= { added: [], changed: [], removed: [] });
    const keyOf = (row: WorldRow) => Object.fromEntries(key.map((c) => [c, row[c] ?? null]));
    // Both sides are in key order (World.read sorts them): a merge.
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      const order = i >= a.length ? 1 : j >= b.length ? -1 : compareRows(a[i], b[j], key);
      if (order < 0) {
        changes.removed.push({ table: name, key: keyOf(a[i]), row: asInFile(canonicalRow(a[i++])) });
      } else if (order > 0) {
        changes.added.push({ table: name, key: keyOf(b[j]), row: asInFile(canonicalRow(b[j++])) });
      } else {
        const x = canonicalRow(a[i++]);
        const y = canonicalRow(b[j++]);
        if (x === y) continue;
        const before = asInFile(x);
        const after = asInFile(y);
        const columns = [...new Set([...Object.keys(before), ...Object.keys(after)])]
          .filter((c) => canonicalJson(before[c]) !== canonicalJson(after[c]))
          .sort();
        changes.changed.push({ table: name, key: keyOf(after), columns, before, after });
      }
    }
  }
  return out;
}

/** Finds rows by key in the end state, else the start state (names behind ids: a community, an author). */
function lookupIn(states: WorldState[]): (table: string, key: Record<string, unknown>) => WorldRow | undefined {
  const indexes = new Map<string, Map<string, WorldRow>>();
  return (table, key) => {
    let index = indexes.get(table);
    if (!index) {
      index = new Map();
      for (const state of [...states].reverse()) {
        const t = state.tables.find((x) => x.name === table);
        for (const row of t?.rows ?? [])
          index.set(canonicalJson(Object.fromEntries(t!.key.map((c) => [c, row[c] ?? null]))), row);
      }
      indexes.set(table, index);
    }
    return index.get(
      canonicalJson(
        Object.fromEntries(
          Object.keys(key)
            .sort()
            .map((c) => [c, key[c] ?? null]),
        ),
      ),
    );
  };
}

/** Row changes of one service, one at a time, as describers take them. */
function* rowChanges(c: ServiceChanges): Generator<WorldRowChange> {
  for (const a of c.added) yield { change: 'added', table: a.table, key: a.key, after: a.row };
  for (const x of c.changed)
    yield { change: 'changed', table: x.table, key: x.key, before: x.before, after: x.after, columns: x.columns };
  for (const r of c.removed) yield { change: 'removed', table: r.table, key: r.key, before: r.row };
}

/** The semantic diff: every changed row through its service's describer. */
export function describeChanges(
  rows: Record<string, ServiceChanges>,
  services: ConfiguredService[],
  start: WorldState,
  end: WorldState,
): SemanticChange[] {
  const describers = new Map<string, WorldChangeDescriber | undefined>([
    ['platform', PLATFORM_WORLD.describe],
    ...services.map(({ definition }) => [definition.name, definition.world?.describe] as const),
  ]);
  const lookup = lookupIn([start, end]);
  const out: SemanticChange[] = [];
  for (const [service, changes] of Object.entries(rows)) {
    const describe = describers.get(service);
    for (const change of rowChanges(changes)) {
      const note = describe?.(change, lookup);
      if (note === null) continue;
      out.push({ service, ...(note ?? rawNote(change)) });
    }
  }
  return out;
}

/** A row no describer knows, as the row diff has it. */
function rawNote(c: WorldRowChange): WorldChangeNote {
  const key = Object.values(c.key).map(String).join('/');
  const text =
    c.change === 'changed' ? `${c.table} ${key}: ${c.columns?.join(', ')} changed` : `${c.table} ${key} ${c.change}`;
  return { kind: `row.${c.change}`, subject: c.table, text };
}
