// The transaction rule, enforced for every service on both databases:
//
//   A transaction awaits nothing but its own statements. Prepare outside, write inside.
//
// Why: on SQLite there is one connection and one writer. A transaction held open across an
// await on anything else (building a MIME message, an HTTP call, a timer) holds that writer
// for as long as the other thing takes, and while it is open every other statement on the
// connection would run inside it (the lost writes of issue 10). On PostgreSQL it holds a pool
// connection and its row locks for as long.
//
// How it is enforced: a transaction's statements come back within the same turn of the event
// loop on SQLite (better-sqlite3 is synchronous), and while a statement is in flight on
// PostgreSQL. So a transaction that is open, with no statement in flight, when the event loop
// turns (a setImmediate fires) is waiting for something else. It is revoked: on SQLite it is
// rolled back at once and the connection goes to the next in line; every later statement of
// it, and its commit, throw TransactionHeldOpenError. The check costs at most one
// setImmediate per loop turn and cannot misfire on a transaction that only awaits
// its statements, so it is on everywhere, not only in tests: a service breaking the rule
// fails the first time the code path runs, in its own tests. (It looks when a transaction
// begins and whenever its last statement in flight ends, so it never spins the loop.)

import { CompiledQuery, type DatabaseConnection, type Driver, type TransactionSettings } from 'kysely';

export class TransactionHeldOpenError extends Error {
  constructor() {
    super(
      'a database transaction was held open across an await on something other than its own statements and was rolled back; ' +
        'prepare outside the transaction (compose, parse, render, call out), then write inside it',
    );
    this.name = 'TransactionHeldOpenError';
  }
}

/** One open transaction as the watch sees it. */
export interface WatchedTransaction {
  /** Statements of the transaction under way (only ever non-zero across a turn on PostgreSQL). */
  inFlight: number;
  revoked: boolean;
  /** Called once when the transaction is revoked (e.g. to roll back and hand the connection on). */
  onRevoke(): void;
}

export class TransactionWatch {
  private readonly open = new Set<WatchedTransaction>();
  private scheduled = false;
  /** Revocations so far (tests and logs read it). */
  revocations = 0;

  begin(tx: WatchedTransaction): void {
    this.open.add(tx);
    this.schedule();
  }

  end(tx: WatchedTransaction): void {
    this.open.delete(tx);
  }

  /** Wraps one statement of `tx`: throws if it was revoked, counts it as in flight meanwhile. */
  async statement<T>(tx: WatchedTransaction, run: () => Promise<T>): Promise<T> {
    if (tx.revoked) throw new TransactionHeldOpenError();
    tx.inFlight++;
    try {
      return await run();
    } finally {
      tx.inFlight--;
      // Idle again: look at the next turn. (Not re-checking while a statement is in flight
      // keeps the loop from spinning on setImmediate while PostgreSQL works.)
      if (tx.inFlight === 0 && this.open.has(tx)) this.schedule();
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.check);
  }

  private readonly check = (): void => {
    this.scheduled = false;
    for (const tx of this.open) {
      if (tx.inFlight > 0) continue; // its statement's end schedules the next look
      this.open.delete(tx);
      tx.revoked = true;
      this.revocations++;
      tx.onRevoke();
    }
  };
}

/** A connection of a watched driver: statements of its transaction are counted in flight. */
class WatchedConnection implements DatabaseConnection, WatchedTransaction {
  inFlight = 0;
  revoked = false;
  inTransaction = false;
  constructor(
    readonly inner: DatabaseConnection,
    private readonly watch: TransactionWatch,
  ) {}
  executeQuery<R>(q: CompiledQuery) {
    return this.inTransaction
      ? this.watch.statement(this, () => this.inner.executeQuery<R>(q))
      : this.inner.executeQuery<R>(q);
  }
  streamQuery<R>(q: CompiledQuery, chunkSize?: number) {
    return this.inner.streamQuery<R>(q, chunkSize);
  }
  /** Roll back now, releasing its locks (the callback is suspended: no statement is in flight). */
  onRevoke(): void {
    // A failed rollback means the connection already ended the transaction (or died): either
    // way nothing of it commits, and the revoked callback's next statement throws.
    this.inner.executeQuery(CompiledQuery.raw('rollback')).catch(() => {});
  }
}

/** Wraps a pooled driver (PostgreSQL) so that its transactions are watched; the pool is unchanged. */
export function watchedDriver(inner: Driver, watch: TransactionWatch): Driver {
  const end = (w: WatchedConnection) => {
    w.inTransaction = false;
    watch.end(w);
  };
  return {
    init: () => inner.init(),
    acquireConnection: async () => new WatchedConnection(await inner.acquireConnection(), watch),
    async beginTransaction(c: DatabaseConnection, settings: TransactionSettings) {
      const w = c as WatchedConnection;
      w.inTransaction = true;
      watch.begin(w);
      try {
        await watch.statement(w, () => inner.beginTransaction(w.inner, settings));
      } catch (err) {
        end(w); // Kysely releases the connection without a rollback: stop watching it
        throw err;
      }
    },
    async commitTransaction(c: DatabaseConnection) {
      const w = c as WatchedConnection;
      await watch.statement(w, () => inner.commitTransaction(w.inner));
      end(w);
    },
    async rollbackTransaction(c: DatabaseConnection) {
      const w = c as WatchedConnection;
      end(w);
      if (!w.revoked) await inner.rollbackTransaction(w.inner);
    },
    releaseConnection: (c: DatabaseConnection) => inner.releaseConnection((c as WatchedConnection).inner),
    destroy: () => inner.destroy(),
  };
}
