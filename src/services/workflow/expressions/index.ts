// The workflow service's expression and code sandbox (contract: ./api.ts).
//
// resolve() walks a parameter value; each `=…` string is a template (template.ts). When every
// `{{ }}` in it is a plain property path, it is answered here, in TypeScript, on the main
// thread (fast-path.ts); the templates that need more are sent together, as one run, to a
// sandbox worker thread (worker/pool.ts), where QuickJS evaluates them (worker/sandbox-runs.ts).
// Code and Function nodes run in the same workers (code-node.ts). Nothing a workflow author
// writes runs in the server's own V8 context, nor on its event loop.

import {
  ExpressionError,
  type CodeRun,
  type ExpressionData,
  type Expressions,
  type Item,
  type SandboxLimits,
} from './api.js';
import { runCode, type CodeMode } from './code-node.js';
import { evaluatePlainPath, NOT_PLAIN, parsePlainPath, type PlainPath } from './fast-path.js';
import { SandboxLimitError } from './errors.js';
import { segmentToText, TemplateCache, type Template } from './template.js';
import { SandboxWorkers } from './worker/pool.js';
import { fromWire } from './worker/protocol.js';
import { prefetch, runInfo } from './worker/task-data.js';

export { ExpressionError } from './api.js';
export type { Expressions, ExpressionData, Item, SandboxLimits } from './api.js';
export { SandboxLimitError } from './errors.js';

export interface ExpressionStats {
  /** Template evaluations answered without entering QuickJS. */
  fastPath: number;
  /** Template evaluations that ran in QuickJS. */
  sandbox: number;
  /** QuickJS contexts created so far (each loads the prelude; Luxon on first date use). */
  sandboxesCreated: number;
  /** Sandbox worker threads started so far, replacements of terminated ones included. */
  workersStarted: number;
  /** Runs handed to a worker and not yet answered (a run in here can only be stopped by ending its worker). */
  inWorkers: number;
}

export interface ExpressionOptions {
  /** Receives what Code nodes print with console.* (bounded per run). Dropped when absent. */
  onConsole?: (nodeName: string, line: string) => void;
  /** Evaluate plain property paths in TypeScript (default true; tests turn it off to compare). */
  fastPath?: boolean;
}

export interface HamletExpressions extends Expressions {
  stats(): ExpressionStats;
}

const MAX_PLAIN_PATHS = 5000;

/** A template that has to go to the sandbox; filled in when its run comes back. */
class Pending {
  value: unknown;
  constructor(readonly source: string) {}
}

