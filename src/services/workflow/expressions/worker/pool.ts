// The main thread's side of the sandbox workers: a pool of worker threads (sandbox-worker.ts),
// each running one task at a time, so user code never runs on the server's event loop.
//
// Time: a run's time limit counts from the call, so every run answers within the limit and a
// little (GRACE_MS), however busy the pool is:
// - a run waiting for a worker when its time is up fails without starting (the clock of a
//   waiting run stops while no thread at all is up: the pool's own start is not the run's time);
// - inside a worker, QuickJS's interrupt handler stops the code at the deadline
//   (sandbox-pool.ts); the worker publishes that deadline in shared memory (run-watch.ts);
// - what QuickJS cannot interrupt, the watchdog here stops: a worker still in a run GRACE_MS
//   past its published deadline is terminated (the run fails with the time limit) and replaced.
// Size: `workers` threads are kept; while every one is busy the pool keeps one more ready (a
// spare), up to `maxWorkers`, so a run seldom waits for a thread to start, not even behind a
// worker being replaced. Threads above `workers` stop after a while idle.
// Memory: each sandbox's memory is bounded inside the worker (sandbox/memory.ts); each
// worker's V8 heap by resourceLimits (a worker that exceeds it dies; its run fails with the
// memory limit). An AbortSignal abandons a run (the engine's execution timeout, a stop).
//
// The main thread also answers the workers' data reads for the run each one is doing (see
// sandbox-worker.ts for the synchronous call); it never waits on a worker.

import os from 'node:os';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { workerEntry } from '../../../../platform/workers.js';
import { ExpressionError, type ExpressionData, type SandboxLimits } from '../api.js';
import { limitError, queueTimeoutError, SandboxLimitError } from '../errors.js';
import { answerDataOperation, encodeHostError } from '../sandbox/host-ops.js';
import type { HostAnswer, HostRequest, Ready, Task, TaskBody, TaskResult, WorkerSetup } from './protocol.js';
import { afterRunMs, RunWatch } from './run-watch.js';

/** How long past its deadline a run may take to answer before the pool answers for it. */
const GRACE_MS = 500;
/** A thread above the kept number stops after this long without a run. */
const IDLE_MS = 30_000;

interface Job {
  task: TaskBody & { id: number };
  data: ExpressionData;
  /** performance.now() when the run was asked for. */
  queuedAt: number;
  /** performance.now() by which the run must have ended (the limit from the call). */
  deadline: number;
  /** Set once the caller has its answer (the worker may still be busy with the run). */
  settled: boolean;
  resolve(result: TaskResult): void;
  reject(error: Error): void;
  /** Detaches the abort listener. */
  release(): void;
}

interface Slot {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  watch: RunWatch;
  ready: boolean;
  /** Sandboxes the worker had created at its last answer. */
  sandboxesCreated: number;
  job?: Job;
  /** The watchdog of the job, or the idle timer of a thread above the kept number. */
  timer?: NodeJS.Timeout;
}

export class SandboxWorkers {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private queueTimer: NodeJS.Timeout | undefined;
  /** The queued job the queue timer is set for. */
  private queueTimerFor: Job | undefined;
  private nextId = 0;
  private closed = false;
  /** Whether a run was ever asked for (threads start on first use). */
  private used = false;
  /** Threads that failed to start in a row: while any did, no spare is started. */
  private startFailures = 0;
  /** Since when no thread has been up (waiting runs' clocks stand still meanwhile). */
  private noneUpSince: number | undefined;
  /** Sandboxes created in the workers (statistics). */
  sandboxesCreated = 0;
  /** Workers started, replacements included (statistics, tests). */
  workersStarted = 0;
  /** Threads kept. */
  readonly size: number;
  /** Most threads at once. */
  readonly maxSize: number;

  constructor(
    private readonly limits: SandboxLimits,
    size = limits.workers,
  ) {
    this.size = Math.max(1, size ?? os.availableParallelism());
    this.maxSize = Math.max(this.size, limits.maxWorkers ?? this.size + 1);
  }

  /**
   * Runs a task in a worker. Resolves with what the worker answered (a failure of the user's
   * code included); rejects when the run was abandoned: time limit from outside (also while
   * waiting for a worker), a dead worker, the signal, or close().
   */
  run(body: TaskBody, data: ExpressionData, signal?: AbortSignal): Promise<TaskResult> {
    if (this.closed) return Promise.reject(new Error('expressions are closed'));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<TaskResult>((resolve, reject) => {
      const onAbort = () => this.abandon(job, abortError(signal!));
      const queuedAt = performance.now();
      const job: Job = {
        task: { ...body, id: ++this.nextId },
        data,
        queuedAt,
        deadline: queuedAt + this.limits.timeoutMs,
        settled: false,
        resolve,
        reject,
        release: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.used = true;
      this.queue.push(job);
      this.pump();
    });
  }

  /** Runs handed to a worker and not yet answered. */
  get busy(): number {
    let n = 0;
    for (const slot of this.slots) if (slot.job) n++;
    return n;
  }

  /** Worker threads now, starting ones included (statistics, tests). */
  get threads(): number {
    return this.slots.size;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.queueTimer);
    for (const job of this.queue.splice(0)) settle(job, () => job.reject(new Error('expressions are closed')));
    for (const slot of [...this.slots]) this.retire(slot, new Error('expressions are closed'));
  }

