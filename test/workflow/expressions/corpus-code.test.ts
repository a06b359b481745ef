// Runs every Code / Function / Function Item node of the n8n corpus that ran once in a case,
// with the input n8n gave it (its parent's recorded output) and the other nodes' recorded
// outputs for $('Node'), and compares with what n8n 2.8.4 produced: the items, or the error
// message for the cases n8n failed.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createExpressions } from '../../../src/services/workflow/expressions/index.js';
import type { Item } from '../../../src/services/workflow/expressions/api.js';
import { makeData } from './helpers.js';

const corpus = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/n8n-corpus');

interface WorkflowNode {
  name: string;
  type: string;
  parameters: Record<string, unknown>;
}
interface Workflow {
  nodes: WorkflowNode[];
  connections: Record<string, { main?: Array<Array<{ node: string; index: number }> | null> }>;
}
interface Case {
  name: string;
  nodes: Record<string, Array<{ output: unknown[][]; error?: { message: string } }>>;
  droppedVolatilePaths?: string[];
}

const CODE_TYPES = new Set(['n8n-nodes-base.code', 'n8n-nodes-base.function', 'n8n-nodes-base.functionItem']);

interface CodeCase {
  title: string;
  node: WorkflowNode;
  input: Item[];
  outputs: Record<string, Item[]>;
  expected: { output?: unknown[]; error?: string };
  volatile: string[];
}

/** Puts a placeholder where the corpus dropped a volatile value, so nodes downstream still see the key. */
function fillVolatile(c: Case): Case {
  const filled = structuredClone(c);
  for (const pointer of c.droppedVolatilePaths ?? []) {
    const keys = pointer
      .split('/')
      .slice(1)
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    let target: Record<string, unknown> | undefined = filled as unknown as Record<string, unknown>;
    for (const key of keys.slice(0, -1)) target = target?.[key] as Record<string, unknown> | undefined;
    if (target && !(keys.at(-1)! in target)) target[keys.at(-1)!] = '<volatile>';
  }
  return filled;
}

function collect(): CodeCase[] {
  const cases: CodeCase[] = [];
  for (const file of readdirSync(join(corpus, 'workflows'))) {
    const workflow = JSON.parse(readFileSync(join(corpus, 'workflows', file), 'utf8')) as Workflow;
    const expected = JSON.parse(readFileSync(join(corpus, 'expected', file), 'utf8')) as { cases: Case[] };
    for (const node of workflow.nodes.filter((n) => CODE_TYPES.has(n.type))) {
      const parents: Array<{ name: string; output: number }> = [];
      for (const [source, conns] of Object.entries(workflow.connections)) {
        (conns.main ?? []).forEach((targets, output) => {
          for (const t of targets ?? []) if (t.node === node.name) parents.push({ name: source, output });
        });
      }
      for (const original of expected.cases) {
        const c = fillVolatile(original);
        const runs = c.nodes[node.name];
        if (!runs || runs.length !== 1 || parents.length !== 1) continue;
        const parentRuns = c.nodes[parents[0].name];
        if (!parentRuns || parentRuns.length !== 1) continue;
        const toItems = (jsons: unknown[] = []) =>
          jsons.map((json, i) => ({ json: json as Record<string, unknown>, pairedItem: { item: i } }));
        const outputs: Record<string, Item[]> = {};
        for (const [name, nodeRuns] of Object.entries(c.nodes)) outputs[name] = toItems(nodeRuns.at(-1)!.output[0]);
        const run = runs[0];
        const prefix = `/nodes/${node.name}/0/output/0/`;
        cases.push({
          title: `${file.replace('.json', '')} / ${c.name} / ${node.name}`,
          node,
          input: toItems(parentRuns[0].output[parents[0].output]),
          outputs,
          expected: run.error ? { error: run.error.message } : { output: original.nodes[node.name][0].output[0] ?? [] },
          volatile: (original.droppedVolatilePaths ?? [])
            .filter((p) => p.startsWith(prefix))
            .map((p) => p.slice(prefix.length)),
        });
      }
    }
  }
  return cases;
}

/** Removes the volatile paths; in our output they must exist (the corpus files already lack them). */
function dropPaths(items: unknown[], paths: string[], mustExist: boolean): unknown[] {
  const copy = structuredClone(items) as Array<Record<string, unknown>>;
  for (const path of paths) {
    const [index, ...keys] = path.split('/');
    let target: Record<string, unknown> | undefined = copy[Number(index)];
    for (const key of keys.slice(0, -1)) target = target?.[key] as Record<string, unknown> | undefined;
    const last = keys.at(-1)!;
    if (mustExist) expect(target, `volatile ${path} must exist`).toHaveProperty([last]);
    if (target) delete target[last];
  }
  return copy;
}

const ex = createExpressions({ timeoutMs: 5000, memoryBytes: 64 * 1024 * 1024 });
afterAll(() => ex.close());

describe.skipIf(!existsSync(corpus))('corpus Code and Function nodes', () => {
  const cases = existsSync(corpus) ? collect() : [];

  it('finds the corpus code nodes', () => {
    expect(cases.length).toBeGreaterThan(25);
    expect(cases.filter((c) => c.expected.error).length).toBeGreaterThanOrEqual(6);
  });

  for (const c of cases) {
    it(c.title, async () => {
      const data = makeData({
        nodeName: c.node.name,
        input: c.input,
        outputs: c.outputs,
        staticData: { global: {}, node: {} },
      });
      const p = c.node.parameters;
      const perItem = p.mode === 'runOnceForEachItem' || c.node.type === 'n8n-nodes-base.functionItem';
      const once = (d: typeof data) =>
        c.node.type === 'n8n-nodes-base.code'
          ? ex.runCode({ code: String(p.jsCode), mode: perItem ? 'runOnceForEachItem' : 'runOnceForAllItems', data: d })
          : ex.runFunction({ code: String(p.functionCode), perItem, data: d });
      // Per-item modes are called once per item, as the engine does.
      const run = perItem
        ? (async () => {
            const out: Item[] = [];
            for (let i = 0; i < c.input.length; i++) out.push(...(await once({ ...data, itemIndex: i })));
            return out;
          })()
        : once(data);
      if (c.expected.error !== undefined) {
        await expect(run).rejects.toThrow(c.expected.error);
        await run.catch((error: Error) => expect(error.message).toBe(c.expected.error));
        return;
      }
      const produced = (await run).map((item) => item.json);
      expect(dropPaths(produced, c.volatile, true)).toEqual(dropPaths(c.expected.output!, c.volatile, false));
    });
  }
});
