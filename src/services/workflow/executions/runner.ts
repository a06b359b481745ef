// Runs executions and saves them.
//
// Two ways in:
// - inline (`run`): webhook calls that answer with the workflow's result, /execute, sub-
//   workflows. The run happens in this process and the execution is saved with ONE insert
//   when it ends (the caller has not been answered before that, so a crash loses nothing
//   acknowledged).
// - durable (`enqueue`): schedules, events, `onReceived` webhooks, retries, error workflows,
//   resumes. The execution row (status `new`) and its job are written in one transaction;
//   a job worker — this process, or `hamlet worker` processes in queue mode — runs it. A job
//   that finds its execution already `running` was interrupted by a crash: it becomes `crashed`.
import type { Platform } from '../../../platform/service.js';
import { outboundFetch } from '../../../platform/outbound.js';
import type { Expressions, Item } from '../expressions/api.js';
import { runWorkflow, startState, toErrorInfo, type RunOutcome } from '../engine/execute.js';
import {
  NodeOperationError,
  type NodeDataTables,
  type NodeServices,
  type WebhookResponse,
} from '../engine/node-type.js';
import { effectiveTimeoutS, ExecutionCancelledError } from '../engine/limits.js';
import type { ExecutionMode, ExecutionState, WorkflowDefinition, WorkflowNode } from '../engine/types.js';
import type { WorkflowSettings } from '../settings.js';
import { nodeRegistry } from '../nodes/registry.js';
import type { ExecutionRow, WorkflowStore } from '../store/index.js';
import { findStartNode } from '../workflows/triggers.js';
import type { ListCache } from '../workflows/list-cache.js';
import type { PreparedWorkflow, WorkflowCache } from '../workflows/model.js';
import { stateFromStored, storedDataText, type StoredExecutionData } from './format.js';
import type { BinarySpill } from '../binary/spill.js';
import { maybeYield } from '../engine/limits.js';

const EXECUTE_QUEUE = 'workflow.execute';

/** A pause function for storedDataText: yields once per slice of the event loop. */
function yieldEverySlice(): () => Promise<void> | undefined {
  return () => maybeYield(performance.now());
}
/** Asks whichever process runs an execution to stop it (queue mode: a `hamlet worker`). */
export const STOP_TOPIC = 'workflow.execution.stop';
const MAX_SUB_WORKFLOW_DEPTH = 20;

export interface RunRequest {
  prepared: PreparedWorkflow;
  mode: ExecutionMode;
  start: { node: string; items: Item[]; outputIndex?: number };
  respond?(r: WebhookResponse): void;
  retryOf?: string;
  /** Nesting level of a sub-workflow run. */
  depth?: number;
  /** Continue from this state instead of starting fresh (retries). */
  state?: ExecutionState;
  parent?: { executionId: string; workflowId: string };
}

export interface RunResult {
  row: ExecutionRow;
  outcome: RunOutcome;
  saved: boolean;
}

interface JobPayload {
  executionId: string;
  /** Items a resume webhook delivered. */
  resumeItems?: Item[];
}

/** An execution this process is running right now. */
interface RunningExecution {
  controller: AbortController;
  workflowId: string;
  startedAt: string;
}

/** What a run reads from the instance beside its workflow (variables/, credentials/). */
export interface RunResources {
  /** The variables, as $vars shows them. */
  vars(): Promise<Record<string, string>>;
  /** The clear data of the credential of `type` that a node references (credentials/resolve.ts). */
  credential(node: WorkflowNode, type: string): Promise<Record<string, unknown>>;
  /** Where large files of saved executions go (binary/spill.ts); without it, they stay in the data. */
  binary?: BinarySpill;
  /** The data tables the Data Table node reads and writes (data-tables/node-access.ts). */
  dataTables?: NodeDataTables;
}

export class Runner {
  private readonly allowInternal: boolean;
  private readonly envForExpressions: Record<string, string>;
  private readonly running = new Map<string, RunningExecution>();
  /** Callers waiting for an execution's final row (stop answers with it). */
  private readonly endWaiters = new Map<string, Array<(row: ExecutionRow | undefined) => void>>();

