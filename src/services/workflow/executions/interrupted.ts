// Executions left `running` by a process that died (kill -9, OOM, power loss) become `crashed`
// when a process starts, as n8n does, instead of waiting for their job's lease to expire.
//
// Which `running` rows were interrupted?
// - SQLite: the file belongs to this one process, so all of them.
// - PostgreSQL: other processes may be alive and running theirs (queue mode: `hamlet worker`s,
//   or several servers). Each process that runs executions holds a session-level advisory
//   lock on its own random key for as long as it lives, and stamps that key as `owner` on
//   the rows it sets running. PostgreSQL drops a session's locks the moment its connection
//   ends, so "can I take the owner's lock?" is exactly "is the owner's process gone?", with
//   no clocks or heartbeats: a killed process's rows are marked at once, a live worker's are
//   left alone. Rows without an owner (written before this existed) are left to the lease.
import { sql } from 'kysely';
import type { Db } from '../../../platform/db.js';
import type { WorkflowStore } from '../store/index.js';

/** First key of the two-key advisory locks, so ours never meet another feature's ("Hmlt"). */
const LOCK_NAMESPACE = 0x486d6c74;

export class ExecutionOwnership {
  /** This process's key, stamped on the executions it runs (PostgreSQL only). */
  readonly key: number | undefined;
  private release?: () => void;
  private held?: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly store: WorkflowStore,
  ) {
    this.key = db.dialect === 'postgres' ? 1 + Math.floor(Math.random() * 0x7ffffffe) : undefined;
  }

  /** Takes this process's lock and keeps one pooled connection holding it until stop(). */
  async start(): Promise<void> {
    if (this.key === undefined || this.held) return;
    const key = this.key;
    let locked!: () => void;
    let failed!: (err: unknown) => void;
    const ready = new Promise<void>((resolve, reject) => ((locked = resolve), (failed = reject)));
    const released = new Promise<void>((resolve) => (this.release = resolve));
    this.held = this.db.kysely
      .connection()
      .execute(async (conn) => {
        await sql`select pg_advisory_lock(${LOCK_NAMESPACE}::int, ${key}::int)`.execute(conn);
        locked();
        await released;
        await sql`select pg_advisory_unlock(${LOCK_NAMESPACE}::int, ${key}::int)`.execute(conn);
      })
      .catch(failed);
    await ready;
  }

  async stop(): Promise<void> {
    this.release?.();
    await this.held;
    this.held = undefined;
  }

  /** Marks the interrupted executions `crashed`; resolves with how many. */
  async markInterrupted(stoppedAt: string): Promise<number> {
    if (this.db.dialect === 'sqlite') return this.store.crashAllRunning(stoppedAt);
    let marked = 0;
    for (const owner of await this.store.runningOwners()) {
      if (owner === this.key) continue;
      // Lock and unlock on one connection: the lock belongs to the session that took it.
      marked += await this.db.kysely.connection().execute(async (conn) => {
        const { rows } = await sql<{
          free: boolean;
        }>`select pg_try_advisory_lock(${LOCK_NAMESPACE}::int, ${owner}::int) as free`.execute(conn);
        if (!rows[0]?.free) return 0; // its process is alive
        try {
          return await this.store.crashRunningOf(owner, stoppedAt);
        } finally {
          await sql`select pg_advisory_unlock(${LOCK_NAMESPACE}::int, ${owner}::int)`.execute(conn);
        }
      });
    }
    return marked;
  }
}
