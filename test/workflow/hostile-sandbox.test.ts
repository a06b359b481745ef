// Issue 9, observation 3 and the sandbox half of the "hostile workflows" suite: an endless
// loop, a catastrophic regex and a memory bomb, in a Code node of each mode (and the legacy
// Function nodes) and in an expression, each behind a webhook with 4 concurrent callers. User
// code used to run on the server's event loop: every other service stalled for the whole
// sandbox timeout. Now it runs in worker threads; while the runs go on, the other services'
// /healthz answer quickly, every run ends as an error execution naming its limit, memory stays
// bounded, and the server is healthy afterwards.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startWorkflowServer, type WorkflowTestServer } from './helpers.js';

const TIMEOUT_MS = 500;
const MEMORY_MB = 16;
const CALLERS = 4;

let s: WorkflowTestServer;
beforeAll(async () => {
  s = await startWorkflowServer({
    services: ['workflow', 'blog', 'mail', 'community', 'home'],
    // One sandbox worker, no spare: where user code runs does not depend on the pool's size, and
    // on the shared 2-core test machine a core stays free for event loops.
    env: {
      WORKFLOW_SANDBOX_TIMEOUT_MS: String(TIMEOUT_MS),
      WORKFLOW_SANDBOX_MEMORY_MB: String(MEMORY_MB),
      WORKFLOW_SANDBOX_WORKERS: '1',
      WORKFLOW_SANDBOX_MAX_WORKERS: '1',
    },
  });
  // All five services on PostgreSQL under CI's parallel load once took over the default 60 s to start.
}, 120_000);
afterAll(() => s?.stop());

const PAYLOADS = {
  loop: { statement: 'while (true) {}', limit: `Execution timed out after ${TIMEOUT_MS} ms` },
  regex: {
    statement: "const r = /^(a+)+$/.test('a'.repeat(40) + 'b');",
    limit: `Execution timed out after ${TIMEOUT_MS} ms`,
  },
  // (The bomb may meet the clock first: a run waiting for the worker fails when its time is up,
  // and on a loaded machine 500 ms may not be enough to fill 16 MB. Either limit is named.)
  memory: {
    statement: 'const a = []; for (let i = 0; ; i++) a.push({ i, s: [i, i, i] });',
    limit: new RegExp(`^(Node ran out of memory|Execution timed out after ${TIMEOUT_MS} ms)$`),
  },
};
type Payload = keyof typeof PAYLOADS;

/** The node that runs the payload, for each place user code can be. */
const PLACES: Record<
  string,
  (statement: string) => { type: string; typeVersion: number; parameters: Record<string, unknown> }
> = {
  codeAllItems: (code) => ({
    type: 'n8n-nodes-base.code',
    typeVersion: 2,
    parameters: { mode: 'runOnceForAllItems', jsCode: `${code}\nreturn [];` },
  }),
  codeEachItem: (code) => ({
    type: 'n8n-nodes-base.code',
    typeVersion: 2,
    parameters: { mode: 'runOnceForEachItem', jsCode: `${code}\nreturn $json;` },
  }),
  function: (code) => ({
    type: 'n8n-nodes-base.function',
    typeVersion: 1,
    parameters: { functionCode: `${code}\nreturn items;` },
  }),
  functionItem: (code) => ({
    type: 'n8n-nodes-base.functionItem',
    typeVersion: 1,
    parameters: { functionCode: `${code}\nreturn item;` },
  }),
  expression: (code) => ({
    type: 'n8n-nodes-base.set',
    typeVersion: 3.4,
    parameters: {
      assignments: {
        assignments: [{ id: '1', name: 'v', type: 'string', value: `={{ (() => { ${code} return 1; })() }}` }],
      },
      options: {},
    },
  }),
};

