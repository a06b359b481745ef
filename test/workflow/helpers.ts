// Shared setup for the workflow tests: a Hamlet with the workflow service, a key, and a
// small JSON client for /api/v1.
import { expect } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import type { Clock } from '../../src/platform/clock.js';

export interface WorkflowTestServer {
  t: TestHamlet;
  url: string;
  key: string;
  api(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers; text: string }>;
  /** A raw request to the service (webhooks). */
  call(
    method: string,
    path: string,
    init?: { body?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  stop(): Promise<void>;
}

export async function startWorkflowServer(
  opts: {
    env?: Record<string, string>;
    clock?: Clock;
    services?: Array<'workflow' | 'mail' | 'blog' | 'home' | 'community'>;
  } = {},
): Promise<WorkflowTestServer> {
  const t = await startTestHamlet({
    services: opts.services ?? ['workflow'],
    env: { HAMLET_RATE_LIMITS: 'off', ...(opts.env ?? {}) },
    clock: opts.clock,
  });
  return wrap(t);
}

export async function wrap(t: TestHamlet, key?: string): Promise<WorkflowTestServer> {
  const url = t.url('workflow');
  const k = key ?? (await t.hamlet.platform.keys.create('workflow')).key;
  const call = async (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) => {
    const res = await fetch(url + path, { method, body: init.body, headers: init.headers });
    const text = await res.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : text;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body, text, headers: res.headers };
  };
  return {
    t,
    url,
    key: k,
    call,
    api: (method, path, body, headers = {}) =>
      call(method, '/api/v1' + path, {
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        headers: {
          'x-workflow-api-key': k,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
      }),
    stop: () => t.destroy(),
  };
}

/** A minimal workflow: Manual Trigger → Set (v3.4) with the given assignments. */
export function manualSetWorkflow(
  name = 'Manual set',
  assignments: Array<{ name: string; type: string; value: unknown }> = [
    { name: 'greeting', type: 'string', value: '=Hello {{ $json.name }}' },
  ],
) {
  return {
    name,
    nodes: [
      {
        id: 'a',
        name: 'Manual',
        type: 'n8n-nodes-base.manualTrigger',
        typeVersion: 1,
        position: [0, 0],
        parameters: {},
      },
      {
        id: 'b',
        name: 'Set',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        position: [200, 0],
        parameters: { assignments: { assignments: assignments.map((a, i) => ({ id: String(i), ...a })) }, options: {} },
      },
    ],
    connections: { Manual: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  };
}

/** Webhook → Set → Respond to Webhook, the benchmark's shape. */
export function webhookWorkflow(path: string, name = 'Webhook echo') {
  return {
    name,
    nodes: [
      {
        id: 'w',
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: path,
        parameters: { httpMethod: 'POST', path, responseMode: 'responseNode', options: {} },
      },
      {
        id: 's',
        name: 'Edit Fields',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        position: [200, 0],
        parameters: {
          assignments: {
            assignments: [
              { id: '1', name: 'processed', type: 'boolean', value: true },
              { id: '2', name: 'echo', type: 'string', value: '={{ $json.body.msg }}' },
            ],
          },
          options: {},
        },
      },
      {
        id: 'r',
        name: 'Respond',
        type: 'n8n-nodes-base.respondToWebhook',
        typeVersion: 1.1,
        position: [400, 0],
        parameters: { respondWith: 'firstIncomingItem', options: {} },
      },
    ],
    connections: {
      Webhook: { main: [[{ node: 'Edit Fields', type: 'main', index: 0 }]] },
      'Edit Fields': { main: [[{ node: 'Respond', type: 'main', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
  };
}

/** Creates a workflow (and activates it when asked); fails the test on any non-200 answer. */
export async function createWorkflow(s: WorkflowTestServer, wf: unknown, activate = false): Promise<string> {
  const created = await s.api('POST', '/workflows', wf);
  if (created.status !== 200) throw new Error(`creating the workflow answered ${created.status}: ${created.text}`);
  if (activate) {
    const on = await s.api('POST', `/workflows/${created.body.id}/activate`);
    if (on.status !== 200) throw new Error(`activating the workflow answered ${on.status}: ${on.text}`);
  }
  return created.body.id;
}

/** A data table's columns of every type, as the data table tests make them. */
export const DATA_TABLE_COLUMNS = [
  { name: 'name', type: 'string' },
  { name: 'age', type: 'number' },
  { name: 'member', type: 'boolean' },
  { name: 'joined', type: 'date' },
];

/** Makes a data table through the public API (201 expected); its id and name. */
export async function newDataTable(s: WorkflowTestServer, name: string, columns = DATA_TABLE_COLUMNS) {
  const r = await s.api('POST', '/data-tables', { name, columns });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  // The whole table as the API answers it (columns, projectId, times) for the tests that read it.
  return r.body as { id: string; name: string; [field: string]: any };
}
