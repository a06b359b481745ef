// The contract between the workflow engine and the expression/code sandbox.
// The engine knows items, nodes and runs; the sandbox knows how to evaluate n8n expressions
// (`={{ … }}`) and Code/Function nodes in QuickJS, never in the server's own V8 context.
// Both sides code against this file; change it only together.

/** n8n's item: one record flowing between nodes. */
export interface Item {
  json: Record<string, unknown>;
  binary?: Record<string, unknown>;
  pairedItem?: { item: number; input?: number } | Array<{ item: number; input?: number }> | number;
  /** Set on items that a node produced on its error output / with continueOnFail. */
  error?: unknown;
}

/** What an expression or Code node may see. Everything is read lazily so unused data costs nothing. */
export interface ExpressionData {
  /** The node being executed. */
  nodeName: string;
  /** Items on the current node's first input: $input, $json, $binary. */
  inputItems: Item[];
  itemIndex: number;
  runIndex: number;
  /** Output items of a node that has run (output `outputIndex`, default 0; last run unless runIndex is given). */
  nodeOutput(nodeName: string, outputIndex?: number, runIndex?: number): Item[] | undefined;
  /** How many times a node has run in this execution ($('X').all(branch, run) refuses a later run). */
  nodeRunCount?(nodeName: string): number;
  /** Whether a node with that name has run in this execution ($('X').isExecuted). */
  nodeExecuted(nodeName: string): boolean;
  /** A node's parameters as written in the workflow ($node["X"].parameter). */
  nodeParameters(nodeName: string): Record<string, unknown> | undefined;
  /**
   * A node's context data, for `$node["X"].context` / `$('X').context` (e.g. Split In Batches v1's
   * `noItemsLeft`). Optional: without it, context reads as {}.
   */
  nodeContext?(nodeName: string): Record<string, unknown> | undefined;
  /** The item of `nodeName` that the current input item derives from, following pairedItem ($('X').item). */
  pairedItem(nodeName: string, itemIndex: number): Item | undefined;
  /** The node that fed the current node ($prevNode). */
  prevNode?: { name: string; outputIndex: number; runIndex: number };
  workflow: { id: string; name: string; active: boolean };
  execution: { id: string; mode: string; resumeUrl: string; customData?: Record<string, string> };
  /** Only the variables the operator allowed (WORKFLOW_ENV_ALLOW). */
  env: Record<string, string>;
  /** The instance's variables ($vars); none when absent. */
  vars?: Record<string, string>;
  /** Workflow static data ($getWorkflowStaticData). Mutations by Code nodes are written back by the engine. */
  staticData?: { global: Record<string, unknown>; node: Record<string, unknown> };
  /** From the injectable clock: $now, $today, Date.now() inside the sandbox. */
  now: Date;
  /** IANA zone for $now/$today (workflow settings.timezone, else the server's default). */
  timezone: string;
  /**
   * Variables a node adds for the expressions it resolves itself, as n8n's "additional keys":
   * the HTTP Request node's pagination gives `$response`, `$pageCount` and `$request`.
   */
  additionalKeys?: { $response?: unknown; $pageCount?: number; $request?: unknown };
}

export class ExpressionError extends Error {
  constructor(
    message: string,
    /** The expression text that failed, for the execution's error record. */
    public readonly expression?: string,
    public readonly description?: string,
  ) {
    super(message);
  }
}

/**
 * What a Code node's code returned is not items. n8n 2.8.4 checks this outside the Code node's
 * own error handling: under continueOnFail the node does not turn it into an error item, the
 * engine's rule applies (observed: the input passes on and the run records the error).
 */
export class CodeOutputError extends ExpressionError {}

export interface CodeRun {
  code: string;
  mode: 'runOnceForAllItems' | 'runOnceForEachItem';
  data: ExpressionData;
  /** The execution's signal: once aborted (stop, timeout), the run is abandoned. */
  signal?: AbortSignal;
}

export interface Expressions {
  /** True when a parameter value is an expression (a string starting with '='). */
  isExpression(value: unknown): boolean;
  /**
   * Resolves a parameter value: expression strings are evaluated, objects and arrays are
   * resolved deeply, anything else is returned as is. Rejects with ExpressionError.
   * Asynchronous because evaluation may happen off the event loop; `signal` (the execution's)
   * abandons it once aborted.
   */
  resolve(value: unknown, data: ExpressionData, signal?: AbortSignal): Promise<unknown>;
  /**
   * Runs a Code node's JavaScript with n8n's semantics; returns the node's output items. Throws ExpressionError.
   * runOnceForEachItem runs the code once, for the item `data.itemIndex` (the caller loops over items),
   * and returns [] or [item] (paired to that item).
   */
  runCode(run: CodeRun): Promise<Item[]>;
  /** Runs a legacy Function node (`items` in, items out) or FunctionItem (`item` in: the item `data.itemIndex`, once per call). */
  runFunction(run: { code: string; perItem: boolean; data: ExpressionData; signal?: AbortSignal }): Promise<Item[]>;
  close(): void;
}

export interface SandboxLimits {
  /** Wall-clock limit per evaluation or code run, ms. */
  timeoutMs: number;
  /** Memory limit of one sandbox runtime, bytes. */
  memoryBytes: number;
  /** Worker threads kept running sandboxes (WORKFLOW_SANDBOX_WORKERS); default: the number of cores. */
  workers?: number;
  /**
   * Most worker threads at once (WORKFLOW_SANDBOX_MAX_WORKERS): while every worker is busy the
   * pool keeps one more ready (a spare), up to this; default `workers` + 1.
   */
  maxWorkers?: number;
}
