// The sandbox-escape payloads behind n8n's expression/Code advisories (reference section 9),
// and the limits. Each must stay contained: no host object, no host state changed, no hang.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createExpressions, SandboxLimitError } from '../../../src/services/workflow/expressions/index.js';
import { Sandbox } from '../../../src/services/workflow/expressions/sandbox-pool.js';
import { createInstance } from '../../../src/services/workflow/expressions/sandbox/modules.js';
import { answerDataOperation } from '../../../src/services/workflow/expressions/sandbox/host-ops.js';
import { ExpressionError } from '../../../src/services/workflow/expressions/api.js';
import { items, makeData } from './helpers.js';

// 1 s: time limits are wall-clock, and a loaded machine must not make quick runs time out.
const ex = createExpressions({ timeoutMs: 1000, memoryBytes: 32 * 1024 * 1024 });
afterAll(() => ex.close());
const data = makeData({ input: items({ a: 1, name: 'x' }), outputs: { Webhook: items({ body: {} }) } });

const runAll = (code: string) => ex.runCode({ code, mode: 'runOnceForAllItems', data });
const json = async (code: string) => (await runAll(code))[0].json;

describe('constructor-chain escapes (CVE-2025-68613, CVE-2026-25049, CVE-2026-1470)', () => {
  // Each payload tries to reach the host's `process`; inside QuickJS there is none, so the
  // payload either yields nothing or reports that `process` is undefined.
  const payloads = [
    "={{ (function(){ return this.constructor.constructor('return process')() })() }}",
    '={{ this.constructor.constructor(\'return process.mainModule.require("child_process").execSync("id").toString()\')() }}',
    "={{ (({constructor}) => constructor.constructor('return process')())({}) }}",
    "={{ [].map.constructor('return globalThis.process')() }}",
    "={{ $json.constructor.constructor('return process')() }}",
    "={{ ''.sub.constructor.call(null, 'return process')() }}",
    "={{ Object.getOwnPropertyDescriptor(Object.getPrototypeOf(() => 0), 'constructor').value('return process')() }}",
    "={{ (() => {}).__proto__.constructor('return process')() }}",
    "={{ Reflect.construct(Function, ['return process'])() }}",
    "={{ $('Webhook').first.constructor('return process')() }}",
    "={{ $input.all.call.call(Function.prototype.constructor, null, 'return process')() }}",
  ];
  for (const payload of payloads) {
    it(payload, async () => {
      expect(await ex.resolve(payload, data)).toBeUndefined();
    });
  }

  it('the sandbox global has no host capability at all', async () => {
    // Buffer is there, but as plain JavaScript over a Uint8Array (guest/web.js), not Node's.
    const probe =
      "={{ ['process','require','module','Buffer','fetch','XMLHttpRequest','WebAssembly','setImmediate','__hamletHost','__hamlet','std','os'].map(n => n + ':' + typeof globalThis[n]).join(',') }}";
    expect(await ex.resolve(probe, data)).toBe(
      'process:undefined,require:function,module:undefined,Buffer:function,fetch:undefined,XMLHttpRequest:undefined,WebAssembly:undefined,setImmediate:undefined,__hamletHost:undefined,__hamlet:undefined,std:undefined,os:undefined',
    );
  });

  it('require refuses every module, as n8n does by default', async () => {
    for (const name of ['child_process', 'fs', 'crypto', 'vm']) {
      await expect(runAll(`require('${name}');\nreturn [];`)).rejects.toThrow(
        `Module '${name}' is disallowed [line 1]`,
      );
    }
  });

  it('dynamic import loads nothing', async () => {
    await expect(runAll("const fs = await import('fs'); return [{ json: { ok: typeof fs } }];")).rejects.toThrow(
      ExpressionError,
    );
  });

  it('the V8-specific tricks of the vm2 advisories do nothing', async () => {
    const out = await json(`
      let reached = 'no';
      try { Error.prepareStackTrace = (e, frames) => { reached = 'yes'; return frames; }; } catch (e) {}
      try { new Error('x').stack; } catch (e) {}
      const f = Symbol.for('nodejs.util.inspect.custom');
      return [{ json: { reached, sym: typeof f, proc: typeof process } }];`);
    expect(out).toEqual({ reached: 'no', sym: 'symbol', proc: 'undefined' });
  });

  it('the host code never evaluates strings: no eval, new Function or vm in the expressions module', async () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src/services/workflow/expressions');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts')) files.push(path);
      }
    };
    walk(root);
    expect(files.length).toBeGreaterThan(8);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/from ['"](node:)?vm['"]/);
      expect(text, file).not.toMatch(/\bnew Function\s*\(/);
      expect(text, file).not.toMatch(/(^|[^.\w])eval\s*\(/m);
    }
  });
});