  /**
   * Gives queued jobs to idle workers, then starts threads: the kept number, and while every
   * thread is busy one spare beyond the runs that wait, up to the most allowed.
   */
  private pump(): void {
    if (this.closed) return;
    this.holdClockWhileNoneUp();
    for (const slot of this.slots) {
      if (this.queue.length === 0) break;
      if (slot.ready && !slot.job) this.start(slot, this.queue.shift()!);
    }
    if (this.used) {
      // After a failed start, threads only for runs that wait (each failure fails one): no loop.
      const demand = this.busy + this.queue.length;
      const wanted = Math.min(this.maxSize, this.startFailures > 0 ? demand : Math.max(this.size, demand + 1));
      for (let n = this.slots.size; n < wanted; n++) this.spawn();
    }
    for (const slot of this.slots) if (!slot.job) this.idle(slot);
    this.armQueueTimer();
  }

  /**
   * While no thread is up (the pool's first start, or every thread being replaced), waiting
   * runs keep their time: when one comes up, their deadlines move by how long that took.
   */
  private holdClockWhileNoneUp(): void {
    let up = false;
    for (const slot of this.slots) up ||= slot.ready;
    if (!up) {
      this.noneUpSince ??= performance.now();
      return;
    }
    if (this.noneUpSince === undefined) return;
    const now = performance.now();
    for (const job of this.queue) job.deadline += now - Math.max(this.noneUpSince, job.queuedAt);
    this.noneUpSince = undefined;
    this.queueTimerFor = undefined;
  }

  /** Fails the queued runs whose time ran out while they waited; wakes at the next one's deadline. */
  private armQueueTimer(): void {
    const head = this.queue[0];
    if (head === this.queueTimerFor) return;
    clearTimeout(this.queueTimer);
    this.queueTimerFor = head;
    if (!head) return;
    // One limit for all: the queue is in deadline order.
    this.queueTimer = setTimeout(
      () => {
        this.queueTimerFor = undefined;
        if (this.noneUpSince !== undefined) return; // re-armed when a thread is up
        const job = this.queue[0];
        if (job && job.deadline <= performance.now()) {
          this.queue.shift();
          settle(job, () => job.reject(queueTimeoutError(this.limits.timeoutMs, this.maxSize)));
        }
        this.armQueueTimer();
        // (When many expire together, one per turn of the event loop: each ends an execution,
        // and requests to the services get their turn in between.)
      },
      Math.max(0, head.deadline - performance.now()),
    );
  }

  private start(slot: Slot, job: Job): void {
    clearTimeout(slot.timer);
    slot.job = job;
    this.watchdog(slot, job.deadline + GRACE_MS);
    slot.worker.postMessage({ ...job.task, deadline: performance.timeOrigin + job.deadline } satisfies Task);
    this.keepAliveWhileBusy(slot);
  }

