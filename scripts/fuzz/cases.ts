// A fuzz case (one node of one type and version, its parameters, its input items) and the
// workflow that runs it: Manual → "Input" (a No Op whose output is pinned to the items: a manual
// run uses pinned data, in n8n as in the engine, and costs no Code sandbox) → "Test", or for the
// two-input nodes (Merge, Compare Datasets) two inputs, "Input A" and "Input B".
import { createHash } from 'node:crypto';
import { randomParameters, type NodeDescription } from './params.js';
import { Rng } from './rng.js';
import { randomItems, type Json } from './values.js';

export interface FuzzCase {
  type: string;
  typeVersion: number;
  parameters: Record<string, any>;
  /** One list of items per input of the node. */
  inputs: Array<Array<Record<string, Json>>>;
}

const N8N_VERSION = '2.8.4';
const TWO_INPUTS = new Set(['merge', 'compareDatasets']);

function versionsOf(desc: NodeDescription): number[] {
  return Array.isArray(desc.version) ? desc.version : [desc.version];
}

/** The description a case's node follows (its type and version). */
export function descriptionOf(descs: NodeDescription[], c: Pick<FuzzCase, 'typeVersion'>): NodeDescription {
  return descs.find((d) => versionsOf(d).includes(c.typeVersion))!;
}

/**
 * Case `i` of a run: it depends only on the seed, the node type and i. `accept` screens a drawn
 * case (n8n's parameter check, n8n-issues.ts); a refused draw is redrawn from the next attempt's
 * seed, so the case stays a function of seed, type and i.
 */
export function generateCase(
  descs: NodeDescription[],
  seed: number | string,
  i: number,
  accept: (d: NodeDescription, c: FuzzCase) => boolean = () => true,
): FuzzCase {
  for (let attempt = 0; ; attempt++) {
    const rng = new Rng(attempt === 0 ? `${seed}:${descs[0].name}:${i}` : `${seed}:${descs[0].name}:${i}:${attempt}`);
    const all = descs.flatMap((d) => versionsOf(d).map((v) => ({ d, v })));
    const { d, v } = rng.pick(all);
    const inputs = TWO_INPUTS.has(d.name) ? [randomItems(rng), randomItems(rng)] : [randomItems(rng)];
    const c: FuzzCase = { type: d.name, typeVersion: v, parameters: randomParameters(d, v, rng), inputs };
    if (accept(d, c) || attempt >= 50) return c;
  }
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

/** The key n8n's answers are cached under: the case and the n8n version. */
export function caseHash(c: FuzzCase): string {
  return createHash('sha256')
    .update(`${N8N_VERSION}|${canonical(c)}`)
    .digest('hex')
    .slice(0, 20);
}

export const inputName = (c: FuzzCase, k: number) => (c.inputs.length === 1 ? 'Input' : `Input ${'AB'[k]}`);

export interface WorkflowNode {
  id: string;
  name: string;
  type: string;
  typeVersion: number;
  position: [number, number];
  parameters: Record<string, unknown>;
}

/**
 * The case's nodes under a suffix (`''` alone; ` #3` in a batch), placed at row `y`, and their
 * connections from the Manual trigger.
 */
function caseNodes(
  c: FuzzCase,
  suffix: string,
  y: number,
  id: () => string,
): { nodes: WorkflowNode[]; connections: Record<string, any>; starts: string[]; pinData: Record<string, unknown[]> } {
  const test = `Test${suffix}`;
  const nodes: WorkflowNode[] = [];
  const connections: Record<string, any> = {};
  const starts: string[] = [];
  const pinData: Record<string, unknown[]> = {};
  c.inputs.forEach((items, k) => {
    const name = `${inputName(c, k)}${suffix}`;
    nodes.push({
      id: id(),
      name,
      type: 'n8n-nodes-base.noOp',
      typeVersion: 1,
      position: [220, y + 60 * k],
      parameters: {},
    });
    pinData[name] = items.map((json) => ({ json }));
    connections[name] = { main: [[{ node: test, type: 'main', index: k }]] };
    starts.push(name);
  });
  nodes.push({
    id: id(),
    name: test,
    type: `n8n-nodes-base.${c.type}`,
    typeVersion: c.typeVersion,
    position: [440, y],
    parameters: c.parameters,
  });
  return { nodes, connections, starts, pinData };
}

/** Node ids as n8n makes them (uuids), numbered from a prefix. */
function ids(prefix: string): () => string {
  let n = 0;
  return () => `${prefix.slice(0, 8)}-0000-4000-8000-${String(n++).padStart(12, '0')}`;
}

const manual = (id: string): WorkflowNode => ({
  id,
  name: 'Manual',
  type: 'n8n-nodes-base.manualTrigger',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
});

/** One case alone: what a fixture records and what Hamlet runs. */
export function caseWorkflow(c: FuzzCase, name = `fuzz ${c.type} ${caseHash(c)}`) {
  const id = ids(caseHash(c));
  const first = manual(id());
  const { nodes, connections, starts, pinData } = caseNodes(c, '', 0, id);
  return {
    name,
    nodes: [first, ...nodes],
    connections: { Manual: { main: [starts.map((s) => ({ node: s, type: 'main', index: 0 }))] }, ...connections },
    settings: { executionOrder: 'v1' },
    pinData,
  };
}

/** Many cases in one workflow (each its own branch from Manual, one below the other), for one n8n run. */
export function batchWorkflow(cases: FuzzCase[]) {
  const id = ids('ba7c4000');
  const nodes: WorkflowNode[] = [manual(id())];
  const connections: Record<string, any> = {};
  const starts: string[] = [];
  const pinData: Record<string, unknown[]> = {};
  cases.forEach((c, i) => {
    const part = caseNodes(c, ` #${i}`, 200 * i, id);
    nodes.push(...part.nodes);
    Object.assign(connections, part.connections);
    Object.assign(pinData, part.pinData);
    starts.push(...part.starts);
  });
  connections.Manual = { main: [starts.map((s) => ({ node: s, type: 'main', index: 0 }))] };
  return { name: 'fuzz batch', nodes, connections, settings: { executionOrder: 'v1' }, pinData };
}