describe('prototype pollution', () => {
  it('cannot pollute the host through returned data', async () => {
    const out = await runAll(`return [{ json: JSON.parse('{"__proto__": {"polluted": "yes"}, "a": 1}') }];`);
    const target = Object.assign({}, out[0].json);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(target.polluted).toBeUndefined();
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(out[0].json).toEqual({ a: 1 });
    const viaExpression = await ex.resolve(`={{ JSON.parse('{"__pro\\\\u0074o__": {"polluted": 1}, "b": 2}') }}`, data);
    expect(Object.getPrototypeOf(Object.assign({}, viaExpression))).toBe(Object.prototype);
    expect(viaExpression).toEqual({ b: 2 });
  });

  it('cannot change built-ins that later runs see', async () => {
    await runAll(`
      try { Object.prototype.polluted = 'yes'; } catch (e) {}
      try { Array.prototype.first = () => 'hijacked'; } catch (e) {}
      try { Array.prototype.map = () => 'hijacked'; } catch (e) {}
      try { JSON.parse = () => 'hijacked'; } catch (e) {}
      try { String.prototype.toUpperCase = () => 'hijacked'; } catch (e) {}
      try { Object.defineProperty(Object.prototype, 'polluted2', { value: 1 }); } catch (e) {}
      try { $input.all = () => []; } catch (e) {}
      return [];`);
    const out = await json(
      "return [{ json: { p: ({}).polluted, p2: ({}).polluted2, first: [1, 2].first(), map: [1].map(x => x + 1), parse: JSON.parse('3'), up: 'a'.toUpperCase(), n: $input.all().length } }];",
    );
    expect(out).toEqual({ first: 1, map: [2], parse: 3, up: 'A', n: 1 });
    expect(await ex.resolve('={{ [5, 6].first() + "".toUpperCase() }}', data)).toBe('5');
  });

  it('globals a run creates are gone in the next run, queued jobs included', async () => {
    await runAll(`
      leaked = 'sloppy';
      globalThis.leaked2 = 'explicit';
      Promise.resolve().then(() => { globalThis.leaked3 = 'from a job'; });
      return [];`);
    expect(await json('return [{ json: { a: typeof leaked, b: typeof leaked2, c: typeof leaked3 } }];')).toEqual({
      a: 'undefined',
      b: 'undefined',
      c: 'undefined',
    });
    await ex.resolve('={{ (globalThis.fromExpression = 1) }}', data);
    expect(await ex.resolve('={{ typeof fromExpression }}', data)).toBe('undefined');
    // A global that cannot be deleted makes the context go away instead.
    await runAll("Object.defineProperty(globalThis, 'stuck', { value: 'forever' }); return [];");
    expect(await ex.resolve('={{ typeof stuck }}', data)).toBe('undefined');
    expect(await ex.resolve("={{ Object.defineProperty(globalThis, 'stuck2', { value: 1 }) && 1 }}", data)).toBe(1);
    expect(await json('return [{ json: { t: typeof stuck2 } }];')).toEqual({ t: 'undefined' });
  });

  it('cannot touch the host objects the data came from', async () => {
    const input = items({ nested: { v: 1 } });
    const d = makeData({ input });
    await ex.runCode({
      code: '$input.first().json.nested.v = 99; $json.added = 1; return $input.all();',
      mode: 'runOnceForAllItems',
      data: d,
    });
    expect(input[0].json).toEqual({ nested: { v: 1 } });
  });

  it("Luxon's cached zones and locales changed by one run are not what the next run gets", async () => {
    expect(await ex.resolve("={{ $now.toFormat('MMMM ZZZZ') }}", data)).toBe('November UTC');
    await ex.resolve('={{ (() => { try { $now.zone.fixed = 120; } catch (e) {} return 1; })() }}', data);
    await ex.resolve(
      "={{ (() => { const l = $now.loc; l.intl = 'fr-FR'; l.locale = 'fr-FR'; l.monthsCache.format.long = ['x']; return 1; })() }}",
      data,
    );
    const berlin = makeData({ timezone: 'Europe/Berlin' });
    await ex.resolve("={{ (() => { $now.zone.zoneName = 'Asia/Tokyo'; return 1; })() }}", berlin);
    expect(await ex.resolve("={{ $now.toFormat('MMMM ZZZZ') + ' ' + $now.toISO() }}", data)).toBe(
      'November UTC 2026-11-25T21:46:23.460Z',
    );
    expect(await ex.resolve('={{ $now.toISO() }}', berlin)).toBe('2026-11-25T22:46:23.460+01:00');
  });

  it('state set in one run (even through the injected clock or Luxon settings) does not leak into the next', async () => {
    await ex.resolve('={{ (() => { try { DateTime; luxonSettings = 1; } catch (e) {} return 1; })() }}', data);
    await runAll(
      "const { Settings } = { Settings: DateTime.now().constructor }; try { luxon.Settings.defaultZone = 'Asia/Tokyo'; } catch (e) {} return [];",
    );
    await runAll('try { Object.getPrototypeOf(DateTime.now()).constructor; } catch (e) {} return [];');
    expect(await ex.resolve('={{ $now.zoneName }}', data)).toBe('UTC');
  });
});

