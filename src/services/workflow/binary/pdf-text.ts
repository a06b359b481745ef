// PDF text for Extract from File (`pdf`) and the legacy Read PDF node, read by pdf.js
// (pdfjs-dist, pinned) on a worker thread (pdf-worker.ts), since a PDF is untrusted input: the
// worker's heap and stack are bounded (resourceLimits), it is terminated when a document takes
// longer than the time limit or the process's memory grows past the budget while it reads
// (pdf.js's decoded streams are outside the heap), and files above a size are refused before
// parsing. One worker serves every execution, one document at a time; it starts on the first
// PDF (pdf.js, about a second to load, is never imported at start) and ends when idle.
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../../platform/workers.js';
import type { PdfAnswer, PdfResult, PdfTask } from './pdf-worker.js';

export type { PdfResult } from './pdf-worker.js';

export interface PdfLimits {
  /** Files larger than this are refused unread. */
  maxBytes: number;
  /** A document that takes longer is abandoned (its worker terminated). */
  timeoutMs: number;
  /** The worker's V8 heap. */
  heapMb: number;
  /** How much the process's resident memory may grow while a document is read. */
  memoryMb: number;
  /** The most characters of text one document may give. */
  maxTextChars: number;
  /** An idle worker ends after this long. */
  idleMs: number;
}

export const PDF_LIMITS: PdfLimits = {
  maxBytes: 64 * 1024 * 1024,
  timeoutMs: 30_000,
  heapMb: 256,
  memoryMb: 768,
  maxTextChars: 32 * 1024 * 1024,
  idleMs: 30_000,
};

export interface PdfOptions {
  password?: string;
  maxPages?: number;
  joinPages?: boolean;
}

/** A failure of the document or of its limits; the message is the node's error message. */
class PdfError extends Error {
  constructor(
    message: string,
    /** pdf.js's exception name (PasswordException, InvalidPDFException, …) or "limit". */
    readonly kind: string,
  ) {
    super(message);
  }
}

interface Job {
  task: PdfTask;
  resolve(result: PdfResult): void;
  reject(error: Error): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

const mb = (n: number) => Math.round(n / 1048576);

export class PdfReader {
  private worker?: Worker;
  private ready = false;
  private current?: Job;
  private readonly queue: Job[] = [];
  private nextId = 1;
  private timer?: NodeJS.Timeout;
  private watch?: NodeJS.Timeout;
  private idle?: NodeJS.Timeout;

  constructor(readonly limits: PdfLimits = PDF_LIMITS) {}

