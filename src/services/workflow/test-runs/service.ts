// Evaluation test runs, as n8n's public API (n8n 2.30+, which n8n-mcp's n8n_evaluations calls)
// has them: a run takes the rows of the Evaluation Trigger's dataset (a data table here; Google
// Sheets needs a network and credentials this instance does not reach and is refused) and runs
// the workflow once per row, from the trigger, in the background; each row is a test case with
// its execution, inputs, the last node's output and the metrics of Evaluation nodes it reached.
// A run can be cancelled while new or running; the cases already run stay.
import type { Clock } from '../../../platform/clock.js';
import { DomainError } from '../../../platform/errors.js';
import { randomBase62 } from '../../../platform/ids.js';
import type { Logger } from '../../../platform/logger.js';
import type { DataTables } from '../data-tables/service.js';
import type { WorkflowNode } from '../engine/types.js';
import type { Runner } from '../executions/runner.js';
import type { WorkflowRow } from '../store/index.js';
import type { WorkflowCache } from '../workflows/model.js';
import type { TestCaseRow, TestRunRow, TestRunStore } from '../store/test-runs.js';

const TRIGGER = 'n8n-nodes-base.evaluationTrigger';
const EVALUATION = 'n8n-nodes-base.evaluation';
/** The most rows one run takes from its dataset. */
const MAX_CASES = 1000;

const parse = (text: string | null): unknown => (text ? JSON.parse(text) : null);

export function testRunJson(r: TestRunRow) {
  return {
    id: r.id,
    workflowId: r.workflow_id,
    status: r.status,
    runAt: r.run_at,
    completedAt: r.completed_at,
    metrics: parse(r.metrics),
    errorCode: r.error_code,
    errorDetails: parse(r.error_details),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function testCaseJson(c: TestCaseRow) {
  return {
    id: c.id,
    testRunId: c.test_run_id,
    executionId: c.execution_id,
    status: c.status,
    inputs: parse(c.inputs),
    outputs: parse(c.outputs),
    metrics: parse(c.metrics),
    errorCode: c.error_code,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  };
}

/** The numbers Evaluation nodes set in a run (the json of their output items). */
function caseMetrics(
  runData: Record<string, Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }>> } }>>,
  nodes: WorkflowNode[],
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of nodes.filter((x) => x.type === EVALUATION)) {
    for (const run of runData[n.name] ?? [])
      for (const item of run.data?.main?.[0] ?? [])
        for (const [k, v] of Object.entries(item.json)) if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  }
  return out;
}

