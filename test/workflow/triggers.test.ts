// Time and waiting: schedules under the manual clock, Wait nodes that park an execution and
// resume it (by time or by webhook), resuming across a restart, and interrupted executions
// becoming `crashed` after a kill -9.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { spawnHamlet } from '../helpers/process.js';
import { startWorkflowServer, wrap, type WorkflowTestServer } from './helpers.js';
import { waitFor } from '../helpers/wait.js';
import { cliArgs } from '../helpers/cli.js';

const clock = new ManualClock('2026-03-02T10:00:30.000Z');
let s: WorkflowTestServer;
beforeAll(async () => {
  s = await startWorkflowServer({ clock });
}, 60_000);
afterAll(() => s?.stop());

const trigger = {
  name: 'Start',
  type: 'n8n-nodes-base.manualTrigger',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
};
const after = {
  name: 'After',
  type: 'n8n-nodes-base.set',
  typeVersion: 3.4,
  position: [400, 0],
  parameters: {
    assignments: { assignments: [{ id: '1', name: 'done', type: 'boolean', value: true }] },
    includeOtherFields: true,
  },
};
const waitWorkflow = (name: string, parameters: Record<string, unknown>) => ({
  name,
  nodes: [
    trigger,
    { name: 'Wait', type: 'n8n-nodes-base.wait', typeVersion: 1.1, position: [200, 0], webhookId: 'w', parameters },
    after,
  ],
  connections: {
    Start: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] },
    Wait: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
  },
  settings: { executionOrder: 'v1' },
});

const executions = async (srv: WorkflowTestServer, id: string) =>
  (await srv.api('GET', `/executions?workflowId=${id}&includeData=true`)).body.data as any[];

describe('schedules', () => {
  test('a Schedule Trigger fires under the clock in mode trigger; deactivation stops it', async () => {
    const c = await s.api('POST', '/workflows', {
      name: 'every minute',
      nodes: [
        {
          name: 'Every minute',
          type: 'n8n-nodes-base.scheduleTrigger',
          typeVersion: 1.2,
          position: [0, 0],
          parameters: { rule: { interval: [{ field: 'minutes', minutesInterval: 1 }] } },
        },
      ],
      connections: {},
      settings: { executionOrder: 'v1', timezone: 'Europe/Berlin' },
    });
    expect((await s.api('POST', `/workflows/${c.body.id}/activate`)).status).toBe(200);
    expect(await executions(s, c.body.id)).toEqual([]);
    clock.advance(30_000); // 10:01:00 UTC
    const first = await waitFor(
      async () => {
        await s.t.hamlet.platform.jobs.idle();
        const [e] = await executions(s, c.body.id);
        expect(e).toMatchObject({ mode: 'trigger', status: 'success' });
        return e;
      },
      { message: 'the first scheduled run to succeed' },
    );
    const item = first.data.resultData.runData['Every minute'][0].data.main[0][0].json;
    expect(item).toMatchObject({
      timestamp: '2026-03-02T11:01:00.000+01:00',
      Hour: '11',
      Minute: '01',
      Second: '00',
      'Day of week': 'Monday',
      Timezone: 'Europe/Berlin (UTC+01:00)',
    });
    clock.advance(60_000);
    await waitFor(
      async () => {
        await s.t.hamlet.platform.jobs.idle();
        return (await executions(s, c.body.id)).filter((e) => e.status === 'success').length === 2;
      },
      { message: 'two successful scheduled runs' },
    );
    await s.api('POST', `/workflows/${c.body.id}/deactivate`);
    clock.advance(5 * 60_000);
    await s.t.hamlet.platform.jobs.idle();
    expect((await executions(s, c.body.id)).length).toBe(2);
  });

  test('a legacy Cron node and a cron expression activate; a bad expression is a 400', async () => {
    const cron = await s.api('POST', '/workflows', {
      name: 'cron',
      nodes: [
        {
          name: 'Cron',
          type: 'n8n-nodes-base.cron',
          typeVersion: 1,
          position: [0, 0],
          parameters: { triggerTimes: { item: [{ mode: 'everyHour', minute: 5 }] } },
        },
      ],
      connections: {},
      settings: {},
    });
    expect((await s.api('POST', `/workflows/${cron.body.id}/activate`)).status).toBe(200);
    const bad = await s.api('POST', '/workflows', {
      name: 'bad',
      nodes: [
        {
          name: 'S',
          type: 'n8n-nodes-base.scheduleTrigger',
          typeVersion: 1.2,
          position: [0, 0],
          parameters: { rule: { interval: [{ field: 'cronExpression', expression: 'not a cron' }] } },
        },
      ],
      connections: {},
      settings: {},
    });
    const r = await s.api('POST', `/workflows/${bad.body.id}/activate`);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/invalid schedule/);
    await s.api('POST', `/workflows/${cron.body.id}/deactivate`);
  });
});

