// Durable jobs on BullMQ (Redis), for scale-out: `REDIS_URL` set, several `hamlet` processes.
//
// Same contract as the table-backed jobs (both implement `Jobs`): `enqueue` may join the caller's SQL transaction, so a job is first written to the
// platform_jobs table as an outbox row; a relay moves committed rows into BullMQ (job id =
// row id, so a relay that dies between the two steps cannot run a job twice while BullMQ
// remembers it) and deletes them. Workers — in any process that calls start() with workers
// on, including `hamlet worker` — run the registered handlers with BullMQ's retries, using
// the queue's own backoff, RetryLater and PermanentError as the table-backed Jobs do.
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Clock } from './clock.js';
import type { Db } from './db.js';
import { PermanentError } from './errors.js';
import {
  earliestPending,
  exponentialBackoff,
  insertJobRow,
  RetryLater,
  type Jobs,
  type EnqueueOptions,
  type JobHandler,
  type JobInfo,
  type QueueOptions,
} from './jobs.js';
import type { Logger } from './logger.js';

interface Registration {
  handler: JobHandler<any>;
  opts: QueueOptions<any>;
}

export interface BullJobsOptions {
  /** Run handlers in this process (false: only enqueue, e.g. an API-only instance). */
  runWorkers?: boolean;
  /** Redis key prefix, so several deployments (or test runs) can share one Redis. */
  prefix?: string;
  relayMs?: number;
}

export class BullJobs implements Jobs {
  private readonly registrations = new Map<string, Registration>();
  private readonly bullQueues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  /** BullMQ leaves connections it was given open, so we close the workers' ourselves. */
  private readonly workerConnections: Redis[] = [];
  private readonly connection: Redis;
  private relayTimer?: NodeJS.Timeout;
  private relaying?: Promise<void>;
  private relayAgain = false;
  private running = false;
  private unlistenClock?: () => void;

  constructor(
    private readonly database: Db,
    private readonly time: Clock,
    private readonly log: Logger,
    private readonly redisUrl: string,
    private readonly options: BullJobsOptions = {},
  ) {
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    this.connection.on('error', (err) => log.warn({ err }, 'redis (jobs) error'));
  }

  register<T>(queue: string, handler: JobHandler<T>, opts: QueueOptions<T> = {}): void {
    this.registrations.set(queue, { handler, opts });
    if (this.running && this.options.runWorkers !== false) this.startWorker(queue);
  }

  async enqueue<T>(
    queue: string,
    payload: T,
    opts: EnqueueOptions = {},
    trx: Kysely<any> = this.database.kysely,
  ): Promise<string> {
    const id = await insertJobRow(
      trx,
      this.time,
      queue,
      payload,
      opts,
      this.registrations.get(queue)?.opts.maxAttempts ?? 10,
    );
    // Outside a transaction the row is committed now; inside one, the relay picks it up after the commit.
    if (trx === this.database.kysely) await this.relay();
    else setTimeout(() => this.wake(), 0);
    return id;
  }

