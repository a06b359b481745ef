// Observation 2 of issue #9: a loop in the graph (`Start → A → B → A`), run by /execute or
// behind an active webhook anyone can call, blocked the event loop of the whole process until
// V8 aborted, and did so again after a restart. Now the run is bounded (executionTimeout, the
// run data cap), other services keep answering while it runs, and it ends naming the limit.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createWorkflow, startWorkflowServer, wrap, type WorkflowTestServer } from './helpers.js';
import { cycleWorkflow, probeWhile } from './hostile-helpers.js';

const TIMEOUT_MESSAGE = 'The execution was cancelled because it timed out';
const ENV = { WORKFLOW_MAX_RUN_DATA_MB: '8' };

let s: WorkflowTestServer;
let others: string[];
beforeAll(async () => {
  s = await startWorkflowServer({ services: ['workflow', 'blog', 'community'], env: ENV });
  others = [s.t.url('blog'), s.t.url('community')];
}, 60_000);
afterAll(() => s?.stop());

const create = (wf: unknown, activate = false) => createWorkflow(s, wf, activate);

describe('a loop in the graph', () => {
  test("run by /execute with executionTimeout: other services answer meanwhile; it ends canceled with n8n's timeout message", async () => {
    const id = await create(cycleWorkflow({ name: 'cycle with timeout', executionTimeout: 1, pausing: true }));
    const run = s.api('POST', `/workflows/${id}/execute`, {});
    const probes = await probeWhile(others, run);
    const r = await run;
    expect(probes.failures).toEqual([]);
    expect(probes.latencies.length).toBeGreaterThan(5);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('canceled');
    expect(r.body.data.resultData.error.message).toBe(TIMEOUT_MESSAGE);
    expect(r.body.data.resultData.error.description).toMatch(/timeout of 1 s/);
    // The loop did run (A and B alternated) until the limit stopped it.
    expect(r.body.data.resultData.runData.A.length).toBeGreaterThan(5);
  }, 60_000);

  test('run by /execute without a timeout: bounded by the run data cap, it ends as an error naming WORKFLOW_MAX_RUN_DATA_MB', async () => {
    const id = await create(cycleWorkflow({ name: 'cycle without timeout' }));
    const run = s.api('POST', `/workflows/${id}/execute`, {});
    const probes = await probeWhile(others, run);
    const r = await run;
    expect(probes.failures).toEqual([]);
    expect(r.body.status).toBe('error');
    expect(r.body.data.resultData.error.message).toMatch(/WORKFLOW_MAX_RUN_DATA_MB/);
    expect(r.body.data.resultData.error.message).toMatch(/8 MB/);
  }, 60_000);

  test('behind an active webhook, and again after a restart: every call ends, the server stays up', async () => {
    const id = await create(cycleWorkflow({ name: 'cycle webhook', webhookPath: 'loop', executionTimeout: 1 }), true);
    const call = () => s.call('POST', '/webhook/loop', { body: '{}', headers: { 'content-type': 'application/json' } });
    const first = call();
    const probes = await probeWhile(others, first);
    expect(probes.failures).toEqual([]);
    // The run fails on its limit: n8n answers a failed lastNode webhook run 500 "Error in workflow".
    const answer = await first;
    expect([answer.status, answer.body]).toEqual([500, { message: 'Error in workflow' }]);

    // The webhook is still active after a restart; calling it must not take the process down.
    s = await wrap(await s.t.restart(ENV), s.key);
    others = [s.t.url('blog'), s.t.url('community')];
    const again = call();
    const after = await probeWhile(others, again);
    expect(after.failures).toEqual([]);
    const second = await again;
    expect([second.status, second.body]).toEqual([500, { message: 'Error in workflow' }]);
    // Whichever limit came first (a webhook item is large, so the cap may beat the 1 s timeout).
    const list = await s.api('GET', `/executions?workflowId=${id}`);
    expect(list.body.data).toHaveLength(2);
    for (const e of list.body.data) {
      const full = await s.api('GET', `/executions/${e.id}?includeData=true`);
      const message = full.body.data.resultData.error.message;
      if (e.status === 'canceled') expect(message).toBe(TIMEOUT_MESSAGE);
      else expect([e.status, message]).toEqual(['error', expect.stringMatching(/WORKFLOW_MAX_RUN_DATA_MB/)]);
    }
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  }, 90_000);
});
