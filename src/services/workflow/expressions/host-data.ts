// The host side of n8n's data variables: which items `$json`, `$input`, `$('Node')` and
// `$node["Node"]` stand for, with n8n's errors when a node is missing or has not run.
// Both the fast path (plain property paths, evaluated here in TypeScript) and the sandbox's
// host functions read data through these functions, so both answer alike.

import { ExpressionError, type ExpressionData, type Item } from './api.js';

export type ItemPick = 'first' | 'last' | 'paired' | 'index';

export function nodeMustExist(data: ExpressionData, name: string): void {
  if (data.nodeParameters(name) === undefined && !data.nodeExecuted(name)) {
    throw new ExpressionError(
      "Referenced node doesn't exist",
      undefined,
      `The node '${name}' doesn't exist, but it's used in an expression here.`,
    );
  }
}

function nodeMustHaveRun(data: ExpressionData, name: string): void {
  nodeMustExist(data, name);
  if (!data.nodeExecuted(name)) {
    throw new ExpressionError(
      `Node '${name}' hasn't been executed`,
      undefined,
      `An expression references the node '${name}', but it hasn't been executed yet. Either change the expression, or re-wire your workflow to make sure that node executes first.`,
    );
  }
}

/** All items of a node's output (`$('X').all(branch, run)`). */
export function nodeItems(data: ExpressionData, name: string, branch?: number, run?: number): Item[] {
  nodeMustHaveRun(data, name);
  const items = data.nodeOutput(name, branch, run);
  // A run the node has not had is an error (loops read runs until this one: observed).
  if (run !== undefined && data.nodeRunCount && run >= data.nodeRunCount(name))
    throw new ExpressionError(`Run ${run} of node "${name}" not found`);
  return items ?? [];
}

/** One item of a node: first, last, the paired one (`.item`) or by index (`$node["X"]`, `.itemMatching`). */
export function nodeItem(
  data: ExpressionData,
  name: string,
  pick: ItemPick,
  index = data.itemIndex,
  branch?: number,
  run?: number,
): Item | undefined {
  if (pick === 'paired') {
    nodeMustHaveRun(data, name);
    const item = data.pairedItem(name, index);
    if (!item) {
      throw new ExpressionError(
        "Can't get data for expression",
        undefined,
        `Paired item data for item ${index} from node '${name}' is unavailable. Ensure '${name}' is providing the required output.`,
      );
    }
    return item;
  }
  const items = nodeItems(data, name, branch, run);
  if (pick === 'first') return items[0];
  if (pick === 'last') return items[items.length - 1];
  const item = items[index];
  if (!item) throw new ExpressionError(`No data found for item-index: "${index}"`);
  return item;
}

/** `$node["X"]` (legacy): that node's output item at `index` (output 0, last run). */
export function legacyNodeItem(data: ExpressionData, name: string, index = data.itemIndex): Item | undefined {
  return nodeItems(data, name)[index] ?? nodeItem(data, name, 'index', index);
}

export function inputItem(
  data: ExpressionData,
  pick: 'first' | 'last' | 'index',
  index = data.itemIndex,
): Item | undefined {
  const items = data.inputItems;
  if (pick === 'first') return items[0];
  if (pick === 'last') return items[items.length - 1];
  return items[index];
}

/** What crosses into the sandbox for an item: its json and binary, never engine internals. */
export function itemForSandbox(item: Item | undefined): { json: unknown; binary?: unknown } | undefined {
  if (!item) return undefined;
  return item.binary === undefined ? { json: item.json } : { json: item.json, binary: item.binary };
}

const zoneChecks = new Map<string, boolean>();

/** The run's time zone, or UTC when the workflow names one that does not exist (Luxon would give invalid dates). */
export function timezoneOf(data: ExpressionData): string {
  const zone = data.timezone;
  let valid = zoneChecks.get(zone);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      valid = true;
    } catch {
      valid = false;
    }
    if (zoneChecks.size > 1000) zoneChecks.clear();
    zoneChecks.set(zone, valid);
  }
  return valid ? zone : 'UTC';
}
