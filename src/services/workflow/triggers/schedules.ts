// Schedule triggers under the injectable clock. croner computes the next fire time in the
// workflow's time zone; a timer (system clock) or the manual clock's advance (tests) fires
// what is due. A fire enqueues a durable execution in mode `trigger`.
import { Cron } from 'croner';
import type { Clock } from '../../../platform/clock.js';
import type { Logger } from '../../../platform/logger.js';

interface Entry {
  workflowId: string;
  node: string;
  cron: Cron;
  next: Date | null;
}

export type FireHandler = (workflowId: string, node: string, at: Date) => Promise<void>;

export class Schedules {
  private entries: Entry[] = [];
  private timer?: NodeJS.Timeout;
  private readonly unlisten: () => void;
  private ticking = false;

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly fire: FireHandler,
  ) {
    this.unlisten = clock.onAdvance(() => void this.tick());
  }

  /** Validates patterns without registering them; returns the first problem. */
  static check(pattern: string, timezone: string): string | undefined {
    try {
      new Cron(pattern, { timezone, paused: true });
      return undefined;
    } catch (err) {
      return `invalid schedule "${pattern}": ${(err as Error).message}`;
    }
  }

  set(workflowId: string, schedules: Array<{ node: string; pattern: string }>, timezone: string): void {
    this.remove(workflowId);
    const now = this.clock.now();
    for (const s of schedules) {
      const cron = new Cron(s.pattern, { timezone, paused: true });
      this.entries.push({ workflowId, node: s.node, cron, next: cron.nextRun(now) });
    }
    this.arm();
  }

  remove(workflowId: string): void {
    this.entries = this.entries.filter((e) => e.workflowId !== workflowId);
    this.arm();
  }

  stop(): void {
    this.unlisten();
    if (this.timer) clearTimeout(this.timer);
    this.entries = [];
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    const next = Math.min(...this.entries.map((e) => e.next?.getTime() ?? Infinity));
    if (!Number.isFinite(next)) return;
    const delay = Math.max(0, Math.min(next - this.clock.ms(), 60_000));
    this.timer = setTimeout(() => void this.tick(), delay);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const now = this.clock.now();
      for (const e of [...this.entries]) {
        // Fire each missed time once at most: a manual clock jumping a day fires once, not 1440 times.
        if (!e.next || e.next.getTime() > now.getTime()) continue;
        const at = e.next;
        e.next = e.cron.nextRun(now);
        await this.fire(e.workflowId, e.node, at).catch((err) => this.logger.error({ err, workflowId: e.workflowId }, 'schedule fire failed'));
      }
    } finally {
      this.ticking = false;
      this.arm();
    }
  }
}
