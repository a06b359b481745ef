// The workflow service's expression and code sandbox (contract: ./api.ts).
//
// resolve() walks a parameter value; each `=…` string is a template (template.ts). When every
// `{{ }}` in it is a plain property path, it is answered in TypeScript (fast-path.ts);
// otherwise the whole template is compiled once per pooled QuickJS context into one function
// and evaluated there (sandbox-pool.ts). Code and Function nodes run in the same pool
// (code-node.ts). Nothing a workflow author writes runs in the server's own V8 context.

import { ExpressionError, type CodeRun, type ExpressionData, type Expressions, type Item, type SandboxLimits } from './api.js';
import { CodeRunner } from './code-node.js';
import { v8Message } from './errors.js';
import { evaluatePlainPath, NOT_PLAIN, parsePlainPath, type PlainPath } from './fast-path.js';
import { timezoneOf } from './host-data.js';
import { decode, GuestThrow, SandboxLimitError, type Sandbox, SandboxPool } from './sandbox-pool.js';
import { segmentToText, TemplateCache, type Template } from './template.js';

export { ExpressionError } from './api.js';
export type { Expressions, ExpressionData, Item, SandboxLimits } from './api.js';
export { SandboxLimitError } from './sandbox-pool.js';

export interface ExpressionStats {
  /** Template evaluations answered without entering QuickJS. */
  fastPath: number;
  /** Template evaluations that ran in QuickJS. */
  sandbox: number;
  /** QuickJS contexts created so far (each loads the prelude; Luxon on first date use). */
  sandboxesCreated: number;
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

export function createExpressions(limits: SandboxLimits, options: ExpressionOptions = {}): HamletExpressions {
  const templates = new TemplateCache();
  const plainPaths = new Map<string, PlainPath | null>();
  // $evaluateExpression re-enters resolve() from inside a run, in a second sandbox; one level
  // only, since every level holds a sandbox (and its WebAssembly instance) while it waits.
  let nesting = 0;
  const evaluateNested = (expression: string, data: ExpressionData): unknown => {
    if (nesting >= 1) throw new ExpressionError('$evaluateExpression is nested too deeply');
    nesting++;
    try {
      return resolveValue(expression, data);
    } finally {
      nesting--;
    }
  };
  const pool = new SandboxPool(limits, evaluateNested);
  const code = new CodeRunner(pool);
  const stats = { fastPath: 0, sandbox: 0 };
  let generation = 0;
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

  /** One resolve() call: a generation for the sandbox's memo, and a sandbox taken on first need. */
  class Session {
    readonly gen = ++generation;
    sandbox: Sandbox | undefined;
    constructor(readonly data: ExpressionData) {}
    get(): Sandbox {
      if (!this.sandbox) {
        const data = this.data;
        this.sandbox = pool.acquire();
        this.sandbox.begin(data);
        this.sandbox.callApi('begin', this.gen, data.itemIndex, data.runIndex, data.now.getTime(), timezoneOf(data), 'expression').dispose();
      }
      return this.sandbox;
    }
    close(): void {
      if (this.sandbox) pool.release(this.sandbox);
    }
  }

  function tryFastPath(template: Template, data: ExpressionData): { value: unknown } | undefined {
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

  function templateSource(template: Template): string {
    const parts = template.chunks.map((chunk) => {
      if (chunk.kind === 'text') return JSON.stringify(chunk.text);
      // An empty `{{ }}` has no value, as in n8n.
      if (chunk.code.trim() === '') return template.single ? 'undefined' : '{ v: undefined }';
      const call = `seg(() => (\n${chunk.code}\n))`;
      return template.single ? call : `{ v: ${call} }`;
    });
    return `(function (seg) { return [${parts.join(', ')}]; })`;
  }

  function inSandbox(template: Template, session: Session): unknown {
    const sandbox = session.get();
    stats.sandbox++;
    const fn = sandbox.compile(`tpl:${template.source}`, templateSource(template), 'expression');
    let encoded: string;
    try {
      encoded = sandbox.callApiString('template', fn, template.single);
      if (encoded.startsWith('~')) {
        sandbox.broken = true;
        encoded = encoded.slice(1);
      }
    } catch (error) {
      if (error instanceof GuestThrow) {
        throw new ExpressionError(v8Message(error.guest.message), undefined, error.guest.description);
      }
      throw error;
    } finally {
      // An expression may queue promise jobs; they run now, not during someone else's run.
      if (sandbox.runtime.hasPendingJob()) {
        sandbox.drainJobs();
        if (!sandbox.cleanGlobals()) sandbox.broken = true;
      }
    }
    const decoded = decode(encoded);
    if (decoded.kind === 'function') {
      if (decoded.name === '$') throw new ExpressionError('invalid syntax');
      if (decoded.name === 'DateTime') throw new ExpressionError('this is a DateTime, please access its methods');
      throw new ExpressionError('this is a function, please add ()');
    }
    return decoded.value;
  }

  function evaluate(source: string, session: Session): unknown {
    const template = templates.get(source.slice(1));
    if (!template.chunks.some((chunk) => chunk.kind === 'code')) {
      return template.chunks.map((chunk) => (chunk.kind === 'text' ? chunk.text : '')).join('');
    }
    try {
      const fast = options.fastPath === false ? undefined : tryFastPath(template, session.data);
      if (fast) {
        stats.fastPath++;
        return fast.value;
      }
      return inSandbox(template, session);
    } catch (error) {
      if (error instanceof SandboxLimitError) throw error;
      if (error instanceof ExpressionError) throw withExpression(error, source);
      throw error;
    }
  }

  function resolveDeep(value: unknown, session: Session): unknown {
    if (typeof value === 'string') return value.startsWith('=') ? evaluate(value, session) : value;
    if (Array.isArray(value)) return value.map((entry) => resolveDeep(entry, session));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, entry] of Object.entries(value)) out[key] = resolveDeep(entry, session);
      return out;
    }
    return value;
  }

  function resolveValue(value: unknown, data: ExpressionData): unknown {
    if (closed) throw new Error('expressions are closed');
    const session = new Session(data);
    try {
      return resolveDeep(value, session);
    } finally {
      session.close();
    }
  }

  async function runCodeMode(codeText: string, mode: Parameters<CodeRunner['run']>[1], data: ExpressionData): Promise<Item[]> {
    if (closed) throw new Error('expressions are closed');
    const onConsole = options.onConsole;
    const onLogs = onConsole && ((lines: string[]) => lines.forEach((line) => onConsole(data.nodeName, line)));
    return code.run(codeText, mode, data, onLogs);
  }

  return {
    isExpression(value: unknown): boolean {
      return typeof value === 'string' && value.startsWith('=');
    },

    // Synchronous today; the contract is asynchronous so evaluation can move off the event loop.
    resolve: async (value: unknown, data: ExpressionData): Promise<unknown> => resolveValue(value, data),

    runCode(run: CodeRun): Promise<Item[]> {
      return runCodeMode(run.code, run.mode, run.data);
    },

    runFunction(run: { code: string; perItem: boolean; data: ExpressionData }): Promise<Item[]> {
      return runCodeMode(run.code, run.perItem ? 'functionItem' : 'functionAllItems', run.data);
    },

    close(): void {
      closed = true;
      pool.close();
    },

    stats(): ExpressionStats {
      return { ...stats, sandboxesCreated: pool.created };
    },
  };
}

function withExpression(error: ExpressionError, source: string): ExpressionError {
  if (error.expression !== undefined) return error;
  return new ExpressionError(error.message, source, error.description);
}

/** Values handed out are the caller's to change: never a reference into an item. */
function copy(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? structuredClone(value) : value;
}
