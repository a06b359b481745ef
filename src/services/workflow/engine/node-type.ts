// What a node type is: one file under nodes/, registered by its n8n type name.
import type { ExpressionData, Expressions, Item } from '../expressions/api.js';
import type { ExecutionMode, WorkflowDefinition, WorkflowNode } from './types.js';
import type { OutboundInit } from '../../../platform/outbound.js';

/** How a trigger node starts executions; the engine and activation read this. */
export type TriggerKind = 'manual' | 'webhook' | 'schedule' | 'event' | 'workflow' | 'error' | 'other';

export interface WebhookResponse {
  status: number;
  headers: Record<string, string>;
  /** A string or Buffer is sent as is; anything else as JSON. undefined sends an empty body. */
  body: unknown;
}

/** Thrown by a node to fail with n8n's message (and optional description). */
export class NodeOperationError extends Error {
  constructor(
    message: string,
    public readonly description?: string,
    /** The failing item, for continueOnFail / error output routing. */
    public readonly itemIndex?: number,
  ) {
    super(message);
  }
}

/** A node that parks the execution (Wait) returns this instead of items. */
export interface WaitRequest {
  wait: { until?: Date; webhook?: boolean };
}

/**
 * Thrown by a node whose output n8n's engine itself cannot take: n8n fails the whole run after the
 * node ran, outside it (the node's run is not recorded, no output passes on).
 */
export class RunFailure extends Error {}

/**
 * A node's outputs, a wait, or null: the node succeeded without data (n8n's Split in Batches v1 with
 * nothing left); its run is not recorded and nothing after it runs, as in n8n.
 */
export type NodeResult = Array<Item[] | null> | WaitRequest | null;

/** A data table row filter as n8n's data table service takes it. */
export interface DataTableFilter {
  type: 'and' | 'or';
  filters: Array<{ columnName: string; condition: string; value: unknown }>;
}

/**
 * The data tables of the workflow's project, as n8n's data table proxy gives them to the Data
 * Table node (data-tables/node-access.ts). Failures throw with n8n's messages.
 */
export interface NodeDataTables {
  /** The id of the newest-updated table whose name contains `name` (case ignored), or undefined. */
  idByName(name: string): Promise<string | undefined>;
  columns(id: string): Promise<Array<{ name: string; type: string }>>;
  rows(
    id: string,
    q: { filter?: DataTableFilter; skip: number; take: number; sortBy?: [string, string] },
  ): Promise<{ data: Array<Record<string, unknown>>; count: number }>;
  insert(id: string, rows: Array<Record<string, unknown>>, returnType: 'count' | 'all'): Promise<unknown>;
  update(
    id: string,
    q: { filter: DataTableFilter; data: Record<string, unknown>; dryRun: boolean },
  ): Promise<unknown[]>;
  upsert(
    id: string,
    q: { filter: DataTableFilter; data: Record<string, unknown>; dryRun: boolean },
  ): Promise<unknown[]>;
  deleteRows(id: string, q: { filter: DataTableFilter; dryRun: boolean }): Promise<unknown[]>;
  listTables(q: {
    skip: number;
    take?: number;
    name?: string;
    sortBy?: string;
  }): Promise<{ data: Array<Record<string, unknown>>; count: number }>;
  createTable(name: string, columns: Array<{ name: string; type: string }>): Promise<Record<string, unknown>>;
  renameTable(id: string, name: string): Promise<boolean>;
  deleteTable(id: string): Promise<boolean>;
}