describe('wait', () => {
  test('a long Wait parks the execution as waiting; the clock reaching waitTill resumes it', async () => {
    const c = await s.api('POST', '/workflows', waitWorkflow('two hours', { amount: 2, unit: 'hours' }));
    const e = await s.api('POST', `/workflows/${c.body.id}/execute`, { data: { x: 1 } });
    expect(e.body).toMatchObject({ status: 'waiting', finished: false, stoppedAt: null });
    expect(new Date(e.body.waitTill).getTime() - clock.ms()).toBe(2 * 3_600_000);
    expect((await s.api('GET', '/executions?status=waiting')).body.data.map((x: any) => x.id)).toContain(e.body.id);
    clock.advance(3_600_000);
    await s.t.hamlet.platform.jobs.idle();
    expect((await s.api('GET', `/executions/${e.body.id}`)).body.status).toBe('waiting');
    clock.advance(3_600_000);
    await s.t.hamlet.platform.jobs.idle();
    const done = (await s.api('GET', `/executions/${e.body.id}?includeData=true`)).body;
    expect(done.status).toBe('success');
    expect(done.waitTill).toBeNull();
    expect(done.data.resultData.runData.After[0].data.main[0][0].json).toEqual({ x: 1, done: true });
    expect(done.data.resultData.runData.Wait.length).toBe(1);
  });

  test('Wait until webhook resumes through its resume URL with the call as data', async () => {
    const c = await s.api('POST', '/workflows', waitWorkflow('approval', { resume: 'webhook' }));
    const e = await s.api('POST', `/workflows/${c.body.id}/execute`, {});
    expect(e.body.status).toBe('waiting');
    const r = await s.call('POST', `/webhook-waiting/${e.body.id}`, {
      body: JSON.stringify({ approved: true }),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(200);
    await s.t.hamlet.platform.jobs.idle();
    const done = (await s.api('GET', `/executions/${e.body.id}?includeData=true`)).body;
    expect(done.status).toBe('success');
    expect(done.data.resultData.runData.After[0].data.main[0][0].json.body).toEqual({ approved: true });
    expect(
      (
        await s.call('POST', `/webhook-waiting/${e.body.id}`, {
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(404);
  });

  test('a restart resumes waiting executions', async () => {
    const c = await s.api('POST', '/workflows', waitWorkflow('across restart', { amount: 1, unit: 'days' }));
    const e = await s.api('POST', `/workflows/${c.body.id}/execute`, {});
    expect(e.body.status).toBe('waiting');
    const restarted = await s.t.restart();
    s = await wrap(restarted, s.key);
    clock.advance(86_400_000);
    await s.t.hamlet.platform.jobs.idle();
    expect((await s.api('GET', `/executions/${e.body.id}`)).body.status).toBe('success');
  });
});

// A real process killed mid-execution: its execution becomes `crashed` on restart.
// (Embedded SQLite only: on PostgreSQL the job's lease expiring does the same, minutes later.)
test.skipIf(!!process.env.TEST_DATABASE_URL)(
  'an execution interrupted by kill -9 is crashed after restart',
  async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-wf-crash-'));
    const env = {
      HAMLET_DATA_DIR: dataDir,
      HAMLET_SERVICES: 'workflow',
      WORKFLOW_PORT: '0',
      HAMLET_LOG_LEVEL: 'warn',
      HAMLET_RATE_LIMITS: 'off',
    };
    try {
      const { stdout } = await promisify(execFile)(process.execPath, cliArgs('keys', 'create', 'workflow'), {
        env: { ...process.env, ...env },
      });
      const key = stdout.trim();
      let proc = await spawnHamlet(env);
      const base = proc.urls['workflow api'];
      const api = async (method: string, p: string, body?: unknown) => {
        const r = await fetch(base + '/api/v1' + p, {
          method,
          headers: { 'x-workflow-api-key': key, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return r.json();
      };
      const wf = await api('POST', '/workflows', {
        name: 'slow',
        nodes: [
          {
            name: 'Hook',
            type: 'n8n-nodes-base.webhook',
            typeVersion: 2,
            position: [0, 0],
            parameters: { path: 'slow', httpMethod: 'POST' },
          },
          {
            name: 'Wait',
            type: 'n8n-nodes-base.wait',
            typeVersion: 1.1,
            position: [200, 0],
            parameters: { amount: 30, unit: 'seconds' },
          },
        ],
        connections: { Hook: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] } },
        settings: { executionOrder: 'v1' },
      });
      await api('POST', `/workflows/${wf.id}/activate`);
      const ack = await fetch(base + '/webhook/slow', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(ack.status).toBe(200);
      await waitFor(async () => (await api('GET', `/executions?workflowId=${wf.id}`)).data[0]?.status === 'running', {
        message: 'the slow execution to be running',
      });
      await proc.kill('SIGKILL');
      proc = await spawnHamlet(env);
      const base2 = proc.urls['workflow api'];
      const list = await (
        await fetch(base2 + `/api/v1/executions?workflowId=${wf.id}`, { headers: { 'x-workflow-api-key': key } })
      ).json();
      expect(list.data.map((e: any) => e.status)).toEqual(['crashed']);
      // The acknowledged webhook is still registered after the restart.
      const again = await fetch(base2 + '/webhook/slow', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(again.status).toBe(200);
      await proc.kill('SIGKILL');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  60_000,
);
