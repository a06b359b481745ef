// What an episode changed: the row diff of the world between its start and its end (the
// console's diff of two snapshot files, every page), and beside it the same changes as a person
// reads them, each service describing its own rows (ServiceWorld.describe, in the service's
// store/ folder). A row no describer knows is shown as the row diff says it, so nothing
// changed goes unseen by the collateral rule.
import { canonicalJson } from '../console/world/canonical.js';
import { diffFiles, type ServiceChanges } from '../console/world/diff.js';
import type { FileLimits } from '../console/world/file.js';
import type { WorldState } from '../console/world/state.js';
import { PLATFORM_WORLD, type WorldChangeDescriber, type WorldChangeNote, type WorldRow, type WorldRowChange } from '../platform/world.js';
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

const PAGE = 10_000;

/** The row diff of two snapshot files, every page of it. */
export async function rowDiff(from: string, to: string, limits: FileLimits): Promise<Record<string, ServiceChanges>> {
  const out: Record<string, ServiceChanges> = {};
  let after;
  do {
    const page = await diffFiles({ from, to, after, limit: PAGE, pageBytes: 64 * 1024 * 1024, limits });
    for (const [service, c] of Object.entries(page.services)) {
      const into = (out[service] ??= { added: [], changed: [], removed: [] });
      into.added.push(...c.added);
      into.changed.push(...c.changed);
      into.removed.push(...c.removed);
    }
    after = page.next;
  } while (after);
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
        for (const row of t?.rows ?? []) index.set(canonicalJson(Object.fromEntries(t!.key.map((c) => [c, row[c] ?? null]))), row);
      }
      indexes.set(table, index);
    }
    return index.get(canonicalJson(Object.fromEntries(Object.keys(key).sort().map((c) => [c, key[c] ?? null]))));
  };
}

/** Row changes of one service, one at a time, as describers take them. */
function* rowChanges(c: ServiceChanges): Generator<WorldRowChange> {
  for (const a of c.added) yield { change: 'added', table: a.table, key: a.key, after: a.row };
  for (const x of c.changed) yield { change: 'changed', table: x.table, key: x.key, before: x.before, after: x.after, columns: x.columns };
  for (const r of c.removed) yield { change: 'removed', table: r.table, key: r.key, before: r.row };
}

/** The semantic diff: every changed row through its service's describer. */
export function describeChanges(rows: Record<string, ServiceChanges>, services: ConfiguredService[], start: WorldState, end: WorldState): SemanticChange[] {
  const describers = new Map<string, WorldChangeDescriber | undefined>([['platform', PLATFORM_WORLD.describe], ...services.map(({ definition }) => [definition.name, definition.world?.describe] as const)]);
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
  const text = c.change === 'changed' ? `${c.table} ${key}: ${c.columns?.join(', ')} changed` : `${c.table} ${key} ${c.change}`;
  return { kind: `row.${c.change}`, subject: c.table, text };
}