/** The services a node may use, given by the workflow service (never imported by node files). */
export interface NodeServices {
  /** fetch() through the SSRF guard, every redirect hop checked (`init.maxRedirects`, default 21). */
  fetch(url: string, init: OutboundInit, timeoutMs?: number): Promise<import('undici').Response>;
  /** fetch() for URLs the operator configured (sibling services): that origin may be this machine, a redirect elsewhere is guarded. */
  fetchTrusted(url: string, init: OutboundInit, timeoutMs?: number): Promise<import('undici').Response>;
  /** Runs another workflow to completion and returns its last node's output. */
  runSubWorkflow(
    workflowId: string,
    items: Item[],
    parent: { executionId: string; workflowId: string },
  ): Promise<Item[]>;
  /** Runs a workflow given as JSON in the node (Execute Workflow `source: "parameter"`). */
  runInlineWorkflow(
    definition: Record<string, unknown>,
    items: Item[],
    parent: { executionId: string; workflowId: string },
  ): Promise<Item[]>;
  /** Base URLs of the sibling Hamlet services this process knows (blog, mail, community, home). */
  serviceUrl(service: string): string | undefined;
  /** A key for a sibling service's API, from the node's parameters or the operator's environment. */
  env: Record<string, string | undefined>;
  /**
   * The clear data of the credential of `type` the node references (`node.credentials[type]`);
   * throws NodeOperationError when it is missing. Absent where no credentials are kept.
   */
  credential?(node: WorkflowNode, type: string): Promise<Record<string, unknown>>;
  /** The one folder Read/Write Files from Disk may use; absent, the node is off. */
  filesDir?: string;
  /** The workflow's data tables (the Data Table node); absent where none are kept. */
  dataTables?: NodeDataTables;
}

export interface NodeContext {
  node: WorkflowNode;
  typeVersion: number;
  workflow: WorkflowDefinition;
  executionId: string;
  mode: ExecutionMode;
  /** Input items per input index (null: that input got no data). */
  inputs: Array<Item[] | null>;
  /** Items on the first input. */
  items: Item[];
  runIndex: number;
  /** A parameter evaluated for one item (expressions resolved); `fallback` when absent. */
  param<T = unknown>(path: string, itemIndex: number, fallback?: NoInfer<T>): Promise<T>;
  /** A parameter as written, unevaluated. */
  raw<T = unknown>(path: string, fallback?: NoInfer<T>): T;
  expressionData(itemIndex: number): ExpressionData;
  expressions: Expressions;
  /** State of this node kept across its runs in one execution (Loop Over Items). */
  context: Record<string, unknown>;
  /** Workflow static data, written back after the run. */
  staticData: { global: Record<string, unknown>; node: Record<string, unknown> };
  /** Whether failures should become items instead of failing the node. */
  continueOnFail: boolean;
  now(): Date;
  /** Waits `ms` of clock time (frozen clock: until it is advanced); resolves early when the run is aborted. */
  sleep(ms: number): Promise<void>;
  services: NodeServices;
  /** Set on runs that resume a parked node, with the data it resumed with (Wait until webhook). */
  resumed?: { data?: Item[] };
  /** For webhook executions: sends the HTTP response (Respond to Webhook). */
  respond(response: WebhookResponse): void;
  signal: AbortSignal;
}

export interface NodeType {
  /** n8n type names this file implements, e.g. ['n8n-nodes-base.set']. */
  types: string[];
  trigger?: TriggerKind;
  /** Multi-input nodes that n8n (v1 order) does not run while any input lacks data. */
  requiresAllInputs?(node: WorkflowNode): boolean;
  /** Number of main outputs for this node's parameters (default 1). */
  outputs?(node: WorkflowNode): number;
  /** Webhook triggers other than the Webhook node: the method they listen on when the node does not say. */
  webhookMethod?: string;
  /** Webhook triggers: turns the request item ({headers, params, query, body, …}) into the trigger's output; none → ignored. */
  fromWebhook?(item: Item, node: WorkflowNode): Item[];
  /** Event triggers: the platform event bus topic they listen to. */
  topic?: string;
  /** Event triggers: the items an event starts a run with, or none when the node's filters reject it. */
  fromEvent?(payload: unknown, node: WorkflowNode): Item[];
  /** Schedule triggers: the cron patterns (with seconds) the node fires on. */
  schedules?(node: WorkflowNode): string[];
  /**
   * Triggers: the items a manual run started at this node begins with when the caller gives no
   * data, as n8n's editor run of that trigger (a schedule item, the Error Trigger's example
   * error). Without it, one empty item.
   */
  manualItems?(at: { now: Date; timezone: string; baseUrl: string }): Item[];
  /** Produces the node's output per output index. Triggers started by the engine are not executed; their first output is given. */
  execute(ctx: NodeContext): Promise<NodeResult> | NodeResult;
}
