// What the main thread sends with a task about the run's data: the run's position (RunInfo)
// and the answers a run almost always needs (Prefetched), computed by the same function that
// answers the worker's data reads, so a prefetched answer is exactly what a read would get.

import type { ExpressionData } from '../api.js';
import { timezoneOf } from '../host-data.js';
import { answerDataOperation } from '../sandbox/host-ops.js';
import type { Prefetched, RunInfo } from './protocol.js';

/** Input items sent along with a task at most; a run that reads more asks for them. */
const MAX_PREFETCHED_ITEMS = 1000;

export function runInfo(data: ExpressionData, itemIndex = data.itemIndex): RunInfo {
  return { itemIndex, runIndex: data.runIndex, nowMs: data.now.getTime(), timezone: timezoneOf(data) };
}

/** `items`: 'all' (a Code run over all items) or the one index the run is about. */
export function prefetch(data: ExpressionData, items: 'all' | number): Prefetched {
  const indices =
    items === 'all'
      ? Array.from({ length: Math.min(data.inputItems.length, MAX_PREFETCHED_ITEMS) }, (_, i) => i)
      : items < data.inputItems.length
        ? [items]
        : [];
  return {
    inputCount: answerDataOperation('inputCount', [], data)!,
    inputItems: indices.map((index) => [index, answerDataOperation('inputItem', [index], data)]),
    context: answerDataOperation('context', [], data)!,
  };
}
