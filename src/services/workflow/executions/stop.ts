// Stopping executions (n8n's POST /executions/{id}/stop and POST /executions/stop).
//
// Where an execution is decides how it stops:
// - running in this process (inline runs are not even in the database yet): its AbortSignal
//   fires, the engine ends it `canceled`, and the answer is the row as saved;
// - running in another process (queue mode): that process is asked over the event bus; if
//   nobody answers, its process is gone and the row is marked here;
// - `new` (queued) or `waiting` (parked by Wait): the row is marked `canceled` in the database,
//   conditionally on its status, so a worker that starts it at the same moment wins or loses
//   cleanly (a job that later finds it canceled does nothing).
import type { Platform } from '../../../platform/service.js';
import { ExecutionCancelledError } from '../engine/limits.js';
import { toErrorInfo } from '../engine/execute.js';
import type { ExecutionRow, LightExecutionRow, WorkflowStore } from '../store/index.js';
import { STOP_TOPIC, type Runner } from './runner.js';

/** n8n's stoppable statuses; `unknown` is never written here but n8n accepts it. */
const STOPPABLE = ['new', 'unknown', 'waiting', 'running'];
/** How long a stop waits for another process to end an execution it runs. */
const REMOTE_STOP_WAIT_MS = 3000;

export type StopOutcome = { row: ExecutionRow | LightExecutionRow } | { notFound: true } | { conflict: string };

export interface StopFilter {
  /** Database statuses: `new` (n8n's "queued"), `running`, `waiting`. */
  statuses: string[];
  workflowId?: string;
  startedAfter?: Date;
  startedBefore?: Date;
}

export class ExecutionStopper {
  constructor(
    private readonly platform: Platform,
    private readonly store: WorkflowStore,
    private readonly runner: Runner,
  ) {}

  async stop(id: string): Promise<StopOutcome> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const here = this.runner.abortHere(id);
      if (here) {
        const row = (await here) ?? (await this.store.getExecution(id, false));
        return row ? { row } : { notFound: true };
      }
      const row = (await this.store.getExecution(id, true)) as ExecutionRow | undefined;
      if (!row) return { notFound: true };
      if (!STOPPABLE.includes(row.status)) {
        return {
          conflict: `Only running or waiting executions can be stopped and ${row.id} is currently ${row.status}`,
        };
      }
      if (row.status === 'running') {
        await this.platform.events.publish(STOP_TOPIC, { executionId: id });
        const ended = await this.waitWhileRunning(id);
        if (ended) return { row: ended };
        // Still `running` and nobody ends it: its process died. Record the stop here.
      }
      const patch = {
        status: 'canceled',
        stopped_at: this.platform.clock.now().toISOString(),
        wait_till: null,
        data: withCancellation(row.data),
      };
      if (await this.store.updateExecutionIf(id, row.status, patch)) return { row: { ...row, ...patch } };
      // A worker moved it meanwhile (started or finished it): look again.
    }
    const row = await this.store.getExecution(id, false);
    return row ? { row } : { notFound: true };
  }

  /** Stops every matching execution; resolves with how many ended canceled. */
  async stopMany(filter: StopFilter): Promise<number> {
    const inRange = (startedAt: string | null) => {
      if (!filter.startedAfter && !filter.startedBefore) return true;
      if (!startedAt) return false;
      const t = new Date(startedAt).getTime();
      return (
        (!filter.startedAfter || t > filter.startedAfter.getTime()) &&
        (!filter.startedBefore || t < filter.startedBefore.getTime())
      );
    };
    const ids = new Set<string>();
    if (filter.statuses.includes('running')) {
      for (const r of this.runner.runningHere())
        if ((!filter.workflowId || r.workflowId === filter.workflowId) && inRange(r.startedAt)) ids.add(r.id);
    }
    for (const r of await this.store.executionsWithStatuses(filter.statuses, filter.workflowId))
      if (inRange(r.started_at)) ids.add(String(r.id));
    const outcomes = await Promise.all([...ids].map((id) => this.stop(id)));
    return outcomes.filter((o) => 'row' in o && o.row.status === 'canceled').length;
  }

  private async waitWhileRunning(id: string): Promise<LightExecutionRow | undefined> {
    const deadline = Date.now() + REMOTE_STOP_WAIT_MS;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      const row = await this.store.getExecution(id, false);
      if (!row || row.status !== 'running') return row;
    }
    return undefined;
  }
}

/** The stored data of a stopped execution, with n8n's manual-cancellation error as its result. */
function withCancellation(data: string | null): string {
  let stored: { resultData?: Record<string, unknown> } & Record<string, unknown> = {};
  try {
    stored = data ? JSON.parse(data) : {};
  } catch {
    /* unreadable data: keep only the error */
  }
  stored.resultData = {
    runData: {},
    ...(stored.resultData ?? {}),
    error: toErrorInfo(new ExecutionCancelledError('manual')),
  };
  return JSON.stringify(stored);
}
