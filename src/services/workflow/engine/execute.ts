// The engine: runs a workflow's nodes in n8n's order and records every node run.
//
// The state (runData, the stack of nodes to run, multi-input nodes collecting inputs) is
// plain JSON, so a run parked by a Wait node is stored and resumed later, maybe in another
// process. Order follows n8n:
// - v1: depth first. A node's children go to the FRONT of the stack, sorted in canvas order
//   (top to bottom, then left to right), so one branch finishes before the next starts.
// - v0 (legacy, and what a workflow without the setting gets): breadth first. Children join
//   the END of the stack in connection order; a child on input index ≥ 1 is queued even when
//   its parent's output is empty; a multi-input node lacking an input makes the engine run
//   that input's parents to obtain it.
import type { ExpressionData, Expressions, Item } from '../expressions/api.js';
import { RunExpressionData, type RunInfo } from './expression-data.js';
import { canvasCompare, type Graph } from './graph.js';
import { ExecutionCancelledError, keepLastRuns, maybeYield, RunDataLimitError, RunDataMeter } from './limits.js';
import {
  NodeOperationError,
  RunFailure,
  type NodeContext,
  type NodeServices,
  type NodeType,
  type WebhookResponse,
} from './node-type.js';
import type {
  ExecutionMode,
  ExecutionState,
  NodeErrorInfo,
  SourceData,
  StackEntry,
  TaskData,
  WorkflowDefinition,
  WorkflowNode,
} from './types.js';

export interface NodeRegistry {
  get(type: string): NodeType | undefined;
}

export interface RunOptions {
  workflow: WorkflowDefinition;
  graph: Graph;
  registry: NodeRegistry;
  expressions: Expressions;
  services: NodeServices;
  executionId: string;
  mode: ExecutionMode;
  now(): Date;
  /** Waits `ms` of clock time (the platform's timer queue); rejects when the signal aborts. Default: real time. */
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
  env: Record<string, string>;
  /** The instance's variables, read as $vars (variables/variables.ts). */
  vars?: Record<string, string>;
  timezone: string;
  resumeUrl: string;
  /** Webhook executions: where Respond to Webhook sends its answer. */
  respond?(response: WebhookResponse): void;
  signal?: AbortSignal;
  /** Use the workflow's pinData (manual runs only, as n8n does). */
  usePinData?: boolean;
  /** Data a resumed Wait node continues with (the resume webhook's item). */
  resumeItems?: Item[];
  /** Cap on the run data this execution records (WORKFLOW_MAX_RUN_DATA_MB); none when absent. */
  maxRunDataBytes?: number;
}

export type RunOutcome =
  | { status: 'success' | 'error' | 'canceled'; state: ExecutionState }
  | { status: 'waiting'; state: ExecutionState; waitTill?: Date; webhook: boolean };

/** Waits shorter than this stay in memory; longer ones park the execution (n8n uses 65 s). */
export const IN_MEMORY_WAIT_MS = 65_000;

function newState(): ExecutionState {
  return { runData: {}, stack: [], waiting: {}, executionIndex: 0, nodeContext: {} };
}

/** Starts a run at `start`, whose output is given (a trigger's item: the webhook request, the manual data). */
export function startState(
  graph: Graph,
  v1: boolean,
  start: { node: string; items: Item[]; outputIndex?: number },
  now: number,
): ExecutionState {
  const state = newState();
  // A Webhook listening on several methods has one output per method.
  const output: Item[][] = Array.from({ length: (start.outputIndex ?? 0) + 1 }, () => []);
  output[start.outputIndex ?? 0] = start.items;
  state.runData[start.node] = [
    {
      startTime: now,
      executionIndex: state.executionIndex++,
      executionTime: 0,
      executionStatus: 'success',
      source: [],
      data: { main: output },
    },
  ];
  state.lastNodeExecuted = start.node;
  enqueueChildren(state, graph, v1, start.node, output, 0);
  return state;
}

