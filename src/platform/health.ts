// Readiness for a load balancer, the same on every service port: GET /healthz/readiness
// answers 200 {"status":"ok"} when this process can serve, and 503 {"status":"error",
// "reason"} while it starts (migrations, services still starting), while it shuts down
// (drained before its listeners close), or while the database does not answer.
// (n8n's path and words, which the workflow service answered already; /healthz stays the
// liveness check that answers whenever the process does.)
import { sql } from 'kysely';
import type { Db } from './db.js';

export type ReadinessReason = 'starting' | 'stopping' | 'database unreachable';

export interface Readiness {
  ready: boolean;
  reason?: ReadinessReason;
}

/** How long one database answer stands for: a load balancer probing every port every second costs one query. */
const PING_FRESH_MS = 1000;
/** A database that takes longer than this to answer `select 1` is as good as down for serving. */
const PING_TIMEOUT_MS = 2000;

export class Health {
  private phase: 'starting' | 'serving' | 'stopping' = 'starting';
  private lastPing?: { at: number; ok: Promise<boolean> };

  constructor(private readonly db: Db) {}

  /** Every selected service is up: readiness follows the database from now on. */
  serving(): void {
    if (this.phase === 'starting') this.phase = 'serving';
  }

  /** Shutdown began: the load balancer should send nothing new here. */
  stopping(): void {
    this.phase = 'stopping';
  }

  async readiness(): Promise<Readiness> {
    if (this.phase !== 'serving') return { ready: false, reason: this.phase };
    return (await this.databaseAnswers()) ? { ready: true } : { ready: false, reason: 'database unreachable' };
  }

  private databaseAnswers(): Promise<boolean> {
    const now = Date.now();
    if (this.lastPing && now - this.lastPing.at < PING_FRESH_MS) return this.lastPing.ok;
    const ok = this.ping();
    this.lastPing = { at: now, ok };
    return ok;
  }

  private async ping(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS)));
    const query = sql`select 1`
      .execute(this.db.kysely)
      .then(() => true)
      .catch(() => false);
    try {
      return await Promise.race([query, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
