// Builds ExpressionData for tests from a small description of a run: the current node's input
// items and the outputs of nodes that ran before it (pairedItem chains included).

import type { ExpressionData, Item } from '../../../src/services/workflow/expressions/api.js';

export interface FakeRun {
  nodeName?: string;
  input?: Item[];
  itemIndex?: number;
  runIndex?: number;
  /** Output 0 of each node that ran (last run). */
  outputs?: Record<string, Item[] | Item[][]>;
  parameters?: Record<string, Record<string, unknown>>;
  /** For $('X').item: which item of X each input item derives from (default: same index). */
  paired?: Record<string, (itemIndex: number) => number | undefined>;
  env?: Record<string, string>;
  staticData?: { global: Record<string, unknown>; node: Record<string, unknown> };
  /** Node context data ($node["X"].context). */
  contexts?: Record<string, Record<string, unknown>>;
  now?: Date;
  timezone?: string;
}

const NOW = new Date('2026-11-25T21:46:23.460Z');

export function items(...jsons: Array<Record<string, unknown>>): Item[] {
  return jsons.map((json, i) => ({ json, pairedItem: { item: i } }));
}

export function makeData(run: FakeRun = {}): ExpressionData {
  const outputs = run.outputs ?? {};
  const outputOf = (name: string, index = 0): Item[] | undefined => {
    const out = outputs[name];
    if (!out) return undefined;
    const branches = Array.isArray(out[0]) || out.length === 0 ? (out as Item[][]) : [out as Item[]];
    return branches[index] ?? [];
  };
  const nodeName = run.nodeName ?? 'Current';
  return {
    nodeName,
    inputItems: run.input ?? [],
    itemIndex: run.itemIndex ?? 0,
    runIndex: run.runIndex ?? 0,
    nodeOutput: (name, outputIndex) => outputOf(name, outputIndex ?? 0),
    nodeExecuted: (name) => name in outputs,
    nodeContext: (name) => run.contexts?.[name],
    nodeParameters: (name) => run.parameters?.[name] ?? (name in outputs || name === nodeName ? {} : undefined),
    pairedItem: (name, itemIndex) => {
      const out = outputOf(name);
      if (!out) return undefined;
      const index = run.paired?.[name] ? run.paired[name](itemIndex) : itemIndex;
      return index === undefined ? undefined : out[index];
    },
    prevNode: { name: 'Previous', outputIndex: 0, runIndex: 0 },
    workflow: { id: 'wf1', name: 'My workflow', active: true },
    execution: { id: '42', mode: 'manual', resumeUrl: 'http://localhost:5678/webhook-waiting/42' },
    env: run.env ?? {},
    staticData: run.staticData,
    now: run.now ?? NOW,
    timezone: run.timezone ?? 'UTC',
  };
}
