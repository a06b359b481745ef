// Reading the world's rows out of the database and writing them back: one transaction each,
// so a snapshot is one consistent state and a restore is all or nothing (on SQLite through the
// raw handle, sqlite-rows.ts; on PostgreSQL through Kysely).
import { sql, type Kysely } from 'kysely';
import type { Platform } from '../../platform/service.js';
import type { WorldRow } from '../../platform/world.js';
import { hashTables, sortRows } from './canonical.js';
import { worldCatalog, type WorldOwner, type WorldTable } from './catalog.js';
import { readTables, replaceTables } from './sqlite-rows.js';

export interface TableState {
  name: string;
  owner: string;
  key: string[];
  /** Rows in key order, without the instance's own rows. */
  rows: WorldRow[];
}

/** The controllable clock's state, when the platform's clock can tell it (duck-typed). */
export interface ClockState {
  frozen: boolean;
  now: string;
}

export interface WorldState {
  tables: TableState[];
  clock?: ClockState;
}

interface ControllableClock {
  state(): ClockState;
  restore(state: ClockState): void;
}

function controllable(clock: unknown): ControllableClock | undefined {
  const c = clock as Partial<ControllableClock>;
  return typeof c?.state === 'function' && typeof c.restore === 'function' ? (c as ControllableClock) : undefined;
}

/** The canonical hash of a state: its rows only (the clock moves on its own unless frozen). */
export const stateHash = (state: WorldState): string => hashTables(state.tables);

/** Bound parameters per INSERT, under SQLite's and PostgreSQL's limits. */
const MAX_PARAMS = 30_000;

export class World {
  constructor(
    private readonly platform: Platform,
    private readonly owners: WorldOwner[],
  ) {}

  catalog(): Promise<WorldTable[]> {
    return worldCatalog(this.platform.db, this.owners);
  }

  async read(): Promise<WorldState> {
    const catalog = await this.catalog();
    const sqlite = this.platform.db.sqlite;
    const read = sqlite
      ? await sqlite.run((s) => readTables(s, catalog))
      : await this.platform.db.kysely.transaction().execute(async (trx) => {
          const out: WorldRow[][] = [];
          for (const t of catalog) out.push((await trx.selectFrom(t.name).select(t.columns).execute()) as WorldRow[]);
          return out;
        });
    const tables = catalog.map((t, i): TableState => {
      const rows = read[i]!;
      const world = t.instanceRow ? rows.filter((r) => !t.instanceRow!(t.name, r)) : rows;
      return { name: t.name, owner: t.owner, key: t.key, rows: sortRows(world, t.key) };
    });
    const clock = controllable(this.platform.clock)?.state();
    return { tables: tables.sort((a, b) => (a.name < b.name ? -1 : 1)), ...(clock ? { clock } : {}) };
  }

  async hash(): Promise<string> {
    return stateHash(await this.read());
  }

  /**
   * Replaces the world's rows with the state's (tables it lacks are emptied; tables this
   * database lacks are named in `skipped`), sets the clock, then every instance reloads.
   */
  async restore(state: WorldState): Promise<{ skipped: string[] }> {
    const catalog = await this.catalog();
    const given = new Map(state.tables.map((t) => [t.name, t]));
    const sqlite = this.platform.db.sqlite;
    if (sqlite) await sqlite.run((s) => replaceTables(s, catalog.map((t) => ({ name: t.name, rows: given.get(t.name)?.rows ?? [], keep: t.instanceRow }))));
    else await this.platform.db.kysely.transaction().execute(async (trx) => {
      const kept = new Map<string, WorldRow[]>();
      // Children before parents, so no foreign key ever points at a missing row.
      for (const t of [...catalog].reverse()) {
        if (t.instanceRow) kept.set(t.name, ((await trx.selectFrom(t.name).selectAll().execute()) as WorldRow[]).filter((r) => t.instanceRow!(t.name, r)));
        await trx.deleteFrom(t.name).execute();
      }
      for (const t of catalog) {
        await insertRows(trx, t.name, [...(kept.get(t.name) ?? []), ...(given.get(t.name)?.rows ?? [])]);
        if (t.serial && this.platform.db.dialect === 'postgres') await moveSequence(trx, t.name, t.serial);
      }
    });
    if (state.clock) controllable(this.platform.clock)?.restore(state.clock);
    await this.platform.world.restored();
    const known = new Set(catalog.map((t) => t.name));
    return { skipped: state.tables.filter((t) => !known.has(t.name) && t.rows.length).map((t) => t.name) };
  }

  /** An empty world: every world table emptied (the instance's own rows stay), the clock left as it is. */
  async reset(): Promise<void> {
    await this.restore({ tables: [] });
  }
}

async function insertRows(trx: Kysely<any>, table: string, rows: WorldRow[]): Promise<void> {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]!).length || 1;
  const batch = Math.max(1, Math.floor(MAX_PARAMS / columns));
  for (let i = 0; i < rows.length; i += batch) await trx.insertInto(table).values(rows.slice(i, i + batch)).execute();
}

/** A restored serial column's sequence continues after the highest restored value. */
async function moveSequence(trx: Kysely<any>, table: string, column: string): Promise<void> {
  await sql`select setval(pg_get_serial_sequence(${table}, ${column}), coalesce(max(${sql.ref(column)}), 0) + 1, false) from ${sql.table(table)}`.execute(trx);
}
