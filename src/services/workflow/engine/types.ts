// n8n's workflow JSON, as stored and as the engine reads it. Unknown keys are kept as given:
// an export must import unchanged (sticky notes, LangChain nodes, credentials, meta).
import type { Item } from '../expressions/api.js';

export type { Item };

export interface WorkflowNode {
  id?: string;
  name: string;
  type: string;
  typeVersion?: number;
  position?: [number, number];
  parameters?: Record<string, unknown>;
  disabled?: boolean;
  executeOnce?: boolean;
  alwaysOutputData?: boolean;
  retryOnFail?: boolean;
  maxTries?: number;
  waitBetweenTries?: number;
  onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
  /** Deprecated boolean form of onError: continueRegularOutput. */
  continueOnFail?: boolean;
  webhookId?: string;
  credentials?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface Connection {
  node: string;
  type: string;
  /** The target's input index. */
  index: number;
}

/** source node → connection type → output index → targets (null and [] both mean none). */
export type Connections = Record<string, Record<string, Array<Connection[] | null> | null | undefined>>;

export interface WorkflowSettings {
  executionOrder?: 'v0' | 'v1';
  saveManualExecutions?: boolean;
  saveDataErrorExecution?: 'all' | 'none';
  saveDataSuccessExecution?: 'all' | 'none';
  saveExecutionProgress?: boolean;
  executionTimeout?: number;
  errorWorkflow?: string;
  timezone?: string;
  [key: string]: unknown;
}

/** What the engine needs of a stored workflow. */
export interface WorkflowDefinition {
  id: string;
  name: string;
  active: boolean;
  nodes: WorkflowNode[];
  connections: Connections;
  settings: WorkflowSettings;
  staticData?: Record<string, unknown> | null;
  pinData?: Record<string, Array<{ json?: Record<string, unknown> } | Record<string, unknown>>> | null;
  versionId: string;
}

/** Where a node run's input came from (n8n's ISourceData). */
export interface SourceData {
  previousNode: string;
  previousNodeOutput: number;
  previousNodeRun: number;
}

export interface NodeErrorInfo {
  message: string;
  description?: string;
  node?: { name: string; type: string; typeVersion?: number };
  name?: string;
  [key: string]: unknown;
}

/** One run of one node, as n8n stores it in runData. */
export interface TaskData {
  startTime: number;
  executionIndex: number;
  executionTime: number;
  executionStatus: 'success' | 'error' | 'waiting' | 'canceled';
  source: Array<SourceData | null>;
  data?: { main: Array<Item[] | null> };
  error?: NodeErrorInfo;
}

export type RunData = Record<string, TaskData[]>;

/** A node waiting on the stack to run, with its input per input index. */
export interface StackEntry {
  node: string;
  inputs: Array<Item[] | null>;
  source: Array<SourceData | null> | null;
  /** Set when this entry is the run that resumes a node parked by Wait. */
  resumed?: boolean;
}

/** The engine's whole state: plain JSON, so a parked (waiting) execution can be stored and resumed. */
export interface ExecutionState {
  runData: RunData;
  stack: StackEntry[];
  /** Multi-input nodes collecting inputs: node → list of partially filled input sets. */
  waiting: Record<string, Array<{ inputs: Array<Item[] | null>; source: Array<SourceData | null> }>>;
  executionIndex: number;
  lastNodeExecuted?: string;
  error?: NodeErrorInfo;
  /** Node-level state kept across runs of one execution (Loop Over Items). */
  nodeContext: Record<string, Record<string, unknown>>;
  /** The execution's custom data ($execution.customData, the Execution Data node): text by key. */
  customData?: Record<string, string>;
}

export type ExecutionMode = 'manual' | 'trigger' | 'webhook' | 'retry' | 'error' | 'integrated' | 'internal';
