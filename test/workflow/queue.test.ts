// Queue mode (n8n's scaling pattern): the API process only enqueues (HAMLET_WORKERS=off) and
// a separate `hamlet worker` process runs the execution from BullMQ against the shared
// PostgreSQL database. Runs only when TEST_REDIS_URL and TEST_DATABASE_URL are set.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestHamlet } from '../helpers/hamlet.js';
import { wrap, type WorkflowTestServer } from './helpers.js';
import { waitFor, withDeadline } from '../helpers/wait.js';

const REDIS = process.env.TEST_REDIS_URL;
const enabled = !!REDIS && !!process.env.TEST_DATABASE_URL;
const ROOT = path.resolve(import.meta.dirname, '../..');

let s: WorkflowTestServer;
let worker: ChildProcess | undefined;
let workerDir: string;

beforeAll(async () => {
  if (!enabled) return;
  const prefix = `hamlet-test-${Date.now().toString(36)}`;
  const t = await startTestHamlet({ services: ['workflow'], env: { REDIS_URL: REDIS!, HAMLET_WORKERS: 'off', HAMLET_QUEUE_PREFIX: prefix, HAMLET_RATE_LIMITS: 'off' } });
  s = await wrap(t);
  workerDir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-worker-'));
  worker = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'worker', '--concurrency', '2'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: t.config.databaseUrl!, REDIS_URL: REDIS!, HAMLET_QUEUE_PREFIX: prefix, HAMLET_SERVICES: 'workflow', HAMLET_DATA_DIR: workerDir, HAMLET_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    worker!.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('worker ready')) resolve();
    });
    worker!.stderr!.on('data', (d) => (out += d));
    worker!.once('exit', (code) => reject(new Error(`worker exited ${code}: ${out}`)));
  });
  await withDeadline(ready, 30_000, 'the worker to report ready').catch((err: Error) => {
    throw new Error(`${err.message}: ${out}`);
  });
}, 60_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((r) => worker!.once('exit', r));
    worker.kill('SIGTERM');
    await exited;
  }
  await s?.stop();
  if (workerDir) rmSync(workerDir, { recursive: true, force: true });
});

test.skipIf(!enabled)('a webhook execution queued by the API process is run by a hamlet worker process', async () => {
  const c = await s.api('POST', '/workflows', {
    name: 'queued',
    nodes: [
      { name: 'Hook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], parameters: { path: 'queued', httpMethod: 'POST' } },
      { name: 'Set', type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [200, 0], parameters: { assignments: { assignments: [{ id: '1', name: 'pid', type: 'string', value: '={{ $json.body.n }}-done' }] } } },
    ],
    connections: { Hook: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  });
  await s.api('POST', `/workflows/${c.body.id}/activate`);
  for (let n = 0; n < 5; n++) {
    const r = await s.call('POST', '/webhook/queued', { body: JSON.stringify({ n }), headers: { 'content-type': 'application/json' } });
    expect(r.body).toEqual({ message: 'Workflow was started' });
  }
  const done = await waitFor(async () => {
    const list = (await s.api('GET', `/executions?workflowId=${c.body.id}&includeData=true`)).body.data as any[];
    return list.length === 5 && list.every((e) => e.status === 'success') && list;
  }, { timeoutMs: 20_000, message: 'five successful executions' });
  expect(done.map((e) => e.data.resultData.runData.Set[0].data.main[0][0].json.pid).sort()).toEqual(['0-done', '1-done', '2-done', '3-done', '4-done']);
}, 60_000);
