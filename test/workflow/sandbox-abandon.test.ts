// A Code run or expression still running in a sandbox worker when its execution ends (the
// workflow's executionTimeout, or a stop) is abandoned at once: the engine's AbortSignal
// terminates the worker (which is replaced), instead of letting the run go on for the whole
// sandbox time limit.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startWorkflowServer, type WorkflowTestServer } from './helpers.js';
import { waitFor } from '../helpers/wait.js';

let s: WorkflowTestServer;
beforeAll(async () => {
  // A sandbox time limit far beyond the test: only the abandon path can end these runs in time.
  s = await startWorkflowServer({ env: { WORKFLOW_SANDBOX_TIMEOUT_MS: '120000', WORKFLOW_SANDBOX_WORKERS: '1' } });
}, 60_000);
afterAll(() => s?.stop());

function endless(name: string, node: 'code' | 'expression', settings: Record<string, unknown> = {}) {
  const work =
    node === 'code'
      ? {
          name: 'Work',
          type: 'n8n-nodes-base.code',
          typeVersion: 2,
          position: [200, 0],
          parameters: { jsCode: 'while (true) {}' },
        }
      : {
          name: 'Work',
          type: 'n8n-nodes-base.set',
          typeVersion: 3.4,
          position: [200, 0],
          parameters: {
            assignments: {
              assignments: [{ id: '1', name: 'v', type: 'number', value: '={{ (() => { while (true) {} })() }}' }],
            },
            options: {},
          },
        };
  return {
    name,
    nodes: [
      { name: 'Manual', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
      work,
    ],
    connections: { Manual: { main: [[{ node: 'Work', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1', ...settings },
  };
}

const echo = {
  name: 'echo',
  nodes: [
    { name: 'Manual', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
    {
      name: 'Code',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      position: [200, 0],
      parameters: { jsCode: 'return [{ json: { n: $json.n * 2 } }];' },
    },
  ],
  connections: { Manual: { main: [[{ node: 'Code', type: 'main', index: 0 }]] } },
  settings: { executionOrder: 'v1' },
};

test('executionTimeout ends an endless Code run and an endless expression; the sandbox serves the next run', async () => {
  for (const node of ['code', 'expression'] as const) {
    const wf = await s.api('POST', '/workflows', endless(`timeout ${node}`, node, { executionTimeout: 1 }));
    const started = performance.now();
    const run = await s.api('POST', `/workflows/${wf.body.id}/execute`, {});
    expect(run.body.status).toBe('canceled');
    expect(run.body.data.resultData.error.message).toBe('The execution was cancelled because it timed out');
    expect(performance.now() - started).toBeLessThan(30_000);
  }
  const ok = await s.api('POST', '/workflows', echo);
  const after = await s.api('POST', `/workflows/${ok.body.id}/execute`, { data: { n: 21 } });
  expect(after.body.data.resultData.runData.Code[0].data.main[0][0].json).toEqual({ n: 42 });
}, 90_000);

test('stopping an execution abandons its Code run at once', async () => {
  const wf = await s.api('POST', '/workflows', endless('stop code', 'code', { saveExecutionProgress: true }));
  const run = s.api('POST', `/workflows/${wf.body.id}/execute`, {});
  const [running] = await waitFor(
    async () => {
      const list = await s.api('GET', `/executions?workflowId=${wf.body.id}&status=running`);
      return list.body.data.length > 0 && (list.body.data as Array<{ id: string }>);
    },
    { message: 'a running execution' },
  );
  expect((await s.api('POST', `/executions/${running.id}/stop`)).body.status).toBe('canceled');
  const done = await run;
  expect(done.body.status).toBe('canceled');
  const ok = await s.api('POST', '/workflows', echo);
  const after = await s.api('POST', `/workflows/${ok.body.id}/execute`, { data: { n: 2 } });
  expect(after.body.data.resultData.runData.Code[0].data.main[0][0].json).toEqual({ n: 4 });
}, 90_000);
