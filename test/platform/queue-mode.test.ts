// Queue mode as an operator runs it: the API process only enqueues (HAMLET_WORKERS=off) and one
// separate `hamlet worker` process runs every service's jobs from BullMQ against the shared
// PostgreSQL database: mail's webhook deliveries and scheduled draft sends, the platform's
// outbound mail (to our own SMTP server and to the relay), and workflow executions. Nothing here
// can complete unless the worker registered every service's queues.
// Runs only when TEST_REDIS_URL and TEST_DATABASE_URL are set (the CI's PostgreSQL run).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { webhookReceiver } from '../mail/helpers.js';
import { wrap, type WorkflowTestServer } from '../workflow/helpers.js';
import { waitFor } from '../helpers/wait.js';
import { cliArgs } from '../helpers/cli.js';

const REDIS = process.env.TEST_REDIS_URL;
const enabled = !!REDIS && !!process.env.TEST_DATABASE_URL;
const ROOT = path.resolve(import.meta.dirname, '../..');

let api: TestHamlet;
let workflows: WorkflowTestServer;
let worker: ChildProcess | undefined;
let workerOutput = '';
let workerDir: string;
let relay: SmtpSink;
let hooks: Awaited<ReturnType<typeof webhookReceiver>>;
let mailKey: string;

/** A port nobody listens on now: the worker must know the API process's SMTP port in advance. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function mail(method: string, route: string, body?: unknown): Promise<any> {
  const res = await fetch(api.url('mail') + route, {
    method,
    headers: {
      authorization: `Bearer ${mailKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBeLessThan(300);
  return json;
}

beforeAll(async () => {
  if (!enabled) return;
  relay = await startSmtpSink();
  hooks = await webhookReceiver();
  const shared = {
    REDIS_URL: REDIS,
    HAMLET_QUEUE_PREFIX: `hamlet-qm-${Date.now().toString(36)}`,
    HAMLET_ALLOW_INTERNAL_REQUESTS: '1',
    HAMLET_SMTP_RELAY: relay.url,
    MAIL_DOMAIN: 'queue.test',
    SMTP_PORT: String(await freePort()),
  };
  api = await startTestHamlet({
    services: ['mail', 'workflow'],
    env: { ...shared, HAMLET_WORKERS: 'off', HAMLET_RATE_LIMITS: 'off' },
  });
  mailKey = (await api.hamlet.platform.keys.create('mail')).key;
  workflows = await wrap(api);

  workerDir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-worker-'));
  worker = spawn(process.execPath, cliArgs('worker'), {
    cwd: ROOT,
    env: {
      ...process.env,
      ...shared,
      DATABASE_URL: api.config.databaseUrl!,
      HAMLET_SERVICES: 'mail,workflow',
      HAMLET_DATA_DIR: workerDir,
      HAMLET_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout!.on('data', (d) => (workerOutput += d));
  worker.stderr!.on('data', (d) => (workerOutput += d));
  let exited: number | null = null;
  worker.once('exit', (code) => (exited = code));
  await waitFor(
    () => {
      if (exited !== null) throw new Error(`worker exited ${exited}: ${workerOutput}`);
      return workerOutput.includes('worker ready');
    },
    { timeoutMs: 30_000, message: 'the worker to say it is ready' },
  );
}, 60_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((r) => worker!.once('exit', r));
    worker.kill('SIGTERM');
    await exited;
  }
  await api?.destroy();
  await hooks?.close();
  await relay?.close();
  if (workerDir) rmSync(workerDir, { recursive: true, force: true });
});

test.skipIf(!enabled)(
  'mail: outbound mail (local and relayed), webhooks and a scheduled draft all run on the worker',
  async () => {
    const a = (await mail('POST', '/v0/inboxes', { username: 'qm-a' })).inbox_id;
    const b = (await mail('POST', '/v0/inboxes', { username: 'qm-b' })).inbox_id;
    await mail('POST', '/v0/webhooks', { url: hooks.url, event_types: ['message.received', 'message.sent'] });

    // a → b travels: worker (platform mail queue) → the API process's SMTP server → b's inbox →
    // a message.received event → worker (webhook queue) → our receiver. The outside copy goes to the relay.
    const sent = await mail('POST', `/v0/inboxes/${encodeURIComponent(a)}/messages/send`, {
      to: [b, 'person@elsewhere.test'],
      subject: 'Queued hello',
      text: 'hi',
    });
    const received = await hooks.waitFor(
      (e) => e.event_type === 'message.received' && e.message?.subject === 'Queued hello',
      30_000,
    );
    expect(received.event.message.inbox_id).toBe(b);
    const relayed = await relay.waitFor((m) => m.parsed.subject === 'Queued hello', 30_000);
    expect(relayed.envelope.to).toEqual(['person@elsewhere.test']);
    expect(sent.message_id).toBeTruthy();

    // A draft scheduled a moment ahead is sent by the worker's draft queue.
    const draft = await mail('POST', `/v0/inboxes/${encodeURIComponent(a)}/drafts`, {
      to: [b],
      subject: 'Scheduled in queue mode',
      text: 'later',
      send_at: new Date(Date.now() + 1500).toISOString(),
    });
    expect(draft.draft_id).toBeTruthy();
    await hooks.waitFor(
      (e) => e.event_type === 'message.received' && e.message?.subject === 'Scheduled in queue mode',
      30_000,
    );
  },
  90_000,
);

test.skipIf(!enabled)(
  'workflow: webhook executions queued by the API process are run by the worker',
  async () => {
    const c = await workflows.api('POST', '/workflows', {
      name: 'queued',
      nodes: [
        {
          name: 'Hook',
          type: 'n8n-nodes-base.webhook',
          typeVersion: 2,
          position: [0, 0],
          parameters: { path: 'queued', httpMethod: 'POST' },
        },
        {
          name: 'Set',
          type: 'n8n-nodes-base.set',
          typeVersion: 3.4,
          position: [200, 0],
          parameters: {
            assignments: { assignments: [{ id: '1', name: 'pid', type: 'string', value: '={{ $json.body.n }}-done' }] },
          },
        },
      ],
      connections: { Hook: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
      settings: { executionOrder: 'v1' },
    });
    await workflows.api('POST', `/workflows/${c.body.id}/activate`);
    for (let n = 0; n < 5; n++) {
      const r = await workflows.call('POST', '/webhook/queued', {
        body: JSON.stringify({ n }),
        headers: { 'content-type': 'application/json' },
      });
      expect(r.body).toEqual({ message: 'Workflow was started' });
    }
    const done = await waitFor(
      async () => {
        const list = (await workflows.api('GET', `/executions?workflowId=${c.body.id}&includeData=true`)).body
          .data as any[];
        expect(list.length).toBe(5);
        expect(list.every((e) => e.status === 'success')).toBe(true);
        return list;
      },
      { timeoutMs: 30_000, message: 'five successful executions' },
    );
    expect(done.map((e) => e.data.resultData.runData.Set[0].data.main[0][0].json.pid).sort()).toEqual([
      '0-done',
      '1-done',
      '2-done',
      '3-done',
      '4-done',
    ]);
  },
  90_000,
);
