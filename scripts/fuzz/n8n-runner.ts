// Runs fuzz cases on the oracle n8n, many per execution: a batch is one workflow with one branch
// per case (Manual → the case's inputs → its node), run by hand once. A node error stops n8n's
// run there, so the cases after it go into the next batch; each case's answer (its slice of the
// run, renamed as the case alone would name its nodes) is cached by the case's hash outside the
// repository, so a rerun with the same seed asks n8n nothing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CaseExpectation } from '../../test/workflow/corpus-compare.js';
import type { N8nClient } from '../oracle/n8n-server.mjs';
import { batchWorkflow, caseHash, inputName, type FuzzCase } from './cases.js';

const CACHE = process.env.FUZZ_CACHE_DIR ?? join(homedir(), '.cache', 'hamlet-oracle', 'fuzz-n8n-2.8.4');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type Answer = Omit<CaseExpectation, 'name' | 'trigger'>;

/** The cache file of a case's answer; a variant ("again": a second run, later) has its own. */
const cacheFile = (c: FuzzCase, variant?: string) => join(CACHE, `${caseHash(c)}${variant ? `.${variant}` : ''}.json`);

export function cached(c: FuzzCase, variant?: string): Answer | undefined {
  const f = cacheFile(c, variant);
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as Answer) : undefined;
}

function store(c: FuzzCase, a: Answer, variant?: string): void {
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(cacheFile(c, variant), JSON.stringify(a));
}

class UnfinishedError extends Error {}

const NODE_KEYS = ['id', 'name', 'type', 'typeVersion', 'position', 'parameters'];

async function runBatch(n8n: N8nClient, cases: FuzzCase[]): Promise<any> {
  const { pinData, ...wf } = batchWorkflow(cases);
  // n8n's public API takes no pinData on create: the run request carries it.
  const body = { ...wf, nodes: wf.nodes.map((n) => Object.fromEntries(NODE_KEYS.map((k) => [k, (n as any)[k]]))) };
  const created = await n8n.api('POST', '/workflows', body);
  if (created.status !== 200)
    throw new Error(`n8n refused the batch workflow: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
  const id = created.body.id;
  try {
    const full = await n8n.api('GET', `/workflows/${id}`);
    const r = await n8n.rest('POST', `/workflows/${id}/run`, {
      workflowData: { ...full.body, pinData },
      triggerToStartFrom: { name: 'Manual' },
    });
    const executionId = r.body?.data?.executionId;
    if (r.status !== 200 || !executionId)
      throw new Error(`n8n refused the run: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    // Polled without its data (a batch's data is large), read in full once it has ended.
    const deadline = Date.now() + Number(process.env.FUZZ_RUN_TIMEOUT_S ?? 30) * 1000;
    while (Date.now() < deadline) {
      const e = await n8n.api('GET', `/executions/${executionId}`);
      if (e.status === 200 && !['new', 'running'].includes(e.body.status))
        return (await n8n.api('GET', `/executions/${executionId}?includeData=true`)).body;
      await sleep(150);
    }
    // Seen with n8n 2.8.4: a node whose error holds a parsed document (circular) cannot be saved
    // ("Converting circular structure to JSON" in its log), and the execution never ends.
    throw new UnfinishedError(`n8n did not finish execution ${executionId} (it could not save it?)`);
  } finally {
    await n8n.api('DELETE', `/workflows/${id}`);
  }
}

/** The batch index of the case whose node failed the run (-1: none, the run succeeded; undefined: not a case's node). */
function failedIndex(exec: any): number | undefined {
  if (exec.status !== 'error') return -1;
  const m = / #(\d+)$/.exec(exec.data?.resultData?.lastNodeExecuted ?? '');
  return m ? Number(m[1]) : undefined;
}

/** Case i's slice of a batch run, with its node names as the case alone has them; undefined when the run stopped before it. */
function sliceCase(exec: any, c: FuzzCase, i: number): Answer | undefined {
  const failed = failedIndex(exec);
  if (failed === undefined || (failed >= 0 && i > failed)) return undefined;
  const thisFailed = failed === i;
  const runData = exec.data?.resultData?.runData ?? {};
  const suffix = ` #${i}`;
  const rename = new Map<string, string>([
    ['Manual', 'Manual'],
    [`Test${suffix}`, 'Test'],
  ]);
  c.inputs.forEach((_, k) => rename.set(`${inputName(c, k)}${suffix}`, inputName(c, k)));
  const failing = exec.data?.resultData?.lastNodeExecuted;
  const order = Object.entries(runData as Record<string, any[]>)
    .flatMap(([name, runs]) => runs.map((r) => ({ name, i: r.executionIndex as number })))
    .filter((r) => rename.has(r.name))
    .sort((a, b) => a.i - b.i)
    .map((r) => rename.get(r.name)!);
  const nodes: Answer['nodes'] = {};
  for (const [batchName, name] of rename) {
    if (!runData[batchName]) continue;
    nodes[name] = (runData[batchName] as any[]).map((r) => {
      const entry: any = {};
      if (r.data?.main) entry.output = r.data.main.map((o: any[] | null) => (o ?? []).map((it) => it.json));
      if (r.error) entry.error = { message: r.error.message };
      if (r.executionStatus && r.executionStatus !== 'success') entry.executionStatus = r.executionStatus;
      return entry;
    });
  }
  const answer: Answer = {
    status: thisFailed ? 'error' : 'success',
    // A run n8n failed outside the node (its engine choking on the node's output) records no run
    // of the node, yet the node is n8n's last executed one.
    lastNodeExecuted: thisFailed ? (rename.get(failing) ?? order.at(-1)!) : order.at(-1)!,
    executionOrder: order,
    nodes,
  };
  if (thisFailed) answer.error = { message: exec.data.resultData.error?.message, node: rename.get(failing) ?? null };
  return answer;
}