describe('limits', () => {
  // A clock so generous that memory is what stops the bombs, even on a loaded machine (QuickJS
  // fills big sparse arrays slowly: seconds per bomb when the cores are shared).
  const roomy = createExpressions({ timeoutMs: 60_000, memoryBytes: 32 * 1024 * 1024 });
  afterAll(() => roomy.close());

  it('an endless loop in an expression is stopped by the time limit', async () => {
    await expect(ex.resolve('={{ (() => { while (true) {} })() }}', data)).rejects.toThrow(SandboxLimitError);
    try {
      await ex.resolve('={{ (() => { for (;;) {} })() }}', data);
    } catch (error) {
      expect((error as SandboxLimitError).kind).toBe('timeout');
      expect((error as Error).message).toBe('Execution timed out after 1000 ms');
    }
  });

  it('an endless loop in Code, sync or async, is stopped by the time limit', async () => {
    await expect(runAll('while (true) {}')).rejects.toThrow('Execution timed out after 1000 ms');
    await expect(runAll('while (true) { await null; }')).rejects.toThrow('Execution timed out after 1000 ms');
    await expect(runAll('const start = Date.now(); while (Date.now() - start < 1e9) {} return [];')).rejects.toThrow(
      SandboxLimitError,
    );
    // A loop that catches everything is still stopped.
    await expect(runAll('for (;;) { try { while (true) {} } catch (e) {} }')).rejects.toThrow(SandboxLimitError);
  });

  it('a promise that never settles ends the run with an error, not a hang', async () => {
    await expect(runAll('await new Promise(() => {}); return [];')).rejects.toThrow('never settles');
  });

  it('memory bombs are stopped by the memory limit, named as n8n names it', async () => {
    for (const bomb of [
      "const s = 'x'.repeat(2 ** 27); return [{ json: { n: s.length } }];",
      "const s = 'x'.repeat(1e9); return [{ json: { n: s.length } }];",
      'const a = []; while (true) a.push(new Array(1e5).fill(a.length)); return [];',
      "const a = []; while (true) a.push('x'.repeat(1e6) + a.length); return [];",
      'const a = []; while (true) a.push(new Uint8Array(1e7)); return [];',
      'const a = new Array(1e9).fill(0); return [];',
      'const a = []; for (let i = 0; ; i++) a.push({ i, s: [i, i, i] }); return [];',
      'const m = new Map(); for (let i = 0; ; i++) m.set(i, new Array(1000).fill(i)); return [];',
      // A huge output: the answer is built inside the sandbox, within its memory.
      "const s = 'y'.repeat(12e6); return [{ json: { s } }, { json: { s } }, { json: { s } }];",
      // Catching the memory error does not get past it.
      'const a = []; for (;;) { try { while (true) a.push(new Array(1e5).fill(1)); } catch (e) { a.length = 0; } }',
    ]) {
      // A generous clock, so that memory is what stops them.
      const error = await roomy.runCode({ code: bomb, mode: 'runOnceForAllItems', data }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, bomb).toBeInstanceOf(SandboxLimitError);
      expect((error as SandboxLimitError).kind, bomb).toBe('memory');
      expect((error as SandboxLimitError).message, bomb).toBe('Node ran out of memory');
      expect((error as SandboxLimitError).description, bomb).toContain('memory limit (32 MB)');
      expect((error as SandboxLimitError).description, bomb).toContain('WORKFLOW_SANDBOX_MEMORY_MB');
    }
    await expect(ex.resolve("={{ 'z'.repeat(2 ** 26).length }}", data)).rejects.toThrow('Node ran out of memory');
    await expect(
      ex.resolve('={{ (() => { const a = []; while (true) a.push(new Uint8Array(1e7)); })() }}', data),
    ).rejects.toThrow('Node ran out of memory');
    // QuickJS refuses strings over 2^30 characters before memory runs out: a plain error.
    await expect(runAll('let s = "ab"; while (true) s = s + s; return [];')).rejects.toThrow(ExpressionError);
    // And the sandbox is fine afterwards.
    expect(await json('return [{ json: { ok: 1 + 1 } }];')).toEqual({ ok: 2 });
  }, 240_000);

  it("bounds the instance's real memory where it is taken, which QuickJS's own accounting underestimates", async () => {
    for (const [name, code] of [
      ['objects', 'const a = []; for (let i = 0; ; i++) a.push({ i, s: [i, i, i] });'],
      // One operation allocating megabytes between two interrupt checks used to pass any check made there.
      ['typed arrays', 'const a = []; while (true) a.push(new Uint8Array(1e7));'],
    ]) {
      const instance = await createInstance(32 * 1024 * 1024);
      const sandbox = new Sandbox({ timeoutMs: 60_000, memoryBytes: 32 * 1024 * 1024 }, instance);
      const before = instance.memory.size;
      sandbox.begin({
        data: (op, args) => answerDataOperation(op, args, data),
        timezone: 'UTC',
        evaluate: () => undefined,
      });
      const bomb = sandbox.compile(name, `(function () { ${code} })`, 'x');
      expect(() => sandbox.callApi('call', bomb), name).toThrow('Node ran out of memory');
      // Without the bound these take 0.3–2 GB before QuickJS notices.
      expect(instance.memory.size - before, name).toBeLessThanOrEqual(32 * 1024 * 1024);
      expect(sandbox.broken).toBe(true);
      expect(sandbox.oversized).toBe(true);
      sandbox.end();
      sandbox.dispose();
    }
  });

  it('structures nested too deep for the native stack are contained too', async () => {
    for (const code of [
      'let a = []; for (let i = 0; i < 1e5; i++) a = [a]; return [{ json: { s: JSON.stringify(a).length } }];',
      'let a = []; for (let i = 0; i < 1e5; i++) a = [a]; return [{ json: { a } }];',
      "return [{ json: { v: JSON.parse('['.repeat(1e5) + ']'.repeat(1e5)) } }];",
    ]) {
      await expect(runAll(code), code).rejects.toThrow(ExpressionError);
      expect(await json('return [{ json: { ok: true } }];')).toEqual({ ok: true });
    }
  });

  it('deep recursion is stopped and reported as a stack overflow', async () => {
    await expect(runAll('function f(n) { return f(n + 1) + 1; }\nreturn [{ json: { v: f(0) } }];')).rejects.toThrow(
      'Maximum call stack size exceeded',
    );
  });

  it('after a limit the next evaluation works, in a fresh context', async () => {
    await json('return [{ json: {} }];');
    const created = ex.stats().sandboxesCreated;
    await expect(runAll('while (true) {}')).rejects.toThrow(SandboxLimitError);
    expect(await json('return [{ json: { ok: 1 + 1 } }];')).toEqual({ ok: 2 });
    expect(await ex.resolve('={{ $json.name.toUpperCase() }}', data)).toBe('X');
    expect(ex.stats().sandboxesCreated).toBe(created + 1);
  });
});
