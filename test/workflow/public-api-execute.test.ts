// POST /workflows/{id}/execute with the input shapes n8n clients send, and the read-only
// fields of PUT/PATCH: a field that would change behaviour is honoured or refused, never
// silently dropped (issue 11, item 5).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { manualSetWorkflow, startWorkflowServer, webhookWorkflow, type WorkflowTestServer } from './helpers.js';

let s: WorkflowTestServer;
beforeAll(async () => {
  s = await startWorkflowServer();
}, 60_000);
afterAll(() => s?.stop());

const greet = () =>
  manualSetWorkflow('inputs', [{ name: 'greeting', type: 'string', value: '=Hello {{ $json.name }}' }]);
const setOutput = (e: any) => e.body.data.resultData.runData.Set[0].data.main[0].map((i: any) => i.json);

describe('execute input', () => {
  test('inputData as an object is the json of the one start item', async () => {
    const { body: wf } = await s.api('POST', '/workflows', greet());
    const e = await s.api('POST', `/workflows/${wf.id}/execute`, { inputData: { name: 'Ann' } });
    expect(e.status).toBe(200);
    expect(e.body.status).toBe('success');
    expect(setOutput(e)).toEqual([{ greeting: 'Hello Ann' }]);
    expect(e.body.data.resultData.runData.Manual[0].data.main[0]).toEqual([{ json: { name: 'Ann' } }]);
  });

  test('inputData as an array gives one item per element; n8n items ({json}) are taken as items', async () => {
    const { body: wf } = await s.api('POST', '/workflows', greet());
    const e = await s.api('POST', `/workflows/${wf.id}/execute`, {
      inputData: [{ name: 'Ann' }, { json: { name: 'Bo' } }, { name: 'Cy', json: 'not an item' }],
    });
    expect(e.status).toBe(200);
    expect(setOutput(e)).toEqual([{ greeting: 'Hello Ann' }, { greeting: 'Hello Bo' }, { greeting: 'Hello Cy' }]);
  });

  test("the contract's data still works, and an empty body runs with one empty item", async () => {
    const { body: wf } = await s.api('POST', '/workflows', greet());
    expect(setOutput(await s.api('POST', `/workflows/${wf.id}/execute`, { data: { name: 'Di' } }))).toEqual([
      { greeting: 'Hello Di' },
    ]);
    expect(setOutput(await s.api('POST', `/workflows/${wf.id}/execute`, {}))).toEqual([{ greeting: 'Hello ' }]);
    expect(setOutput(await s.api('POST', `/workflows/${wf.id}/execute`))).toEqual([{ greeting: 'Hello ' }]);
  });

  test('a webhook-started workflow gets each input as a webhook body', async () => {
    const { body: wf } = await s.api('POST', '/workflows', webhookWorkflow('exec-input'));
    const e = await s.api('POST', `/workflows/${wf.id}/execute`, { inputData: [{ msg: 'one' }, { msg: 'two' }] });
    expect(e.status).toBe(200);
    expect(e.body.data.resultData.runData['Edit Fields'][0].data.main[0].map((i: any) => i.json)).toEqual([
      { processed: true, echo: 'one' },
      { processed: true, echo: 'two' },
    ]);
  });

  test('inputs that cannot be honoured are 400s that say why', async () => {
    const { body: wf } = await s.api('POST', '/workflows', greet());
    const run = (body: unknown) => s.api('POST', `/workflows/${wf.id}/execute`, body);
    expect((await run({ data: { a: 1 }, inputData: { a: 1 } })).body).toEqual({
      message: "request/body must have only one of 'data' and 'inputData'",
    });
    expect((await run({ inputData: [] })).body).toEqual({
      message: 'request/body/inputData must NOT have fewer than 1 items',
    });
    expect((await run({ inputData: 'x' })).body).toEqual({ message: 'request/body/inputData must be object' });
    expect((await run({ inputData: [{ a: 1 }, 7] })).body).toEqual({
      message: 'request/body/inputData/1 must be object',
    });
    expect((await run({ data: [1] })).body).toEqual({ message: 'request/body/data must be object' });
    const unknown = await run({ startNodes: ['Set'], data: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^request\/body\/startNodes is not supported here/);
    expect((await run([{ a: 1 }])).status).toBe(400);
    // Nothing ran for the refused requests.
    expect((await s.api('GET', `/executions?workflowId=${wf.id}`)).body.data).toEqual([]);
  });
});

describe('read-only fields', () => {
  const hook = (path: string) => webhookWorkflow(path, `ro ${path}`);

  test('PUT with active is 400 "request/body/active is read-only" and leaves the workflow active', async () => {
    const { body: wf } = await s.api('POST', '/workflows', hook('ro-active'));
    await s.api('POST', `/workflows/${wf.id}/activate`);
    const { name, nodes, connections, settings } = wf;
    const r = await s.api('PUT', `/workflows/${wf.id}`, { name, nodes, connections, settings, active: false });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message: 'request/body/active is read-only' });
    expect((await s.api('GET', `/workflows/${wf.id}`)).body.active).toBe(true);
    expect(
      (
        await s.call('POST', '/webhook/ro-active', {
          body: '{"msg":"still on"}',
          headers: { 'content-type': 'application/json' },
        })
      ).body,
    ).toEqual({ processed: true, echo: 'still on' });
  });

  test("every read-only field of n8n's workflow is refused by PUT, by name", async () => {
    const { body: wf } = await s.api('POST', '/workflows', hook('ro-all'));
    const { name, nodes, connections, settings } = wf;
    for (const key of [
      'id',
      'active',
      'createdAt',
      'updatedAt',
      'tags',
      'isArchived',
      'versionId',
      'triggerCount',
      'meta',
      'activeVersion',
      'activeVersionId',
      'versionCounter',
      'shared',
    ]) {
      const r = await s.api('PUT', `/workflows/${wf.id}`, {
        name,
        nodes,
        connections,
        settings,
        [key]: wf[key] ?? null,
      });
      expect(r.status, key).toBe(400);
      expect(r.body, key).toEqual({ message: `request/body/${key} is read-only` });
    }
    expect((await s.api('GET', `/workflows/${wf.id}`)).body.versionCounter).toBe(1);
  });

  test("PATCH (the contract's) honours active and tags, refuses other read-only and unknown keys", async () => {
    const { body: wf } = await s.api('POST', '/workflows', hook('ro-patch'));
    const tag = await s.api('POST', '/tags', { name: `patch-${Date.now() % 100000}` });
    const on = await s.api('PATCH', `/workflows/${wf.id}`, { active: true, tags: [{ id: tag.body.id }] });
    expect(on.status).toBe(200);
    expect(on.body.active).toBe(true);
    expect(on.body.tags.map((t: any) => t.id)).toEqual([tag.body.id]);
    expect((await s.api('PATCH', `/workflows/${wf.id}`, { tags: [] })).body.tags).toEqual([]);
    expect((await s.api('PATCH', `/workflows/${wf.id}`, { tags: [{ id: 'nope' }] })).body).toEqual({
      message: "request/body/tags/0: no tag has the id 'nope'",
    });
    expect((await s.api('PATCH', `/workflows/${wf.id}`, { versionId: 'x' })).body).toEqual({
      message: 'request/body/versionId is read-only',
    });
    expect((await s.api('PATCH', `/workflows/${wf.id}`, { nmae: 'typo' })).body).toEqual({
      message: 'request/body must NOT have additional properties',
    });
    expect((await s.api('GET', `/workflows/${wf.id}`)).body.name).toBe('ro ro-patch');
  });
});