export async function runWorkflow(opts: RunOptions, state: ExecutionState): Promise<RunOutcome> {
  const { workflow, graph } = opts;
  const v1 = workflow.settings?.executionOrder === 'v1';
  const info: RunInfo = {
    workflow,
    executionId: opts.executionId,
    mode: opts.mode,
    resumeUrl: opts.resumeUrl,
    env: opts.env,
    vars: opts.vars,
    timezone: opts.timezone,
    runData: state.runData,
    nodeContext: state.nodeContext,
    now: opts.now,
    staticData: undefined,
    customData: (state.customData ??= {}),
  };
  const signal = opts.signal;
  // One abort listener per execution (not one per node run: EventTarget listeners are costly).
  const interruptible = new Interruptible(signal);
  const meter = opts.maxRunDataBytes ? new RunDataMeter(opts.maxRunDataBytes) : undefined;
  let lastError: NodeErrorInfo | undefined;
  if (meter) for (const tasks of Object.values(state.runData)) for (const t of tasks) meter.add(t.data?.main);
  for (;;) {
    // A loop in the graph never holds the event loop: other requests run between slices.
    const pause = maybeYield(performance.now());
    if (pause) await pause;
    if (signal?.aborted) return cancelled(state, signal);
    let entry = state.stack.shift();
    if (!entry) {
      // v1: nothing else can run; multi-input nodes still missing an input run with what they have.
      if (!v1) break;
      const name = Object.keys(state.waiting)[0];
      if (!name) break;
      const pending = state.waiting[name].shift()!;
      if (!state.waiting[name].length) delete state.waiting[name];
      const waitingNode = graph.nodes.get(name);
      if (waitingNode && opts.registry.get(waitingNode.type)?.requiresAllInputs?.(waitingNode)) continue;
      entry = { node: name, inputs: pending.inputs, source: pending.source };
    }
    const node = graph.nodes.get(entry.node);
    if (!node) continue;
    const runIndex = state.runData[node.name]?.length ?? 0;
    const startTime = opts.now().getTime();
    const t0 = performance.now();
    const task: TaskData = {
      startTime,
      executionIndex: state.executionIndex++,
      executionTime: 0,
      executionStatus: 'success',
      source: entry.source ?? [],
    };
    const resumed = entry.resumed ? { data: opts.resumeItems } : undefined;
    let result: Awaited<ReturnType<typeof runNode>> | typeof ABORTED;
    try {
      // A node that ignores the signal (a slow request, a sub-workflow) does not hold the run.
      result = await interruptible.run(runNode(opts, info, state, node, entry, runIndex, resumed));
    } catch (err) {
      result =
        err instanceof RunFailure
          ? { skipped: true, error: toErrorInfo(err, node) }
          : { error: toErrorInfo(err, node) };
    }
    if (result === ABORTED) return cancelled(state, signal!);
    if ('skipped' in result) {
      // No data and no run recorded (n8n's null output; its run failing outside the node).
      state.executionIndex--;
      if (!result.error) continue;
      state.lastNodeExecuted = node.name;
      state.error = result.error;
      return { status: 'error', state };
    }
    state.lastNodeExecuted = node.name;
    if ('wait' in result) {
      // Parked: the same stack entry runs again on resume.
      state.executionIndex--;
      state.stack.unshift({ ...entry, resumed: true });
      return { status: 'waiting', state, waitTill: result.wait.until, webhook: !!result.wait.webhook };
    }
    task.executionTime = Math.round(performance.now() - t0);
    (state.runData[node.name] ??= []).push(task);
    if (result.error) {
      task.executionStatus = 'error';
      task.error = result.error;
    }
    if (!result.outputs) {
      state.error = result.error;
      return { status: 'error', state };
    }
    // A node that failed and went on (continueOnFail) fails the run only if no node runs after it (as n8n).
    lastError = result.error;
    task.data = { main: result.outputs };
    if (meter?.add(result.outputs)) {
      state.error = toErrorInfo(new RunDataLimitError(opts.maxRunDataBytes!));
      keepLastRuns(state.runData);
      return { status: 'error', state };
    }
    enqueueChildren(state, graph, v1, node.name, result.outputs, runIndex);
  }
  if (lastError) {
    state.error = { ...lastError, node: undefined };
    return { status: 'error', state };
  }
  return { status: 'success', state };
}

const ABORTED = Symbol('aborted');

/** Runs node after node; each resolves to its result, or to ABORTED as soon as the signal fires (the node may go on, unheard). */
class Interruptible {
  private interrupt: ((value: typeof ABORTED) => void) | undefined;

  constructor(private readonly signal: AbortSignal | undefined) {
    signal?.addEventListener('abort', () => this.interrupt?.(ABORTED), { once: true });
  }

