// QuickJS sandboxes for expressions and Code, pooled and reused.
//
// Creating a context and loading the prelude costs milliseconds (and Luxon tens more, on first
// use), so sandboxes are kept and reused. What a run may change is reset or contained:
// built-ins are frozen (guest/harden.js), globals a run adds are deleted after it, per-run
// values live in a memo that each run's begin creates afresh (the run owns it: see RunHost in
// sandbox/host-ops.ts), timers and queued jobs do not outlive a run, and Luxon is re-configured (its caches dropped) before the next run. A
// sandbox that hit a limit (time, memory, stack) is disposed rather than trusted again; one
// whose WebAssembly instance saw a host exception is dropped whole (sandbox/modules.ts).
//
// Sandboxes live in worker threads (worker/sandbox-worker.ts); a run is synchronous inside its
// worker. Each sandbox runs in a QuickJS instance of its own, whose memory is bounded where it
// is taken (sandbox/memory.ts). The only way out of the sandbox is the one host function
// (sandbox/host-ops.ts), whose arguments are strings and numbers and whose answers are JSON text.

import { performance } from 'node:perf_hooks';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { ExpressionError, type SandboxLimits } from './api.js';
import { limitError, SandboxLimitError, type LimitKind } from './errors.js';
import { isLibraryName, LIBRARY_LOADERS, type LibraryName } from './sandbox/libraries.js';
import { encodeHostError, hostOperation, type HostContext, type RunHost } from './sandbox/host-ops.js';
import { EXTENSIONS_JS, HARDEN_JS, INTL_JS, PRELUDE_JS, WEB_JS } from './sandbox/guest-scripts.js';
import type { SandboxMemory } from './sandbox/memory.js';
import { Instances, type Instance } from './sandbox/modules.js';

export { SandboxLimitError, type LimitKind } from './errors.js';

/** What a value looked like in the sandbox, decoded from prelude's `encode`. */
export type Decoded = { kind: 'value'; value: unknown } | { kind: 'function'; name: string };

export function decode(encoded: string): Decoded {
  const tag = encoded[0];
  const body = encoded.slice(1);
  switch (tag) {
    case 'u':
      return { kind: 'value', value: undefined };
    case 'j':
      return { kind: 'value', value: parseGuestJson(body) };
    case 'n':
      return { kind: 'value', value: Number(body) };
    case 'f':
      return { kind: 'function', name: body };
    default:
      throw new Error(`Unexpected sandbox answer ${encoded.slice(0, 20)}`);
  }
}

/**
 * JSON from the sandbox. JSON.parse makes `"__proto__"` an own key, harmless by itself, but a
 * later Object.assign or `obj[key] = …` on the host would treat it as the prototype setter;
 * such keys are dropped (checked cheaply first: they almost never occur).
 */
function parseGuestJson(text: string): unknown {
  // A \u escape could spell the key too, so text with escapes takes the careful path.
  if (!text.includes('__proto__') && !text.includes('\\u')) return JSON.parse(text);
  return JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value));
}

/** An error thrown inside the sandbox, as plain data. */
export interface GuestError {
  name: string;
  message: string;
  stack: string;
  description?: string;
  /** False when the code threw something that is not an Error (a string, a plain object). */
  isError: boolean;
}

const MAX_COMPILED = 500;
// QuickJS's stack limit. Its frames also use the server's native stack (WebAssembly), so the
// limit is kept well below what Node's ~1 MB stack can hold.
const STACK_BYTES = 256 * 1024;

export class Sandbox {
  readonly runtime: QuickJSRuntime;
  readonly context: QuickJSContext;
  private readonly api: QuickJSHandle;
  private readonly compiled = new Map<string, QuickJSHandle>();
  /** Handles of `__hamlet`'s functions, looked up once. */
  private readonly apiFunctions = new Map<string, QuickJSHandle>();
  /** The run in progress; host operations answer from it. */
  private run: RunHost | undefined;
  private deadline = Infinity;
  private runStartedAt = 0;
  private pausedMs = 0;
  /** Set when a limit was hit: the pool disposes the sandbox instead of reusing it. */
  broken = false;
  /** Set when a host exception crossed the WASM frames: the instance is dropped, not even disposed. */
  corrupt = false;
  /**
   * The instance's memory, bounded by its own growth (see sandbox/memory.ts); QuickJS's own
   * limit is set too, and refuses single allocations larger than the limit.
   */
  private readonly memory: SandboxMemory;
  /** Our own bounded work after a run (its logs): neither the deadline nor a refused growth stops it. */
  private trustedWork = false;
  readonly module: QuickJSWASMModule;

