// The embedded SQLite connection: one better-sqlite3 handle, one writer, shared by Kysely and
// by the few hot paths that run prepared statements on the raw handle.
//
// Everything that uses the handle takes its turn through one gate (FIFO):
// - a Kysely query or transaction holds the gate from acquiring the connection to releasing
//   it (what Kysely's own SqliteDriver does with its mutex);
// - raw work (`SqliteAccess.run`) is synchronous, so it cannot interleave with anything once
//   it starts: it runs at once when the gate is free and after the holder otherwise.
// Before this gate the raw paths ran whenever they were called, so a write of one service
// could run inside another service's open transaction and vanish with it (issue 10).
// A transaction that waits on anything but its statements is revoked (see transactions.ts),
// so the gate is never held across I/O.
import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import { TransactionHeldOpenError, TransactionWatch, type WatchedTransaction } from './transactions.js';

/** Synchronous work on the raw handle, run when no one else holds the connection. */
export interface SqliteAccess {
  /**
   * Runs `work` with the raw better-sqlite3 handle once no transaction holds the connection
   * (at once when it is free). `work` is synchronous, so nothing can run inside it; use
   * `db.transaction(fn)` of better-sqlite3 inside it for several writes that go together.
   * Statements prepared inside may be kept and reused, but only ever run inside `run`.
   */
  run<T>(work: (db: Database.Database) => T): Promise<T>;
}

/** FIFO ownership of the one connection. */
class Gate {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  get free(): boolean {
    return !this.held;
  }

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the connection to the next in line (it stays held), or frees it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}

/**
 * Kysely prepares every query anew; on SQLite preparing costs as much as running a small
 * query. The same SQL text always prepares to the same statement, so keep them (bounded).
 * A statement still being iterated (a streamed query) is busy and cannot be reused: those
 * get a fresh one.
 */
function statementCache(db: Database.Database) {
  const cache = new Map<string, Database.Statement>();
  return (sql: string): Database.Statement => {
    const hit = cache.get(sql);
    if (hit && !hit.busy) return hit;
    const stmt = db.prepare(sql);
    if (!hit) {
      if (cache.size >= 2000) cache.clear();
      cache.set(sql, stmt);
    }
    return stmt;
  };
}

/** One turn on the connection: a single query, or a whole transaction. */
class Lease implements DatabaseConnection, WatchedTransaction {
  inFlight = 0;
  revoked = false;
  private released = false;
  private inTransaction = false;

  constructor(
    private readonly owner: GatedSqliteDriver,
    readonly db: Database.Database,
    private readonly prepare: (sql: string) => Database.Statement,
  ) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Statements here are synchronous, so none is ever in flight when the watch looks: a
    // transaction is revoked if it is still open at the next turn, and nothing needs counting.
    if (this.revoked) return Promise.reject(new TransactionHeldOpenError());
    try {
      return Promise.resolve(this.execute<R>(compiled));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private execute<R>(compiled: CompiledQuery): QueryResult<R> {
    const stmt = this.prepare(compiled.sql);
    const params = compiled.parameters as unknown[];
    if (stmt.reader) return { rows: stmt.all(params) as R[] };
    const { changes, lastInsertRowid } = stmt.run(params);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error('Sqlite driver only supports streaming of select queries');
    if (this.revoked) throw new TransactionHeldOpenError();
    for (const row of this.prepare(compiled.sql).iterate(compiled.parameters)) yield { rows: [row as R] };
  }

  async begin(): Promise<void> {
    this.inTransaction = true;
    this.owner.watch.begin(this);
    try {
      // IMMEDIATE: the write lock is taken at the start, where busy_timeout waits for another
      // connection's write (the trace's writer thread). A deferred transaction that read first
      // and writes after another connection committed fails at once ("database is locked",
      // SQLITE_BUSY_SNAPSHOT), whatever busy_timeout says. This connection's transactions take
      // turns anyway (see Lease), so nothing is lost by taking the lock early.
      await this.executeQuery(CompiledQuery.raw('begin immediate'));
    } catch (err) {
      this.endTransaction(); // Kysely releases the connection without a rollback: stop watching it
      throw err;
    }
  }

  async commit(): Promise<void> {
    await this.executeQuery(CompiledQuery.raw('commit'));
    this.endTransaction();
  }

  async rollback(): Promise<void> {
    if (this.revoked) return; // rolled back when it was revoked
    this.endTransaction();
    if (this.db.inTransaction) this.db.exec('rollback');
  }

  private endTransaction(): void {
    this.inTransaction = false;
    this.owner.watch.end(this);
  }

  /** The watch found the transaction waiting on something else: undo it and let the next one in. */
  onRevoke(): void {
    if (this.released) return; // never while watched; this only guards the rollback below
    if (this.db.inTransaction) this.db.exec('rollback');
    this.release();
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.owner.gate.release();
  }
}

class GatedSqliteDriver implements Driver {
  readonly gate = new Gate();
  readonly watch = new TransactionWatch();
  private readonly prepare: (sql: string) => Database.Statement;

  constructor(readonly db: Database.Database) {
    this.prepare = statementCache(db);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.gate.acquire();
    return new Lease(this, this.db, this.prepare);
  }

  beginTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as Lease).begin();
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as Lease).commit();
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as Lease).rollback();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).release();
  }

  async destroy(): Promise<void> {
    // Whoever holds the connection finishes first (a shutdown must not cut a transaction).
    await this.gate.acquire();
    this.db.close();
    this.gate.release(); // anything still queued now fails on the closed handle instead of waiting forever
  }

  readonly access: SqliteAccess = {
    run: <T>(work: (db: Database.Database) => T): Promise<T> => {
      if (this.gate.free) {
        try {
          return Promise.resolve(work(this.db));
        } catch (err) {
          return Promise.reject(err);
        }
      }
      return this.gate.acquire().then(() => {
        try {
          return work(this.db);
        } finally {
          this.gate.release();
        }
      });
    },
  };
}

class GatedSqliteDialect implements Dialect {
  constructor(readonly driver: GatedSqliteDriver) {}
  createDriver(): Driver {
    return this.driver;
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/** The dialect for Kysely and the gated raw access over one better-sqlite3 handle. */
export function gatedSqlite(db: Database.Database): {
  dialect: Dialect;
  access: SqliteAccess;
  watch: TransactionWatch;
} {
  const driver = new GatedSqliteDriver(db);
  return { dialect: new GatedSqliteDialect(driver), access: driver.access, watch: driver.watch };
}
