// The world's rows on the embedded SQLite database, through the raw better-sqlite3 handle: a
// read or a restore is one synchronous transaction, each table read with one statement and
// written row by row with one prepared INSERT. For the large demo world (100k rows) this is
// several times faster than Kysely's multi-row INSERTs, which build and compile a query of
// thousands of rows per batch. PostgreSQL keeps the Kysely path (state.ts).
import type Database from 'better-sqlite3';
import { isInstanceRow, type InstanceRows, type WorldRow } from '../../platform/world.js';

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Rows above which a table's indexes are dropped for the insert and built again after it. */
const REINDEX_ABOVE = 10_000;

/** Every row of each table, read in one transaction (one consistent state), its columns in the order given. */
export function readTables(s: Database.Database, tables: Array<{ name: string; columns: string[] }>): WorldRow[][] {
  return s.transaction(() =>
    tables.map(
      (t) =>
        s
          .prepare(`select ${t.columns.length ? t.columns.map(quote).join(', ') : '*'} from ${quote(t.name)}`)
          .all() as WorldRow[],
    ),
  )();
}

export interface Replacement {
  name: string;
  rows: WorldRow[];
  /** Rows of this instance that stay (ServiceWorld.instanceRows). */
  keep?: InstanceRows;
}

/** The database refused a table's rows (a constraint, a value of the wrong kind): the snapshot's fault, not the server's. */
export class RowsRefused extends Error {
  constructor(
    readonly table: string,
    override readonly cause: Error,
  ) {
    super(`table ${table}: ${cause.message}`);
  }
}

/** better-sqlite3 errors a row brings: SQLite's constraint and datatype codes, and values it cannot bind. */
const isRefusal = (err: unknown): boolean => {
  const code = (err as { code?: unknown })?.code;
  return (
    (typeof code === 'string' && /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)/.test(code)) ||
    err instanceof TypeError ||
    err instanceof RangeError
  );
};

/** Replaces the rows of the tables (given parents first) in one transaction: all or nothing. */
export function replaceTables(s: Database.Database, tables: Replacement[]): void {
  s.transaction(() => {
    const kept = new Map<string, WorldRow[]>();
    // Children before parents, so no foreign key ever points at a missing row.
    for (const t of [...tables].reverse()) {
      if (t.keep)
        kept.set(
          t.name,
          (s.prepare(`select * from ${quote(t.name)}`).all() as WorldRow[]).filter((r) =>
            isInstanceRow(t.keep, t.name, r),
          ),
        );
      s.prepare(`delete from ${quote(t.name)}`).run();
    }
    for (const t of tables) {
      // A big table's own indexes are built once after its rows are in (a sort) rather than
      // grown row by row: about half the time of a 100k-row house history. Inside the
      // transaction, so a failed restore leaves them as they were.
      const indexes =
        t.rows.length > REINDEX_ABOVE
          ? (s
              .prepare(`select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql is not null`)
              .all(t.name) as Array<{ name: string; sql: string }>)
          : [];
      for (const index of indexes) s.exec(`drop index ${quote(index.name)}`);
      insertRows(s, t.name, kept.get(t.name) ?? []);
      try {
        insertRows(s, t.name, t.rows);
      } catch (err) {
        throw isRefusal(err) ? new RowsRefused(t.name, err as Error) : err;
      }
      for (const index of indexes) s.exec(index.sql);
    }
  }).immediate(); // the write lock up front: it reads the rows it keeps first (see platform/sqlite.ts, begin)
}

function insertRows(s: Database.Database, table: string, rows: WorldRow[]): void {
  // One statement per set of columns: a table's rows normally share theirs, so it is prepared once.
  let shape = '';
  let columns: string[] = [];
  let insert: Database.Statement | undefined;
  for (const row of rows) {
    const keys = Object.keys(row);
    const rowShape = keys.join('\0');
    if (!insert || rowShape !== shape) {
      shape = rowShape;
      columns = keys;
      insert = s.prepare(
        keys.length
          ? `insert into ${quote(table)} (${keys.map(quote).join(', ')}) values (${keys.map(() => '?').join(', ')})`
          : `insert into ${quote(table)} default values`,
      );
    }
    insert.run(columns.map((c) => row[c]));
  }
}
