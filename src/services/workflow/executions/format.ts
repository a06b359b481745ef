// Execution rows ↔ n8n's API shapes, and the stored `data` object that also carries the
// engine state a waiting execution resumes from.
import type { ExecutionState, NodeErrorInfo, WorkflowDefinition } from '../engine/types.js';
import type { ExecutionRow, LightExecutionRow } from '../store.js';

export interface StoredExecutionData {
  version: 1;
  startData: Record<string, unknown>;
  resultData: {
    runData: ExecutionState['runData'];
    pinData: unknown;
    lastNodeExecuted?: string;
    error?: NodeErrorInfo;
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

export function toStoredData(state: ExecutionState, wf: WorkflowDefinition, runtime: Record<string, unknown>, startData: Record<string, unknown> = {}): StoredExecutionData {
  return {
    version: 1,
    startData,
    resultData: {
      runData: state.runData,
      pinData: wf.pinData ?? null,
      lastNodeExecuted: state.lastNodeExecuted,
      ...(state.error ? { error: state.error } : {}),
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

export function stateFromStored(d: StoredExecutionData): ExecutionState {
  return {
    runData: d.resultData.runData ?? {},
    stack: d.executionData?.nodeExecutionStack ?? [],
    waiting: d.executionData?.waitingExecution ?? {},
    executionIndex: d.executionData?.executionIndex ?? 0,
    lastNodeExecuted: d.resultData.lastNodeExecuted,
    nodeContext: d.executionData?.contextData ?? {},
  };
}

export function executionToApi(row: ExecutionRow | LightExecutionRow, includeData: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
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
