// Stopping executions, in n8n's public API shape: POST /executions/{id}/stop answers with the
// execution, now `canceled`; POST /executions/stop stops every match and counts them.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkflowServer, type WorkflowTestServer } from './helpers.js';
import { waitFor } from '../helpers/wait.js';

const MANUAL_STOP = 'The execution was cancelled manually';

let s: WorkflowTestServer;
beforeAll(async () => {
  s = await startWorkflowServer();
}, 60_000);
afterAll(() => s?.stop());

/** A trigger, then a Wait node: 30 s in memory (the run stays `running`) or until its resume webhook (`waiting`). */
function waitWorkflow(name: string, opts: { webhookPath?: string; resumeByWebhook?: boolean; progress?: boolean }) {
  const start = opts.webhookPath
    ? {
        name: 'Start',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        parameters: { path: opts.webhookPath, httpMethod: 'POST', responseMode: 'onReceived' },
      }
    : { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
  const wait = opts.resumeByWebhook ? { resume: 'webhook' } : { resume: 'timeInterval', amount: 30, unit: 'seconds' };
  return {
    name,
    nodes: [
      start,
      { name: 'Wait', type: 'n8n-nodes-base.wait', typeVersion: 1.1, position: [200, 0], parameters: wait },
      { name: 'After', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [400, 0], parameters: {} },
    ],
    connections: {
      Start: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] },
      Wait: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1', ...(opts.progress ? { saveExecutionProgress: true } : {}) },
  };
}

async function create(wf: unknown, activate = false): Promise<string> {
  const c = await s.api('POST', '/workflows', wf);
  expect(c.status).toBe(200);
  if (activate) expect((await s.api('POST', `/workflows/${c.body.id}/activate`)).status).toBe(200);
  return c.body.id;
}

const runningOf = (workflowId: string) =>
  waitFor(
    async () => {
      const list = await s.api('GET', `/executions?workflowId=${workflowId}&status=running`);
      return list.body.data.length > 0 && (list.body.data as Array<{ id: string }>);
    },
    { message: `a running execution of workflow ${workflowId}` },
  );

describe('POST /executions/{id}/stop', () => {
  test("a running queued execution (webhook, onReceived) ends canceled with n8n's message", async () => {
    const wf = await create(waitWorkflow('stop durable', { webhookPath: 'stop-durable' }), true);
    expect(
      (await s.call('POST', '/webhook/stop-durable', { body: '{}', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(200);
    const [running] = await runningOf(wf);
    const r = await s.api('POST', `/executions/${running.id}/stop`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: running.id, status: 'canceled', finished: false, workflowId: wf });
    expect(r.body.stoppedAt).toEqual(expect.any(String));
    const full = await s.api('GET', `/executions/${running.id}?includeData=true`);
    expect(full.body.status).toBe('canceled');
    expect(full.body.data.resultData.error.message).toBe(MANUAL_STOP);
    expect(full.body.data.resultData.runData.After).toBeUndefined();
  }, 30_000);

  test('an inline /execute run: the caller gets the canceled execution at once', async () => {
    const wf = await create(waitWorkflow('stop inline', { progress: true }));
    const run = s.api('POST', `/workflows/${wf}/execute`, {});
    const [running] = await runningOf(wf);
    const r = await s.api('POST', `/executions/${running.id}/stop`);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('canceled');
    const done = await run;
    expect(done.body.status).toBe('canceled');
    expect(done.body.data.resultData.error.message).toBe(MANUAL_STOP);
  }, 30_000);

  test('a waiting execution is canceled in place; its resume URL no longer resumes it', async () => {
    const wf = await create(waitWorkflow('stop waiting', { resumeByWebhook: true }));
    const run = await s.api('POST', `/workflows/${wf}/execute`, {});
    expect(run.body.status).toBe('waiting');
    const r = await s.api('POST', `/executions/${run.body.id}/stop`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: run.body.id, status: 'canceled', waitTill: null });
    const full = await s.api('GET', `/executions/${run.body.id}?includeData=true`);
    expect(full.body.status).toBe('canceled');
    expect(full.body.data.resultData.error.message).toBe(MANUAL_STOP);
    expect((await s.call('POST', `/webhook-waiting/${run.body.id}`)).status).toBe(404);
  }, 30_000);

  test("a finished execution: 409 with n8n's wording, nothing changes; unknown ids: 404", async () => {
    const wf = await create({
      ...waitWorkflow('finished', {}),
      nodes: [
        { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
      ],
      connections: {},
    });
    const run = await s.api('POST', `/workflows/${wf}/execute`, {});
    expect(run.body.status).toBe('success');
    const r = await s.api('POST', `/executions/${run.body.id}/stop`);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      `Only running or waiting executions can be stopped and ${run.body.id} is currently success`,
    );
    expect((await s.api('GET', `/executions/${run.body.id}`)).body.status).toBe('success');
    for (const id of ['999999', 'abc', '%25']) expect((await s.api('POST', `/executions/${id}/stop`)).status).toBe(404);
    expect((await s.api('GET', `/executions/${run.body.id}/stop`)).status).toBe(405);
  }, 30_000);
});

describe('POST /executions/stop', () => {
  test('rejects a bad filter with 400 and stops nothing', async () => {
    for (const body of [
      {},
      { status: [] },
      { status: 'running' },
      { status: ['done'] },
      { status: ['running'], startedAfter: 'yesterday' },
      { status: ['running'], workflowId: 7 },
    ]) {
      const r = await s.api('POST', '/executions/stop', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toMatch(/^request\/body/);
    }
  });

  test('stops every running execution of a workflow and counts them', async () => {
    const wf = await create(waitWorkflow('stop many', { webhookPath: 'stop-many' }), true);
    const other = await create(waitWorkflow('keep running', { webhookPath: 'keep-running' }), true);
    for (const path of ['stop-many', 'stop-many', 'keep-running']) {
      expect(
        (await s.call('POST', `/webhook/${path}`, { body: '{}', headers: { 'content-type': 'application/json' } }))
          .status,
      ).toBe(200);
    }
    await waitFor(async () => (await runningOf(wf)).length === 2, { message: 'two running executions' });
    await runningOf(other);
    const r = await s.api('POST', '/executions/stop', { status: ['running', 'queued'], workflowId: wf });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ stopped: 2 });
    const list = await s.api('GET', `/executions?workflowId=${wf}`);
    expect(list.body.data.map((e: { status: string }) => e.status)).toEqual(['canceled', 'canceled']);
    expect((await runningOf(other)).length).toBe(1);
    // Scoped to the other workflow: runs of earlier tests in this file may still be winding down.
    expect(await s.api('POST', '/executions/stop', { status: ['running'], workflowId: other })).toMatchObject({
      status: 200,
      body: { stopped: 1 },
    });
  }, 30_000);
});
