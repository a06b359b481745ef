// Messages between the main thread (worker/pool.ts) and a sandbox worker (worker/sandbox-worker.ts).
// Everything crossing is plain data (structured clone): no function, no host object.

import type { MessagePort } from 'node:worker_threads';
import { ExpressionError, type SandboxLimits } from '../api.js';
import { SandboxLimitError, type LimitKind } from '../errors.js';
import type { HostArgs } from '../sandbox/host-ops.js';

export type CodeMode = 'runOnceForAllItems' | 'runOnceForEachItem' | 'functionAllItems' | 'functionItem';

/** What a run needs to know besides its data. */
export interface RunInfo {
  itemIndex: number;
  runIndex: number;
  nowMs: number;
  /** Checked already (host-data.ts timezoneOf). */
  timezone: string;
}

/**
 * Answers to data operations computed before the task was sent (the input items a run almost
 * always reads, the workflow/execution context), saving a round trip each. They are exactly
 * what the data operation would answer (both come from answerDataOperation).
 */
export interface Prefetched {
  inputCount: string;
  /** [index, answer] of the items sent along. */
  inputItems: Array<[number, string | undefined]>;
  context: string;
}

export type TaskBody =
  | { kind: 'templates'; sources: string[]; info: RunInfo; prefetched: Prefetched }
  | { kind: 'code'; code: string; mode: CodeMode; info: RunInfo; prefetched: Prefetched };

export type Task = TaskBody & {
  id: number;
  /**
   * When the run must have ended, epoch ms (performance.timeOrigin + performance.now()): the
   * time limit counts from the call, so time spent waiting for a worker is part of it.
   */
  deadline: number;
};

export interface WorkerSetup {
  limits: SandboxLimits;
  /** Int32Array over this: [0] is 1 when an answer to a host call is waiting on the host port. */
  signal: SharedArrayBuffer;
  /** Where the worker publishes its run's deadline (worker/run-watch.ts). */
  watch: SharedArrayBuffer;
  hostPort: MessagePort;
  /** Source mode: the TypeScript worker that tsx-entry.mjs loads, and what it loads first. */
  sourceEntry?: string;
  sourcePreload?: string[];
}

export type WireError =
  | { type: 'expression'; message: string; description?: string; expression?: string }
  | { type: 'limit'; kind: LimitKind; message: string; description?: string }
  | { type: 'internal'; message: string };

export type TaskResult = {
  id: number;
  /** Sandboxes this worker has created so far (statistics). */
  created: number;
  logs?: string[];
} & (
  | { ok: true; values?: unknown[]; code?: { value: unknown; staticData?: unknown; customData?: unknown } }
  | { ok: false; error: WireError; /** For templates: which one failed. */ failedAt?: number }
);

/** Worker → main: the worker is up (its QuickJS instances are ready). */
export interface Ready {
  ready: true;
}

/** Worker → main on the host port, and the answer back. */
export interface HostRequest {
  id: number;
  op: string;
  args: HostArgs;
}
export interface HostAnswer {
  id: number;
  answer: string | undefined;
}

export function toWire(error: unknown): WireError {
  if (error instanceof SandboxLimitError)
    return { type: 'limit', kind: error.kind, message: error.message, description: error.description };
  if (error instanceof ExpressionError)
    return { type: 'expression', message: error.message, description: error.description, expression: error.expression };
  return { type: 'internal', message: error instanceof Error ? error.message : String(error) };
}

export function fromWire(error: WireError): Error {
  switch (error.type) {
    case 'limit':
      return new SandboxLimitError(error.kind, error.message, error.description);
    case 'expression':
      return new ExpressionError(error.message, error.expression, error.description);
    case 'internal':
      return new Error(error.message);
  }
}