  constructor(
    private readonly platform: Platform,
    private readonly store: WorkflowStore,
    private readonly cache: WorkflowCache,
    private readonly config: WorkflowSettings,
    private readonly expressions: Expressions,
    private readonly baseUrl: () => string,
    /** Workflow lists show static data: a run that changes it drops their cached pages. */
    private readonly workflowLists: ListCache,
    /** This process's key, stamped on the executions it sets running (PostgreSQL). */
    private readonly ownerKey?: number,
    /** The public API's resources runs read: $vars and node credentials. */
    private readonly resources?: RunResources,
  ) {
    this.allowInternal = platform.config.allowInternalRequests;
    this.envForExpressions = config.envForExpressions;
  }

  /** An execution's stored data, its spilled files read back. */
  private parseStored(row: ExecutionRow): unknown {
    const binary = this.resources?.binary;
    return binary ? JSON.parse(row.data ?? '{}', binary.reviver(String(row.id))) : JSON.parse(row.data ?? '{}');
  }

  /** Deletes an execution and the files it spilled (the API's delete, a run its workflow does not save). */
  async deleteWithFiles(executionId: string): Promise<void> {
    await this.store.deleteExecution(executionId);
    this.resources?.binary?.remove(executionId);
  }

  /** Registers the job handler (every process that runs executions: main or `hamlet worker`). */
  registerWorker(): void {
    this.platform.jobs.register<JobPayload>(EXECUTE_QUEUE, (p) => this.processJob(p), {
      concurrency: this.config.concurrency,
      maxAttempts: 3,
    });
    this.platform.events.subscribe<{ executionId: string }>(
      STOP_TOPIC,
      ({ executionId }) => void this.abortHere(String(executionId)),
    );
  }

  /** Executions running in this process (inline runs are not in the database until they end). */
  runningHere(): Array<{ id: string; workflowId: string; startedAt: string }> {
    return [...this.running].map(([id, r]) => ({ id, workflowId: r.workflowId, startedAt: r.startedAt }));
  }

  /**
   * Cancels an execution running in this process and resolves with its final row once saved
   * (undefined when its workflow does not save it); false when it is not running here.
   */
  abortHere(executionId: string): Promise<ExecutionRow | undefined> | false {
    const run = this.running.get(executionId);
    if (!run) return false;
    const ended = new Promise<ExecutionRow | undefined>((resolve) => {
      const list = this.endWaiters.get(executionId) ?? [];
      list.push(resolve);
      this.endWaiters.set(executionId, list);
    });
    run.controller.abort(new ExecutionCancelledError('manual'));
    return ended;
  }

  private ended(executionId: string, row: ExecutionRow | undefined): void {
    const list = this.endWaiters.get(executionId);
    if (!list) return;
    this.endWaiters.delete(executionId);
    for (const resolve of list) resolve(row);
  }

  private readonly inline = new Set<Promise<unknown>>();

  /** Runs now, in this process, and saves the execution when it ends. */
  run(req: RunRequest): Promise<RunResult> {
    const p = this.runInline(req);
    this.inline.add(p);
    const forget = () => this.inline.delete(p);
    p.then(forget, forget);
    return p;
  }

