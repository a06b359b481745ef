// Reading the world's rows out of the database and writing them back: one transaction each,
// so a snapshot is one consistent state and a restore is all or nothing (on SQLite through the
// raw handle, sqlite-rows.ts; on PostgreSQL through Kysely).
import { sql, type Kysely } from 'kysely';
import type { Platform } from '../../platform/service.js';
import { isInstanceRow, type WorldRow } from '../../platform/world.js';
import { hashTables, sortRows } from './canonical.js';
import { worldCatalog, type WorldOwner, type WorldTable } from './catalog.js';
import { checkClock, WorldFileError } from './file.js';
import { readTables, replaceTables, RowsRefused } from './sqlite-rows.js';
import type { RowSource, SaveTask } from './stream-save.js';

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

  /**
   * What the world worker needs to save the world now from a connection of its own
   * (stream-save.ts): where the rows are, the tables in name order, the clock.
   */
  async saveTask(savedAt: string, name?: string): Promise<SaveTask> {
    const { db } = this.platform;
    const source: RowSource = db.sqlite ? { sqlite: await db.sqlite.run((s) => s.name) } : { postgres: db.url! };
    const tables = (await this.catalog())
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map(({ name, owner, key, columns, textKey, instanceRows }) => ({
        name,
        owner,
        key,
        columns,
        ...(textKey ? { textKey } : {}),
        ...(instanceRows ? { instanceRows } : {}),
      }));
    const clock = controllable(this.platform.clock)?.state();
    return { source, tables, savedAt, ...(name ? { name } : {}), ...(clock ? { clock } : {}) };
  }

  /** Every row in memory, sorted (the CLI, the demo, tests); the console saves through the worker instead. */
  async read(): Promise<WorldState> {
    const catalog = await this.catalog();
    const sqlite = this.platform.db.sqlite;
    const read = sqlite
      ? await sqlite.run((s) => readTables(s, catalog))
      : await this.platform.db.kysely.transaction().execute(async (trx) => {
          const out: WorldRow[][] = [];
          for (const t of catalog) out.push(await trx.selectFrom(t.name).select(t.columns).execute());
          return out;
        });
    const tables = catalog.map((t, i): TableState => {
      const rows = read[i];
      const world = t.instanceRows ? rows.filter((r) => !isInstanceRow(t.instanceRows, t.name, r)) : rows;
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
   *
   * Everything is checked before anything changes, and the rows are replaced in one
   * transaction: a state this database refuses (a column it lacks, a NOT NULL or UNIQUE
   * violation, a bad clock) throws WorldFileError (a 400) and leaves the world as it was.
   * Rows of the instance in the state (admin keys, the console's keys) are dropped, never
   * written: the instance keeps its own and takes none from a file (`dropped` counts them).
   */
  async restore(state: WorldState): Promise<{ skipped: string[]; dropped: number }> {
    const clock = state.clock ? checkClock(state.clock) : undefined;
    const catalog = await this.catalog();
    const { given, dropped } = incomingRows(state, catalog);
    // The old world's timers wait until the new world's services have reloaded (and dropped them).
    const release = this.platform.timers.hold();
    try {
      const sqlite = this.platform.db.sqlite;
      try {
        if (sqlite)
          await sqlite.run((s) =>
            replaceTables(
              s,
              catalog.map((t) => ({ name: t.name, rows: given.get(t.name) ?? [], keep: t.instanceRows })),
            ),
          );
        else
          await this.platform.db.kysely.transaction().execute(async (trx) => {
            const kept = new Map<string, WorldRow[]>();
            // Children before parents, so no foreign key ever points at a missing row.
            for (const t of [...catalog].reverse()) {
              if (t.instanceRows)
                kept.set(
                  t.name,
                  ((await trx.selectFrom(t.name).selectAll().execute()) as WorldRow[]).filter((r) =>
                    isInstanceRow(t.instanceRows, t.name, r),
                  ),
                );
              await trx.deleteFrom(t.name).execute();
            }
            for (const t of catalog) {
              await insertRows(trx, t, kept.get(t.name) ?? []);
              await insertRows(trx, t, given.get(t.name) ?? []).catch((err) => {
                throw isRefusal(err) ? new RowsRefused(t.name, err as Error) : err;
              });
              if (t.serial && this.platform.db.dialect === 'postgres') await moveSequence(trx, t.name, t.serial);
            }
          });
      } catch (err) {
        if (err instanceof RowsRefused)
          throw new WorldFileError(
            `the snapshot does not fit this database (nothing was changed): table ${err.table}: ${err.cause.message}`,
          );
        throw err;
      }
      if (clock) controllable(this.platform.clock)?.restore(clock);
      await this.platform.world.restored();
    } finally {
      release();
    }
    const known = new Set(catalog.map((t) => t.name));
    return { skipped: state.tables.filter((t) => !known.has(t.name) && t.rows.length).map((t) => t.name), dropped };
  }

  /** An empty world: every world table emptied (the instance's own rows stay), the clock left as it is. */
  async reset(): Promise<void> {
    await this.restore({ tables: [] });
  }
}

/**
 * The state's rows for each table of the catalog, checked against it: every column must be
 * one the table has; rows of the instance are dropped (counted).
 */
function incomingRows(state: WorldState, catalog: WorldTable[]): { given: Map<string, WorldRow[]>; dropped: number } {
  const tables = new Map(catalog.map((t) => [t.name, t]));
  const given = new Map<string, WorldRow[]>();
  let dropped = 0;
  for (const t of state.tables) {
    const target = tables.get(t.name);
    if (!target) continue;
    const columns = new Set(target.columns);
    const rows = target.instanceRows ? t.rows.filter((r) => !isInstanceRow(target.instanceRows, t.name, r)) : t.rows;
    dropped += t.rows.length - rows.length;
    for (const row of rows) {
      for (const c in row)
        if (!columns.has(c))
          throw new WorldFileError(
            `the snapshot does not fit this database (nothing was changed): table ${t.name} has no column ${JSON.stringify(c)}`,
          );
    }
    given.set(t.name, rows);
  }
  return { given, dropped };
}

/** PostgreSQL errors that a row brought (bad data, a constraint), not the server: SQLSTATE classes 22 and 23, and 42804. */
const isRefusal = (err: unknown): boolean => {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23') || code === '42804');
};

async function insertRows(trx: Kysely<any>, table: WorldTable, rows: WorldRow[]): Promise<void> {
  // Kysely fills a column some rows lack with DEFAULT: a batch binds at most every column of
  // the table for each row (the rows were checked to hold no others).
  const batch = Math.max(1, Math.floor(MAX_PARAMS / Math.max(1, table.columns.length)));
  for (let i = 0; i < rows.length; i += batch)
    await trx
      .insertInto(table.name)
      .values(rows.slice(i, i + batch))
      .execute();
}

/** A restored serial column's sequence continues after the highest restored value. */
async function moveSequence(trx: Kysely<any>, table: string, column: string): Promise<void> {
  await sql`select setval(pg_get_serial_sequence(${table}, ${column}), coalesce(max(${sql.ref(column)}), 0) + 1, false) from ${sql.table(table)}`.execute(
    trx,
  );
}