export class TestRuns {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    readonly store: TestRunStore,
    private readonly d: { runner: Runner; cache: WorkflowCache; tables: DataTables; clock: Clock; logger: Logger },
  ) {}

  private now(): string {
    return this.d.clock.now().toISOString();
  }

  /** Starts a run over the trigger's dataset; answers it as created (status new). */
  async start(workflow: WorkflowRow): Promise<TestRunRow> {
    const prepared = this.d.cache.get(workflow);
    const trigger = prepared.definition.nodes.find((n) => n.type === TRIGGER && n.disabled !== true);
    if (!trigger)
      throw new DomainError(
        'conflict',
        'Evaluation trigger not found: the workflow needs an enabled Evaluation Trigger node',
      );
    const params = trigger.parameters ?? {};
    if ((params.source ?? 'googleSheets') !== 'dataTable')
      throw new DomainError(
        'invalid',
        'Only a data table dataset can be evaluated here: set the Evaluation Trigger\'s source to "dataTable"',
      );
    const tableRef = params.dataTableId as { value?: unknown } | string | undefined;
    const tableId = typeof tableRef === 'string' ? tableRef : String(tableRef?.value ?? '');
    const table = await this.d.tables.table(tableId);
    if (await this.store.runningFor(workflow.id))
      throw new DomainError('conflict', 'A test run is already running for this workflow');
    const limit =
      params.limitRows === true && Number.isInteger(params.maxRows)
        ? Math.min(Number(params.maxRows), MAX_CASES)
        : MAX_CASES;
    const { rows } = await this.d.tables.store.rows(table, { limit, offset: 0, sortBy: 'id:asc' });
    const now = this.now();
    const run: TestRunRow = {
      id: randomBase62(16),
      workflow_id: workflow.id,
      status: 'new',
      run_at: null,
      completed_at: null,
      metrics: null,
      error_code: null,
      error_details: null,
      created_at: now,
      updated_at: now,
    };
    await this.store.insertRun(run);
    const p = this.execute(run.id, workflow, trigger.name, rows).catch((err: Error) => {
      this.d.logger.warn({ err, service: 'workflow', testRun: run.id }, 'test run failed');
      return this.store
        .moveRun(run.id, ['new', 'running'], {
          status: 'error',
          error_code: 'UNKNOWN_ERROR',
          error_details: JSON.stringify({ message: err.message }),
          completed_at: this.now(),
          updated_at: this.now(),
        })
        .then(() => undefined);
    });
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    return run;
  }

  private async execute(
    runId: string,
    workflow: WorkflowRow,
    triggerName: string,
    rows: Array<Record<string, unknown>>,
  ): Promise<void> {
    if (!(await this.store.moveRun(runId, ['new'], { status: 'running', run_at: this.now(), updated_at: this.now() })))
      return;
    const sums: Record<string, { total: number; n: number }> = {};
    for (let i = 0; i < rows.length; i++) {
      if ((await this.store.getRun(runId))?.status !== 'running') return; // cancelled
      const prepared = this.d.cache.get(workflow);
      const started = this.now();
      const { row: exec, outcome } = await this.d.runner.run({
        prepared,
        mode: 'manual',
        start: { node: triggerName, items: [{ json: rows[i] }] },
      });
      const data = (exec.data ? JSON.parse(exec.data) : {}) as {
        resultData?: { runData?: Record<string, never>; lastNodeExecuted?: string };
      };
      const runData = data.resultData?.runData ?? {};
      const last = data.resultData?.lastNodeExecuted;
      const lastRuns = (last ? runData[last] : undefined) as
        Array<{ data?: { main?: Array<Array<{ json: unknown }>> } }> | undefined;
      const outputs = (lastRuns?.at(-1)?.data?.main?.[0] ?? []).map((it) => it.json);
      const metrics = caseMetrics(runData, prepared.definition.nodes);
      for (const [k, v] of Object.entries(metrics)) {
        const sum = (sums[k] ??= { total: 0, n: 0 });
        sum.total += v;
        sum.n++;
      }
      const ok = outcome.status !== 'error';
      await this.store.insertCase({
        id: randomBase62(16),
        test_run_id: runId,
        position: i,
        execution_id: String(exec.id),
        status: ok ? 'success' : 'error',
        inputs: JSON.stringify(rows[i]),
        outputs: JSON.stringify(outputs),
        metrics: JSON.stringify(metrics),
        error_code: ok ? null : 'FAILED_TO_EXECUTE_WORKFLOW',
        created_at: started,
        updated_at: this.now(),
      });
    }
    const metrics = Object.fromEntries(Object.entries(sums).map(([k, s]) => [k, s.total / s.n]));
    await this.store.moveRun(runId, ['running'], {
      status: 'completed',
      completed_at: this.now(),
      metrics: JSON.stringify(metrics),
      updated_at: this.now(),
    });
  }

  /** Cancels a new or running run; a finished one is n8n's 409. */
  async cancel(run: TestRunRow): Promise<TestRunRow> {
    const now = this.now();
    if (
      !(await this.store.moveRun(run.id, ['new', 'running'], {
        status: 'cancelled',
        completed_at: now,
        updated_at: now,
      }))
    ) {
      throw new DomainError(
        'conflict',
        `The test run has already finished (status ${run.status === 'new' || run.status === 'running' ? 'completed' : run.status})`,
      );
    }
    return (await this.store.getRun(run.id))!;
  }

  /** Waits for runs going in this process (stopping, tests). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}