  run<T>(work: Promise<T>): Promise<T | typeof ABORTED> {
    if (!this.signal) return work;
    return new Promise<T | typeof ABORTED>((resolve, reject) => {
      this.interrupt = resolve;
      work.then(resolve, reject);
    }).finally(() => (this.interrupt = undefined));
  }
}

/** Ends a run whose signal fired, recording why (n8n's cancellation wording) as its error. */
function cancelled(state: ExecutionState, signal: AbortSignal): RunOutcome {
  const reason =
    signal.reason instanceof ExecutionCancelledError ? signal.reason : new ExecutionCancelledError('manual');
  state.error = toErrorInfo(reason);
  if (reason.reason === 'timeout') keepLastRuns(state.runData);
  return { status: 'canceled', state };
}

/** A node's outcome: outputs, an error that stops the run, both (continued after an error), or a wait. */
type NodeRun =
  | { outputs: Item[][]; error?: NodeErrorInfo }
  | { error: NodeErrorInfo; outputs?: undefined }
  | { wait: { until?: Date; webhook?: boolean } }
  | { skipped: true; error?: NodeErrorInfo };

async function runNode(
  opts: RunOptions,
  info: RunInfo,
  state: ExecutionState,
  node: WorkflowNode,
  entry: StackEntry,
  runIndex: number,
  resumed: { data?: Item[] } | undefined,
): Promise<NodeRun> {
  let inputs = entry.inputs.map((i) => i ?? null);
  if (node.disabled) return { outputs: [inputs[0] ?? []] };
  if (opts.usePinData) {
    const pinned = opts.workflow.pinData?.[node.name];
    // An empty pin too is the node's output (n8n 2.8.4: no items, so nothing after it runs).
    if (Array.isArray(pinned)) {
      return {
        outputs: [
          pinned.map((p, i) => ({
            json: ('json' in p && p.json ? p.json : p) as Record<string, unknown>,
            pairedItem: { item: i },
          })),
        ],
      };
    }
  }
  const type = opts.registry.get(node.type);
  if (!type) {
    throw new NodeOperationError(
      `Node "${node.name}" has unknown type "${node.type}" (typeVersion ${node.typeVersion ?? 1})`,
    );
  }
  if (node.executeOnce) inputs = inputs.map((i) => (i ? i.slice(0, 1) : i));
  const onError = node.onError ?? (node.continueOnFail ? 'continueRegularOutput' : 'stopWorkflow');
  const ctx = makeContext(opts, info, state, node, inputs, entry.source, runIndex, onError !== 'stopWorkflow', resumed);
  const tries = node.retryOnFail ? Math.min(5, Math.max(2, Number(node.maxTries ?? 3))) : 1;
  const pause = Math.min(5000, Math.max(0, Number(node.waitBetweenTries ?? 1000)));
  let lastError: unknown;
  for (let attempt = 0; attempt < tries; attempt++) {
    try {
      let out = await type.execute(ctx);
      if (out === null) {
        if (!node.alwaysOutputData) return { skipped: true };
        out = [];
      }
      if (!Array.isArray(out)) return out;
      // A node may answer no outputs at all (n8n's Merge v3 joining an empty input records `main: []`).
      const count = type.outputs?.(node) ?? (out.length === 0 && !node.alwaysOutputData ? 0 : Math.max(1, out.length));
      const outputs: Item[][] = [];
      for (let o = 0; o < count; o++) outputs.push(normalise(out[o] ?? [], ctx.items));
      if (onError === 'continueErrorOutput') outputs.push([]);
      routeFailedItems(outputs, onError);
      // alwaysOutputData looks at the first output only (observed: a Filter whose items all went
      // to "discarded" still emits one empty item on "kept").
      if (node.alwaysOutputData && !outputs[0]?.length) outputs[0] = [{ json: {}, pairedItem: { item: 0 } }];
      return { outputs };
    } catch (err) {
      if (err instanceof RunFailure) throw err;
      lastError = err;
      if (attempt + 1 < tries && pause > 0) await new Promise((r) => setTimeout(r, pause));
    }
  }
  const error = toErrorInfo(lastError, node);
  // An error the node did not handle itself, under continueOnFail (either onError setting): as
  // n8n does, the run records the error and the node's first input passes on, unchanged, as its
  // only output (not to the error output). A node without input data outputs nothing.
  if (onError !== 'stopWorkflow') {
    const input = inputs[0];
    return { outputs: input ? [input.map((it, i) => ({ ...it, pairedItem: { item: i } }))] : [], error };
  }
  return { error };
}

