// The main thread's side of the sandbox workers: a pool of worker threads (sandbox-worker.ts),
// each running one task at a time, so user code never runs on the server's event loop.
//
// Limits, from the inside out: QuickJS's interrupt deadline and memory checks stop most runaway
// code cleanly inside the worker (sandbox-pool.ts). What they cannot stop (a catastrophic
// regular expression runs in QuickJS's C code without interrupts), the pool stops from outside:
// a worker that has not answered well after the deadline (outerGraceMs) is
// terminated and replaced, and the run fails with the time limit. Each worker's V8 heap is
// capped by resourceLimits (a worker that exceeds it dies; the run fails with the memory
// limit). An AbortSignal abandons a run the same way (the engine's execution timeout, a stop).
//
// The main thread also answers the workers' data reads for the run each one is doing (see
// sandbox-worker.ts for the synchronous call); it never waits on a worker.

import os from 'node:os';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { workerEntry } from '../../../../platform/workers.js';
import { ExpressionError, type ExpressionData, type SandboxLimits } from '../api.js';
import { SandboxLimitError } from '../errors.js';
import { answerDataOperation, encodeHostError } from '../sandbox/host-ops.js';
import type { HostAnswer, HostRequest, Ready, Task, TaskBody, TaskResult, WorkerSetup } from './protocol.js';

/**
 * How long past the sandbox's own deadline a worker may stay silent before it is presumed stuck:
 * the time limit again, at least 5 s. Generous on purpose: this is the backstop for what QuickJS
 * cannot interrupt, and it must not fire on a merely slow machine (the worker runs at a lower
 * priority; library loading is not the user's time either).
 */
function outerGraceMs(timeoutMs: number): number {
  return Math.max(5000, timeoutMs);
}

interface Job {
  task: Task;
  data: ExpressionData;
  resolve(result: TaskResult): void;
  reject(error: Error): void;
  /** Detaches the abort listener. */
  release(): void;
}

interface Slot {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  ready: boolean;
  /** Sandboxes the worker had created at its last answer. */
  sandboxesCreated: number;
  job?: Job;
  timer?: NodeJS.Timeout;
}

export class SandboxWorkers {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;
  /** Sandboxes created in the workers (statistics). */
  sandboxesCreated = 0;
  /** Workers started, replacements included (statistics, tests). */
  workersStarted = 0;
  readonly size: number;

  constructor(
    private readonly limits: SandboxLimits,
    size = limits.workers,
  ) {
    this.size = Math.max(1, size ?? os.availableParallelism());
  }

  /**
   * Runs a task in a worker. Resolves with what the worker answered (a failure of the user's
   * code included); rejects when the run was abandoned: time limit from outside, a dead
   * worker, the signal, or close().
   */
  run(body: TaskBody, data: ExpressionData, signal?: AbortSignal): Promise<TaskResult> {
    if (this.closed) return Promise.reject(new Error('expressions are closed'));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<TaskResult>((resolve, reject) => {
      const onAbort = () => this.abandon(job, abortError(signal!));
      const job: Job = {
        task: { ...body, id: ++this.nextId },
        data,
        resolve,
        reject,
        release: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
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

  close(): void {
    this.closed = true;
    for (const job of this.queue.splice(0)) settle(job, () => job.reject(new Error('expressions are closed')));
    for (const slot of [...this.slots]) this.retire(slot, new Error('expressions are closed'));
  }

  /** Gives queued jobs to idle workers, starting workers as needed. */
  private pump(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.ready && !slot.job) this.start(slot, this.queue.shift()!);
    }
    const starting = [...this.slots].filter((slot) => !slot.ready).length;
    for (let i = starting; i < this.queue.length && this.slots.size < this.size; i++) this.spawn();
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.timer = setTimeout(
      () => this.retire(slot, new SandboxLimitError('timeout', `Execution timed out after ${this.limits.timeoutMs} ms`)),
      this.limits.timeoutMs + outerGraceMs(this.limits.timeoutMs),
    );
    slot.worker.postMessage(job.task);
    this.keepAliveWhileBusy(slot);
  }

  /** A worker keeps the process alive while it starts or runs something, never while idle. */
  private keepAliveWhileBusy(slot: Slot): void {
    if (slot.job || !slot.ready) slot.worker.ref();
    else slot.worker.unref();
  }

  private spawn(): void {
    const { port1, port2 } = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const entry = workerEntry(import.meta.url, 'sandbox-worker');
    const memoryMb = Math.ceil(this.limits.memoryBytes / 1048576);
    const setup: WorkerSetup = {
      limits: { timeoutMs: this.limits.timeoutMs, memoryBytes: this.limits.memoryBytes },
      signal,
      hostPort: port2,
      sourceEntry: entry.sourceEntry,
    };
    const worker = new Worker(entry.url, {
      workerData: setup,
      transferList: [port2],
      // The V8 heap holds what crosses the sandbox boundary (strings of the data); QuickJS's own
      // memory is WebAssembly memory, bounded by the sandbox's checks.
      resourceLimits: { maxOldGenerationSizeMb: 128 + 2 * memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    this.workersStarted++;
    const slot: Slot = { worker, port: port1, flag: new Int32Array(signal), ready: false, sandboxesCreated: 0 };
    this.slots.add(slot);
    port1.on('message', (request: HostRequest) => this.answer(slot, request));
    worker.on('message', (message: TaskResult | Ready) => {
      if ('ready' in message) {
        slot.ready = true;
        this.pump();
        this.keepAliveWhileBusy(slot);
        return;
      }
      const job = slot.job;
      // (A worker already retired may still deliver: its run was settled when it was retired.)
      if (!this.slots.has(slot) || !job || job.task.id !== message.id) return;
      clearTimeout(slot.timer);
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
          ? new SandboxLimitError('memory', `Execution ran out of memory (limit ${memoryMb} MB)`)
          : new SandboxLimitError('crash', `The sandbox failed: ${error.message}`);
      this.retire(slot, failure, !slot.ready);
    });
    worker.on('exit', () => this.retire(slot, new SandboxLimitError('crash', 'The sandbox stopped unexpectedly'), !slot.ready));
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
   * pump() start a replacement when work is waiting. A worker that never came up fails the
   * first queued run instead, so a broken installation cannot loop.
   */
  private retire(slot: Slot, error: Error, failedToStart = false): void {
    if (!this.slots.delete(slot)) return;
    clearTimeout(slot.timer);
    slot.port.close();
    void slot.worker.terminate();
    const job = slot.job ?? (failedToStart ? this.queue.shift() : undefined);
    if (job) settle(job, () => job.reject(error));
    // A worker that was up is replaced at once, so the next run does not wait for a start.
    if (!failedToStart && !this.closed) this.spawn();
    this.pump();
  }

  /** The run's caller gave up (signal): drop it from the queue, or stop the worker doing it. */
  private abandon(job: Job, error: Error): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      settle(job, () => job.reject(error));
      return;
    }
    for (const slot of this.slots) if (slot.job === job) this.retire(slot, error);
  }
}

function settle(job: Job, outcome: () => void): void {
  job.release();
  outcome();
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new ExpressionError('The execution was canceled');
}