  constructor(
    private readonly limits: SandboxLimits,
    readonly instance: Instance,
    /** Told the deadline (performance.now() of this thread) whenever it changes; Infinity between runs. */
    private readonly onDeadline?: (deadline: number) => void,
  ) {
    this.module = instance.module;
    this.memory = instance.memory;
    this.memory.reset();
    this.runtime = this.module.newRuntime();
    this.runtime.setMaxStackSize(STACK_BYTES);
    this.runtime.setInterruptHandler(() => {
      if (this.trustedWork) return false;
      return this.memory.exhausted || performance.now() > this.deadline;
    });
    this.context = this.runtime.newContext();
    // Setup is trusted code: it may use the memory the libraries may use.
    this.api = this.memory.lifted(() => {
      const host = this.context.newFunction('__hamletHost', (...args) => this.hostCall(args));
      this.context.setProp(this.context.global, '__hamletHost', host);
      host.dispose();
      this.evalSetup(INTL_JS, 'intl');
      this.evalSetup(WEB_JS, 'web');
      this.evalSetup(PRELUDE_JS, 'prelude');
      this.evalSetup(EXTENSIONS_JS, 'extensions');
      const api = this.context.getProp(this.context.global, '__hamlet');
      this.evalSetup('delete globalThis.__hamlet;', 'setup');
      this.evalSetup(HARDEN_JS, 'harden');
      return api;
    });
    this.callApi('finishBaseline').dispose();
    // The limits apply from here on.
    this.runtime.setMemoryLimit(limits.memoryBytes);
  }

  /**
   * Whether the instance's memory grew so much that it should not serve another sandbox:
   * WebAssembly memory never shrinks, so such an instance is left to the garbage collector.
   */
  get oversized(): boolean {
    return this.memory.size > this.memory.normalCeiling - this.limits.memoryBytes / 2;
  }

