// The console's side of the world worker (worker.ts): one thread, started on first use, that
// runs the long world reads (saving now, checking uploads, diff pages) while the event loop
// keeps serving. Its heap is capped, so no file can take the process's memory; a thread that
// dies (that cap reached) fails the tasks it had and the next task starts a new one.
import { Worker } from 'node:worker_threads';
import { HttpError } from '../../platform/errors.js';
import { workerEntry } from '../../platform/workers.js';
import type { WorldTask, WorldTaskAnswer } from './worker.js';

/** The heap a world task may use: a few lines of the longest length (HAMLET_WORLD_MAX_LINE) and a page. */
const HEAP_MB = 1024;

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

export class WorldWorker {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  run<T>(task: WorldTask): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the console is stopping'));
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve, reject });
      worker.postMessage({ id, task });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    const entry = workerEntry(import.meta.url, 'worker');
    const worker = new Worker(entry.url, {
      workerData: { sourceEntry: entry.sourceEntry },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
    // An idle world worker must not keep the process alive.
    worker.unref();
    worker.on('message', (answer: WorldTaskAnswer) => {
      const job = this.pending.get(answer.id);
      if (!job) return;
      this.pending.delete(answer.id);
      if (!answer.error) job.resolve(answer.result);
      else
        job.reject(
          answer.error.statusCode
            ? new HttpError(answer.error.statusCode, answer.error.message, answer.error.code)
            : new Error(answer.error.message),
        );
    });
    const stopped = (why: Error) => {
      if (this.worker === worker) this.worker = undefined;
      const out =
        (why as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new HttpError(
              413,
              `the world task needed more than ${HEAP_MB} MB of memory; nothing was changed`,
              'invalid_snapshot',
            )
          : why;
      for (const job of this.pending.values()) job.reject(out);
      this.pending.clear();
    };
    worker.on('error', stopped);
    worker.on('exit', (code) => stopped(new Error(`the world worker stopped (exit code ${code})`)));
    return worker;
  }
}