function hostileWorkflow(path: string, node: ReturnType<(typeof PLACES)[string]>) {
  return {
    name: `hostile ${path}`,
    nodes: [
      {
        id: 'w',
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: path,
        parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} },
      },
      { id: 'h', name: 'Hostile', position: [200, 0], ...node },
    ],
    connections: { Webhook: { main: [[{ node: 'Hostile', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function healthz(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url + '/healthz');
  await res.text();
  expect(res.status).toBe(200);
  return performance.now() - started;
}

test('runaway user code in every place, 4 callers each: the other services stay responsive, every run fails on its limit', async () => {
  const others = (['blog', 'mail', 'community', 'home'] as const).map((name) => s.t.url(name));
  const expected = new Map<string, string | RegExp>();
  for (const [place, build] of Object.entries(PLACES)) {
    for (const [payload, { statement, limit }] of Object.entries(PAYLOADS) as Array<
      [Payload, (typeof PAYLOADS)[Payload]]
    >) {
      const path = `${place}-${payload}`;
      const created = await s.api('POST', '/workflows', hostileWorkflow(path, build(statement)));
      expect((await s.api('POST', `/workflows/${created.body.id}/activate`)).status).toBe(200);
      expected.set(created.body.id, limit);
    }
  }
  // Warm up: the HTTP paths and one sandbox worker.
  for (const url of others) await healthz(url);
  const rssBefore = process.memoryUsage().rss;

  let calling = true;
  const started = performance.now();
  const calls = Promise.all(
    Object.keys(PLACES).flatMap((place) =>
      Object.keys(PAYLOADS).flatMap((payload) =>
        Array.from({ length: CALLERS }, () =>
          s
            .call('POST', `/webhook/${place}-${payload}`, {
              body: '{}',
              headers: { 'content-type': 'application/json' },
            })
            .then((r) => r.status),
        ),
      ),
    ),
  ).finally(() => (calling = false));

  const latencies: number[] = [];
  let rssPeak = rssBefore;
  for (let i = 0; calling; i++) {
    latencies.push(await healthz(others[i % others.length]));
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const statuses = await calls;
  console.log(
    `hostile: ${statuses.length} runs in ${Math.round(performance.now() - started)} ms; /healthz of the others: ${latencies.length} samples, ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms; ` +
      `RSS +${Math.round((rssPeak - rssBefore) / 1048576)} MB`,
  );
  // Every call is answered: 200, or 500 "Error in workflow" for a run that failed on its limit (as n8n answers).
  expect(statuses.filter((status) => status !== 200 && status !== 500)).toEqual([]);

  // The other services answered while 60 hostile runs went on (each used to stall them all).
  // p95: since issue 27 a run waiting for a worker fails when its time is up, so the attack
  // lasts seconds, not 40 s; among ~150 probes the 99th is the one or two the burst of 60
  // executions starting at once delays on a loaded machine (engine work, not user code, which
  // would delay most probes by the limit).
  expect(latencies.length).toBeGreaterThan(50);
  expect(percentile(latencies, 95)).toBeLessThan(100);
  expect(Math.max(...latencies)).toBeLessThan(TIMEOUT_MS * 2);
  // Memory: the sandboxes' limits, not the bombs, decide (each used to add ~600 MB).
  expect(rssPeak - rssBefore).toBeLessThan(400 * 1024 * 1024);

  // Every run is an error execution whose message names the limit that stopped it.
  const list = await s.api('GET', '/executions?includeData=true&limit=250');
  const executions = list.body.data as Array<{
    workflowId: string;
    status: string;
    data: { resultData: { error?: { message: string } } };
  }>;
  expect(executions).toHaveLength(expected.size * CALLERS);
  for (const execution of executions) {
    expect(execution.status, execution.workflowId).toBe('error');
    expect(execution.data.resultData.error?.message, execution.workflowId).toMatch(expected.get(execution.workflowId)!);
  }

  // Healthy afterwards: an ordinary Code webhook answers with its result.
  const ok = await s.api('POST', '/workflows', {
    name: 'after',
    nodes: [
      {
        id: 'w',
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: 'after',
        parameters: { httpMethod: 'POST', path: 'after', responseMode: 'lastNode', options: {} },
      },
      {
        id: 'c',
        name: 'Code',
        type: 'n8n-nodes-base.code',
        typeVersion: 2,
        position: [200, 0],
        parameters: { jsCode: 'return [{ json: { sum: 1 + 1, msg: $json.body.msg.toUpperCase() } }];' },
      },
    ],
    connections: { Webhook: { main: [[{ node: 'Code', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  });
  await s.api('POST', `/workflows/${ok.body.id}/activate`);
  const answer = await s.call('POST', '/webhook/after', {
    body: JSON.stringify({ msg: 'fine' }),
    headers: { 'content-type': 'application/json' },
  });
  expect(answer.body).toEqual({ sum: 2, msg: 'FINE' });
  for (const url of [...others, s.url]) await healthz(url);
}, 180_000);
