// Workflow benchmark (issues 6 and 9): Webhook → Set → Respond to Webhook with executions saved
// (the expression takes the main-thread fast path: target ≥ 3000 req/s; n8n 2.8.4 does 35–68
// here), the same with a Code node run in a sandbox worker thread (≥ 1500), the two list
// endpoints over 100k stored executions (≥ 25% of bare Fastify), and the blog's /healthz p99
// while 4 callers hammer a webhook whose Code node loops forever (target < 50 ms: user code
// must not stall the other services). The 100k rows are seeded straight into the SQLite file
// before any execution runs.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { load, ROOT, startHamletForBench, type BenchContext } from './lib.js';

const ROWS = Number(process.env.BENCH_WORKFLOW_ROWS ?? 100_000);

function createKey(dataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'src/cli.ts'), 'keys', 'create', 'workflow'],
      {
        cwd: ROOT,
        env: { ...process.env, HAMLET_DATA_DIR: dataDir, HAMLET_LOG_LEVEL: 'warn', HAMLET_SERVICES: 'workflow' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', () => {
      const m = /(hamlet_workflow_\S+)/.exec(out);
      m ? resolve(m[1]) : reject(new Error(`no key in: ${out}`));
    });
  });
}

const hook = (path: string, middle: Record<string, unknown>) => ({
  name: `bench ${path}`,
  nodes: [
    {
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      position: [0, 0],
      webhookId: path,
      parameters: { httpMethod: 'POST', path, responseMode: 'responseNode', options: {} },
    },
    { name: 'Work', position: [200, 0], ...middle },
    {
      name: 'Respond',
      type: 'n8n-nodes-base.respondToWebhook',
      typeVersion: 1.1,
      position: [400, 0],
      parameters: { respondWith: 'firstIncomingItem', options: {} },
    },
  ],
  connections: {
    Webhook: { main: [[{ node: 'Work', type: 'main', index: 0 }]] },
    Work: { main: [[{ node: 'Respond', type: 'main', index: 0 }]] },
  },
  settings: { executionOrder: 'v1' },
});

const setNode = {
  type: 'n8n-nodes-base.set',
  typeVersion: 3.4,
  parameters: {
    assignments: {
      assignments: [
        { id: '1', name: 'processed', type: 'boolean', value: true },
        { id: '2', name: 'echo', type: 'string', value: '={{ $json.body.msg }}' },
      ],
    },
    options: {},
  },
};
const codeNode = {
  type: 'n8n-nodes-base.code',
  typeVersion: 2,
  parameters: { jsCode: 'return $input.all().map(i => ({ json: { processed: true, echo: i.json.body.msg } }));' },
};

/** Runs `measure` while 4 callers keep calling `url` (each call waits for its execution to end). */
async function whileHammered<T>(url: string, body: string, measure: () => Promise<T>): Promise<T> {
  let hammering = true;
  const callers = Array.from({ length: 4 }, async () => {
    while (hammering) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.text();
    }
  });
  // Let the first calls reach the sandbox workers before measuring.
  await new Promise((resolve) => setTimeout(resolve, 500));
  try {
    return await measure();
  } finally {
    hammering = false;
    await Promise.all(callers);
  }
}

