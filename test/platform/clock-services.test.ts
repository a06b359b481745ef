// Everything time-based follows the clock, across services: with the clock frozen nothing
// fires; advancing three hours runs, each at its own time and in time order, an hourly workflow
// schedule (three ticks), a workflow's long Wait resuming and a short (in-memory) one waking, a
// mail draft's scheduled send seen by its webhook (whose endpoint refuses the first deliveries,
// so the retries show), and home automations (time triggers and a `for:` hold). A recorder
// notes the clock time of every arrival in arrival order: the order asserted is the order
// things ran.
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllableClock } from '../../src/platform/clock.js';
import { ENTITY_STATE_CHANGED } from '../../src/platform/topics.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

const clock = new ControllableClock({ frozen: true, now: '2026-01-05T08:59:30.000Z' });
const hhmmss = () => clock.now().toISOString().slice(11, 19);

const house = `
homeassistant: { time_zone: UTC }
devices:
  - { domain: switch, id: pump, name: Pump }
  - { domain: switch, id: fan, name: Fan }
automation:
  - id: pump_on
    alias: Pump on at half past nine
    triggers: { trigger: time, at: "09:30:00" }
    actions: [{ action: switch.turn_on, target: { entity_id: switch.pump } }]
  - id: fan_after_pump
    alias: Fan once the pump ran 20 minutes
    triggers: [{ trigger: state, entity_id: switch.pump, to: "on", for: "00:20:00" }]
    actions: [{ action: switch.turn_on, target: { entity_id: switch.fan } }]
  - id: pump_off
    alias: Pump off at quarter to eleven
    triggers: { trigger: time, at: "10:45:00" }
    actions: [{ action: switch.turn_off, target: { entity_id: switch.pump } }]
`;

let t: TestHamlet;
let recorder: Server;
let recorderUrl: string;
/** What arrived, in arrival order, with the clock time it arrived at. */
const arrivals: string[] = [];
let mailDeliveries = 0;

