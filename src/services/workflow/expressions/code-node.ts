// Code node (runOnceForAllItems / runOnceForEachItem) and the legacy Function / Function
// Item nodes, with n8n's rules for what the code may return:
// - all items: an array of items ({json, binary?, pairedItem?}) or of plain objects (wrapped as
//   {json}); a single object counts as a one-item array;
// - each item: one object (item or plain json); returning nothing drops the item;
// - Function Item: the item's json, returned (possibly changed).
// The per-item modes run the code for the single item `data.itemIndex`; the caller calls once
// per item (as the engine's Code and Function Item nodes do).
// The code itself runs in a sandbox worker (worker/sandbox-runs.ts: the user's code becomes the
// body of an async function whose first line is the code's first line, so "[line N]" in errors
// counts lines of the user's code); this side applies n8n's rules to what it returned.

import { CodeOutputError, ExpressionError, type ExpressionData, type Item } from './api.js';
import { fromWire, type CodeMode } from './worker/protocol.js';
import type { SandboxWorkers } from './worker/pool.js';
import { prefetch, runInfo } from './worker/task-data.js';

export type { CodeMode } from './worker/protocol.js';

/** Runs code in a worker; `onLogs` receives its console output, also when the run fails. */
export async function runCode(
  workers: SandboxWorkers,
  code: string,
  mode: CodeMode,
  data: ExpressionData,
  signal?: AbortSignal,
  onLogs?: (lines: string[]) => void,
): Promise<Item[]> {
  // Per-item modes run for the one item data.itemIndex names; the engine loops over items.
  const perItem = mode === 'runOnceForEachItem' || mode === 'functionItem';
  const index = perItem ? data.itemIndex : 0;
  if (perItem && !data.inputItems[index]) return [];
  const result = await workers.run(
    { kind: 'code', code, mode, info: runInfo(data, index), prefetched: prefetch(data, perItem ? index : 'all') },
    data,
    signal,
  );
  if (result.logs && onLogs) onLogs(result.logs);
  if (!result.ok) throw fromWire(result.error);
  const outcome = result.code!;
  const items = normalize(outcome.value, mode, index, data.inputItems.length);
  writeBackStaticData(outcome.staticData, data);
  writeBackCustomData(outcome.customData, data);
  return items;
}

const ITEM_KEYS = new Set(['json', 'binary', 'pairedItem', 'error', 'index']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toItem(value: unknown, position: number, pairedTo: number | undefined, asItems = false): Item {
  if (!isObject(value)) {
    throw new CodeOutputError(
      `Code doesn't return an object [item ${position}]`,
      undefined,
      'Please return an array of objects, one for each item you would like to output.',
    );
  }
  let item: Item;
  // Once any returned entry is an item ({json}), n8n reads every entry as one.
  if ('json' in value || asItems) {
    for (const key of Object.keys(value)) {
      if (!ITEM_KEYS.has(key)) {
        // An item with `json` and more keys reads as a malformed item, one without `json` (in a
        // list where others have it) as an unknown key (both observed).
        if ('json' in value) throw new CodeOutputError(`Invalid output format [item ${position}]`);
        throw new CodeOutputError(
          `Unknown top-level item key: ${key} [item ${position}]`,
          undefined,
          'Access the properties of an item under `.json`, e.g. `item.json`',
        );
      }
    }
    if (!isObject(value.json)) {
      throw new CodeOutputError(
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
      // `return null` is an empty output in n8n; returning nothing at all is an error there.
      if (value === null || (value === undefined && mode === 'functionAllItems')) return [];
      if (typeof value !== 'object') {
        throw new CodeOutputError(
          "Code doesn't return items properly",
          undefined,
          'Please return an array of objects, one for each item you would like to output.',
        );
      }
      const list = Array.isArray(value) ? value : [value];
      // Items without pairedItem are paired when it is unambiguous: with one input item every
      // output derives from it; with as many outputs as inputs (a map), by position.
      const pairedTo = (position: number) => (inputCount === 1 ? 0 : list.length === inputCount ? position : undefined);
      // A list holding anything but objects is no list of items (observed: ["text"], [1, 2]).
      if (list.some((entry) => !isObject(entry))) {
        throw new CodeOutputError(
          "Code doesn't return items properly",
          undefined,
          'Please return an array of objects, one for each item you would like to output.',
        );
      }
      const asItems = list.some((entry) => isObject(entry) && 'json' in entry);
      return list.map((entry, position) => toItem(entry, position, pairedTo(position), asItems));
    }
    case 'runOnceForEachItem': {
      if (value === undefined || value === null) return [];
      if (Array.isArray(value)) {
        // n8n wraps the array as the item's json, then refuses it (observed with the oracle).
        throw new CodeOutputError(
          `A 'json' property isn't an object [item ${index}]`,
          undefined,
          "In the returned data, every key named 'json' must point to an object.",
        );
      }
      return [toItem(value, index, index)];
    }
    case 'functionItem': {
      // n8n checks only `typeof … === 'object'`: an array (even an empty one) is the item's json.
      if (!isObject(value) && !Array.isArray(value)) {
        throw new ExpressionError(`Function Item didn't return an object [item ${index}]`);
      }
      return [{ json: value as Record<string, unknown>, pairedItem: { item: index } }];
    }
  }
}

function writeBackStaticData(changed: unknown, data: ExpressionData): void {
  if (!changed || !data.staticData) return;
  const next = changed as { global?: Record<string, unknown>; node?: Record<string, unknown> };
  for (const type of ['global', 'node'] as const) {
    const values = next[type];
    if (!values) continue;
    const target = data.staticData[type];
    for (const key of Object.keys(target)) delete target[key];
    Object.assign(target, values);
  }
}

/** $execution.customData.set(…): into data.execution.customData, when the engine provides one. */
function writeBackCustomData(changed: unknown, data: ExpressionData): void {
  const target = data.execution.customData;
  if (!changed || !target) return;
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, changed as Record<string, string>);
}
