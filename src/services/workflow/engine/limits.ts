// What bounds one execution, so that a loop in the graph or a runaway node costs a bounded
// slice of time and memory and never the server:
// - time: settings.executionTimeout (seconds, n8n's semantics), a server default and a cap;
//   when it passes, the execution's AbortSignal fires and the run ends `canceled`;
// - stored run data: counted as node outputs are recorded; past the cap the run ends `error`;
// - the event loop: the engine yields between node runs once it has held the loop for a
//   short slice, so other requests (and other services) keep being served.

/** Why an execution was cancelled; n8n's wording for each (n8n-workflow's ExecutionCancelledError family). */
export type CancellationReason = 'manual' | 'timeout' | 'shutdown';

const CANCEL_MESSAGES: Record<CancellationReason, { name: string; message: string }> = {
  manual: { name: 'ManualExecutionCancelledError', message: 'The execution was cancelled manually' },
  timeout: { name: 'TimeoutExecutionCancelledError', message: 'The execution was cancelled because it timed out' },
  shutdown: {
    name: 'SystemShutdownExecutionCancelledError',
    message: 'The execution was cancelled because the system is shutting down',
  },
};

/** The reason an execution's AbortSignal carries; the engine records it as the execution's error. */
export class ExecutionCancelledError extends Error {
  constructor(
    readonly reason: CancellationReason,
    /** Which limit ended the run, for the execution's error record. */
    readonly description?: string,
  ) {
    super(CANCEL_MESSAGES[reason].message);
    this.name = CANCEL_MESSAGES[reason].name;
  }
}

/** The execution's stored data outgrew WORKFLOW_MAX_RUN_DATA_MB. */
export class RunDataLimitError extends Error {
  constructor(limitBytes: number) {
    super(
      `The execution was stopped because its data grew beyond ${Math.round(limitBytes / (1024 * 1024))} MB (WORKFLOW_MAX_RUN_DATA_MB)`,
    );
    this.name = 'RunDataLimitError';
  }
}

export interface ExecutionLimitSettings {
  /** Server default in seconds when a workflow sets none; -1 (or 0) means no limit. */
  timeoutS: number;
  /** The largest timeout a workflow may set, seconds. */
  maxTimeoutS: number;
  /** Cap on the run data one execution records, bytes. */
  maxRunDataBytes: number;
}

/**
 * The timeout that applies to a workflow, in seconds (undefined: none), as n8n decides it: a
 * positive `settings.executionTimeout` wins, capped by the maximum; otherwise the server default.
 */
export function effectiveTimeoutS(setting: unknown, limits: ExecutionLimitSettings): number | undefined {
  const own = Number(setting);
  if (Number.isFinite(own) && own > 0) return Math.min(own, limits.maxTimeoutS);
  return limits.timeoutS > 0 ? Math.min(limits.timeoutS, limits.maxTimeoutS) : undefined;
}

/**
 * What one node run is charged besides its items. Its stored record is ~200 bytes, but in
 * memory it is a handful of objects (task, source, outputs, a stack entry on the way), about
 * a kilobyte; charging that makes a loop of tiny items hit the cap after ~1000 runs per MB
 * instead of growing the heap with millions of small objects.
 */
const TASK_OVERHEAD_BYTES = 1024;
/** Serialized size per item object, remembered: items passed along unchanged (a loop of No-ops) are serialized once. */
const itemSizes = new WeakMap<object, number>();

function itemSize(item: unknown): number {
  if (item === null || typeof item !== 'object') return 8;
  let size = itemSizes.get(item);
  if (size === undefined) {
    try {
      size = JSON.stringify(item)?.length ?? 0;
    } catch {
      size = 0; // not serializable: it will not be stored as such either
    }
    itemSizes.set(item, size);
  }
  return size;
}

/** Counts the run data of one execution as node outputs are recorded. */
export class RunDataMeter {
  private used = 0;

  constructor(private readonly maxBytes: number) {}

  /** Adds one node run's outputs; true when the execution is now over its cap. */
  add(outputs: ReadonlyArray<ReadonlyArray<unknown> | null> | undefined): boolean {
    let bytes = TASK_OVERHEAD_BYTES;
    if (outputs) {
      for (const output of outputs) {
        if (!output) continue;
        for (let i = 0; i < output.length; i++) bytes += itemSize(output[i]);
      }
    }
    this.used += bytes;
    return this.used > this.maxBytes;
  }

  get bytes(): number {
    return this.used;
  }
}

/** Runs of each node an execution ended by a limit keeps (see keepLastRuns). */
const RUNS_KEPT_AFTER_LIMIT = 100;

/**
 * Keeps only the last `keep` runs of each node. For an execution a limit ended (a runaway
 * loop, typically thousands of runs of the same nodes), the last runs show what it was doing
 * and are what a retry continues from; storing all of them would stall the server while the
 * record is written, exactly when it is already under attack.
 */
export function keepLastRuns(runData: Record<string, unknown[]>, keep = RUNS_KEPT_AFTER_LIMIT): void {
  for (const tasks of Object.values(runData)) if (tasks.length > keep) tasks.splice(0, tasks.length - keep);
}

/** How long the engine may hold the event loop before it lets other work run. */
const SLICE_MS = 1;

// One budget for all executions of the process, not one per execution: however many runs
// loop at once, the engine holds the event loop for about one slice per turn. At each turn
// every waiting run resumes, in the order they yielded, and runs at least one node before
// it checks the budget again, so none starves, and many short runs (webhook traffic) are not
// held to one step per turn.
let sliceStart = 0;
let lastCheck = 0;
let waiting: Array<() => void> = [];
let turnQueued = false;

function nextTurn(): void {
  turnQueued = false;
  sliceStart = performance.now();
  const resume = waiting;
  waiting = [];
  for (const go of resume) go();
}

function queueTurn(): void {
  if (turnQueued) return;
  turnQueued = true;
  setImmediate(nextTurn); // after pending I/O, without a timer
}

/**
 * Undefined while the engine's slice lasts; otherwise a promise that resolves at the caller's
 * next turn. Cheap when called often: a clock comparison, and a yield once per slice.
 */
export function maybeYield(now: number): Promise<void> | undefined {
  // Nobody checked for a while and nobody waits: the loop was free, a new slice starts.
  if (now - lastCheck > SLICE_MS && !waiting.length) sliceStart = now;
  lastCheck = now;
  if (now - sliceStart < SLICE_MS) return undefined;
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    queueTurn();
  });
}
