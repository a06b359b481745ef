// Renders posts on worker threads (render-worker.ts) so the event loop keeps answering while
// markdown is turned into sanitized HTML — measured as the largest share (about 30 %) of a
// publish's time on the main thread. Tasks go to the least busy worker. A worker that fails or
// exits takes no post down with it: its tasks are rendered inline, and a new worker is started
// for later tasks. With `threads: 0` everything renders inline.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../../platform/logger.js';
import { workerEntry } from '../../../platform/workers.js';
import { derivePost, type DerivedPost } from './derive.js';
import type { RenderAnswer, RenderTask } from './render-worker.js';

interface Pending {
  task: RenderTask;
  resolve(result: DerivedPost): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Tasks not posted yet: sent together at the end of this turn of the event loop. */
  outbox: RenderTask[];
}

export class PostRenderer {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private stopped = false;

  constructor(
    private readonly threads: number,
    private readonly logger: Logger,
  ) {}

  render(content: string, title: string): Promise<DerivedPost> {
    if (this.threads <= 0 || this.stopped) return Promise.resolve(derivePost(content, title));
    while (this.slots.length < this.threads) this.slots.push(this.spawn());
    const slot = this.slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const task: RenderTask = { id: this.nextId++, content, title };
    return new Promise((resolve, reject) => {
      slot.pending.set(task.id, { task, resolve, reject });
      if (slot.outbox.push(task) === 1) setImmediate(() => this.post(slot));
    });
  }

  private post(slot: Slot): void {
    const tasks = slot.outbox.splice(0);
    // A slot retired meanwhile has handed its tasks to inline rendering already.
    if (tasks.length && this.slots.includes(slot)) slot.worker.postMessage(tasks);
  }

  private spawn(): Slot {
    const entry = workerEntry(import.meta.url, 'render-worker');
    const worker = new Worker(entry.url, { workerData: { sourceEntry: entry.sourceEntry } });
    // An idle render worker must not keep the process alive.
    worker.unref();
    const slot: Slot = { worker, pending: new Map(), outbox: [] };
    worker.on('message', (answers: RenderAnswer[]) => {
      for (const answer of answers) {
        const job = slot.pending.get(answer.id);
        if (!job) continue;
        slot.pending.delete(answer.id);
        // A render error inline throws to the caller as it always did (no worker-only failure mode).
        if ('error' in answer) this.renderInline(job);
        else job.resolve({ html: answer.html, summary: answer.summary });
      }
    });
    const retire = (why: unknown) => {
      const at = this.slots.indexOf(slot);
      if (at >= 0) this.slots.splice(at, 1);
      if (!this.stopped) this.logger.warn({ err: why }, 'blog render worker stopped; its posts render inline');
      for (const job of slot.pending.values()) this.renderInline(job);
      slot.pending.clear();
      slot.outbox.length = 0;
    };
    worker.on('error', retire);
    worker.on('exit', (code) => retire(new Error(`exit ${code}`)));
    return slot;
  }

  private renderInline(job: Pending): void {
    try {
      job.resolve(derivePost(job.task.content, job.task.title));
    } catch (err) {
      job.reject(err);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}