  /**
   * Holds the worker to its run's deadline. When the watchdog fires, the worker's published
   * deadline (later than the job's when a library load paused the clock, or while the worker
   * does its own work after the run) decides: still in time, it waits again; still in the run,
   * the worker is stuck in code QuickJS cannot interrupt and is ended; not begun (still
   * preparing on a loaded machine), the caller gets the time limit now and the worker may
   * answer later (its run stops at once: its time is up) or is ended if it never does.
   */
  private watchdog(slot: Slot, at: number): void {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      const job = slot.job;
      if (!job || !this.slots.has(slot)) return;
      const now = performance.now();
      const published = slot.watch.deadlineOf(job.task.id);
      if (published === undefined) return this.watchdog(slot, now + 10);
      if (published !== 'other') {
        const due = published - performance.timeOrigin + GRACE_MS;
        if (now < due) return this.watchdog(slot, due);
        return this.retire(slot, limitError('timeout', this.limits));
      }
      if (job.settled) return this.retire(slot, limitError('timeout', this.limits));
      settle(job, () => job.reject(limitError('timeout', this.limits)));
      this.watchdog(slot, now + afterRunMs(this.limits.timeoutMs));
    }, at - performance.now());
  }

  /** An idle thread above the kept number stops after IDLE_MS, unless it is the spare. */
  private idle(slot: Slot): void {
    if (slot.timer || !slot.ready || this.slots.size <= this.size) return;
    slot.timer = setTimeout(() => {
      slot.timer = undefined;
      if (slot.job || !this.slots.has(slot)) return;
      if (this.slots.size > Math.max(this.size, this.busy + 1)) this.stop(slot);
    }, IDLE_MS);
    slot.timer.unref();
  }

  /** A worker keeps the process alive while it starts or runs something, never while idle. */
  private keepAliveWhileBusy(slot: Slot): void {
    if (slot.job || !slot.ready) slot.worker.ref();
    else slot.worker.unref();
  }

  private spawn(): void {
    const { port1, port2 } = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const watch = new RunWatch();
    // The lower priority first, so that compiling the worker's TypeScript (source mode) already runs under it.
    const entry = workerEntry(import.meta.url, 'sandbox-worker', { preload: ['priority'] });
    const memoryMb = Math.ceil(this.limits.memoryBytes / 1048576);
    const setup: WorkerSetup = {
      limits: { timeoutMs: this.limits.timeoutMs, memoryBytes: this.limits.memoryBytes },
      signal,
      watch: watch.buffer,
      hostPort: port2,
      sourceEntry: entry.sourceEntry,
      sourcePreload: entry.sourcePreload,
    };
    const worker = new Worker(entry.url, {
      workerData: setup,
      transferList: [port2],
      // The V8 heap holds what crosses the sandbox boundary (strings of the data, the run's
      // answer, decoded); QuickJS's own memory is WebAssembly memory, bounded by the sandbox.
      resourceLimits: { maxOldGenerationSizeMb: 128 + 2 * memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    this.workersStarted++;
    const slot: Slot = { worker, port: port1, flag: new Int32Array(signal), watch, ready: false, sandboxesCreated: 0 };
    this.slots.add(slot);
    port1.on('message', (request: HostRequest) => this.answer(slot, request));
    worker.on('message', (message: TaskResult | Ready) => {
      if ('ready' in message) {
        slot.ready = true;
        this.startFailures = 0;
        this.pump();
        this.keepAliveWhileBusy(slot);
        return;
      }
      const job = slot.job;
      // (A worker already retired may still deliver: its run was settled when it was retired.)
      if (!this.slots.has(slot) || !job || job.task.id !== message.id) return;
      clearTimeout(slot.timer);
      slot.timer = undefined;
      slot.job = undefined;
      this.sandboxesCreated += message.created - slot.sandboxesCreated;
      slot.sandboxesCreated = message.created;
      settle(job, () => job.resolve(message));
      this.pump();
      this.keepAliveWhileBusy(slot);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const failure =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? limitError('memory', this.limits)
          : new SandboxLimitError('crash', `The sandbox failed: ${error.message}`);
      this.retire(slot, failure, !slot.ready);
    });
    worker.on('exit', () =>
      this.retire(slot, new SandboxLimitError('crash', 'The sandbox stopped unexpectedly'), !slot.ready),
    );
    // The host port never keeps the process alive by itself (listening refs it: unref after).
    port1.unref();
    this.keepAliveWhileBusy(slot);
  }

  /** Answers a worker's data read from the data of the run it is doing (never another run's). */
  private answer(slot: Slot, request: HostRequest): void {
    const job = slot.job;
    const answer =
      job && job.task.id === request.id
        ? answerDataOperation(request.op, request.args, job.data)
        : encodeHostError(new ExpressionError('No run in progress'));
    slot.port.postMessage({ id: request.id, answer } satisfies HostAnswer);
    Atomics.store(slot.flag, 0, 1);
    Atomics.notify(slot.flag, 0);
  }

  /**
   * Terminates a worker (stuck, dead, aborted or closing), fails its run with `error`, and lets
   * pump() start what is needed: a replacement, or a thread for waiting runs. A worker that
   * never came up fails the first queued run instead, so a broken installation cannot loop.
   */
  private retire(slot: Slot, error: Error, failedToStart = false): void {
    if (!this.stop(slot)) return;
    const job = slot.job ?? (failedToStart ? this.queue.shift() : undefined);
    if (job) settle(job, () => job.reject(error));
    if (failedToStart) this.startFailures++;
    this.pump();
  }

  /** Ends a worker thread; false when it was already gone. */
  private stop(slot: Slot): boolean {
    if (!this.slots.delete(slot)) return false;
    clearTimeout(slot.timer);
    slot.port.close();
    void slot.worker.terminate();
    return true;
  }

  /** The run's caller gave up (signal): drop it from the queue, or stop the worker doing it. */
  private abandon(job: Job, error: Error): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      settle(job, () => job.reject(error));
      this.armQueueTimer();
      return;
    }
    for (const slot of this.slots) if (slot.job === job) this.retire(slot, error);
  }
}

/** Gives the caller its answer, once. */
function settle(job: Job, outcome: () => void): void {
  if (job.settled) return;
  job.settled = true;
  job.release();
  outcome();
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new ExpressionError('The execution was canceled');
}
