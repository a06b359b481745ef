// The trace's side of its writer (trace-store.ts): batches go to a worker thread that has a
// database connection of its own (SQLite in WAL mode lets the two connections read beside each
// other; PostgreSQL gets one more client), so making rows, masking credentials and inserting
// cost the event loop only the copy of each batch. Messages are served one after another in
// the order sent: a flush or a prune answered means every batch sent before it is stored.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Db, OpenDbOptions } from './db.js';
import type { TraceEntry } from './trace.js';
import { entryOfRow, type CapturedBatch } from './trace-rows.js';
import { TraceStore, type TraceStoreSettings } from './trace-store.js';
import { workerEntry } from './workers.js';

export type ToWriter =
  /** `buffer`: which of the writer's shared number buffers the batch's numbers are in (handed back with `written`). */
  | { t: 'batch'; batch: CapturedBatch; announce: boolean; buffer: number }
  | { t: 'secretPaths'; source: string | undefined }
  | { t: 'flush'; id: number }
  | { t: 'prune'; id: number; cutoff: string }
  | { t: 'close'; id: number };

export type FromWriter =
  /** A batch is stored (with its entries when they are to be announced), or could not be (error); its number buffer is free again. */
  | { t: 'written'; count: number; buffer: number; entries?: TraceEntry[]; error?: string }
  | { t: 'done'; id: number; result?: number; error?: string }
  | { t: 'warn'; message: string; error: string };

export interface TraceWorkerData {
  location: OpenDbOptions;
  settings: TraceStoreSettings;
  secretPaths?: string;
  sourceEntry?: string;
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The writer's loop: serves each message once the one before it is done. Used by the worker, and in process without one. */
export function serveTrace(
  store: TraceStore,
  closeDb: () => Promise<void>,
  reply: (m: FromWriter) => void,
): (m: ToWriter) => void {
  let chain = Promise.resolve();
  const serve = async (m: ToWriter): Promise<void> => {
    switch (m.t) {
      case 'batch':
        try {
          const rows = await store.write(m.batch, m.announce);
          // Followers hear what was stored.
          reply({
            t: 'written',
            count: m.batch.count,
            buffer: m.buffer,
            ...(m.announce ? { entries: rows.map(entryOfRow) } : {}),
          });
        } catch (err) {
          reply({ t: 'written', count: m.batch.count, buffer: m.buffer, error: errorText(err) });
        }
        return;
      case 'secretPaths':
        store.setSecretPaths(m.source);
        return;
      case 'flush':
        reply({ t: 'done', id: m.id });
        return;
      case 'prune':
        try {
          reply({ t: 'done', id: m.id, result: await store.prune(m.cutoff) });
        } catch (err) {
          reply({ t: 'done', id: m.id, error: errorText(err) });
        }
        return;
      case 'close':
        await closeDb().catch(() => {});
        reply({ t: 'done', id: m.id });
        return;
    }
  };
  return (m) => {
    chain = chain.then(() => serve(m));
  };
}

/** Where the writer's own connection goes: the same SQLite file, or the same PostgreSQL database; undefined when it cannot have one. */
function locationOf(db: Db): OpenDbOptions | undefined {
  if (db.url) return { dataDir: '', databaseUrl: db.url };
  if (db.file) return { dataDir: path.dirname(db.file), fileName: path.basename(db.file) };
  return undefined;
}

interface Pending {
  resolve(result: number): void;
}

/**
 * The Float64Arrays batches' numbers are captured into, on SharedArrayBuffers: sending a batch
 * to the writer's thread sends only a reference to its memory, and the writer hands the buffer
 * back once the batch is stored. Copying the numbers instead cost the event loop a
 * millisecond per batch, and a new buffer per batch counted towards V8's external memory,
 * which schedules collections; the pool grows only while the writer is behind.
 */
class NumberBuffers {
  private readonly all: Float64Array[] = [];
  private readonly free: number[] = [];

  constructor(private readonly length: number) {}

  /** A buffer nobody else uses, and its number. */
  take(): { buffer: number; numbers: Float64Array } {
    let buffer = this.free.pop();
    if (buffer === undefined) {
      buffer = this.all.length;
      this.all.push(new Float64Array(new SharedArrayBuffer(this.length * Float64Array.BYTES_PER_ELEMENT)));
    }
    return { buffer, numbers: this.all[buffer] };
  }

  give(buffer: number): void {
    if (buffer >= 0 && buffer < this.all.length && !this.free.includes(buffer)) this.free.push(buffer);
  }

  /** Every buffer is free again (the writer is gone, and with it whatever it held). */
  reset(inUse: number): void {
    this.free.length = 0;
    for (let b = 0; b < this.all.length; b++) if (b !== inUse) this.free.push(b);
  }
}

/**
 * The trace's writer as seen from the event loop. Batches are sent and forgotten; `flush` and
 * `prune` resolve once the writer has done everything sent before them. A worker that dies
 * loses what it had not stored (logged); the next batch starts another.
 */
export class TraceWriter {
  private worker?: Worker;
  private inProcess?: (m: ToWriter) => void;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Entries sent and not yet stored (or lost). */
  unwritten = 0;
  private secretPaths: string | undefined;
  private readonly location: OpenDbOptions | undefined;
  private readonly buffers: NumberBuffers;
  /** The buffer the trace captures into now (numbers()). */
  private current: { buffer: number; numbers: Float64Array };

