// Durable jobs in a database table: outgoing mail, webhook deliveries, workflow runs.
//
// A job is a row. Enqueue it in the same transaction as the write that caused it (the
// outbox pattern) and it survives a crash with that write. A worker claims due rows by
// leasing them (`locked_until`); a process killed mid-job leaves a lease that expires, and
// the job runs again, so handlers must be idempotent (deliveries are at least once).
// Finished jobs are deleted; jobs that exhaust their attempts stay as `failed`.
import type { Kysely } from 'kysely';
import type { Db } from './db.js';
import type { Clock } from './clock.js';
import type { Logger } from './logger.js';
import { PermanentError } from './errors.js';
import type { DueSource, Timers } from './timers.js';
import { uuid } from './ids.js';

export interface JobInfo {
  id: string;
  queue: string;
  attempt: number;
  maxAttempts: number;
  createdAt: string;
}

export interface QueueOptions<T> {
  /** Jobs of this queue running at once in this process. */
  concurrency?: number;
  maxAttempts?: number;
  /** Delay before the next attempt, given the number of attempts made so far. */
  backoffMs?: (attempt: number) => number;
  /** How long a claimed job may run before another worker may take it over. */
  leaseMs?: number;
  /** Called once when a job fails for good (attempts exhausted or a PermanentError). */
  onFailed?: (payload: T, error: Error, job: JobInfo) => Promise<void>;
}

export type JobHandler<T> = (payload: T, job: JobInfo) => Promise<void>;

export interface EnqueueOptions {
  delayMs?: number;
  runAt?: Date;
  maxAttempts?: number;
}

/** Thrown by a handler to try again later without counting it as a failure (e.g. no relay configured yet). */
export class RetryLater extends Error {
  constructor(
    public readonly delayMs: number,
    message: string,
  ) {
    super(message);
  }
}

