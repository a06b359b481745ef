// What a worker does with its sandboxes: evaluates the templates of one resolve() call, runs
// one Code/Function node, and serves $evaluateExpression from inside either. Runs synchronously
// (the worker's thread is the sandbox's); the run's data is reached through `DataChannel`.
//
// Every run gets its own RunHost (sandbox/host-ops.ts), created here and handed to the
// sandbox for exactly that run: the sandbox's memo of data it read belongs to the run and is
// created afresh by the run's begin, so no two runs can share it, however calls interleave.

import { ExpressionError } from '../api.js';
import { codeError, v8Message } from '../errors.js';
import { CompileError, decode, GuestThrow, type Sandbox, type SandboxPool } from '../sandbox-pool.js';
import type { HostArgs, RunHost } from '../sandbox/host-ops.js';
import { TemplateCache, type Template } from '../template.js';
import type { CodeMode, RunInfo } from './protocol.js';

/** Answers a data operation from the run's data (in the main thread). */
export type DataChannel = (op: string, args: HostArgs) => string | undefined;

/** A template that failed: which one (its position in the call) and why. */
export class TemplateFailure extends Error {
  constructor(
    readonly index: number,
    readonly error: unknown,
  ) {
    super(error instanceof Error ? error.message : String(error));
  }
}

export interface CodeOutcome {
  /** What the code returned, decoded from the sandbox (the caller applies n8n's rules to it). */
  value: unknown;
  /** Static data the code read (and may have changed), to be written back. */
  staticData?: { global?: Record<string, unknown>; node?: Record<string, unknown> };
  /** $execution.customData after the run, when the code changed it. */
  customData?: Record<string, string>;
}

const CODE_FILENAME = 'Code';

export class SandboxRuns {
  private readonly templates = new TemplateCache();
  /** $evaluateExpression re-enters from inside a run, in a second sandbox: one level only. */
  private nesting = 0;

  constructor(
    private readonly pool: SandboxPool,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Evaluates templates (each a `=…` string with code) in order, in one run; stops at the first
   * failure. `deadline` (performance.now() of this thread) ends the run; by default the time limit from now.
   */
  evaluateTemplates(sources: string[], info: RunInfo, data: DataChannel, deadline?: number): unknown[] {
    const sandbox = this.pool.acquire();
    try {
      this.begin(sandbox, info, data, 'expression', deadline);
      return sources.map((source, index) => {
        try {
          return this.evaluateTemplate(sandbox, this.templates.get(source.slice(1)));
        } catch (error) {
          throw new TemplateFailure(index, error);
        }
      });
    } finally {
      this.pool.release(sandbox);
    }
  }

  /** Runs a Code/Function node's code; `onLogs` receives its console output, also when it fails. */
  runCode(
    code: string,
    mode: CodeMode,
    info: RunInfo,
    data: DataChannel,
    onLogs: (lines: string[]) => void,
    deadline?: number,
  ): CodeOutcome {
    const sandbox = this.pool.acquire();
    try {
      this.begin(sandbox, info, data, 'code', deadline);
      let fn;
      try {
        fn = sandbox.compile(`code:${code}`, `(async function () {${code}\n})`, CODE_FILENAME);
      } catch (error) {
        // A syntax error reads like any other: the message and the line.
        if (error instanceof CompileError) throw codeError(error.guest, CODE_FILENAME);
        throw error;
      }
      sandbox
        .callApi('setItems', mode === 'functionItem' ? 'item' : mode === 'runOnceForEachItem' ? 'eachItem' : 'all')
        .dispose();
      const value = invoke(sandbox, fn);
      const staticData = decode(sandbox.callApiString('staticData'));
      const customData = decode(sandbox.callApiString('customData'));
      return {
        value,
        staticData: staticData.kind === 'value' ? (staticData.value as CodeOutcome['staticData']) : undefined,
        customData: customData.kind === 'value' ? (customData.value as CodeOutcome['customData']) : undefined,
      };
    } catch (error) {
      // An error of ours (not the user's) may have left the context half-way: retire it.
      sandbox.broken = sandbox.broken || !(error instanceof ExpressionError);
      throw error;
    } finally {
      if (!sandbox.corrupt) {
        try {
          // Our own bounded read, so it may run past the deadline of a run that timed out.
          onLogs(JSON.parse(sandbox.trusted(() => sandbox.callApiString('logs'))) as string[]);
        } catch {
          // Output lost with a broken context is not worth failing the run over.
        }
      }
      try {
        // Jobs the code left queued run now (within the deadline), before globals are swept,
        // so nothing of this run executes during the next one.
        sandbox.drainJobs();
        if (!sandbox.cleanGlobals()) sandbox.broken = true;
      } catch {
        sandbox.broken = true;
      }
      this.pool.release(sandbox);
    }
  }

  /**
   * Starts a run in `sandbox`: its own RunHost, its own fresh state in the prelude. A nested
   * evaluation is held to the same deadline as the run it is part of.
   */
  private begin(
    sandbox: Sandbox,
    info: RunInfo,
    data: DataChannel,
    mode: 'expression' | 'code',
    deadline?: number,
  ): void {
    const held = deadline ?? performance.now() + this.timeoutMs;
    const run: RunHost = {
      data,
      timezone: info.timezone,
      evaluate: (expression, itemIndex) => this.evaluateNested(expression, { ...info, itemIndex }, data, held),
    };
    sandbox.begin(run, held);
    sandbox.callApi('begin', info.itemIndex, info.runIndex, info.nowMs, info.timezone, mode).dispose();
  }

  private evaluateNested(expression: string, info: RunInfo, data: DataChannel, deadline: number): unknown {
    if (this.nesting >= 1) throw new ExpressionError('$evaluateExpression is nested too deeply');
    const template = this.templates.get(expression.slice(1));
    if (!template.chunks.some((chunk) => chunk.kind === 'code')) {
      return template.chunks.map((chunk) => (chunk.kind === 'text' ? chunk.text : '')).join('');
    }
    this.nesting++;
    const sandbox = this.pool.acquire();
    try {
      this.begin(sandbox, info, data, 'expression', deadline);
      return this.evaluateTemplate(sandbox, template);
    } finally {
      this.pool.release(sandbox);
      this.nesting--;
    }
  }

  private evaluateTemplate(sandbox: Sandbox, template: Template): unknown {
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
}

/** The whole template as one function of `seg` (the prelude's per-segment error rule). */
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

/** Calls the compiled code, waits for its promise, and returns what it resolved to. */
function invoke(sandbox: Sandbox, fn: ReturnType<Sandbox['compile']>): unknown {
  let promise;
  try {
    promise = sandbox.callApi('call', fn);
  } catch (error) {
    if (error instanceof GuestThrow) throw codeError(error.guest, CODE_FILENAME);
    throw error;
  }
  try {
    const settled = sandbox.settle(promise);
    if (!settled.ok) throw codeError(settled.error, CODE_FILENAME);
    try {
      const decoded = decode(sandbox.callApiString('encode', settled.value));
      if (decoded.kind === 'function')
        throw new ExpressionError("Code doesn't return items properly", undefined, 'The code returned a function.');
      return decoded.value;
    } catch (error) {
      if (error instanceof GuestThrow)
        throw new ExpressionError(`Code returned data that can't be converted to JSON: ${error.guest.message}`);
      throw error;
    } finally {
      settled.value.dispose();
    }
  } finally {
    promise.dispose();
  }
}