  constructor(
    private readonly db: Db,
    /** How many numbers a batch holds at most. */
    numbersPerBatch: number,
    private readonly settings: TraceStoreSettings,
    private readonly on: {
      written(entries: TraceEntry[] | undefined, count: number): void;
      lost(count: number, error: string): void;
      warn(message: string, error: string): void;
    },
  ) {
    this.location = locationOf(db);
    this.buffers = new NumberBuffers(numbersPerBatch);
    this.current = this.buffers.take();
  }

  /** Where the next batch's numbers are captured; after write() it is another buffer. */
  get numbers(): Float64Array {
    return this.current.numbers;
  }

  /** Starts the writer now rather than with the first batch, and resolves once it is ready (so its start costs no request). */
  async open(): Promise<void> {
    if (this.location) this.worker ??= this.start(this.location);
    await this.flush();
  }

  /**
   * Hands over a batch whose numbers are in `numbers` (which then is another buffer); answers
   * whether its values were copied (to the writer's thread), so the caller may write over them,
   * or handed on as they are (in process), so it may not.
   */
  write(batch: Omit<CapturedBatch, 'numbers'>, announce: boolean): boolean {
    this.unwritten += batch.count;
    const { buffer, numbers } = this.current;
    this.current = this.buffers.take();
    const message: ToWriter = { t: 'batch', batch: { ...batch, numbers }, announce, buffer };
    try {
      this.send(message);
    } catch (err) {
      if ((err as Error).name !== 'DataCloneError') throw err;
      // A body or a detail held something that cannot be copied to the thread (a function, a
      // class with private state): it goes as its JSON instead.
      this.send({ ...message, batch: { ...message.batch, values: batch.values?.map(asPlainData) } });
    }
    return this.worker !== undefined;
  }

  setSecretPaths(source: string | undefined): void {
    this.secretPaths = source;
    if (this.worker || this.inProcess) this.send({ t: 'secretPaths', source });
  }

  /** Resolves once every batch sent before is stored (or lost). */
  async flush(): Promise<void> {
    if (!this.worker && !this.inProcess) return;
    await this.ask((id) => ({ t: 'flush', id }));
  }

  /** Deletes entries before `cutoff` after every batch sent before; resolves to how many. */
  prune(cutoff: string): Promise<number> {
    return this.ask((id) => ({ t: 'prune', id, cutoff }));
  }

  /** Stores what was sent, then closes the writer's connection and thread. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker && !this.inProcess) return;
    await this.ask((id) => ({ t: 'close', id }));
    this.worker = undefined;
    this.inProcess = undefined;
    await worker?.terminate();
  }

  private ask(message: (id: number) => ToWriter): Promise<number> {
    const id = this.nextId++;
    const answer = new Promise<number>((resolve) => this.pending.set(id, { resolve }));
    this.send(message(id));
    this.worker?.ref();
    return answer;
  }

  /** To the writer, in order (to its thread, a copy). */
  private send(message: ToWriter): void {
    if (this.inProcess) return this.inProcess(message);
    if (!this.location) {
      const store = new TraceStore(this.db, this.settings, (msg, err) => this.on.warn(msg, errorText(err)));
      store.setSecretPaths(this.secretPaths);
      // The trace's database belongs to the caller: closing the writer leaves it open.
      this.inProcess = serveTrace(
        store,
        async () => {},
        (m) => queueMicrotask(() => this.received(m)),
      );
      return this.inProcess(message);
    }
    (this.worker ??= this.start(this.location)).postMessage(message);
  }

  private received(m: FromWriter): void {
    if (m.t === 'written') {
      this.unwritten -= m.count;
      this.buffers.give(m.buffer);
      if (m.error) this.on.lost(m.count, m.error);
      else this.on.written(m.entries, m.count);
    } else if (m.t === 'done') {
      const job = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) this.on.warn('trace: deleting old entries failed', m.error);
      job?.resolve(m.result ?? 0);
      if (!this.pending.size) this.worker?.unref();
    } else {
      this.on.warn(m.message, m.error);
    }
  }

  private start(location: OpenDbOptions): Worker {
    const entry = workerEntry(import.meta.url, 'trace-worker');
    const data: TraceWorkerData = {
      location,
      settings: this.settings,
      secretPaths: this.secretPaths,
      sourceEntry: entry.sourceEntry,
    };
    const worker = new Worker(entry.url, { workerData: data });
    // Idle, it must not keep the process alive; while a flush waits on it, it does (ask()).
    worker.unref();
    worker.on('message', (m: FromWriter) => this.received(m));
    const stopped = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (this.unwritten) this.on.lost(this.unwritten, why);
      this.unwritten = 0;
      this.buffers.reset(this.current.buffer);
      for (const job of this.pending.values()) job.resolve(0);
      this.pending.clear();
    };
    worker.on('error', (err) => stopped(errorText(err)));
    worker.on('exit', (code) => stopped(`the trace's writer thread stopped (exit code ${code})`));
    return worker;
  }
}

/** A value as its JSON would bring it back: what a thread can always be sent. */
function asPlainData(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return '[not serialisable]';
  }
}
