// Evaluation test runs through /api/v1/workflows/{id}/test-runs (issue 29): refusals first (no
// trigger, a Google Sheets dataset, a missing table, a run of another workflow, cancelling a
// finished run, bad pages), then a run over a data table: one case per row, in order, with its
// execution, inputs and outputs.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createWorkflow, manualSetWorkflow, startWorkflowServer, type WorkflowTestServer } from './helpers.js';

let s: WorkflowTestServer;
let tableId: string;
beforeAll(async () => {
  s = await startWorkflowServer();
  tableId = (
    await s.api('POST', '/data-tables', {
      name: 'dataset',
      columns: [
        { name: 'question', type: 'string' },
        { name: 'expected', type: 'number' },
      ],
    })
  ).body.id;
  await s.api('POST', `/data-tables/${tableId}/rows`, {
    data: [
      { question: 'one', expected: 1 },
      { question: 'two', expected: 2 },
      { question: 'three', expected: 3 },
    ],
  });
}, 60_000);
afterAll(() => s?.stop());

function evaluationWorkflow(name: string, trigger: Record<string, unknown>) {
  return {
    name,
    nodes: [
      {
        name: 'When fetching a dataset row',
        type: 'n8n-nodes-base.evaluationTrigger',
        typeVersion: 4.6,
        position: [0, 0],
        parameters: trigger,
      },
      {
        name: 'Answer',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        position: [200, 0],
        parameters: {
          assignments: {
            assignments: [{ id: '1', name: 'answer', type: 'string', value: '={{ $json.question.toUpperCase() }}' }],
          },
          options: {},
        },
      },
    ],
    connections: { 'When fetching a dataset row': { main: [[{ node: 'Answer', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  };
}

const finished = async (wf: string, run: string) => {
  let body: any;
  await vi.waitFor(
    async () => {
      body = (await s.api('GET', `/workflows/${wf}/test-runs/${run}`)).body;
      expect(['completed', 'error', 'cancelled']).toContain(body.status);
    },
    { timeout: 20_000, interval: 50 },
  );
  return body;
};

describe('test runs: refusals', () => {
  test('no trigger 409, another dataset source 400, a missing table 404, unknown ids 404', async () => {
    const plain = await createWorkflow(s, manualSetWorkflow('no evaluation'));
    const r = await s.api('POST', `/workflows/${plain}/test-runs`);
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/Evaluation trigger not found/);
    const sheets = await createWorkflow(s, evaluationWorkflow('sheets', { source: 'googleSheets' }));
    expect((await s.api('POST', `/workflows/${sheets}/test-runs`)).status).toBe(400);
    const gone = await createWorkflow(
      s,
      evaluationWorkflow('gone', { source: 'dataTable', dataTableId: { mode: 'id', value: 'nope' } }),
    );
    expect((await s.api('POST', `/workflows/${gone}/test-runs`)).status).toBe(404);
    expect((await s.api('GET', `/workflows/${plain}/test-runs`)).body).toEqual({ data: [], nextCursor: null });
    expect((await s.api('GET', '/workflows/nope/test-runs')).status).toBe(404);
    expect((await s.api('POST', '/workflows/nope/test-runs')).status).toBe(404);
    expect((await s.api('GET', `/workflows/${plain}/test-runs/nope`)).status).toBe(404);
    expect((await s.api('GET', `/workflows/${plain}/test-runs?status=done`)).status).toBe(400);
    expect((await s.api('GET', `/workflows/${plain}/test-runs?limit=251`)).status).toBe(400);
    expect((await s.api('GET', `/workflows/${'x'.repeat(500)}/test-runs`)).status).toBe(404);
  });
});

describe('test runs: a run over a data table', () => {
  test('one case per row with its execution; another workflow cannot see the run; a finished run cannot be cancelled', async () => {
    const wf = await createWorkflow(
      s,
      evaluationWorkflow('eval', { source: 'dataTable', dataTableId: { __rl: true, mode: 'id', value: tableId } }),
    );
    const started = await s.api('POST', `/workflows/${wf}/test-runs`);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ workflowId: wf, status: 'new', runAt: null });
    const run = await finished(wf, started.body.id);
    expect(run).toMatchObject({
      status: 'completed',
      metrics: {},
      runAt: expect.any(String),
      completedAt: expect.any(String),
    });
    const cases = await s.api('GET', `/workflows/${wf}/test-runs/${run.id}/test-cases?limit=2`);
    expect(cases.body.data.map((c: any) => [c.status, c.inputs.question, c.outputs[0].answer])).toEqual([
      ['success', 'one', 'ONE'],
      ['success', 'two', 'TWO'],
    ]);
    const rest = await s.api(
      'GET',
      `/workflows/${wf}/test-runs/${run.id}/test-cases?cursor=${encodeURIComponent(cases.body.nextCursor)}`,
    );
    expect(rest.body.data.map((c: any) => c.outputs[0].answer)).toEqual(['THREE']);
    const exec = await s.api('GET', `/executions/${cases.body.data[0].executionId}`);
    expect(exec.body).toMatchObject({ workflowId: wf, status: 'success' });
    expect((await s.api('GET', `/workflows/${wf}/test-runs?status=completed`)).body.data.map((r: any) => r.id)).toEqual(
      [run.id],
    );
    const other = await createWorkflow(s, manualSetWorkflow('other'));
    expect((await s.api('GET', `/workflows/${other}/test-runs/${run.id}`)).status).toBe(404);
    const late = await s.api('POST', `/workflows/${wf}/test-runs/${run.id}/cancel`);
    expect(late.status).toBe(409);
  });

  test('a run cancelled before it starts stays cancelled', async () => {
    const wf = await createWorkflow(
      s,
      evaluationWorkflow('eval2', { source: 'dataTable', dataTableId: { mode: 'id', value: tableId } }),
    );
    const started = await s.api('POST', `/workflows/${wf}/test-runs`);
    const cancel = await s.api('POST', `/workflows/${wf}/test-runs/${started.body.id}/cancel`);
    // The run may have finished already on a fast machine; either answer is n8n's.
    if (cancel.status === 200) {
      expect(cancel.body.status).toBe('cancelled');
      expect((await finished(wf, started.body.id)).status).toBe('cancelled');
    } else expect(cancel.status).toBe(409);
  });
});