  /**
   * Runs a call into QuickJS. An exception that is not a guest error (a host RangeError from
   * the native stack, a WASM trap) means the instance can no longer be trusted.
   */
  private guard<T>(call: () => T): T {
    try {
      return call();
    } catch (error) {
      if (error instanceof GuestThrow || error instanceof ExpressionError) throw error;
      this.corrupt = true;
      this.broken = true;
      // (QuickJS's C code does not survive every failed allocation: a trap after a refused growth is the memory limit.)
      if (this.memory.exhausted) throw limitError('memory', this.limits);
      if (error instanceof RangeError) throw limitError('stack', this.limits);
      throw new SandboxLimitError(
        'crash',
        `The sandbox failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private evalSetup(code: string, name: string): void {
    const result = this.guard(() => this.context.evalCode(code, name, { type: 'global' }));
    if (result.error) {
      const error = this.context.dump(result.error) as unknown;
      result.error.dispose();
      throw new Error(`sandbox setup (${name}) failed: ${JSON.stringify(error)}`);
    }
    result.value.dispose();
  }

  dispose(): void {
    for (const handle of this.compiled.values()) handle.dispose();
    this.compiled.clear();
    for (const handle of this.apiFunctions.values()) handle.dispose();
    this.apiFunctions.clear();
    this.api.dispose();
    this.context.dispose();
    this.runtime.dispose();
  }

  /**
   * Starts a run: the host answers from `run` until `end()`. The run stops at `deadline`
   * (performance.now() of this thread; by default the time limit from now).
   */
  begin(run: RunHost, deadline?: number): void {
    this.run = run;
    this.runStartedAt = performance.now();
    this.pausedMs = 0;
    this.deadline = deadline ?? this.runStartedAt + this.limits.timeoutMs;
    this.onDeadline?.(this.deadline);
  }

  /** Runs trusted, bounded work of our own after the run hit a limit (reading its logs). */
  trusted<T>(work: () => T): T {
    const was = this.trustedWork;
    this.trustedWork = true;
    try {
      return this.memory.lifted(work);
    } finally {
      this.trustedWork = was;
    }
  }

  end(): void {
    this.run = undefined;
    this.deadline = Infinity;
    this.onDeadline?.(Infinity);
  }

  /** Compiles (once per sandbox) a piece of source whose value is a function. */
  compile(key: string, source: string, filename: string): QuickJSHandle {
    const cached = this.compiled.get(key);
    if (cached) {
      this.compiled.delete(key);
      this.compiled.set(key, cached);
      return cached;
    }
    const result = this.guard(() => this.context.evalCode(source, filename, { type: 'global' }));
    if (result.error) throw new CompileError(this.failure(result.error));
    this.compiled.set(key, result.value);
    if (this.compiled.size > MAX_COMPILED) {
      const [oldestKey, oldest] = this.compiled.entries().next().value as [string, QuickJSHandle];
      this.compiled.delete(oldestKey);
      oldest.dispose();
    }
    return result.value;
  }

  /** Calls `__hamlet[name](...args)`; numbers and strings become guest values, handles pass as is. */
  callApi(name: string, ...args: Array<string | number | boolean | QuickJSHandle | undefined>): QuickJSHandle {
    const ctx = this.context;
    let fn = this.apiFunctions.get(name);
    if (!fn) {
      fn = ctx.getProp(this.api, name);
      this.apiFunctions.set(name, fn);
    }
    const owned: QuickJSHandle[] = [];
    const handles = args.map((arg) => {
      if (arg === undefined) return ctx.undefined;
      if (typeof arg === 'string') return track(ctx.newString(arg));
      if (typeof arg === 'number') return track(ctx.newNumber(arg));
      if (typeof arg === 'boolean') return arg ? ctx.true : ctx.false;
      return arg;
    });
    function track(h: QuickJSHandle): QuickJSHandle {
      owned.push(h);
      return h;
    }
    try {
      const result = this.guard(() => ctx.callFunction(fn, this.api, ...handles));
      if (result.error) throw new GuestThrow(this.failure(result.error));
      return result.value;
    } finally {
      for (const h of owned) h.dispose();
    }
  }

  /** Like callApi, for calls whose answer is a string. */
  callApiString(name: string, ...args: Array<string | number | boolean | QuickJSHandle | undefined>): string {
    const handle = this.callApi(name, ...args);
    try {
      return this.context.getString(handle);
    } finally {
      handle.dispose();
    }
  }

  /** Removes globals the run added; false when that was impossible (the sandbox is then broken). */
  cleanGlobals(): boolean {
    const handle = this.callApi('cleanGlobals');
    try {
      return this.context.dump(handle) === true;
    } finally {
      handle.dispose();
    }
  }

  /** Runs pending promise jobs until `promise` settles; returns its state. */
  settle(promise: QuickJSHandle): { ok: true; value: QuickJSHandle } | { ok: false; error: GuestError } {
    for (;;) {
      const state = this.context.getPromiseState(promise);
      if (state.type === 'fulfilled') return { ok: true, value: state.value };
      if (state.type === 'rejected') return { ok: false, error: this.failure(state.error) };
      if (this.runtime.hasPendingJob()) {
        this.drainJobs();
        continue;
      }
      // Nothing left but timers: let the next one fire (see the prelude's virtual clock).
      const ranTimer = this.callApi('runTimer');
      const ran = this.context.typeof(ranTimer) === 'boolean' && this.context.dump(ranTimer) === true;
      ranTimer.dispose();
      if (!ran) {
        // An interrupted job can leave its promise pending with nothing queued: that is the timeout.
        if (performance.now() > this.deadline)
          this.checkLimits({ name: 'InternalError', message: 'interrupted', stack: '', isError: true });
        return {
          ok: false,
          error: { name: 'Error', message: 'The code awaits a promise that never settles', stack: '', isError: true },
        };
      }
    }
  }

  /** Runs queued promise jobs (all of them, within the deadline). */
  drainJobs(): void {
    const result = this.guard(() => this.runtime.executePendingJobs());
    if (result.error) this.failure(result.error);
  }

  /**
   * Reads (and disposes) an error the guest threw; throws SandboxLimitError instead when a
   * limit caused it. A refused growth is checked first: reading the error needs memory too.
   */
  private failure(handle: QuickJSHandle): GuestError {
    if (this.memory.exhausted) {
      handle.dispose();
      this.checkLimits({ name: 'InternalError', message: 'out of memory', stack: '', isError: true });
    }
    const error = this.guestError(handle);
    handle.dispose();
    this.checkLimits(error);
    return error;
  }

  guestError(handle: QuickJSHandle): GuestError {
    const dumped = this.context.dump(handle) as unknown;
    if (dumped && typeof dumped === 'object') {
      const e = dumped as Record<string, unknown>;
      return {
        name: typeof e.name === 'string' ? e.name : 'Error',
        message: typeof e.message === 'string' ? e.message : String(e.message ?? ''),
        stack: typeof e.stack === 'string' ? e.stack : '',
        description: typeof e.description === 'string' ? e.description : undefined,
        isError: typeof e.stack === 'string',
      };
    }
    return { name: 'Error', message: String(dumped), stack: '', isError: false };
  }

  /** Turns an error caused by a limit into SandboxLimitError and marks the sandbox broken. */
  private checkLimits(error: GuestError): void {
    const message = error.message;
    let kind: Exclude<LimitKind, 'crash'> | undefined;
    if (this.memory.exhausted) kind = 'memory';
    else if (performance.now() > this.deadline || (error.name === 'InternalError' && message === 'interrupted'))
      kind = 'timeout';
    else if (message === 'out of memory' || (error.name === 'InternalError' && /memory/i.test(message)))
      kind = 'memory';
    else if (error.name === 'InternalError' && message === 'stack overflow') kind = 'stack';
    if (!kind) return;
    this.broken = true;
    throw limitError(kind, this.limits);
  }

  // ------------------------------------------------------------------ host operations

  private readonly hostContext: HostContext = {
    run: () => this.run,
    elapsedMs: () => Math.floor(performance.now() - this.runStartedAt - this.pausedMs),
    loadLibrary: (name) => this.loadLibrary(name),
  };

  private hostCall(args: QuickJSHandle[]): QuickJSHandle | undefined {
    const ctx = this.context;
    const op = ctx.getString(args[0]);
    const arg = (i: number): string | number | undefined => {
      const h = args[i];
      if (!h) return undefined;
      const type = ctx.typeof(h);
      if (type === 'string') return ctx.getString(h);
      if (type === 'number') return ctx.getNumber(h);
      return undefined;
    };
    try {
      // Bytes (Buffer's base64 in the guest) cross as ArrayBuffer copies: a loop over a file of
      // megabytes in QuickJS would take seconds. Only bytes cross, never a host object.
      if (op === 'base64ToBytes') {
        const encoding = arg(2) === 'base64url' ? 'base64url' : 'base64';
        const bytes = Buffer.from(String(arg(1) ?? ''), encoding);
        return ctx.newArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
      }
      if (op === 'bytesToBase64') {
        const h = args[1];
        if (!h || ctx.typeof(h) !== 'object') throw new TypeError('bytesToBase64 takes an ArrayBuffer');
        const view = ctx.getArrayBuffer(h);
        try {
          return ctx.newString(Buffer.from(view.value).toString(arg(2) === 'base64url' ? 'base64url' : 'base64'));
        } finally {
          view.dispose();
        }
      }
      const answer = hostOperation(op, arg, this.hostContext);
      if (answer === undefined) return undefined;
      return typeof answer === 'number' ? ctx.newNumber(answer) : ctx.newString(answer);
    } catch (error) {
      // Never thrown through the WASM frames: every failure goes back as the guest's error.
      // (A limit hit here has already marked this sandbox broken or corrupt.)
      return ctx.newString(encodeHostError(error));
    }
  }

  private readonly librariesLoaded = new Set<LibraryName>();
  private loadLibrary(name: string): void {
    if (!isLibraryName(name)) throw new TypeError(`Unknown library ${name}`);
    if (this.librariesLoaded.has(name)) return;
    // Loading a library is not the user's time nor the user's memory: the deadline pauses and
    // the memory limits are lifted while it loads.
    const started = performance.now();
    const deadline = this.deadline;
    this.deadline = Infinity;
    this.runtime.setMemoryLimit(-1);
    try {
      this.memory.lifted(() => {
        const loader = this.guard(() => this.context.evalCode(LIBRARY_LOADERS[name], name, { type: 'global' }));
        if (loader.error) {
          const error = this.guestError(loader.error);
          loader.error.dispose();
          throw new Error(`${name} failed to load: ${error.message}`);
        }
        try {
          this.callApi('installLibrary', name, loader.value).dispose();
        } finally {
          loader.value.dispose();
        }
      });
      this.librariesLoaded.add(name);
    } finally {
      this.runtime.setMemoryLimit(this.limits.memoryBytes);
      const took = performance.now() - started;
      this.pausedMs += took;
      this.deadline = deadline + took;
      this.onDeadline?.(this.deadline);
    }
  }
}

/** Source that did not compile; `guest` holds QuickJS's SyntaxError. */
export class CompileError extends ExpressionError {
  constructor(readonly guest: GuestError) {
    super('invalid syntax');
  }
}

/** An exception the guest code threw (not a limit). */
export class GuestThrow extends Error {
  constructor(readonly guest: GuestError) {
    super(guest.message);
  }
}

/**
 * The sandboxes of one thread. A run is synchronous, so one sandbox serves nearly everything;
 * a second is created only when a run re-enters ($evaluateExpression evaluates again).
 */
export class SandboxPool {
  private readonly idle: Sandbox[] = [];
  /** Sandboxes done with, disposed by sweep() (after the run's answer has gone out). */
  private readonly retiring: Sandbox[] = [];
  private readonly instances: Instances;
  created = 0;
  constructor(
    private readonly limits: SandboxLimits,
    private readonly options: { maxIdle?: number; onDeadline?: (deadline: number) => void } = {},
  ) {
    this.instances = new Instances(limits.memoryBytes);
  }

  acquire(): Sandbox {
    const sandbox = this.idle.pop();
    if (sandbox) return sandbox;
    this.sweep();
    const instance = this.instances.take();
    if (!instance) {
      throw new ExpressionError('The expression sandbox is restarting after a failure; try again in a moment');
    }
    this.created++;
    try {
      return new Sandbox(this.limits, instance, this.options.onDeadline);
    } catch (error) {
      this.instances.give(instance);
      throw error;
    }
  }

  get idleCount(): number {
    return this.idle.length;
  }

  /** For async callers: waits until a sandbox can be had without failing. */
  async ready(): Promise<void> {
    if (this.idle.length === 0) await this.instances.ready();
  }

  release(sandbox: Sandbox): void {
    sandbox.end();
    if (sandbox.corrupt) return; // dropped whole: the garbage collector takes the instance
    if (sandbox.broken || sandbox.oversized || this.idle.length >= (this.options.maxIdle ?? 2)) {
      this.retiring.push(sandbox);
    } else {
      this.idle.push(sandbox);
    }
  }

  /**
   * Disposes the sandboxes released since the last call. Separate from release() because
   * freeing a heap at its memory limit takes a while: the worker answers the run first.
   */
  sweep(): void {
    for (const sandbox of this.retiring.splice(0)) this.retire(sandbox);
  }

  close(): void {
    this.sweep();
    for (const sandbox of this.idle.splice(0)) this.retire(sandbox);
  }

  /** Disposes a sandbox and hands its instance back; if disposing fails, the instance is dropped. */
  private retire(sandbox: Sandbox): void {
    try {
      sandbox.dispose();
    } catch {
      return;
    }
    // An instance whose memory grew large is left to the garbage collector: its memory cannot shrink.
    if (!sandbox.oversized) this.instances.give(sandbox.instance);
  }
}