  read(bytes: Uint8Array, options: PdfOptions = {}, signal?: AbortSignal): Promise<PdfResult> {
    if (bytes.length > this.limits.maxBytes)
      return Promise.reject(
        new PdfError(`The PDF is larger than ${mb(this.limits.maxBytes)} MB, the most this server reads`, 'limit'),
      );
    if (signal?.aborted) return Promise.reject(new PdfError('The run was stopped', 'aborted'));
    // A copy the worker owns (transferred): the caller's buffer may be a view of a shared pool.
    const data = new Uint8Array(new ArrayBuffer(bytes.length));
    data.set(bytes);
    const task: PdfTask = {
      id: this.nextId++,
      data,
      password: options.password || undefined,
      maxPages: options.maxPages,
      joinPages: options.joinPages ?? true,
      maxTextChars: this.limits.maxTextChars,
    };
    return new Promise((resolve, reject) => {
      const job: Job = { task, resolve, reject, signal };
      if (signal) {
        job.onAbort = () => this.abort(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Ends the worker (a job in progress fails). */
  async stop(): Promise<void> {
    const worker = this.worker;
    for (const job of this.queue.splice(0)) this.settle(job, new PdfError('The PDF reader stopped', 'stopped'));
    this.retire(new PdfError('The PDF reader stopped', 'stopped'));
    await worker?.terminate();
  }

  private pump(): void {
    if (this.current || !this.queue.length) return;
    clearTimeout(this.idle);
    if (!this.worker) this.spawn();
    if (!this.ready) return;
    const job = (this.current = this.queue.shift()!);
    const worker = this.worker!;
    worker.ref();
    const baseline = process.memoryUsage.rss();
    this.timer = setTimeout(
      () =>
        this.retire(
          new PdfError(
            `Reading the PDF took longer than ${this.limits.timeoutMs / 1000} seconds; it was stopped`,
            'limit',
          ),
        ),
      this.limits.timeoutMs,
    );
    // The worker's heap is bounded by V8; the buffers pdf.js decodes streams into are not.
    this.watch = setInterval(() => {
      if (process.memoryUsage.rss() - baseline > this.limits.memoryMb * 1048576)
        this.retire(
          new PdfError(
            `Reading the PDF needed more than ${this.limits.memoryMb} MB of memory; it was stopped`,
            'limit',
          ),
        );
    }, 25);
    worker.postMessage(job.task, [job.task.data.buffer as ArrayBuffer]);
  }

  private spawn(): void {
    const entry = workerEntry(import.meta.url, 'pdf-worker');
    const worker = new Worker(entry.url, {
      workerData: { sourceEntry: entry.sourceEntry },
      resourceLimits: { maxOldGenerationSizeMb: this.limits.heapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    this.worker = worker;
    this.ready = false;
    // pdf.js's console warnings stay out of the server's log.
    worker.stdout.resume();
    worker.stderr.resume();
    worker.on('message', (message: PdfAnswer | { ready: true }) => {
      if (worker !== this.worker) return;
      if ('ready' in message) {
        this.ready = true;
        this.pump();
        return;
      }
      const job = this.current;
      if (!job || job.task.id !== message.id) return;
      this.finish();
      if ('result' in message) this.settle(job, undefined, message.result);
      else {
        this.settle(job, new PdfError(message.error.message, message.error.name));
        // A worker stopped at a limit may still be busy with that document: a new one goes on.
        if (message.error.name === 'limit') this.retire();
      }
      this.pump();
      this.idleLater();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (worker !== this.worker) return;
      this.retire(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new PdfError(`Reading the PDF needed more than ${this.limits.heapMb} MB of memory; it was stopped`, 'limit')
          : new PdfError(`The PDF could not be read: ${error.message}`, 'crash'),
      );
    });
    worker.on('exit', () => {
      if (worker === this.worker) this.retire(new PdfError('The PDF could not be read: its reader stopped', 'crash'));
    });
  }

  private idleLater(): void {
    if (this.current || this.queue.length || !this.worker) return;
    this.worker.unref();
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      if (!this.current && !this.queue.length) this.retire();
    }, this.limits.idleMs);
    this.idle.unref();
  }

  private finish(): void {
    clearTimeout(this.timer);
    clearInterval(this.watch);
    this.current = undefined;
  }

  /** Terminates the worker; the job it was doing fails with `why`; the queue goes on in a new one. */
  private retire(why?: PdfError): void {
    const worker = this.worker;
    const job = this.current;
    const started = this.ready;
    this.finish();
    this.worker = undefined;
    this.ready = false;
    if (worker) void worker.terminate();
    if (job) this.settle(job, why ?? new PdfError('The PDF reader stopped', 'stopped'));
    // A worker that never started fails what waits for it (no endless restarts).
    if (!started && worker)
      for (const queued of this.queue.splice(0))
        this.settle(queued, why ?? new PdfError('The PDF reader stopped', 'stopped'));
    if (this.queue.length) this.pump();
  }

  private abort(job: Job): void {
    const why = new PdfError('The run was stopped', 'aborted');
    if (this.current === job) this.retire(why);
    else {
      const at = this.queue.indexOf(job);
      if (at >= 0) this.queue.splice(at, 1);
      this.settle(job, why);
    }
  }

  private settle(job: Job, error?: Error, result?: PdfResult): void {
    if (job.signal && job.onAbort) job.signal.removeEventListener('abort', job.onAbort);
    if (error) job.reject(error);
    else job.resolve(result!);
  }
}

let shared: PdfReader | undefined;
/** The process's PDF reader (its worker starts on the first PDF). */
export function pdfReader(): PdfReader {
  return (shared ??= new PdfReader());
}
