// Runs fuzz cases on Hamlet (in this process, on a temporary store) and compares each with n8n's
// answer by the corpus rule (test/workflow/corpus-compare.ts), the one `npm test` applies to the
// recorded fixtures; values of n8n's that read the clock are only required to exist.
import { compareCase, type CaseExpectation } from '../../test/workflow/corpus-compare.js';
import { startWorkflowServer, type WorkflowTestServer } from '../../test/workflow/helpers.js';
import { caseWorkflow, type FuzzCase } from './cases.js';
import type { Answer } from './n8n-runner.js';

export interface HamletRun {
  status: string;
  exec?: any;
  /** The engine refused the workflow or the run (a 4xx). */
  refused?: string;
}

export async function startHamlet(): Promise<WorkflowTestServer> {
  return startWorkflowServer({ env: { HAMLET_ALLOW_INTERNAL_REQUESTS: '1' } });
}

export async function runOnHamlet(s: WorkflowTestServer, c: FuzzCase): Promise<HamletRun> {
  const created = await s.api('POST', '/workflows', caseWorkflow(c));
  if (created.status !== 200)
    return { status: 'refused', refused: `${created.status} ${JSON.stringify(created.body).slice(0, 300)}` };
  // Not deleted: the store is a temporary one, and deleting costs as much as creating.
  const res = await s.api('POST', `/workflows/${created.body.id}/execute`, {});
  if (res.status !== 200)
    return { status: 'refused', refused: `${res.status} ${JSON.stringify(res.body).slice(0, 300)}` };
  return { status: res.body.status, exec: res.body };
}

/** Runs every case, `parallel` at a time (the engine's sandbox and store overlap their waits). */
export async function runAllOnHamlet(
  s: WorkflowTestServer,
  cases: FuzzCase[],
  parallel = 4,
  log?: (s: string) => void,
): Promise<Map<FuzzCase, HamletRun>> {
  const out = new Map<FuzzCase, HamletRun>();
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      out.set(c, await runOnHamlet(s, c));
      if (out.size % 500 === 0) log?.(`engine: ${out.size}/${cases.length}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return out;
}

const TWO_DAYS = 2 * 24 * 3600 * 1000;
function looksLikeNow(v: unknown): boolean {
  const now = Date.now();
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)) {
    const t = Date.parse(v);
    return Number.isFinite(t) && Math.abs(t - now) < TWO_DAYS;
  }
  return typeof v === 'number' && (Math.abs(v - now) < TWO_DAYS || Math.abs(v * 1000 - now) < TWO_DAYS);
}

function clockPaths(v: unknown, path: string, out: string[]): string[] {
  if (looksLikeNow(v)) out.push(path);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) clockPaths(x, `${path}/${k}`, out);
  return out;
}

/** Paths whose values differ between two runs of n8n (the clock read, a value derived from it). */
function changedPaths(a: unknown, b: unknown, path: string, out: string[]): string[] {
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    for (const k of Object.keys(a)) changedPaths((a as any)[k], (b as any)[k], `${path}/${k}`, out);
  } else if (JSON.stringify(a) !== JSON.stringify(b)) out.push(path);
  return out;
}

function expectation(a: Answer, again?: Answer): CaseExpectation {
  const dropped = clockPaths(a.nodes, '/nodes', []);
  if (again && again.status === a.status) changedPaths(a.nodes, again.nodes, '/nodes', dropped);
  return {
    name: 'fuzz',
    trigger: { kind: 'manual', trigger: 'Manual' },
    ...a,
    ...(dropped.length ? { droppedVolatilePaths: dropped } : {}),
  };
}

/**
 * The differences between n8n's answer and the engine's run (empty: they match). `again`, n8n's
 * answer from a second run, marks the values that changed between the two as volatile.
 */
export function differences(a: Answer, run: HamletRun, baseUrl: string, again?: Answer): string[] {
  if (a.status === 'refused' || run.refused) {
    if (a.status === 'refused' && run.refused) return [];
    return [
      a.status === 'refused'
        ? `n8n refused the run (${a.error?.message}), the engine ran it`
        : `the engine refused the run: ${run.refused}`,
    ];
  }
  return compareCase(expectation(a, again), run.exec, undefined, baseUrl).problems;
}
