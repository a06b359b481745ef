// Execution rows ↔ n8n's API shapes, and the stored `data` object that also carries the
// engine state a waiting execution resumes from.
import type { ExecutionState, NodeErrorInfo, WorkflowDefinition } from '../engine/types.js';
import type { ExecutionRow, LightExecutionRow } from '../store/index.js';
import type { Item } from '../expressions/api.js';
import type { SpillWriter } from '../binary/spill.js';

export interface StoredExecutionData {
  version: 1;
  startData: Record<string, unknown>;
  resultData: {
    runData: ExecutionState['runData'];
    pinData: unknown;
    lastNodeExecuted?: string;
    error?: NodeErrorInfo;
    /** The execution's custom data (where n8n keeps it too). */
    metadata?: Record<string, string>;
  };
  executionData: {
    contextData: ExecutionState['nodeContext'];
    nodeExecutionStack: ExecutionState['stack'];
    metadata: Record<string, unknown>;
    waitingExecution: ExecutionState['waiting'];
    waitingExecutionSource: Record<string, unknown>;
    runtimeData?: Record<string, unknown>;
    executionIndex: number;
  };
}

function toStoredData(
  state: ExecutionState,
  wf: WorkflowDefinition,
  runtime: Record<string, unknown>,
  startData: Record<string, unknown> = {},
): StoredExecutionData {
  return {
    version: 1,
    startData,
    resultData: {
      runData: state.runData,
      pinData: wf.pinData ?? null,
      lastNodeExecuted: state.lastNodeExecuted,
      ...(state.error ? { error: state.error } : {}),
      ...(state.customData && Object.keys(state.customData).length ? { metadata: state.customData } : {}),
    },
    executionData: {
      contextData: state.nodeContext,
      nodeExecutionStack: state.stack,
      metadata: {},
      waitingExecution: state.waiting,
      waitingExecutionSource: {},
      runtimeData: runtime,
      executionIndex: state.executionIndex,
    },
  };
}

/** A node run whose output items' large files are references (the same run when none is). */
function withSpilledFiles<T extends { data?: { main: Array<Item[] | null> } }>(task: T, spill: SpillWriter): T {
  const main = task.data?.main;
  if (!main) return task;
  let changed = false;
  const out = main.map(
    (list) =>
      list?.map((item) => {
        if (!item.binary) return item;
        const binary = spill.binary(item.binary);
        if (binary === item.binary) return item;
        changed = true;
        return { ...item, binary };
      }) ?? null,
  );
  return changed ? { ...task, data: { ...task.data, main: out } } : task;
}

/**
 * toStoredData as JSON text, built a node run at a time with pauses (`pause` yields to the
 * event loop when it returns a promise), so saving a large execution never stalls the server
 * for the length of one big JSON.stringify.
 */
export async function storedDataText(
  state: ExecutionState,
  wf: WorkflowDefinition,
  runtime: Record<string, unknown>,
  startData: Record<string, unknown>,
  pause: () => Promise<void> | undefined,
  /** Writes large files out and references them (binary/spill.ts). */
  spill?: SpillWriter,
): Promise<string> {
  const data = toStoredData(state, wf, runtime, startData);
  const token = `__runData_${Math.random().toString(36).slice(2)}__`;
  (data.resultData as { runData: unknown }).runData = token;
  const [before, after] = JSON.stringify(data, spill?.replacer).split(`"${token}"`) as [string, string];
  const parts: string[] = [before, '{'];
  let firstNode = true;
  for (const [name, tasks] of Object.entries(state.runData)) {
    parts.push(`${firstNode ? '' : ','}${JSON.stringify(name)}:[`);
    firstNode = false;
    for (let i = 0; i < tasks.length; i++) {
      parts.push((i ? ',' : '') + JSON.stringify(spill ? withSpilledFiles(tasks[i], spill) : tasks[i]));
      const p = pause();
      if (p) await p;
    }
    parts.push(']');
  }
  parts.push('}', after);
  return parts.join('');
}

/**
 * An execution with its data as JSON text, the stored data spliced in as is: a large
 * execution is not parsed only to be serialized again.
 */
export function executionWithDataText(row: ExecutionRow): string {
  const head = JSON.stringify({
    ...executionToApi(row, false),
    customData: row.custom_data ? JSON.parse(row.custom_data) : {},
    createdAt: row.created_at,
    deletedAt: null,
    storedAt: 'db',
  });
  return `${head.slice(0, -1)},"data":${row.data ?? 'null'},"workflowData":${row.workflow_data ?? 'null'}}`;
}

export function stateFromStored(d: StoredExecutionData): ExecutionState {
  return {
    runData: d.resultData.runData ?? {},
    stack: d.executionData?.nodeExecutionStack ?? [],
    waiting: d.executionData?.waitingExecution ?? {},
    executionIndex: d.executionData?.executionIndex ?? 0,
    lastNodeExecuted: d.resultData.lastNodeExecuted,
    nodeContext: d.executionData?.contextData ?? {},
    customData: d.resultData.metadata ?? {},
  };
}

/** An execution as the API shows it (http/schemas.ts Execution); the run data only when asked for. */
export interface ExecutionJson {
  id: string;
  finished: boolean;
  mode: string;
  retryOf: string | null;
  retrySuccessId: string | null;
  status: string;
  startedAt: string | null;
  stoppedAt: string | null;
  workflowId: string;
  waitTill: string | null;
  data?: unknown;
  workflowData?: unknown;
  customData?: unknown;
  createdAt?: string;
  deletedAt?: null;
  storedAt?: string;
}

export function executionToApi(row: ExecutionRow | LightExecutionRow, includeData: boolean): ExecutionJson {
  const out: ExecutionJson = {
    id: String(row.id),
    finished: row.status === 'success',
    mode: row.mode,
    retryOf: row.retry_of,
    retrySuccessId: row.retry_success_id,
    status: row.status,
    startedAt: row.started_at,
    stoppedAt: row.stopped_at,
    workflowId: row.workflow_id,
    waitTill: row.wait_till,
  };
  if (includeData && 'data' in row) {
    out.data = row.data ? JSON.parse(row.data) : null;
    out.workflowData = row.workflow_data ? JSON.parse(row.workflow_data) : null;
    out.customData = row.custom_data ? JSON.parse(row.custom_data) : {};
    out.createdAt = row.created_at;
    out.deletedAt = null;
    out.storedAt = 'db';
  }
  return out;
}
