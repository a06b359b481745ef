// The trace's writer: turns captured batches into rows (trace-rows.ts), inserts them, keeps the
// table within HAMLET_TRACE_MAX_ENTRIES and deletes what is past the retention. It runs on the
// trace's worker thread (trace-worker.ts) with a connection of its own, so none of this work
// takes the event loop that serves requests; without a worker (a database it cannot open a
// second connection to) the trace runs it in process, the same code.
import { sql, type Db } from './db.js';
import { COLUMNS, jsonForPostgres, rowsOfRecords, type TraceRow } from './trace-rows.js';

/** Entries deleted per statement when the table is over its cap (SQLite deletes block its writer). */
const EVICT_CHUNK = 2000;
/**
 * Rows per transaction on SQLite: the writer holds the database's one write lock while it runs,
 * and a write on the event loop's connection meanwhile waits for it (busy_timeout, blocking that
 * loop), so a transaction stays a few milliseconds long.
 */
const ROWS_PER_TRANSACTION = 500;
/** Rows per insert statement on SQLite (17 values each, well under its 32,766 parameters). */
const ROWS_PER_INSERT = 50;

export interface TraceStoreSettings {
  bodies: boolean;
  maxEntries: number;
  /** The process's tag, the end of every id. */
  idTag: string;
}

export class TraceStore {
  /** SQLite's insert statements, by how many rows they insert. */
  private readonly inserts = new Map<number, import('better-sqlite3').Statement>();
  /** Rows in the table as this writer knows it: counted once, then kept up to date (recounted on PostgreSQL, where other instances write too). */
  private storedRows: number | undefined;
  /** Where routes carry secrets in their paths, for masking URLs inside bodies (sent by the trace as routes are added). */
  private secretPaths: RegExp | undefined;

  constructor(
    private readonly db: Db,
    private readonly settings: TraceStoreSettings,
    /** Reports a failure that is not the caller's to handle (the oldest entries could not be deleted). */
    private readonly warn: (message: string, err: unknown) => void,
  ) {}

  setSecretPaths(source: string | undefined): void {
    this.secretPaths = source ? new RegExp(source, 'g') : undefined;
  }

  /** Stores a captured batch (trace-rows.ts's layout); resolves to its rows as stored. Throws when the rows could not be written. */
  async write(records: readonly unknown[]): Promise<TraceRow[]> {
    const rows = rowsOfRecords(records, {
      idTag: this.settings.idTag,
      bodies: this.settings.bodies,
      secretPaths: this.secretPaths,
    });
    if (!rows.length) return rows;
    await this.insert(rows);
    if (this.storedRows !== undefined) this.storedRows += rows.length;
    await this.evictOverCap().catch((err: unknown) =>
      this.warn('trace: deleting the oldest entries over HAMLET_TRACE_MAX_ENTRIES failed', err),
    );
    return rows;
  }

  /** Deletes entries before `cutoff` (ISO, by the platform's clock); returns how many. */
  async prune(cutoff: string): Promise<number> {
    const result = await this.db.kysely.deleteFrom('platform_trace').where('at', '<', cutoff).executeTakeFirst();
    const deleted = Number(result.numDeletedRows ?? 0);
    if (this.storedRows !== undefined) this.storedRows -= deleted;
    // Other instances write the same table on PostgreSQL: a fresh count catches their rows.
    if (this.db.dialect === 'postgres') this.storedRows = undefined;
    await this.evictOverCap();
    return deleted;
  }

  /**
   * Keeps the table within HAMLET_TRACE_MAX_ENTRIES: once over, deletes the oldest entries down
   * to a little under the cap (so a full table is trimmed every few batches, not every one), a
   * chunk per statement, by the (at, id) index.
   */
  private async evictOverCap(): Promise<void> {
    const max = this.settings.maxEntries;
    if (this.storedRows === undefined) {
      const counted = await this.db.kysely
        .selectFrom('platform_trace')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      this.storedRows = Number(counted.n);
    }
    if (this.storedRows <= max) return;
    let excess = this.storedRows - max + Math.min(Math.ceil(max / 100), EVICT_CHUNK);
    while (excess > 0) {
      const chunk = Math.min(excess, EVICT_CHUNK);
      const last = await this.db.kysely
        .selectFrom('platform_trace')
        .select(['at', 'id'])
        .orderBy('at')
        .orderBy('id')
        .offset(chunk - 1)
        .limit(1)
        .executeTakeFirst();
      if (!last) {
        // Fewer rows than this writer thought (someone else deleted some): count again next time.
        this.storedRows = undefined;
        return;
      }
      const result = await this.db.kysely
        .deleteFrom('platform_trace')
        .where((eb) => eb.or([eb('at', '<', last.at), eb.and([eb('at', '=', last.at), eb('id', '<=', last.id)])]))
        .executeTakeFirst();
      this.storedRows -= Number(result.numDeletedRows ?? 0);
      excess -= chunk;
    }
  }

  /**
   * Embedded mode: prepared statements of ROWS_PER_INSERT rows (then one per remaining row), with
   * positional values, in transactions of ROWS_PER_TRANSACTION rows: Kysely would compile a 4,000-parameter statement per
   * batch, and a statement per row spends more on running the statement than on the row.
   */
  private async insert(rows: TraceRow[]): Promise<void> {
    const { sqlite } = this.db;
    if (sqlite) {
      await sqlite.run((raw) => {
        const statement = (count: number) => {
          let prepared = this.inserts.get(count);
          if (!prepared) {
            const one = `(${COLUMNS.map(() => '?').join(', ')})`;
            prepared = raw.prepare(
              `INSERT INTO platform_trace (${COLUMNS.join(', ')}) VALUES ${Array.from({ length: count }, () => one).join(', ')}`,
            );
            this.inserts.set(count, prepared);
          }
          return prepared;
        };
        const insertRows = raw.transaction((from: number, to: number) => {
          let i = from;
          for (; i + ROWS_PER_INSERT <= to; i += ROWS_PER_INSERT)
            statement(ROWS_PER_INSERT).run(valuesOf(rows, i, ROWS_PER_INSERT));
          for (; i < to; i++) statement(1).run(valuesOf(rows, i, 1));
        });
        for (let from = 0; from < rows.length; from += ROWS_PER_TRANSACTION)
          insertRows(from, Math.min(from + ROWS_PER_TRANSACTION, rows.length));
      });
      return;
    }
    // PostgreSQL: the whole batch as one JSON parameter, expanded by the server into the table's
    // row type. One short statement to parse instead of a 3,000-parameter VALUES list per 200
    // rows: about a quarter less work for PostgreSQL per row, and less for Node.
    await sql`INSERT INTO platform_trace SELECT * FROM json_populate_recordset(NULL::platform_trace, ${jsonForPostgres(rows)})`.execute(
      this.db.kysely,
    );
  }
}

/** The values of `count` rows from `from`, column by column, for a positional statement. */
function valuesOf(rows: TraceRow[], from: number, count: number): unknown[] {
  const values: unknown[] = [];
  for (let r = from; r < from + count; r++) {
    const row = rows[r];
    for (const column of COLUMNS) values.push(row[column]);
  }
  return values;
}
