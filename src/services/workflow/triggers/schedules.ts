// Schedule triggers on the platform clock's timer queue. croner computes the next fire time in
// the workflow's time zone; the queue fires it when the clock gets there (a real timer under a
// running clock, a jump or an advance of a controllable one). A fire enqueues a durable
// execution in mode `trigger`.
//
// The next time is counted from the clock's time at the fire: a jump of a day fires a missed
// schedule once (as n8n after downtime), while the clock's `advance`, which stops at every due
// time, fires an hourly schedule 24 times, each with its own timestamp.
import { Cron } from 'croner';
import type { Clock } from '../../../platform/clock.js';
import type { Logger } from '../../../platform/logger.js';
import { timersFor, type Timers } from '../../../platform/timers.js';

interface Entry {
  workflowId: string;
  node: string;
  cron: Cron;
  cancel: () => void;
}

export type FireHandler = (workflowId: string, node: string, at: Date) => Promise<void>;

export class Schedules {
  private entries: Entry[] = [];
  private readonly timers: Timers;
  private readonly stopRewinds: () => void;

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly fire: FireHandler,
  ) {
    this.timers = timersFor(clock);
    // Set back (a restored world): the next fire is counted again from the new time.
    this.stopRewinds = this.timers.onRewind(() => {
      for (const e of this.entries) {
        e.cancel();
        this.arm(e);
      }
    });
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
    for (const s of schedules) {
      const entry: Entry = {
        workflowId,
        node: s.node,
        cron: new Cron(s.pattern, { timezone, paused: true }),
        cancel: () => {},
      };
      this.entries.push(entry);
      this.arm(entry);
    }
  }

  remove(workflowId: string): void {
    for (const e of this.entries) if (e.workflowId === workflowId) e.cancel();
    this.entries = this.entries.filter((e) => e.workflowId !== workflowId);
  }

  stop(): void {
    this.stopRewinds();
    for (const e of this.entries) e.cancel();
    this.entries = [];
  }

  private arm(entry: Entry): void {
    const at = entry.cron.nextRun(this.clock.now());
    if (!at) return;
    entry.cancel = this.timers.at(at.getTime(), async () => {
      this.arm(entry);
      await this.fire(entry.workflowId, entry.node, at).catch((err) =>
        this.logger.error({ err, workflowId: entry.workflowId }, 'schedule fire failed'),
      );
    });
  }
}
