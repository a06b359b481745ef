// Observation 6 of issue #9: on PostgreSQL, an execution interrupted by kill -9 stayed
// `running` for the 5-minute job lease after a restart (and could not be retried meanwhile);
// SQLite marked it `crashed` at start. Now both do, and on PostgreSQL a process never marks
// the executions of another process that is still alive (several instances, queue mode).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { testEnv, testStorage } from '../helpers/hamlet.js';
import { spawnHamlet, type HamletProcess } from '../helpers/process.js';
import { waitFor } from '../helpers/wait.js';
import { cliArgs } from '../helpers/cli.js';

const onPostgres = !!process.env.TEST_DATABASE_URL;
let storage: Awaited<ReturnType<typeof testStorage>>;
let env: Record<string, string>;
let key: string;
const procs: HamletProcess[] = [];

beforeAll(async () => {
  storage = await testStorage();
  env = testEnv(storage, ['workflow'], { HAMLET_RATE_LIMITS: 'off', HAMLET_LOG_LEVEL: 'warn' });
  const { stdout } = await promisify(execFile)(process.execPath, cliArgs('keys', 'create', 'workflow'), {
    env: { ...process.env, ...env },
  });
  key = stdout.trim();
}, 60_000);
afterAll(async () => {
  for (const p of procs) await p.kill('SIGKILL');
  await storage?.drop();
});

async function start(): Promise<{
  proc: HamletProcess;
  api: (method: string, path: string, body?: unknown) => Promise<any>;
  base: string;
}> {
  const proc = await spawnHamlet(env);
  procs.push(proc);
  const base = proc.urls['workflow api'];
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(base + '/api/v1' + path, {
      method,
      headers: { 'x-workflow-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: await r.json() };
  };
  return { proc, api, base };
}

/** A webhook (answered at once, run by the job worker) whose Wait keeps the execution `running` for 30 s. */
const slowWorkflow = (path: string, seconds = 30) => ({
  name: `slow ${path}`,
  nodes: [
    {
      name: 'Hook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      position: [0, 0],
      parameters: { path, httpMethod: 'POST' },
    },
    {
      name: 'Wait',
      type: 'n8n-nodes-base.wait',
      typeVersion: 1.1,
      position: [200, 0],
      parameters: { amount: seconds, unit: 'seconds' },
    },
  ],
  connections: { Hook: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] } },
  settings: { executionOrder: 'v1' },
});

async function startRunning(
  s: Awaited<ReturnType<typeof start>>,
  path: string,
): Promise<{ workflowId: string; executionId: string }> {
  const wf = await s.api('POST', '/workflows', slowWorkflow(path));
  expect((await s.api('POST', `/workflows/${wf.body.id}/activate`)).status).toBe(200);
  expect(
    (
      await fetch(`${s.base}/webhook/${path}`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      })
    ).status,
  ).toBe(200);
  // Up to 30 s: on a loaded machine under PostgreSQL, 10 s was seen not to be enough.
  const running = await waitFor(
    async () => {
      const [e] = (await s.api('GET', `/executions?workflowId=${wf.body.id}`)).body.data;
      return e?.status === 'running' && (e as { id: string });
    },
    { timeoutMs: 30_000, intervalMs: 50, message: 'the execution to start running' },
  );
  return { workflowId: wf.body.id, executionId: running.id };
}

const statusOf = async (s: Awaited<ReturnType<typeof start>>, id: string) =>
  (await s.api('GET', `/executions/${id}`)).body.status;

test(`an execution interrupted by kill -9 is crashed right after the restart (${onPostgres ? 'PostgreSQL' : 'SQLite'}), and can be retried`, async () => {
  const first = await start();
  const { workflowId, executionId } = await startRunning(first, 'killed');
  await first.proc.kill('SIGKILL');
  const second = await start();
  expect(await statusOf(second, executionId)).toBe('crashed');
  // A retry answers when its run ends: retried with the saved workflow (loadWorkflow), whose Wait
  // is now one second, rather than the 30 s the crashed run had.
  expect((await second.api('PUT', `/workflows/${workflowId}`, slowWorkflow('killed', 1))).status).toBe(200);
  const retry = await second.api('POST', `/executions/${executionId}/retry`, { loadWorkflow: true });
  expect(retry.status).toBe(200);
  expect(retry.body.status).toBe('success');
  await second.proc.kill('SIGKILL');
}, 90_000);

test.skipIf(!onPostgres)(
  'PostgreSQL: a process starting beside a live one leaves its running executions alone; once that one dies, the next start marks them',
  async () => {
    const live = await start();
    const { executionId } = await startRunning(live, 'live-owner');
    // A second instance on the same database starts while the first still runs the execution.
    const beside = await start();
    expect(await statusOf(beside, executionId)).toBe('running');
    expect(await statusOf(live, executionId)).toBe('running');
    await live.proc.kill('SIGKILL');
    await beside.proc.kill('SIGKILL');
    const after = await start();
    expect(await statusOf(after, executionId)).toBe('crashed');
    await after.proc.kill('SIGKILL');
  },
  120_000,
);