async function call(base: string, method: string, p: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(base + p, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return parsed;
}

beforeAll(async () => {
  recorder = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const event = req.url === '/mail' ? (JSON.parse(body) as { event_type?: string }).event_type : '';
      // The mail webhook's endpoint refuses its first three deliveries: the retries follow the clock.
      const refuse = req.url === '/mail' && ++mailDeliveries <= 3;
      arrivals.push(`${hhmmss()} ${req.url?.slice(1)}${event ? ` ${event}` : ''}${refuse ? ' (refused)' : ''}`);
      res.statusCode = refuse ? 500 : 200;
      res.end('{}');
    });
  });
  recorder.listen(0, '127.0.0.1');
  await once(recorder, 'listening');
  recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;

  const dir = mkdtempSync(path.join(os.tmpdir(), 'clock-house-'));
  writeFileSync(path.join(dir, 'house.yaml'), house);
  t = await startTestHamlet({
    services: ['mail', 'home', 'workflow'],
    clock,
    env: {
      HOME_CONFIG: path.join(dir, 'house.yaml'),
      HAMLET_ALLOW_INTERNAL_REQUESTS: '1',
      HAMLET_RATE_LIMITS: 'off',
      MAIL_DOMAIN: 'mail.test',
    },
  });
  t.hamlet.platform.events.subscribe(ENTITY_STATE_CHANGED, (e) => {
    if (e.entity_id.startsWith('switch.') && e.old_state && e.new_state)
      arrivals.push(`${hhmmss()} ${e.entity_id} ${e.new_state.state}`);
  });

  // Workflow: an hourly schedule and a webhook-started run that waits 90 minutes, each calling the recorder.
  const wf = t.url('workflow');
  const wfHeaders = { 'x-workflow-api-key': (await t.hamlet.platform.keys.create('workflow')).key };
  const get = (name: string, p: string) => ({
    name,
    type: 'n8n-nodes-base.httpRequest',
    typeVersion: 4.2,
    position: [400, 0],
    parameters: { url: `${recorderUrl}/${p}`, options: {} },
  });
  const hourly = await call(wf, 'POST', '/api/v1/workflows', wfHeaders, {
    name: 'hourly',
    nodes: [
      {
        name: 'Hourly',
        type: 'n8n-nodes-base.scheduleTrigger',
        typeVersion: 1.2,
        position: [0, 0],
        parameters: { rule: { interval: [{ field: 'cronExpression', expression: '0 * * * *' }] } },
      },
      get('Tell', 'schedule'),
    ],
    connections: { Hourly: { main: [[{ node: 'Tell', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1', timezone: 'UTC' },
  });
  await call(wf, 'POST', `/api/v1/workflows/${hourly.id}/activate`, wfHeaders);
  const waiting = await call(wf, 'POST', '/api/v1/workflows', wfHeaders, {
    name: 'wait',
    nodes: [
      {
        name: 'Hook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        parameters: { path: 'start-wait', httpMethod: 'POST' },
      },
      {
        name: 'Wait',
        type: 'n8n-nodes-base.wait',
        typeVersion: 1.1,
        position: [200, 0],
        parameters: { amount: 90, unit: 'minutes' },
      },
      get('Tell', 'wait'),
    ],
    connections: {
      Hook: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] },
      Wait: { main: [[{ node: 'Tell', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
  });
  await call(wf, 'POST', `/api/v1/workflows/${waiting.id}/activate`, wfHeaders);
  await call(wf, 'POST', '/webhook/start-wait', {}, {});
  // A short Wait sleeps in memory inside its running job, on the clock's timer queue.
  const short = await call(wf, 'POST', '/api/v1/workflows', wfHeaders, {
    name: 'short wait',
    nodes: [
      {
        name: 'Hook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        parameters: { path: 'start-short', httpMethod: 'POST' },
      },
      {
        name: 'Wait',
        type: 'n8n-nodes-base.wait',
        typeVersion: 1.1,
        position: [200, 0],
        parameters: { amount: 45, unit: 'seconds' },
      },
      get('Tell', 'short'),
    ],
    connections: {
      Hook: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] },
      Wait: { main: [[{ node: 'Tell', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
  });
  await call(wf, 'POST', `/api/v1/workflows/${short.id}/activate`, wfHeaders);
  await call(wf, 'POST', '/webhook/start-short', {}, {});

  // Mail: a draft scheduled for 10:15, and a webhook that tells the recorder when it was sent.
  const mail = t.url('mail');
  const mailHeaders = { authorization: `Bearer ${(await t.hamlet.platform.keys.create('mail')).key}` };
  const from = (await call(mail, 'POST', '/v0/inboxes', mailHeaders, { username: 'clock-from' })).inbox_id as string;
  const to = (await call(mail, 'POST', '/v0/inboxes', mailHeaders, { username: 'clock-to' })).inbox_id as string;
  await call(mail, 'POST', '/v0/webhooks', mailHeaders, { url: `${recorderUrl}/mail`, event_types: ['message.sent'] });
  await call(mail, 'POST', `/v0/inboxes/${encodeURIComponent(from)}/drafts`, mailHeaders, {
    to: [to],
    subject: 'later',
    text: 'at quarter past ten',
    send_at: '2026-01-05T10:15:00Z',
  });
}, 120_000);

afterAll(async () => {
  await t?.destroy();
  recorder?.close();
});

describe('a controllable clock across services', () => {
  it('holds everything while frozen', async () => {
    await t.hamlet.platform.timers.settle();
    expect(clock.now().toISOString()).toBe('2026-01-05T08:59:30.000Z');
    expect(arrivals).toEqual([]);
  });

  it('advancing three hours runs what fell due, each at its time, in time order', async () => {
    const end = await t.hamlet.platform.timers.advance(3 * 3_600_000);
    expect(end.toISOString()).toBe('2026-01-05T11:59:30.000Z');
    expect(arrivals).toEqual([
      '09:00:00 schedule',
      '09:00:15 short',
      '09:30:00 switch.pump on',
      '09:50:00 switch.fan on',
      '10:00:00 schedule',
      '10:15:00 mail message.sent (refused)',
      '10:15:05 mail message.sent (refused)', // Svix's schedule: 5 s, 5 min, 30 min, …
      '10:20:05 mail message.sent (refused)',
      '10:29:30 wait',
      '10:45:00 switch.pump off',
      '10:50:05 mail message.sent',
      '11:00:00 schedule',
    ]);
  });

  it('a jump skips: a schedule missed three times fires once', async () => {
    arrivals.length = 0;
    clock.set('2026-01-05T14:59:30.000Z');
    await t.hamlet.platform.timers.settle();
    expect(arrivals).toEqual(['14:59:30 schedule']);
  });
});