/** Runs one queue of cases batch by batch until each has an answer. */
async function drain(
  n8n: N8nClient,
  queue: FuzzCase[],
  out: Map<FuzzCase, Answer>,
  opts: RunnerOptions,
  counted: () => number,
  total: number,
): Promise<void> {
  let todo = queue;
  const size = opts.batchSize ?? 40;
  while (todo.length) {
    const batch = todo.slice(0, size);
    let exec: any;
    try {
      exec = await runBatch(n8n, batch);
    } catch (e) {
      if (batch.length === 1) {
        // A case n8n cannot even run (a refused workflow), or whose run it never ends: recorded as such.
        const a: Answer = {
          status: e instanceof UnfinishedError ? 'unfinished' : 'refused',
          lastNodeExecuted: '',
          executionOrder: [],
          nodes: {},
          error: { message: (e as Error).message, node: null },
        };
        store(batch[0], a, opts.variant);
        out.set(batch[0], a);
        todo = todo.slice(1);
        continue;
      }
      // One case broke the whole batch: run them one by one.
      opts.log?.(`batch refused (${(e as Error).message.slice(0, 120)}); running its cases alone`);
      for (const c of batch) await drain(n8n, [c], out, { ...opts, batchSize: 1 }, counted, total);
      todo = todo.slice(batch.length);
      continue;
    }
    const runs = counted();
    const done = new Set<FuzzCase>();
    batch.forEach((c, i) => {
      const a = sliceCase(exec, c, i);
      if (!a) return;
      store(c, a, opts.variant);
      out.set(c, a);
      done.add(c);
    });
    if (done.size === 0) {
      // Nothing attributable (a run-level error before any branch): the first case alone, or as n8n answered.
      const [first] = batch;
      if (batch.length > 1) await drain(n8n, [first], out, { ...opts, batchSize: 1 }, counted, total);
      if (!out.has(first)) {
        const a: Answer = {
          status: exec.status,
          lastNodeExecuted: '',
          executionOrder: [],
          nodes: {},
          error: { message: exec.data?.resultData?.error?.message ?? 'unknown', node: null },
        };
        store(first, a, opts.variant);
        out.set(first, a);
      }
      done.add(first);
    }
    todo = todo.filter((c) => !done.has(c));
    if (runs % 50 === 0) opts.log?.(`n8n: ${runs} runs, ${out.size}/${total} answers`);
  }
}

interface RunnerOptions {
  /** A separate set of answers (its own cache files): "again" is a second run, to find values that change between runs. */
  variant?: string;
  batchSize?: number;
  parallel?: number;
  predictedErrors?: Set<FuzzCase>;
  log?: (s: string) => void;
}

/** A case whose node has two inputs, one of them empty: n8n runs its node last of all. */
const runsLast = (c: FuzzCase) => c.inputs.length > 1 && c.inputs.some((items) => items.length === 0);

/**
 * n8n's answers for these cases, from the cache or from batched runs. `predictedErrors` (the
 * cases the engine fails) go last in a batch: each n8n error ends a run, so they cost one run each.
 */
export async function n8nAnswers(
  n8n: N8nClient | undefined,
  cases: FuzzCase[],
  opts: RunnerOptions = {},
): Promise<Map<FuzzCase, Answer>> {
  const out = new Map<FuzzCase, Answer>();
  let todo: FuzzCase[] = [];
  for (const c of cases) {
    const hit = cached(c, opts.variant);
    if (hit) out.set(c, hit);
    else todo.push(c);
  }
  if (todo.length && !n8n) throw new Error(`${todo.length} cases are not cached and no n8n is running`);
  const predicted = opts.predictedErrors ?? new Set();
  // A two-input node with an empty input runs only once nothing else is left to run (n8n's v1
  // order runs it with the input it has at the end): in a batch another case's error would end
  // the run before that, so such cases run alone.
  const alone = todo.filter(runsLast);
  todo = todo.filter((c) => !runsLast(c));
  todo = [...todo.filter((c) => !predicted.has(c)), ...todo.filter((c) => predicted.has(c))];
  // Several batches at once: n8n's runs wait on its database and task runner as much as on the CPU.
  const lanes = Math.max(1, Math.min(opts.parallel ?? 4, Math.ceil(todo.length / (opts.batchSize ?? 40))));
  if (!todo.length && !alone.length) return out;
  const parts = Array.from({ length: lanes }, (_, k) => todo.filter((_, i) => i % lanes === k));
  let runs = 0;
  await Promise.all(parts.map((part) => drain(n8n!, part, out, opts, () => ++runs, cases.length)));
  if (alone.length) await drain(n8n!, alone, out, { ...opts, batchSize: 1 }, () => ++runs, cases.length);
  return out;
}
