// A workflow's connection graph, computed once per workflow version and cached: who feeds
// whom, how many inputs each node has, and the canvas order v1 uses to pick branches.
import type { Connection, WorkflowDefinition, WorkflowNode } from './types.js';

export interface ParentLink {
  node: string;
  outputIndex: number;
}

export interface Graph {
  nodes: Map<string, WorkflowNode>;
  /** source → output index → targets (main connections only; ai_* edges are not data flow). */
  children: Map<string, Connection[][]>;
  /** target → input index → parents. */
  parents: Map<string, ParentLink[][]>;
  /** Number of main inputs a node is wired with (max input index + 1). */
  inputCount(node: string): number;
  /** Every ancestor of a node over main connections (nearest first). */
  ancestors(node: string): string[];
}

export function buildGraph(wf: Pick<WorkflowDefinition, 'nodes' | 'connections'>): Graph {
  const nodes = new Map<string, WorkflowNode>();
  for (const n of wf.nodes ?? []) if (n && typeof n.name === 'string') nodes.set(n.name, n);
  const children = new Map<string, Connection[][]>();
  const parents = new Map<string, ParentLink[][]>();
  for (const [source, byType] of Object.entries(wf.connections ?? {})) {
    const main = byType?.main;
    if (!Array.isArray(main) || !nodes.has(source)) continue;
    const outs: Connection[][] = [];
    main.forEach((targets, outputIndex) => {
      const list = (Array.isArray(targets) ? targets : []).filter((t) => t && nodes.has(t.node));
      outs[outputIndex] = list.map((t) => ({ node: t.node, type: 'main', index: Number(t.index) || 0 }));
      for (const t of outs[outputIndex]) {
        const ins = parents.get(t.node) ?? [];
        (ins[t.index] ??= []).push({ node: source, outputIndex });
        parents.set(t.node, ins);
      }
    });
    for (let i = 0; i < outs.length; i++) outs[i] ??= [];
    children.set(source, outs);
  }
  const ancestorCache = new Map<string, string[]>();
  return {
    nodes,
    children,
    parents,
    inputCount(node) {
      return parents.get(node)?.length ?? 0;
    },
    ancestors(node) {
      const cached = ancestorCache.get(node);
      if (cached) return cached;
      const seen = new Set<string>();
      const queue = [node];
      const out: string[] = [];
      while (queue.length) {
        const cur = queue.shift()!;
        for (const list of parents.get(cur) ?? []) {
          for (const p of list ?? []) {
            if (seen.has(p.node) || p.node === node) continue;
            seen.add(p.node);
            out.push(p.node);
            queue.push(p.node);
          }
        }
      }
      ancestorCache.set(node, out);
      return out;
    },
  };
}

/** v1 canvas order: top to bottom, then left to right. */
export function canvasCompare(a: WorkflowNode | undefined, b: WorkflowNode | undefined): number {
  const pa = a?.position ?? [0, 0];
  const pb = b?.position ?? [0, 0];
  return (pa[1] ?? 0) - (pb[1] ?? 0) || (pa[0] ?? 0) - (pb[0] ?? 0);
}