export function createExpressions(limits: SandboxLimits, options: ExpressionOptions = {}): HamletExpressions {
  const templates = new TemplateCache();
  const plainPaths = new Map<string, PlainPath | null>();
  const workers = new SandboxWorkers(limits);
  const stats = { fastPath: 0, sandbox: 0 };
  let closed = false;

  function plainPathOf(text: string): PlainPath | null {
    let path = plainPaths.get(text);
    if (path === undefined) {
      path = parsePlainPath(text) ?? null;
      if (plainPaths.size >= MAX_PLAIN_PATHS) plainPaths.clear();
      plainPaths.set(text, path);
    }
    return path;
  }

  function tryFastPath(template: Template, data: ExpressionData): { value: unknown } | undefined {
    if (options.fastPath === false) return undefined;
    const values: unknown[] = [];
    for (const chunk of template.chunks) {
      if (chunk.kind === 'text') continue;
      const path = plainPathOf(chunk.code);
      if (!path) return undefined;
      const value = evaluatePlainPath(path, data);
      if (value === NOT_PLAIN) return undefined;
      values.push(value);
    }
    if (template.single) return { value: copy(values[0]) };
    let text = '';
    let next = 0;
    for (const chunk of template.chunks) text += chunk.kind === 'text' ? chunk.text : segmentToText(values[next++]);
    return { value: text };
  }

  /**
   * One resolve() call. Templates are answered in order: by the fast path at once, or as
   * Pending for the sandbox. A fast-path error stops the walk; it is thrown unless a template
   * before it fails in the sandbox first (so the first failing template is the one reported).
   */
  class Resolution {
    readonly pending: Pending[] = [];
    failure: { error: unknown } | undefined;
    constructor(readonly data: ExpressionData) {}

    walk(value: unknown): unknown {
      if (this.failure) return undefined;
      if (typeof value === 'string') return value.startsWith('=') ? this.template(value) : value;
      if (Array.isArray(value)) return value.map((entry) => this.walk(entry));
      if (value !== null && typeof value === 'object') {
        const out: Record<string, unknown> = {};
        for (const [key, entry] of Object.entries(value)) out[key] = this.walk(entry);
        return out;
      }
      return value;
    }

    private template(source: string): unknown {
      const template = templates.get(source.slice(1));
      if (!template.chunks.some((chunk) => chunk.kind === 'code')) {
        return template.chunks.map((chunk) => (chunk.kind === 'text' ? chunk.text : '')).join('');
      }
      try {
        const fast = tryFastPath(template, this.data);
        if (fast) {
          stats.fastPath++;
          return fast.value;
        }
      } catch (error) {
        this.failure = { error: error instanceof ExpressionError ? withExpression(error, source) : error };
        return undefined;
      }
      const pending = new Pending(source);
      this.pending.push(pending);
      return pending;
    }
  }

  async function resolveValue(value: unknown, data: ExpressionData, signal?: AbortSignal): Promise<unknown> {
    if (closed) throw new Error('expressions are closed');
    const resolution = new Resolution(data);
    const walked = resolution.walk(value);
    const { pending } = resolution;
    if (pending.length > 0) {
      stats.sandbox += pending.length;
      const sources = pending.map((p) => p.source);
      const result = await workers.run(
        { kind: 'templates', sources, info: runInfo(data), prefetched: prefetch(data, data.itemIndex) },
        data,
        signal,
      );
      if (!result.ok) {
        const error = fromWire(result.error);
        if (
          error instanceof ExpressionError &&
          !(error instanceof SandboxLimitError) &&
          result.failedAt !== undefined
        ) {
          throw withExpression(error, sources[result.failedAt]);
        }
        throw error;
      }
      result.values!.forEach((v, i) => (pending[i].value = v));
    }
    if (resolution.failure) throw resolution.failure.error;
    return pending.length > 0 ? fill(walked) : walked;
  }

  async function runCodeMode(
    codeText: string,
    mode: CodeMode,
    data: ExpressionData,
    signal?: AbortSignal,
  ): Promise<Item[]> {
    if (closed) throw new Error('expressions are closed');
    const onConsole = options.onConsole;
    const onLogs = onConsole && ((lines: string[]) => lines.forEach((line) => onConsole(data.nodeName, line)));
    return runCode(workers, codeText, mode, data, signal, onLogs);
  }

  return {
    isExpression(value: unknown): boolean {
      return typeof value === 'string' && value.startsWith('=');
    },

    resolve: resolveValue,

    runCode(run: CodeRun): Promise<Item[]> {
      return runCodeMode(run.code, run.mode, run.data, run.signal);
    },

    runFunction(run: { code: string; perItem: boolean; data: ExpressionData; signal?: AbortSignal }): Promise<Item[]> {
      return runCodeMode(run.code, run.perItem ? 'functionItem' : 'functionAllItems', run.data, run.signal);
    },

    close(): void {
      closed = true;
      workers.close();
    },

    stats(): ExpressionStats {
      return {
        ...stats,
        sandboxesCreated: workers.sandboxesCreated,
        workersStarted: workers.workersStarted,
        inWorkers: workers.busy,
      };
    },
  };
}

/** The walked value with each Pending replaced by its value. */
function fill(value: unknown): unknown {
  if (value instanceof Pending) return value.value;
  if (Array.isArray(value)) return value.map(fill);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) out[key] = fill(entry);
    return out;
  }
  return value;
}

function withExpression(error: ExpressionError, source: string): ExpressionError {
  if (error.expression !== undefined) return error;
  return new ExpressionError(error.message, source, error.description);
}

/** Values handed out are the caller's to change: never a reference into an item. */
function copy(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? structuredClone(value) : value;
}
