// The hostile-workflows suite, engine half (issue #9, "Done means"): a loop in the graph, with
// and without executionTimeout, started by 4 callers at once through /execute and through an
// active webhook. While they run, /healthz of the other services answers with p99 < 100 ms;
// every run ends as an execution that names the limit that stopped it; RSS stays bounded; the
// server is healthy afterwards. Limits are the defaults except the timeout under test.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createWorkflow, startWorkflowServer, manualSetWorkflow, type WorkflowTestServer } from './helpers.js';
import { cycleWorkflow, percentile, probeWhile } from './hostile-helpers.js';

const CALLERS = 4;
const TIMEOUT_MESSAGE = 'The execution was cancelled because it timed out';
/** Peak RSS growth allowed while 4 runaway executions run at once (each capped by the run data limit). */
const RSS_GROWTH_LIMIT = 1536 * 1024 * 1024;

let s: WorkflowTestServer;
let others: string[];
/**
 * p99 of the same probes with no attack, measured in this process just before and reported next
 * to each attack's, so a failure shows whether the machine or the attack was slow. The bound is
 * the issue's own, p99 < 100 ms: this file runs alone (vitest.config.ts, ALONE).
 */
let baselineP99 = 0;
beforeAll(async () => {
  s = await startWorkflowServer({
    services: ['workflow', 'blog', 'community', 'home'],
    env: process.env.HOSTILE_ENV ? JSON.parse(process.env.HOSTILE_ENV) : {},
  });
  others = [s.t.url('blog'), s.t.url('community'), s.t.url('home')];
  // Warm up the probes' connections and the services' routes, and the engine's code paths
  // (one unmeasured runaway run), so the measured runs see a warm process.
  await probeWhile(others, new Promise((r) => setTimeout(r, 300)));
  const warm = await s.api('POST', '/workflows', cycleWorkflow({ name: 'warm-up', executionTimeout: 1 }));
  await post(`/api/v1/workflows/${warm.body.id}/execute`, '{}');
  const idle = await probeWhile(others, new Promise((r) => setTimeout(r, 2000)));
  baselineP99 = percentile(idle.latencies, 99);
  console.log(
    `baseline: ${idle.latencies.length} probes, p50 ${percentile(idle.latencies, 50).toFixed(1)} ms, p99 ${baselineP99.toFixed(1)} ms`,
  );
}, 60_000);
afterAll(() => s?.stop());

const create = (wf: unknown, activate = false) => createWorkflow(s, wf, activate);

/** Runs `attack` CALLERS times at once while probing the other services; returns what the probes and RSS saw. */
async function underAttack(attack: () => Promise<unknown>) {
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  const runs = Promise.all(Array.from({ length: CALLERS }, attack));
  const probes = await probeWhile(others, runs);
  await runs;
  clearInterval(sampler);
  const p99 = percentile(probes.latencies, 99);
  console.log(
    `${probes.latencies.length} probes, p50 ${percentile(probes.latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...probes.latencies).toFixed(1)} ms; ${((performance.now() - started) / 1000).toFixed(1)} s; RSS ${(rssBefore / 2 ** 20).toFixed(0)} → peak ${(rssPeak / 2 ** 20).toFixed(0)} MB`,
  );
  expect(probes.failures).toEqual([]);
  expect(probes.latencies.length).toBeGreaterThan(20);
  expect(p99).toBeLessThan(100);
  expect(rssPeak - rssBefore).toBeLessThan(RSS_GROWTH_LIMIT);
  return runs;
}

/** The stored executions of a workflow, with their data. */
/** A request whose answer is read but not parsed: the test's own JSON.parse of a large execution would stall the loop it measures. */
async function post(path: string, body: string): Promise<{ status: number }> {
  const res = await fetch(s.url + path, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-workflow-api-key': s.key },
  });
  await res.arrayBuffer();
  return { status: res.status };
}

async function executionsOf(workflowId: string) {
  const list = await s.api('GET', `/executions?workflowId=${workflowId}&includeData=true`);
  return list.body.data as Array<{
    status: string;
    data: { resultData: { error?: { message: string; description?: string } } };
  }>;
}

async function healthyAfterwards() {
  expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  const id = await create(manualSetWorkflow('still fine'));
  const r = await s.api('POST', `/workflows/${id}/execute`, { data: { name: 'Ann' } });
  expect(r.body.status).toBe('success');
}

/** A runaway run ends canceled by its timeout or as an error by the run data cap, naming which. */
function expectEndedByLimit(
  e: { status: string; data: { resultData: { error?: { message: string } } } },
  limit: 'timeout' | 'cap' | 'either',
) {
  const message = e.data.resultData.error?.message;
  if (limit === 'timeout' || (limit === 'either' && e.status === 'canceled'))
    expect([e.status, message]).toEqual(['canceled', TIMEOUT_MESSAGE]);
  else expect([e.status, message]).toEqual(['error', expect.stringMatching(/WORKFLOW_MAX_RUN_DATA_MB/)]);
}

describe('a loop in the graph, 4 callers at once', () => {
  test('with executionTimeout, by /execute: each run ends at a limit (the 2 s timeout or the run data cap, whichever comes first)', async () => {
    const id = await create(cycleWorkflow({ name: 'hostile cycle timeout', executionTimeout: 2 }));
    await underAttack(() => post(`/api/v1/workflows/${id}/execute`, '{}'));
    const runs = await executionsOf(id);
    expect(runs).toHaveLength(CALLERS);
    for (const e of runs) expectEndedByLimit(e, 'either');
    await healthyAfterwards();
  }, 120_000);

  test('without executionTimeout, by /execute: each run ends as an error naming WORKFLOW_MAX_RUN_DATA_MB', async () => {
    const id = await create(cycleWorkflow({ name: 'hostile cycle unbounded' }));
    await underAttack(() => post(`/api/v1/workflows/${id}/execute`, '{}'));
    const runs = await executionsOf(id);
    expect(runs).toHaveLength(CALLERS);
    for (const e of runs) expectEndedByLimit(e, 'cap');
    await healthyAfterwards();
  }, 180_000);

  test('behind an active webhook anyone can call: every call is answered, every run ends naming a limit', async () => {
    const id = await create(
      cycleWorkflow({ name: 'hostile cycle webhook', webhookPath: 'hostile-loop', executionTimeout: 2 }),
      true,
    );
    const answers = (await underAttack(() => post('/webhook/hostile-loop', '{}'))) as Array<{ status: number }>;
    // Each run fails on its limit, and n8n answers a failed lastNode run 500 "Error in workflow".
    for (const a of answers) expect(a.status).toBe(500);
    const runs = await executionsOf(id);
    expect(runs).toHaveLength(CALLERS);
    for (const e of runs) expectEndedByLimit(e, 'either');
    await healthyAfterwards();
  }, 120_000);
});