  async start(): Promise<void> {
    this.running = true;
    if (this.options.runWorkers !== false) for (const queue of this.registrations.keys()) this.startWorker(queue);
    this.relayTimer = setInterval(() => this.wake(), this.options.relayMs ?? 250);
    this.relayTimer.unref();
    this.unlistenClock = this.time.onAdvance(() => this.wake());
    this.wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.relayTimer) clearInterval(this.relayTimer);
    this.unlistenClock?.();
    await this.relaying?.catch(() => {}); // its failure was logged by wake(); stopping only waits for it
    await Promise.allSettled(this.workers.map((w) => w.close()));
    await Promise.allSettled([...this.bullQueues.values()].map((q) => q.close()));
    for (const c of this.workerConnections) c.disconnect();
    this.connection.disconnect();
  }

  wake(): void {
    if (this.relaying) {
      this.relayAgain = true;
      return;
    }
    void this.relay().catch((err) => this.log.error({ err }, 'job relay failed'));
  }

  nextDue(): Promise<number | undefined> {
    return earliestPending(this.database, [...this.registrations.keys()]);
  }

  async busy(queues = [...this.registrations.keys()]): Promise<{ due: number; running: number }> {
    if (queues.length === 0) return { due: 0, running: 0 };
    const outbox = await this.database.kysely
      .selectFrom('platform_jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('queue', 'in', queues)
      .where('run_at', '<=', this.time.now().toISOString())
      .executeTakeFirst();
    let due = Number(outbox?.n ?? 0);
    let running = 0;
    for (const name of queues) {
      const counts = await this.queue(name).getJobCounts('wait', 'active', 'prioritized');
      due += (counts.wait ?? 0) + (counts.prioritized ?? 0);
      running += counts.active ?? 0;
    }
    return { due, running };
  }

  /** Resolves when no job of the given queues is waiting, due or running anywhere. */
  async idle(queues = [...this.registrations.keys()], timeoutMs = 10_000): Promise<void> {
    if (queues.length === 0) return;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { due, running } = await this.busy(queues);
      if (due + running === 0) return;
      if (Date.now() > deadline) throw new Error('jobs did not become idle in time');
      this.wake();
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  private queue(name: string): Queue {
    let q = this.bullQueues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.options.prefix ?? 'hamlet' });
      this.bullQueues.set(name, q);
    }
    return q;
  }

  /** Moves committed outbox rows into BullMQ. */
  private relay(): Promise<void> {
    if (this.relaying) return this.relaying;
    this.relaying = (async () => {
      do {
        this.relayAgain = false;
        // No transaction around the Redis calls (a transaction awaits only its statements):
        // read committed rows, add them to BullMQ under their own ids, then delete them. A
        // crash or a second instance in between adds a row twice, which BullMQ ignores while
        // it holds that jobId (an hour after completion), so a job still runs once.
        // Only due rows: a future job waits in the outbox, where it follows the platform clock
        // (frozen, jumped, advanced), instead of in a BullMQ delay that counts real time.
        const rows = await this.database.kysely
          .selectFrom('platform_jobs')
          .select(['id', 'queue', 'payload', 'max_attempts'])
          .where('status', '=', 'pending')
          .where('run_at', '<=', this.time.now().toISOString())
          .orderBy('created_at')
          .limit(200)
          .execute();
        for (const row of rows) {
          await this.queue(row.queue).add(row.queue, JSON.parse(row.payload), {
            jobId: row.id,
            attempts: row.max_attempts,
            backoff: { type: 'custom' },
            removeOnComplete: { age: 3600 },
            removeOnFail: { age: 7 * 86_400 },
          });
        }
        if (rows.length)
          await this.database.kysely
            .deleteFrom('platform_jobs')
            .where(
              'id',
              'in',
              rows.map((r) => r.id),
            )
            .execute();
      } while (this.relayAgain);
    })().finally(() => {
      this.relaying = undefined;
    });
    return this.relaying;
  }

  private startWorker(queue: string): void {
    const reg = this.registrations.get(queue)!;
    const backoff = reg.opts.backoffMs ?? exponentialBackoff;
    const connection = this.connection.duplicate();
    this.workerConnections.push(connection);
    const worker = new Worker(
      queue,
      async (job: Job, token?: string) => {
        const info: JobInfo = {
          id: job.id ?? '',
          queue,
          attempt: job.attemptsMade + 1,
          maxAttempts: job.opts.attempts ?? 1,
          createdAt: new Date(job.timestamp).toISOString(),
        };
        try {
          await reg.handler(job.data, info);
        } catch (err) {
          if (err instanceof RetryLater) {
            await job.moveToDelayed(Date.now() + err.delayMs, token);
            throw new DelayedError();
          }
          if (err instanceof PermanentError) throw new UnrecoverableError(err.message);
          throw err;
        }
      },
      {
        connection,
        prefix: this.options.prefix ?? 'hamlet',
        concurrency: reg.opts.concurrency ?? 4,
        // A job whose worker died (kill -9) is back in the queue within about 20 s instead of
        // BullMQ's 30 s lock plus 30 s check. A live worker renews its locks every 7.5 s, so
        // only an event loop blocked for 15 s could let a running job be taken twice.
        lockDuration: 15_000,
        stalledInterval: 5_000,
        settings: { backoffStrategy: (attemptsMade: number) => backoff(attemptsMade) },
      },
    );
    worker.on('failed', (job, err) => {
      if (!job || !reg.opts.onFailed) return;
      const final = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
      if (!final) return;
      const info: JobInfo = {
        id: job.id ?? '',
        queue,
        attempt: job.attemptsMade,
        maxAttempts: job.opts.attempts ?? 1,
        createdAt: new Date(job.timestamp).toISOString(),
      };
      reg.opts.onFailed(job.data, err, info).catch((e) => this.log.error({ err: e, queue }, 'onFailed handler failed'));
    });
    worker.on('error', (err) => this.log.warn({ err, queue }, 'job worker error'));
    this.workers.push(worker);
  }
}
