// The deadline a sandbox worker is holding its current run to, shared with the main thread
// through memory rather than messages: the worker writes it whenever it changes (a run begins,
// a library load pauses the clock, the run ends), and the main thread reads it only when its
// watchdog fires (worker/pool.ts). Costs nothing per run beyond two writes.
//
// Layout: Int32 [0] the run's id (0 while being written), Float64 at byte 8 the deadline as
// epoch milliseconds (performance.timeOrigin + performance.now(), the same clock in every thread).

const BYTES = 16;

/**
 * After a run, the worker's own work (reading the run's logs, encoding its answer, disposing a
 * sandbox) is not held to the run's deadline; the watchdog allows it this long. Generous: it
 * only has to catch a worker that is stuck.
 */
export function afterRunMs(timeoutMs: number): number {
  return Math.max(5000, timeoutMs);
}

/** Run ids as stored: positive 31-bit numbers (0 means "being written"). */
function stored(id: number): number {
  return (id % 0x7ffffffe) + 1;
}

export class RunWatch {
  private readonly id: Int32Array;
  private readonly deadline: Float64Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(BYTES)) {
    this.id = new Int32Array(buffer, 0, 1);
    this.deadline = new Float64Array(buffer, 8, 1);
  }

  /** Worker: run `id` is held to `deadline` (epoch ms) from now on. */
  publish(id: number, deadline: number): void {
    Atomics.store(this.id, 0, 0);
    this.deadline[0] = deadline;
    Atomics.store(this.id, 0, stored(id));
  }

  /**
   * Main thread: the deadline of run `id` (epoch ms), 'other' when the worker has not begun that
   * run, or undefined when the worker is writing at this very moment (read again shortly).
   */
  deadlineOf(id: number): number | 'other' | undefined {
    const before = Atomics.load(this.id, 0);
    const deadline = this.deadline[0];
    if (before === 0 || Atomics.load(this.id, 0) !== before) return undefined;
    return before === stored(id) ? deadline : 'other';
  }
}