  /** Waits for inline runs still going (a webhook may have been answered before its run ended). */
  async drain(timeoutMs = 10_000): Promise<void> {
    await Promise.race([Promise.allSettled([...this.inline]), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  }

  private async runInline(req: RunRequest): Promise<RunResult> {
    const id = await this.store.nextExecutionId();
    const startedAt = this.platform.clock.now().toISOString();
    const wf = req.prepared.definition;
    const progress = wf.settings?.saveExecutionProgress === true;
    const baseRow: ExecutionRow = {
      id,
      workflow_id: wf.id,
      mode: req.mode,
      status: 'running',
      retry_of: req.retryOf ?? null,
      retry_success_id: null,
      started_at: startedAt,
      stopped_at: null,
      wait_till: null,
      created_at: startedAt,
      data: null,
      workflow_data: req.prepared.snapshot,
      custom_data: null,
      ...(this.ownerKey !== undefined ? { owner: this.ownerKey } : {}),
    };
    let final: ExecutionRow | undefined;
    try {
      if (progress) await this.store.insertExecution(baseRow);
      if (req.depth) this.subDepth.set(id, req.depth);
      const state =
        req.state ??
        startState(req.prepared.graph, wf.settings?.executionOrder === 'v1', req.start, this.platform.clock.ms());
      const outcome = await this.execute(req.prepared, id, req.mode, state, req.respond, undefined, startedAt).finally(
        () => this.subDepth.delete(id),
      );
      const row = await this.finish(baseRow, req.prepared, outcome, req.start.node);
      const saved = this.shouldSave(wf, req.mode, outcome.status);
      if (progress) {
        if (saved) await this.store.updateExecution(id, row);
        else await this.deleteWithFiles(id);
      } else if (saved) {
        await this.store.insertExecution(row);
      } else this.resources?.binary?.remove(id);
      final = row;
      await this.after(req.prepared, row, outcome, req.start.node);
      return { row, outcome, saved };
    } finally {
      this.ended(id, final);
    }
  }

  /** Writes an execution (status `new`) and its job in one transaction; a worker runs it. */
  async enqueue(req: Omit<RunRequest, 'respond'>): Promise<string> {
    const id = await this.store.nextExecutionId();
    const now = this.platform.clock.now().toISOString();
    const row: ExecutionRow = {
      id,
      workflow_id: req.prepared.definition.id,
      mode: req.mode,
      status: 'new',
      retry_of: req.retryOf ?? null,
      retry_success_id: null,
      started_at: null,
      stopped_at: null,
      wait_till: null,
      created_at: now,
      data: JSON.stringify(
        {
          version: 1,
          startData: { startNode: req.start.node, items: req.start.items, outputIndex: req.start.outputIndex },
          resultData: { runData: {} },
        },
        this.resources?.binary?.writer(id)?.replacer,
      ),
      workflow_data: req.prepared.snapshot,
      custom_data: null,
    };
    await this.store.insertExecutionWith(row, (trx) =>
      this.platform.jobs.enqueue<JobPayload>(EXECUTE_QUEUE, { executionId: id }, {}, trx),
    );
    return id;
  }

  /** Resumes a waiting execution (its Wait node's time came, or its resume webhook was called). */
  async resume(executionId: string, resumeItems?: Item[], runAt?: Date): Promise<void> {
    await this.platform.jobs.enqueue<JobPayload>(EXECUTE_QUEUE, { executionId, resumeItems }, runAt ? { runAt } : {});
  }

  /** Retries a failed execution from the node that failed, with the input it had (n8n's retry). */
  async retry(row: ExecutionRow, loadWorkflow: boolean): Promise<ExecutionRow> {
    let prepared: PreparedWorkflow;
    if (loadWorkflow) {
      const current = await this.store.getWorkflow(row.workflow_id);
      if (!current) throw new NodeOperationError('The workflow of this execution no longer exists');
      prepared = this.cache.get(current);
    } else prepared = await this.preparedFor(JSON.parse(row.workflow_data ?? '{}'));
    const stored = this.parseStored(row) as StoredExecutionData & { startData: { startNode?: string; items?: Item[] } };
    const startNode =
      stored.startData?.startNode ??
      (stored.executionData?.runtimeData as { triggerNode?: { name?: string } } | undefined)?.triggerNode?.name ??
      '';
    let state: ExecutionState | undefined;
    const failed = stored.resultData?.lastNodeExecuted;
    const runs = failed ? stored.resultData.runData?.[failed] : undefined;
    const lastRun = runs?.[runs.length - 1];
    if (failed && lastRun?.executionStatus === 'error') {
      state = stateFromStored(stored);
      state.runData[failed].pop();
      if (!state.runData[failed].length) delete state.runData[failed];
      const inputs = (lastRun.source ?? []).map((s) =>
        s ? (state!.runData[s.previousNode]?.[s.previousNodeRun]?.data?.main[s.previousNodeOutput] ?? []) : null,
      );
      state.stack.unshift({
        node: failed,
        inputs: inputs.length ? inputs : [[{ json: {} }]],
        source: lastRun.source ?? null,
      });
    }
    const first = startNode ? stored.resultData?.runData?.[startNode]?.[0]?.data?.main[0] : undefined;
    const { row: exec } = await this.run({
      prepared,
      mode: 'retry',
      retryOf: String(row.id),
      start: { node: startNode, items: first ?? stored.startData?.items ?? [{ json: {} }] },
      state,
    });
    return exec;
  }

  cancel(executionId: string): boolean {
    return this.abortHere(executionId) !== false;
  }

  private async processJob(p: JobPayload): Promise<void> {
    let final: ExecutionRow | undefined;
    try {
      final = await this.runJob(p);
    } finally {
      this.ended(p.executionId, final);
    }
  }

  private async runJob(p: JobPayload): Promise<ExecutionRow | undefined> {
    const row = (await this.store.getExecution(p.executionId, true)) as ExecutionRow | undefined;
    if (!row) return undefined;
    if (row.status === 'running') {
      // A previous attempt died mid-run (crash or kill): n8n marks such executions crashed.
      await this.store.updateExecution(p.executionId, {
        status: 'crashed',
        stopped_at: this.platform.clock.now().toISOString(),
      });
      return undefined;
    }
    if (row.status !== 'new' && row.status !== 'waiting') return undefined;
    const snapshot = JSON.parse(row.workflow_data ?? '{}') as WorkflowDefinition;
    const prepared = await this.preparedFor(snapshot);
    const stored = this.parseStored(row) as StoredExecutionData & {
      startData: { startNode?: string; items?: Item[]; outputIndex?: number };
    };
    let state: ExecutionState;
    if (row.status === 'new') {
      state = startState(
        prepared.graph,
        prepared.definition.settings?.executionOrder === 'v1',
        {
          node: stored.startData.startNode ?? '',
          items: stored.startData.items ?? [{ json: {} }],
          outputIndex: stored.startData.outputIndex,
        },
        this.platform.clock.ms(),
      );
    } else {
      if (row.wait_till && !p.resumeItems && new Date(row.wait_till).getTime() > this.platform.clock.ms())
        return undefined; // not due (a stale job)
      // A resumed run counts its node runs from 0 again, as n8n's does: the runs after the Wait
      // sort among the first ones by executionIndex (oracle: engine-wait-webhook).
      state = { ...stateFromStored(stored), executionIndex: 0 };
    }
    const startedAt = row.started_at ?? this.platform.clock.now().toISOString();
    // Only if nobody stopped it meanwhile (a stop marks a `new` or `waiting` row canceled).
    if (
      !(await this.store.updateExecutionIf(p.executionId, row.status, {
        status: 'running',
        started_at: startedAt,
        wait_till: null,
        ...(this.ownerKey !== undefined ? { owner: this.ownerKey } : {}),
      }))
    )
      return undefined;
    const outcome = await this.execute(
      prepared,
      p.executionId,
      row.mode as ExecutionMode,
      state,
      undefined,
      p.resumeItems,
      startedAt,
    );
    const done = await this.finish(
      { ...row, started_at: startedAt },
      prepared,
      outcome,
      stored.startData.startNode ?? '',
    );
    const saved = this.shouldSave(prepared.definition, row.mode, outcome.status);
    if (saved) await this.store.updateExecution(p.executionId, done);
    else await this.deleteWithFiles(p.executionId);
    await this.after(prepared, done, outcome, stored.startData.startNode ?? '');
    return saved ? done : undefined;
  }

  private async preparedFor(snapshot: WorkflowDefinition): Promise<PreparedWorkflow> {
    const { prepareDefinition } = await import('../workflows/model.js');
    return prepareDefinition({
      ...snapshot,
      settings: snapshot.settings ?? {},
      nodes: snapshot.nodes ?? [],
      connections: snapshot.connections ?? {},
    });
  }

  private async execute(
    prepared: PreparedWorkflow,
    executionId: string,
    mode: ExecutionMode,
    state: ExecutionState,
    respond: ((r: WebhookResponse) => void) | undefined,
    resumeItems: Item[] | undefined,
    startedAt: string,
  ): Promise<RunOutcome> {
    const wf = prepared.definition;
    const controller = new AbortController();
    // Aborting the signal ends the run at once and abandons in-flight Code runs.
    const timeoutS = effectiveTimeoutS(wf.settings?.executionTimeout, this.config.execution);
    const timer =
      timeoutS !== undefined
        ? setTimeout(
            () =>
              controller.abort(
                new ExecutionCancelledError(
                  'timeout',
                  `The execution ran longer than its timeout of ${timeoutS} s (settings.executionTimeout, capped by WORKFLOW_EXECUTION_TIMEOUT_MAX; default WORKFLOW_EXECUTION_TIMEOUT)`,
                ),
              ),
            timeoutS * 1000,
          )
        : undefined;
    this.running.set(executionId, { controller, workflowId: wf.id, startedAt });
    const staticBefore = staticDataText(wf.staticData);
    try {
      const outcome = await runWorkflow(
        {
          workflow: wf,
          graph: prepared.graph,
          registry: nodeRegistry,
          expressions: this.expressions,
          services: this.services(),
          executionId,
          mode,
          now: () => this.platform.clock.now(),
          sleep: (ms, signal) => this.platform.timers.sleep(ms, signal),
          env: this.envForExpressions,
          vars: await this.resources?.vars(),
          timezone: String(wf.settings?.timezone ?? this.config.timezone),
          resumeUrl: `${this.baseUrl()}/webhook-waiting/${executionId}`,
          respond,
          signal: controller.signal,
          usePinData: mode === 'manual',
          resumeItems,
          maxRunDataBytes: this.config.execution.maxRunDataBytes,
        },
        state,
      );
      const staticAfter = staticDataText(wf.staticData);
      if (staticAfter !== staticBefore) await this.saveStaticData(wf.id, executionId, staticAfter);
      return outcome;
    } catch (err) {
      // The engine itself failed (a bug, not the workflow's fault): the execution is an error, never a 500.
      this.platform.logger.error({ err, executionId }, 'workflow engine failed');
      state.error = toErrorInfo(err);
      return { status: 'error', state };
    } finally {
      if (timer) clearTimeout(timer);
      this.running.delete(executionId);
    }
  }

  /**
   * Keeps what the run wrote to $getWorkflowStaticData. The run's own outcome stands if this
   * fails, but the loss is logged with the ids: the next run would see the old static data
   * (e.g. a poller's "last seen" marker) and could repeat work.
   */
  private async saveStaticData(workflowId: string, executionId: string, staticData: string): Promise<void> {
    try {
      await this.store.updateWorkflow(workflowId, { static_data: staticData });
    } catch (err) {
      this.platform.logger.error(
        { err, service: 'workflow', workflowId, executionId },
        'workflow: saving static data after a run failed; the next run sees the previous static data',
      );
      return;
    }
    this.workflowLists.invalidate();
  }

  private async finish(
    base: ExecutionRow,
    prepared: PreparedWorkflow,
    outcome: RunOutcome,
    startNode: string,
  ): Promise<ExecutionRow> {
    const now = this.platform.clock.now().toISOString();
    const trigger = prepared.graph.nodes.get(startNode);
    const runtime = {
      source: base.mode,
      triggerNode: trigger ? { name: trigger.name, type: trigger.type } : undefined,
    };
    const waiting = outcome.status === 'waiting';
    const waitTill = waiting ? (outcome.waitTill ?? new Date('3000-01-01T00:00:00.000Z')).toISOString() : null;
    return {
      ...base,
      status: outcome.status,
      stopped_at: waiting ? null : now,
      wait_till: waitTill,
      custom_data:
        outcome.state.customData && Object.keys(outcome.state.customData).length
          ? JSON.stringify(outcome.state.customData)
          : base.custom_data,
      data: await storedDataText(
        outcome.state,
        prepared.definition,
        runtime,
        base.data ? (JSON.parse(base.data).startData ?? {}) : {},
        yieldEverySlice(),
        this.resources?.binary?.writer(String(base.id)),
      ),
    };
  }

  private shouldSave(wf: WorkflowDefinition, mode: string, status: string): boolean {
    const s = wf.settings ?? {};
    if (status === 'waiting') return true;
    if (mode === 'manual' && s.saveManualExecutions === false) return false;
    if (status === 'success' && s.saveDataSuccessExecution === 'none') return false;
    if (status === 'error' && s.saveDataErrorExecution === 'none') return false;
    return true;
  }

  /** After a run: schedule a parked execution's resume, note successful retries, start the error workflow. */
  private async after(
    prepared: PreparedWorkflow,
    row: ExecutionRow,
    outcome: RunOutcome,
    startNode: string,
  ): Promise<void> {
    if (outcome.status !== 'waiting') {
      const { id, name } = prepared.definition;
      this.platform.trace.event({
        service: 'workflow',
        summary: `Execution ${row.id} of "${name}" finished: ${outcome.status}`,
        ok: outcome.status === 'success',
        detail: { workflow_id: id, execution_id: String(row.id), status: outcome.status, mode: row.mode },
      });
    }
    if (outcome.status === 'waiting' && outcome.waitTill)
      await this.resume(String(row.id), undefined, outcome.waitTill);
    if (outcome.status === 'success' && row.retry_of)
      await this.store.updateExecution(row.retry_of, { retry_success_id: String(row.id) });
    const errorWorkflow = prepared.definition.settings?.errorWorkflow;
    if (
      outcome.status === 'error' &&
      errorWorkflow &&
      errorWorkflow !== prepared.definition.id &&
      row.mode !== 'error'
    ) {
      const target = await this.store.getWorkflow(String(errorWorkflow));
      if (!target) return;
      const p = this.cache.get(target);
      const start = findStartNode(p.definition, 'error');
      if (!start) return;
      const error = outcome.state.error;
      const trigger = prepared.graph.nodes.get(startNode);
      await this.enqueue({
        prepared: p,
        mode: 'error',
        start: {
          node: start,
          items: [
            {
              json: {
                execution: {
                  id: String(row.id),
                  url: `${this.baseUrl()}/workflow/${prepared.definition.id}/executions/${row.id}`,
                  error: {
                    message: error?.message,
                    ...(error?.description ? { description: error.description } : {}),
                    node: error?.node,
                  },
                  lastNodeExecuted: outcome.state.lastNodeExecuted,
                  mode: row.mode,
                  // What n8n 2.8.4 gives (oracle: error-workflow-stop-and-error); `retryOf` is
                  // there only for a retry (n8n's key is present but undefined otherwise).
                  ...(row.retry_of ? { retryOf: String(row.retry_of) } : {}),
                  executionContext: {
                    version: 1,
                    establishedAt: Date.parse(row.started_at ?? row.created_at),
                    source: row.mode,
                    ...(trigger ? { triggerNode: { name: trigger.name, type: trigger.type } } : {}),
                  },
                },
                workflow: { id: prepared.definition.id, name: prepared.definition.name },
              },
            },
          ],
        },
      });
    }
  }

  private services(): NodeServices {
    return {
      fetch: (url, init, timeoutMs) => outboundFetch(url, init, { allowInternal: this.allowInternal, timeoutMs }),
      fetchTrusted: (url, init, timeoutMs) =>
        outboundFetch(url, init, { allowInternal: this.allowInternal, trustOrigin: true, timeoutMs }),
      runSubWorkflow: (id, items, parent) => this.runSub(id, items, parent),
      runInlineWorkflow: (definition, items, parent) => this.runSubFromJson(definition, items, parent),
      serviceUrl: (service) => this.platform.directory.url(service),
      env: this.config.hamletApiKeys,
      filesDir: this.config.filesDir,
      credential: this.resources ? (node, type) => this.resources!.credential(node, type) : undefined,
      dataTables: this.resources?.dataTables,
    };
  }

  /** How deep each running sub-workflow execution is nested, so a workflow calling itself stops. */
  private readonly subDepth = new Map<string, number>();

  private async runSub(
    id: string,
    items: Item[],
    parent: { executionId: string; workflowId: string },
  ): Promise<Item[]> {
    this.checkSubDepth(parent);
    const row = await this.store.getWorkflow(id);
    if (!row) throw new NodeOperationError(`Workflow with ID "${id}" does not exist`);
    return this.runSubPrepared(this.cache.get(row), items, parent);
  }

  /** Execute Workflow with `source: "parameter"`: the JSON in the node, recorded under the calling workflow (as n8n does). */
  private async runSubFromJson(
    definition: Record<string, unknown>,
    items: Item[],
    parent: { executionId: string; workflowId: string },
  ): Promise<Item[]> {
    this.checkSubDepth(parent);
    const { prepareDefinition } = await import('../workflows/model.js');
    const prepared = prepareDefinition({
      ...(definition as Partial<WorkflowDefinition>),
      id: parent.workflowId,
      name: String(definition.name ?? 'Inline sub-workflow'),
      nodes: (definition.nodes as WorkflowDefinition['nodes']) ?? [],
      connections: (definition.connections as WorkflowDefinition['connections']) ?? {},
      settings: (definition.settings as WorkflowDefinition['settings']) ?? { executionOrder: 'v1' },
    } as WorkflowDefinition);
    return this.runSubPrepared(prepared, items, parent);
  }

  private checkSubDepth(parent: { executionId: string }): void {
    const depth = (this.subDepth.get(parent.executionId) ?? 0) + 1;
    if (depth > MAX_SUB_WORKFLOW_DEPTH)
      throw new NodeOperationError(
        `Sub-workflows nest deeper than ${MAX_SUB_WORKFLOW_DEPTH} levels; is a workflow calling itself?`,
      );
  }

  private async runSubPrepared(
    prepared: PreparedWorkflow,
    items: Item[],
    parent: { executionId: string; workflowId: string },
  ): Promise<Item[]> {
    const depth = (this.subDepth.get(parent.executionId) ?? 0) + 1;
    const start = findStartNode(prepared.definition, 'workflow');
    if (!start) throw new NodeOperationError(`Workflow "${prepared.definition.name}" has no Execute Workflow Trigger`);
    const { row: done, outcome } = await this.run({
      prepared,
      mode: 'integrated',
      start: { node: start, items: items.map((i) => ({ json: i.json, ...(i.binary ? { binary: i.binary } : {}) })) },
      parent,
      depth,
    });
    if (outcome.status === 'error')
      throw new NodeOperationError(outcome.state.error?.message ?? 'Sub-workflow failed', `execution ${done.id}`);
    const last = outcome.state.lastNodeExecuted;
    const runs = last ? outcome.state.runData[last] : undefined;
    return runs?.[runs.length - 1]?.data?.main[0] ?? [];
  }
}

/**
 * Static data as stored, for telling whether a run changed it. A run creates the empty
 * `global` and `node:<name>` containers it offers to nodes; those alone are no change (as in
 * n8n, which saves static data only when a node wrote to it), so a run that wrote nothing leaves
 * the workflow's row as it was.
 */
function staticDataText(data: unknown): string {
  if (!data || typeof data !== 'object') return 'null';
  const kept = Object.entries(data as Record<string, unknown>).filter(
    ([, v]) => !(v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0),
  );
  return kept.length ? JSON.stringify(Object.fromEntries(kept)) : 'null';
}
