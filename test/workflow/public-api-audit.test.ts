// POST /audit: n8n's risk-report shape with real findings about this instance (issue 11, item 5).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { startWorkflowServer, webhookWorkflow, type WorkflowTestServer } from './helpers.js';

let s: WorkflowTestServer;
beforeAll(async () => {
  s = await startWorkflowServer();
}, 60_000);
afterAll(() => s?.stop());

const node = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  id: name,
  name,
  type: `n8n-nodes-base.${type}`,
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
  ...extra,
});

describe('audit', () => {
  test('an empty instance reports only its security settings', async () => {
    const r = await s.api('POST', '/audit', {});
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['Instance Risk Report']);
    expect(r.body['Instance Risk Report'].sections.map((x: any) => x.title)).toEqual(['Security settings']);
  });

  test('reports unused credentials, risky and community nodes, and unprotected webhooks, by location', async () => {
    const cred = async (name: string) =>
      (await s.api('POST', '/credentials', { name, type: 'httpHeaderAuth', data: { name: 'x-key', value: 'v' } })).body
        .id;
    const unused = await cred('unused');
    const inactiveOnly = await cred('inactive only');
    const active = await cred('active');
    const http = (name: string, credId: string) =>
      node(name, 'httpRequest', {
        typeVersion: 4.2,
        parameters: {
          url: 'https://example.org',
          authentication: 'genericCredentialType',
          genericAuthType: 'httpHeaderAuth',
        },
        credentials: { httpHeaderAuth: { id: credId, name } },
      });
    const idle = await s.api('POST', '/workflows', {
      name: 'idle',
      nodes: [
        node('Start', 'manualTrigger'),
        http('Call', inactiveOnly),
        node('Custom', 'whatever', { type: 'n8n-nodes-acme.widget' }),
      ],
      connections: {},
      settings: {},
    });
    const hooked = webhookWorkflow('audit-open', 'open hook');
    hooked.nodes.push(
      http('Fetch', active) as any,
      node('Run code', 'code', { typeVersion: 2, parameters: { jsCode: 'return items;' } }) as any,
    );
    const live = await s.api('POST', '/workflows', hooked);
    // The answer's body in the message: a CI run on PostgreSQL once saw a 400 here that no other run showed.
    const activated = await s.api('POST', `/workflows/${live.body.id}/activate`);
    expect(
      activated.status,
      JSON.stringify({ credentials: [unused, inactiveOnly, active], answer: activated.body }),
    ).toBe(200);
    const guarded = await s.api('POST', '/workflows', {
      name: 'guarded hook',
      nodes: [
        node('Hook', 'webhook', { typeVersion: 2, parameters: { path: 'audit-guarded', httpMethod: 'POST' } }),
        node('Check', 'if', { typeVersion: 2 }),
      ],
      connections: { Hook: { main: [[{ node: 'Check', type: 'main', index: 0 }]] } },
      settings: {},
    });

    const r = (await s.api('POST', '/audit')).body;
    expect(Object.keys(r).sort()).toEqual(['Credentials Risk Report', 'Instance Risk Report', 'Nodes Risk Report']);
    const creds = r['Credentials Risk Report'];
    expect(creds.risk).toBe('credentials');
    const ids = (title: string) =>
      creds.sections
        .find((x: any) => x.title === title)
        ?.location.map((l: any) => l.id)
        .sort() ?? [];
    expect(ids('Credentials not used in any workflow')).toEqual([unused]);
    expect(ids('Credentials not used in any active workflow')).toEqual([unused, inactiveOnly].sort());
    // Nothing ran yet, so no credential is used by a recently executed workflow.
    expect(ids('Credentials not used in recently executed workflows')).toEqual([unused, inactiveOnly, active].sort());
    expect(creds.sections[0].location[0]).toEqual({ kind: 'credential', id: unused, name: 'unused' });

    const nodes = r['Nodes Risk Report'].sections;
    const risky = nodes.find((x: any) => x.title === 'Official risky nodes').location;
    expect(risky.map((l: any) => `${l.workflowName}/${l.nodeName}/${l.nodeType}`).sort()).toEqual([
      'idle/Call/n8n-nodes-base.httpRequest',
      'open hook/Fetch/n8n-nodes-base.httpRequest',
      'open hook/Run code/n8n-nodes-base.code',
    ]);
    expect(risky[0]).toMatchObject({ kind: 'node', workflowId: expect.any(String), nodeId: expect.any(String) });
    expect(nodes.find((x: any) => x.title === 'Community nodes').location).toEqual([
      {
        kind: 'node',
        workflowId: idle.body.id,
        workflowName: 'idle',
        nodeId: 'Custom',
        nodeName: 'Custom',
        nodeType: 'n8n-nodes-acme.widget',
      },
    ]);

    const instance = r['Instance Risk Report'].sections;
    const open = instance.find((x: any) => x.title === 'Unprotected webhooks in instance').location;
    expect(open.map((l: any) => l.workflowId)).toEqual([live.body.id]);
    expect(open.map((l: any) => l.workflowId)).not.toContain(guarded.body.id);
    expect(instance.find((x: any) => x.title === 'Security settings').settings.features.publicApiEnabled).toBe(true);

    // A run of the live workflow makes its credential "recently executed".
    await s.call('POST', '/webhook/audit-open', {
      body: '{"msg":"x"}',
      headers: { 'content-type': 'application/json' },
    });
    // The webhook may answer before its execution is stored (responseMode onReceived): wait for it.
    await waitFor(
      async () =>
        ((await s.api('GET', `/executions?workflowId=${live.body.id}`)).body.data ?? []).some((e: any) => e.stoppedAt),
      { message: 'the webhook run to be stored' },
    );
    const after = (
      await s.api('POST', '/audit', { additionalOptions: { categories: ['credentials'], daysAbandonedWorkflow: 30 } })
    ).body;
    expect(Object.keys(after)).toEqual(['Credentials Risk Report']);
    expect(
      after['Credentials Risk Report'].sections
        .find((x: any) => x.title === 'Credentials not used in recently executed workflows')
        .location.map((l: any) => l.id)
        .sort(),
    ).toEqual([unused, inactiveOnly].sort());
  });

  test('bad options are 400s', async () => {
    expect((await s.api('POST', '/audit', { additionalOptions: { categories: ['network'] } })).body).toEqual({
      message:
        'request/body/additionalOptions/categories/0 must be equal to one of the allowed values: credentials, database, nodes, filesystem, instance',
    });
    expect((await s.api('POST', '/audit', { additionalOptions: { daysAbandonedWorkflow: 0 } })).status).toBe(400);
    expect((await s.api('POST', '/audit', { verbose: true })).body).toEqual({
      message: 'request/body must NOT have additional properties',
    });
  });
});
