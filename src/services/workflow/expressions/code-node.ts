// Code node (runOnceForAllItems / runOnceForEachItem) and the legacy Function / Function
// Item nodes, with n8n's rules for what the code may return:
// - all items: an array of items ({json, binary?, pairedItem?}) or of plain objects (wrapped as
//   {json}); a single object counts as a one-item array;
// - each item: one object (item or plain json); returning nothing drops the item;
// - Function Item: the item's json, returned (possibly changed).
// The per-item modes run the code for the single item `data.itemIndex`; the caller calls once
// per item (as the engine's Code and Function Item nodes do).
// The user's code becomes the body of an async function whose first line is the code's first
// line, so "[line N]" in errors counts lines of the user's code.

import { ExpressionError, type ExpressionData, type Item } from './api.js';
import { codeError } from './errors.js';
import { timezoneOf } from './host-data.js';
import { CompileError, decode, GuestThrow, type Sandbox, type SandboxPool } from './sandbox-pool.js';

const FILENAME = 'Code';

export type CodeMode = 'runOnceForAllItems' | 'runOnceForEachItem' | 'functionAllItems' | 'functionItem';


export class CodeRunner {
  private generation = 0;
  constructor(private readonly pool: SandboxPool) {}

  /** Runs the code; `onLogs` receives its console output, also when the run fails. */
  async run(code: string, mode: CodeMode, data: ExpressionData, onLogs?: (lines: string[]) => void): Promise<Item[]> {
    await this.pool.ready();
    const sandbox = this.pool.acquire();
    try {
      sandbox.begin(data);
      const gen = ++this.generation;
      let fn;
      try {
        fn = sandbox.compile(`code:${code}`, `(async function () {${code}\n})`, FILENAME);
      } catch (error) {
        // A syntax error reads like any other: the message and the line.
        if (error instanceof CompileError) throw codeError(error.guest, FILENAME);
        throw error;
      }
      // Per-item modes run for the one item data.itemIndex names; the engine loops over items.
      const perItem = mode === 'runOnceForEachItem' || mode === 'functionItem';
      const index = perItem ? data.itemIndex : 0;
      if (perItem && !data.inputItems[index]) return [];
      sandbox.callApi('begin', gen, index, data.runIndex, data.now.getTime(), timezoneOf(data), 'code').dispose();
      sandbox.callApi('setItems', mode === 'functionItem' ? 'item' : 'all').dispose();
      const value = this.invoke(sandbox, fn, perItem ? index : undefined);
      const items = normalize(value, mode, index, data.inputItems.length);
      writeBackStaticData(sandbox, data);
      writeBackCustomData(sandbox, data);
      return items;
    } catch (error) {
      // An error of ours (not the user's) may have left the context half-way: retire it.
      sandbox.broken = sandbox.broken || !(error instanceof ExpressionError);
      throw error;
    } finally {
      if (onLogs && !sandbox.corrupt) {
        try {
          // Our own bounded read, so it may run past the deadline of a run that timed out.
          onLogs(JSON.parse(sandbox.withoutDeadline(() => sandbox.callApiString('logs'))) as string[]);
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

  /** Calls the compiled code, waits for its promise, and returns what it resolved to. */
  private invoke(sandbox: Sandbox, fn: ReturnType<Sandbox['compile']>, itemIndex: number | undefined): unknown {
    let promise;
    try {
      promise = sandbox.callApi('call', fn);
    } catch (error) {
      if (error instanceof GuestThrow) throw codeError(error.guest, FILENAME, itemIndex);
      throw error;
    }
    try {
      const settled = sandbox.settle(promise);
      if (!settled.ok) throw codeError(settled.error, FILENAME, itemIndex);
      try {
        const encoded = sandbox.callApiString('encode', settled.value);
        const decoded = decode(encoded);
        if (decoded.kind === 'function') throw new ExpressionError("Code doesn't return items properly", undefined, 'The code returned a function.');
        return decoded.value;
      } catch (error) {
        if (error instanceof GuestThrow) throw new ExpressionError(`Code returned data that can't be converted to JSON: ${error.guest.message}`);
        throw error;
      } finally {
        settled.value.dispose();
      }
    } finally {
      promise.dispose();
    }
  }
}

const ITEM_KEYS = new Set(['json', 'binary', 'pairedItem', 'error', 'index']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toItem(value: unknown, position: number, pairedTo: number | undefined): Item {
  if (!isObject(value)) {
    throw new ExpressionError(
      `Code doesn't return an object [item ${position}]`,
      undefined,
      'Please return an array of objects, one for each item you would like to output.',
    );
  }
  let item: Item;
  if ('json' in value) {
    for (const key of Object.keys(value)) {
      if (!ITEM_KEYS.has(key)) {
        throw new ExpressionError(
          `Unknown top-level item key: ${key} [item ${position}]`,
          undefined,
          'Access the properties of an item under `.json`, e.g. `item.json`',
        );
      }
    }
    if (!isObject(value.json)) {
      throw new ExpressionError(
        `A 'json' property isn't an object [item ${position}]`,
        undefined,
        "In the returned data, every key named 'json' must point to an object.",
      );
    }
    item = { json: value.json };
    if (value.binary !== undefined) item.binary = value.binary as Record<string, unknown>;
    if (value.pairedItem !== undefined) item.pairedItem = value.pairedItem as Item['pairedItem'];
    if (value.error !== undefined) item.error = value.error;
  } else {
    item = { json: value };
  }
  if (item.pairedItem === undefined && pairedTo !== undefined) item.pairedItem = { item: pairedTo };
  return item;
}

function normalize(value: unknown, mode: CodeMode, index: number, inputCount: number): Item[] {
  switch (mode) {
    case 'runOnceForAllItems':
    case 'functionAllItems': {
      if (value === undefined || value === null || (typeof value !== 'object')) {
        throw new ExpressionError(
          "Code doesn't return items properly",
          undefined,
          'Please return an array of objects, one for each item you would like to output.',
        );
      }
      const list = Array.isArray(value) ? value : [value];
      // Items without pairedItem are paired when it is unambiguous: with one input item every
      // output derives from it; with as many outputs as inputs (a map), by position.
      const pairedTo = (position: number) => (inputCount === 1 ? 0 : list.length === inputCount ? position : undefined);
      return list.map((entry, position) => toItem(entry, position, pairedTo(position)));
    }
    case 'runOnceForEachItem': {
      if (value === undefined || value === null) return [];
      if (Array.isArray(value)) {
        throw new ExpressionError(
          `Code doesn't return a single object [item ${index}]`,
          undefined,
          "An array of objects was returned. If you need to output multiple items, please use the 'Run Once for All Items' mode instead.",
        );
      }
      return [toItem(value, index, index)];
    }
    case 'functionItem': {
      if (!isObject(value)) {
        throw new ExpressionError(`Function Item didn't return an object [item ${index}]`);
      }
      return [{ json: value, pairedItem: { item: index } }];
    }
  }
}

function writeBackStaticData(sandbox: Sandbox, data: ExpressionData): void {
  const decoded = decode(sandbox.callApiString('staticData'));
  if (decoded.kind !== 'value' || decoded.value === undefined || !data.staticData) return;
  const changed = decoded.value as { global?: Record<string, unknown>; node?: Record<string, unknown> };
  for (const type of ['global', 'node'] as const) {
    const next = changed[type];
    if (!next) continue;
    const target = data.staticData[type];
    for (const key of Object.keys(target)) delete target[key];
    Object.assign(target, next);
  }
}

/** $execution.customData.set(…): into data.execution.customData, when the engine provides one. */
function writeBackCustomData(sandbox: Sandbox, data: ExpressionData): void {
  const decoded = decode(sandbox.callApiString('customData'));
  const target = data.execution.customData;
  if (decoded.kind !== 'value' || decoded.value === undefined || !target) return;
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, decoded.value as Record<string, string>);
}