/**
 * Items a node marked as failed (`item.error`, per-item failures under continueOnFail): with
 * continueRegularOutput each becomes `{error}` in place; with continueErrorOutput each moves,
 * with its fields and the error, to the extra last output (as n8n does, item by item).
 */
function routeFailedItems(outputs: Item[][], onError: string): void {
  const main = outputs[0];
  if (!main?.some((it) => it.error !== undefined)) return;
  const message = (it: Item) => (it.error as { message?: string })?.message ?? String(it.error);
  if (onError === 'continueErrorOutput') {
    const failed = main.filter((it) => it.error !== undefined);
    outputs[0] = main.filter((it) => it.error === undefined);
    outputs[outputs.length - 1].push(
      ...failed.map((it) => ({ json: { ...it.json, error: message(it) }, pairedItem: it.pairedItem })),
    );
    return;
  }
  outputs[0] = main.map((it) =>
    it.error === undefined ? it : { json: { error: message(it) }, pairedItem: it.pairedItem },
  );
}

/**
 * Wraps plain objects as items and pairs unpaired items with their input (same index, or the only
 * input). An item's json is normally an object, but a node may give other JSON on purpose: n8n's
 * HTTP Request passes the elements of a JSON array answer on as they are (numbers, strings, lists),
 * so an item with a `json` key is kept as given unless that json is missing or null.
 */
function normalise(items: unknown[], input: Item[]): Item[] {
  const out: Item[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    let it = items[i] as Item;
    if (!it || typeof it !== 'object' || it.json === undefined || it.json === null) {
      it = {
        json: (it && typeof it === 'object' && !Array.isArray(it) ? it : { data: it }) as Record<string, unknown>,
      };
    }
    if (it.pairedItem === undefined)
      it = { ...it, pairedItem: { item: input.length === 1 ? 0 : Math.min(i, Math.max(0, input.length - 1)) } };
    out[i] = it;
  }
  return out;
}

export function toErrorInfo(err: unknown, node?: WorkflowNode): NodeErrorInfo {
  const e = err as { message?: unknown; description?: unknown; name?: unknown; expression?: unknown };
  const info: NodeErrorInfo = {
    message: typeof e?.message === 'string' ? e.message : String(err),
    name: err instanceof NodeOperationError ? 'NodeOperationError' : typeof e?.name === 'string' ? e.name : 'Error',
  };
  if (typeof e?.description === 'string') info.description = e.description;
  if (node) info.node = { name: node.name, type: node.type, typeVersion: node.typeVersion };
  return info;
}

function makeContext(
  opts: RunOptions,
  info: RunInfo,
  state: ExecutionState,
  node: WorkflowNode,
  inputs: Array<Item[] | null>,
  source: Array<SourceData | null> | null,
  runIndex: number,
  continueOnFail: boolean,
  resumed: { data?: Item[] } | undefined,
): NodeContext {
  const items = inputs[0] ?? [];
  const params = node.parameters ?? {};
  let data: RunExpressionData | undefined;
  const expressionData = (itemIndex: number): ExpressionData => {
    data ??= new RunExpressionData(info, node.name, items, runIndex, source);
    data.itemIndex = itemIndex;
    return data;
  };
  const staticData = (opts.workflow.staticData ??= {}) as Record<string, Record<string, unknown>>;
  const signal = opts.signal ?? new AbortController().signal;
  const ctx: NodeContext = {
    node,
    typeVersion: Number(node.typeVersion ?? 1),
    workflow: opts.workflow,
    executionId: opts.executionId,
    mode: opts.mode,
    inputs,
    items,
    runIndex,
    raw: <T>(path: string, fallback?: T) => (getPath(params, path) ?? fallback) as T,
    param: <T>(path: string, itemIndex: number, fallback?: T): Promise<T> => {
      const value = getPath(params, path);
      if (value === undefined) return Promise.resolve(fallback as T);
      if (!needsResolve(value, opts.expressions)) return Promise.resolve(value as T);
      return opts.expressions.resolve(value, expressionData(itemIndex), signal) as Promise<T>;
    },
    expressionData,
    expressions: opts.expressions,
    context: (state.nodeContext[node.name] ??= {}),
    staticData: {
      global: (staticData['global'] ??= {}),
      node: (staticData[`node:${node.name}`] ??= {}),
    },
    continueOnFail,
    now: opts.now,
    // An aborted run stops waiting at once (the abort is reported by the run, not by the sleep).
    sleep: (ms) => (opts.sleep ?? realSleep)(ms, signal).catch(() => {}),
    services: opts.services,
    resumed,
    respond: (r) => opts.respond?.(r),
    signal,
  };
  return ctx;
}

function realSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });
}

/** Cheap check so plain literal parameters never reach the expression engine. */
function needsResolve(value: unknown, ex: Expressions): boolean {
  if (typeof value === 'string') return ex.isExpression(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => needsResolve(v, ex));
  for (const v of Object.values(value)) if (needsResolve(v, ex)) return true;
  return false;
}

function getPath(obj: unknown, path: string): unknown {
  if (!path) return obj;
  let cur: unknown = obj;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function enqueueChildren(
  state: ExecutionState,
  graph: Graph,
  v1: boolean,
  parent: string,
  outputs: Array<Item[] | null>,
  runIndex: number,
): void {
  const outs = graph.children.get(parent);
  if (!outs) return;
  const adds: Array<{ node: string; input: number; output: number }> = [];
  outs.forEach((targets, output) => {
    const data = outputs[output];
    if (!data) return;
    for (const t of targets) {
      if (data.length > 0 || (!v1 && t.index > 0)) adds.push({ node: t.node, input: t.index, output });
    }
  });
  if (v1) {
    adds.sort((a, b) => canvasCompare(graph.nodes.get(a.node), graph.nodes.get(b.node)));
    adds.reverse();
  }
  for (const a of adds) {
    addNode(
      state,
      graph,
      v1,
      a.node,
      a.input,
      { previousNode: parent, previousNodeOutput: a.output, previousNodeRun: runIndex },
      outputs[a.output] ?? [],
    );
  }
}

function addNode(
  state: ExecutionState,
  graph: Graph,
  v1: boolean,
  node: string,
  input: number,
  src: SourceData,
  data: Item[],
): void {
  const put = (e: StackEntry) => (v1 ? state.stack.unshift(e) : state.stack.push(e));
  const count = graph.inputCount(node);
  if (count <= 1) {
    const inputs: Array<Item[] | null> = [];
    const source: Array<SourceData | null> = [];
    inputs[input] = data;
    source[input] = src;
    for (let i = 0; i < input; i++) {
      inputs[i] ??= null;
      source[i] ??= null;
    }
    put({ node, inputs, source });
    return;
  }
  const list = (state.waiting[node] ??= []);
  let pending = list.find((p) => p.inputs[input] === null);
  if (!pending) {
    pending = { inputs: new Array(count).fill(null), source: new Array(count).fill(null) };
    list.push(pending);
  }
  pending.inputs[input] = data;
  pending.source[input] = src;
  if (pending.inputs.every((i) => i !== null)) {
    list.splice(list.indexOf(pending), 1);
    if (!list.length) delete state.waiting[node];
    put({ node, inputs: pending.inputs, source: pending.source });
    return;
  }
  if (v1) return;
  // v0: make sure every missing input will get data, running its parents if nothing on the
  // stack will feed them (n8n then runs even an idle trigger, which emits an empty item).
  const onStack = new Set(state.stack.map((e) => e.node));
  pending.inputs.forEach((inp, i) => {
    if (inp !== null) return;
    for (const p of graph.parents.get(node)?.[i] ?? []) {
      if (onStack.has(p.node) || state.runData[p.node]) continue;
      if (graph.ancestors(p.node).some((a) => onStack.has(a))) continue;
      // The highest ancestor that has not run starts the missing branch.
      const chain = [p.node, ...graph.ancestors(p.node)].filter((n) => !state.runData[n]);
      const startNode =
        chain.find((n) =>
          (graph.parents.get(n) ?? []).every((l) => !l?.length || l.every((x) => state.runData[x.node])),
        ) ?? p.node;
      state.stack.push({ node: startNode, inputs: [[{ json: {} }]], source: null });
      onStack.add(startNode);
    }
  });
}