export default async function workflowBench(ctx: BenchContext): Promise<void> {
  const hamlet = await startHamletForBench(['workflow', 'blog']);
  try {
    const base = hamlet.urls['workflow api'];
    const key = await createKey(hamlet.dataDir);
    const headers = { 'x-workflow-api-key': key, 'content-type': 'application/json' };
    const api = async (method: string, p: string, body?: unknown) =>
      (
        await fetch(base + '/api/v1' + p, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      ).json();

    const wfSet = await api('POST', '/workflows', hook('bench-set', setNode));
    const wfCode = await api('POST', '/workflows', hook('bench-code', codeNode));
    const wfLoop = await api(
      'POST',
      '/workflows',
      hook('bench-loop', { ...codeNode, parameters: { jsCode: 'while (true) {}' } }),
    );
    for (const wf of [wfSet, wfCode, wfLoop]) await api('POST', `/workflows/${wf.id}/activate`);

    // 100k executions of the Set workflow as the engine stores them, seeded before the server
    // has run any execution (its id counter starts after the highest id it finds).
    const db = new Database(path.join(hamlet.dataDir, 'hamlet.sqlite'));
    const now = Date.now();
    const item = {
      headers: { 'content-type': 'application/json' },
      params: {},
      query: {},
      body: { msg: 'seed' },
      webhookUrl: `${base}/webhook/bench-set`,
      executionMode: 'production',
    };
    const data = JSON.stringify({
      version: 1,
      startData: {},
      resultData: {
        runData: {
          Webhook: [
            {
              startTime: now,
              executionIndex: 0,
              executionTime: 0,
              executionStatus: 'success',
              source: [],
              data: { main: [[{ json: item }]] },
            },
          ],
          Work: [
            {
              startTime: now,
              executionIndex: 1,
              executionTime: 0,
              executionStatus: 'success',
              source: [{ previousNode: 'Webhook', previousNodeOutput: 0, previousNodeRun: 0 }],
              data: { main: [[{ json: { processed: true, echo: 'seed' }, pairedItem: { item: 0 } }]] },
            },
          ],
          Respond: [
            {
              startTime: now,
              executionIndex: 2,
              executionTime: 0,
              executionStatus: 'success',
              source: [{ previousNode: 'Work', previousNodeOutput: 0, previousNodeRun: 0 }],
              data: { main: [[{ json: { processed: true, echo: 'seed' }, pairedItem: { item: 0 } }]] },
            },
          ],
        },
        pinData: null,
        lastNodeExecuted: 'Respond',
      },
      executionData: {
        contextData: {},
        nodeExecutionStack: [],
        metadata: {},
        waitingExecution: {},
        waitingExecutionSource: {},
        executionIndex: 3,
      },
    });
    const insert = db.prepare(
      'insert into workflow_executions (id, workflow_id, mode, status, started_at, stopped_at, created_at, data, workflow_data) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const snapshot = JSON.stringify(wfSet);
    db.transaction(() => {
      for (let i = 1; i <= ROWS; i++) {
        const at = new Date(now - (ROWS - i) * 1000).toISOString();
        insert.run(i, wfSet.id, 'webhook', i % 10 === 0 ? 'error' : 'success', at, at, at, data, snapshot);
      }
    })();
    db.close();

    const body = JSON.stringify({ msg: 'hello' });
    const set = await load({
      url: `${base}/webhook/bench-set`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    ctx.row(
      'Webhook → Set → Respond, executions saved',
      set,
      { rps: 3000 },
      `10 connections${set.non2xx ? `, ${set.non2xx} non-2xx` : ''}`,
    );
    // Warm up: the sandbox workers start on first use (and load their code through tsx here).
    await load({
      url: `${base}/webhook/bench-code`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      amount: 500,
    });
    const code = await load({
      url: `${base}/webhook/bench-code`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    ctx.row(
      'Webhook → Code → Respond, executions saved',
      code,
      { rps: 1500 },
      `10 connections, Code in worker threads${code.non2xx ? `, ${code.non2xx} non-2xx` : ''}`,
    );
    const healthz = await whileHammered(`${base}/webhook/bench-loop`, body, () =>
      load({ url: `${hamlet.urls['blog api']}/healthz`, connections: 1 }),
    );
    ctx.row(
      'blog /healthz while 4 callers hammer an endless-loop Code webhook',
      healthz,
      undefined,
      `1 connection; target p99 < 50 ms: ${healthz.p99 < 50 ? 'met' : 'not met'}`,
    );
    const wfs = await load({ url: `${base}/api/v1/workflows`, headers: { 'x-workflow-api-key': key } });
    ctx.row('GET /api/v1/workflows', wfs, { ratio: 0.25 }, `${ROWS / 1000}k executions stored`);
    const execs = await load({ url: `${base}/api/v1/executions?limit=20`, headers: { 'x-workflow-api-key': key } });
    ctx.row('GET /api/v1/executions?limit=20', execs, { ratio: 0.25 }, `${ROWS / 1000}k executions stored`);
  } finally {
    await hamlet.stopAndClean();
  }
}