/** Exponential backoff from 1 s, doubling, capped at one hour, with ±20 % jitter. */
export const exponentialBackoff = (attempt: number): number => {
  const base = Math.min(3_600_000, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
};

interface Registered {
  handler: JobHandler<any>;
  opts: Required<Omit<QueueOptions<any>, 'onFailed'>> & Pick<QueueOptions<any>, 'onFailed'>;
  running: number;
}

/**
 * Durable queues. Two backends implement this: `TableJobs` (the platform_jobs table, polled;
 * the default) and `BullJobs` (BullMQ on Redis, queue mode). Services code against this alone.
 */
export interface Jobs {
  /** Registers a queue's handler; in queue mode only processes that run workers call it. */
  register<T>(queue: string, handler: JobHandler<T>, opts?: QueueOptions<T>): void;
  /** Adds a job. Pass the transaction of the write that causes it, so both commit or neither. */
  enqueue<T>(queue: string, payload: T, opts?: EnqueueOptions, trx?: Kysely<any>): Promise<string>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Looks for due jobs now instead of at the next poll. */
  wake(): void;
  /** Resolves when no job of the given queues (default: all registered) is due or running. For tests and shutdown. */
  idle(queues?: string[], timeoutMs?: number): Promise<void>;
  /** The earliest clock time a pending job of a registered queue is due (for the clock's advance). */
  nextDue(): Promise<number | undefined>;
  /** Jobs of the registered queues due and not yet taken, and jobs running now (this process's, or anywhere in queue mode). */
  busy(): Promise<{ due: number; running: number }>;
}

/**
 * The jobs queue as a source of due work for the clock's timer queue: an advance steps to each
 * job's run_at and settles once no job is due or running, except running jobs parked on the
 * clock (a short Wait: only the next step finishes them, so waiting for them would never end).
 * A parked job is known only by count, so one parked outside a job (an inline webhook run) can
 * let a step end while a job still runs.
 */
export function jobsAsDueSource(jobs: Jobs, timers: Timers, timeoutMs = 60_000): DueSource {
  return {
    nextDue: () => jobs.nextDue(),
    async settle() {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { due, running } = await jobs.busy();
        if (due === 0 && running <= timers.sleeping) return;
        if (Date.now() > deadline) throw new Error('jobs did not settle in time');
        jobs.wake();
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

/** The earliest run_at of the pending rows of some queues: the table backend's queue, the BullMQ backend's outbox. */
export async function earliestPending(db: Db, queues: string[]): Promise<number | undefined> {
  if (queues.length === 0) return undefined;
  const row = await db.kysely
    .selectFrom('platform_jobs')
    .select((eb) => eb.fn.min<string>('run_at').as('due'))
    .where('queue', 'in', queues)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row?.due ? new Date(row.due).getTime() : undefined;
}

/** Writes a job row: the table backend's queue, and the BullMQ backend's transactional outbox. */
export async function insertJobRow<T>(
  trx: Kysely<any>,
  clock: Clock,
  queue: string,
  payload: T,
  opts: EnqueueOptions,
  maxAttempts: number,
): Promise<string> {
  const id = uuid();
  const now = clock.ms();
  const runAt = opts.runAt?.getTime() ?? now + (opts.delayMs ?? 0);
  const iso = new Date(now).toISOString();
  await trx
    .insertInto('platform_jobs')
    .values({
      id,
      queue,
      payload: JSON.stringify(payload),
      status: 'pending',
      attempts: 0,
      max_attempts: opts.maxAttempts ?? maxAttempts,
      run_at: new Date(runAt).toISOString(),
      locked_until: null,
      last_error: null,
      created_at: iso,
      updated_at: iso,
    })
    .execute();
  return id;
}

export class TableJobs implements Jobs {
  private readonly queues = new Map<string, Registered>();
  private timer?: NodeJS.Timeout;
  private stopped = true;
  private polling = false;
  /** The poll in progress, so stop() can wait for the jobs it is about to claim. */
  private currentPoll?: Promise<void>;
  private pollAgain = false;
  private readonly inFlight = new Set<Promise<void>>();
  private unlistenClock?: () => void;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly pollMs = 250,
  ) {}

  register<T>(queue: string, handler: JobHandler<T>, opts: QueueOptions<T> = {}): void {
    this.queues.set(queue, {
      handler,
      opts: {
        concurrency: opts.concurrency ?? 4,
        maxAttempts: opts.maxAttempts ?? 10,
        backoffMs: opts.backoffMs ?? exponentialBackoff,
        leaseMs: opts.leaseMs ?? 5 * 60_000,
        onFailed: opts.onFailed,
      },
      running: 0,
    });
    this.wake();
  }

  async enqueue<T>(
    queue: string,
    payload: T,
    opts: EnqueueOptions = {},
    trx: Kysely<any> = this.db.kysely,
  ): Promise<string> {
    const id = await insertJobRow(
      trx,
      this.clock,
      queue,
      payload,
      opts,
      this.queues.get(queue)?.opts.maxAttempts ?? 10,
    );
    if (trx === this.db.kysely) this.wake();
    else setTimeout(() => this.wake(), 0); // after the surrounding transaction commits
    return id;
  }

  async start(): Promise<void> {
    // An embedded SQLite file belongs to this one process: whatever a killed predecessor left
    // running is ours to redo now. (On PostgreSQL other workers may be alive; leases expire instead.)
    if (this.db.dialect === 'sqlite') {
      await this.db.kysely
        .updateTable('platform_jobs')
        .set({ status: 'pending', locked_until: null })
        .where('status', '=', 'running')
        .execute();
    }
    this.stopped = false;
    this.unlistenClock = this.clock.onAdvance(() => this.wake());
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  async stop(timeoutMs = 5000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.unlistenClock?.();
    await this.currentPoll; // a poll under way may still claim jobs; wait for them too
    const all = Promise.allSettled([...this.inFlight]);
    await Promise.race([all, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = true;
    this.currentPoll = this.poll()
      .catch((err) => this.logger.error({ err }, 'job poll failed'))
      .finally(() => {
        this.polling = false;
        if (this.pollAgain) {
          this.pollAgain = false;
          this.wake();
        }
      });
  }

  nextDue(): Promise<number | undefined> {
    return earliestPending(this.db, [...this.queues.keys()]);
  }

  async busy(): Promise<{ due: number; running: number }> {
    const queues = [...this.queues.keys()];
    if (queues.length === 0) return { due: 0, running: this.inFlight.size };
    const row = await this.db.kysely
      .selectFrom('platform_jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('queue', 'in', queues)
      .where('status', '=', 'pending')
      .where('run_at', '<=', this.clock.now().toISOString())
      .executeTakeFirst();
    return { due: Number(row?.n ?? 0), running: this.inFlight.size };
  }

  async idle(queues = [...this.queues.keys()], timeoutMs = 10_000): Promise<void> {
    if (queues.length === 0) return;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // While jobs run here, wait for one to finish (each wakes the poller as it ends) instead
      // of asking the database every few milliseconds: a seed waiting on thousands of jobs spent
      // seconds in those queries and in the claims each wake-up made.
      if (this.inFlight.size > 0) {
        if (Date.now() > deadline) throw new Error('jobs did not become idle in time');
        await Promise.race([Promise.race([...this.inFlight]).catch(() => {}), new Promise((r) => setTimeout(r, 100))]);
        continue;
      }
      const row = await this.db.kysely
        .selectFrom('platform_jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('queue', 'in', queues)
        .where((eb) =>
          eb.or([
            eb('status', '=', 'running'),
            eb.and([eb('status', '=', 'pending'), eb('run_at', '<=', this.clock.now().toISOString())]),
          ]),
        )
        .executeTakeFirst();
      if (Number(row?.n ?? 0) === 0 && this.inFlight.size === 0) return;
      if (Date.now() > deadline) throw new Error('jobs did not become idle in time');
      this.wake();
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  private async poll(): Promise<void> {
    for (const [queue, reg] of this.queues) {
      const free = reg.opts.concurrency - reg.running;
      if (free <= 0) continue;
      const claimed = await this.claim(queue, free, reg.opts.leaseMs);
      for (const row of claimed) {
        reg.running++;
        const p = this.run(queue, reg, row).finally(() => {
          reg.running--;
          this.inFlight.delete(p);
          this.wake();
        });
        this.inFlight.add(p);
      }
    }
  }

  private async claim(queue: string, limit: number, leaseMs: number) {
    const nowIso = this.clock.now().toISOString();
    const leaseIso = new Date(this.clock.ms() + leaseMs).toISOString();
    const db = this.db.kysely;
    // Two index range scans instead of one OR: with thousands of queued jobs the OR made every
    // claim visit (and sort) all of the queue's rows. Expired leases first: they are rare.
    const pick = (status: 'running' | 'pending', n: number) => {
      let q = db.selectFrom('platform_jobs').select('id').where('queue', '=', queue).where('status', '=', status);
      q =
        status === 'pending' ? q.where('run_at', '<=', nowIso).orderBy('run_at') : q.where('locked_until', '<', nowIso);
      q = q.limit(n);
      // Several workers on PostgreSQL skip each other's rows instead of waiting on them.
      return this.db.dialect === 'postgres' ? q.forUpdate().skipLocked() : q;
    };
    const take = (ids: ReturnType<typeof pick>) =>
      db
        .updateTable('platform_jobs')
        .set((eb) => ({
          status: 'running',
          locked_until: leaseIso,
          attempts: eb('attempts', '+', 1),
          updated_at: nowIso,
        }))
        .where('id', 'in', ids)
        .returning(['id', 'payload', 'attempts', 'max_attempts', 'created_at'])
        .execute();
    const stale = await take(pick('running', limit));
    return stale.length >= limit ? stale : [...stale, ...(await take(pick('pending', limit - stale.length)))];
  }

  private async run(
    queue: string,
    reg: Registered,
    row: { id: string; payload: string; attempts: number; max_attempts: number; created_at: string },
  ): Promise<void> {
    const info: JobInfo = {
      id: row.id,
      queue,
      attempt: row.attempts,
      maxAttempts: row.max_attempts,
      createdAt: row.created_at,
    };
    const payload = JSON.parse(row.payload);
    try {
      await reg.handler(payload, info);
      await this.db.kysely.deleteFrom('platform_jobs').where('id', '=', row.id).execute();
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      const now = this.clock.now().toISOString();
      if (err instanceof RetryLater) {
        // Not the job's fault: wait without using up an attempt.
        await this.db.kysely
          .updateTable('platform_jobs')
          .set((eb) => ({
            status: 'pending',
            attempts: eb('attempts', '-', 1),
            run_at: new Date(this.clock.ms() + err.delayMs).toISOString(),
            locked_until: null,
            last_error: err.message.slice(0, 2000),
            updated_at: now,
          }))
          .where('id', '=', row.id)
          .execute();
        return;
      }
      const final = err instanceof PermanentError || row.attempts >= row.max_attempts;
      this.logger.warn({ queue, job: row.id, attempt: row.attempts, final, err: err.message }, 'job failed');
      await this.db.kysely
        .updateTable('platform_jobs')
        .set({
          status: final ? 'failed' : 'pending',
          run_at: final ? now : new Date(this.clock.ms() + reg.opts.backoffMs(row.attempts)).toISOString(),
          locked_until: null,
          last_error: err.message.slice(0, 2000),
          updated_at: now,
        })
        .where('id', '=', row.id)
        .execute();
      if (final && reg.opts.onFailed) {
        await reg.opts
          .onFailed(payload, err, info)
          .catch((e2) => this.logger.error({ err: e2, queue }, 'onFailed handler failed'));
      }
    }
  }
}
