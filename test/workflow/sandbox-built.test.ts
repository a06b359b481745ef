// The built server (dist/, as `npm start` runs it) loads the compiled sandbox worker: a Code
// node and a sandbox expression run in worker threads there too, not only under tsx/vitest.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { testEnv, testStorage } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';

const CLI = path.resolve('dist/cli.js');
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

it.runIf(existsSync(CLI))(
  'the built `hamlet start` runs Code and expressions in its sandbox workers',
  async () => {
    const storage = await testStorage();
    cleanups.push(() => storage.drop());
    const env = { ...process.env, ...testEnv(storage, ['workflow']), HAMLET_RATE_LIMITS: 'off' };
    const key = (
      await promisify(execFile)(process.execPath, [CLI, 'keys', 'create', 'workflow'], { env })
    ).stdout.trim();
    const child = spawn(process.execPath, [CLI, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    // Started (the last service prints its URLs), or exited early: the assertions below say which.
    await waitFor(() => /^workflow\s+api\s+http/m.test(out) || child.exitCode !== null, {
      timeoutMs: 30_000,
      intervalMs: 100,
      message: 'the workflow API URL on stdout',
    });
    const base = /^workflow\s+api\s+(http:\/\/\S+)/m.exec(out)![1];
    const headers = { 'x-workflow-api-key': key, 'content-type': 'application/json' };
    const created = await (
      await fetch(`${base}/api/v1/workflows`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: 'built',
          nodes: [
            {
              name: 'Webhook',
              type: 'n8n-nodes-base.webhook',
              typeVersion: 2,
              position: [0, 0],
              parameters: { httpMethod: 'POST', path: 'built', responseMode: 'lastNode' },
            },
            {
              name: 'Code',
              type: 'n8n-nodes-base.code',
              typeVersion: 2,
              position: [200, 0],
              parameters: {
                jsCode:
                  'return [{ json: { up: $json.body.msg.toUpperCase(), year: DateTime.fromISO("2020-05-01").year } }];',
              },
            },
            {
              name: 'Set',
              type: 'n8n-nodes-base.set',
              typeVersion: 3.4,
              position: [400, 0],
              parameters: {
                assignments: {
                  assignments: [{ id: '1', name: 'twice', type: 'string', value: '={{ $json.up.repeat(2) }}' }],
                },
                includeOtherFields: true,
                options: {},
              },
            },
          ],
          connections: {
            Webhook: { main: [[{ node: 'Code', type: 'main', index: 0 }]] },
            Code: { main: [[{ node: 'Set', type: 'main', index: 0 }]] },
          },
          settings: { executionOrder: 'v1' },
        }),
      })
    ).json();
    await fetch(`${base}/api/v1/workflows/${created.id}/activate`, { method: 'POST', headers });
    const answer = await (
      await fetch(`${base}/webhook/built`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"msg":"hi"}',
      })
    ).json();
    expect(answer).toEqual({ up: 'HI', year: 2020, twice: 'HIHI' });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  },
  60_000,
);
