// /variables as n8n's public API has them (create 201 and update/delete 204 without a body,
// offset cursors) and $vars in expressions and Code (issue 11, item 5).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { manualSetWorkflow, startWorkflowServer, type WorkflowTestServer } from './helpers.js';

let s: WorkflowTestServer;
beforeAll(async () => {
  s = await startWorkflowServer();
}, 60_000);
afterAll(() => s?.stop());

const byKey = async (key: string) =>
  (await s.api('GET', '/variables?limit=250')).body.data.find((v: any) => v.key === key);

describe('variables', () => {
  test('create answers 201 with no body; the list shows it; duplicate keys and bad keys are 400', async () => {
    const c = await s.api('POST', '/variables', { key: 'API_BASE', value: 'https://example.org' });
    expect(c.status).toBe(201);
    expect(c.text).toBe('');
    const v = await byKey('API_BASE');
    expect(v).toMatchObject({ key: 'API_BASE', value: 'https://example.org', type: 'string' });
    expect(v.id).toMatch(/^[0-9A-Za-z]{16}$/);
    const dup = await s.api('POST', '/variables', { key: 'API_BASE', value: 'x' });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ message: 'Variable with key API_BASE already exists' });
    expect((await s.api('POST', '/variables', { key: '1abc', value: 'x' })).body.message).toMatch(
      /can only contain letters, numbers \(not as first character\), and underscores/,
    );
    expect((await s.api('POST', '/variables', { key: 'k' })).body).toEqual({
      message: "request/body must have required property 'value'",
    });
    expect((await s.api('POST', '/variables', { key: 'k', value: 5 })).body).toEqual({
      message: 'request/body/value must be string',
    });
    expect((await s.api('POST', '/variables', { key: 'k', value: 'v', secret: true })).body).toEqual({
      message: 'request/body must NOT have additional properties',
    });
    expect((await s.api('POST', '/variables', { key: 'k', value: 'v', projectId: 'another' })).status).toBe(404);
  });

  test('PUT replaces and PATCH changes part, both 204; DELETE 204 then 404', async () => {
    await s.api('POST', '/variables', { key: 'EDIT_ME', value: 'one' });
    const { id } = await byKey('EDIT_ME');
    const put = await s.api('PUT', `/variables/${id}`, { key: 'EDITED', value: 'two' });
    expect(put.status).toBe(204);
    expect(put.text).toBe('');
    expect(await byKey('EDITED')).toMatchObject({ id, value: 'two' });
    expect((await s.api('PUT', `/variables/${id}`, { key: 'EDITED' })).status).toBe(400);
    expect((await s.api('PATCH', `/variables/${id}`, { value: 'three' })).status).toBe(204);
    expect(await byKey('EDITED')).toMatchObject({ id, value: 'three' });
    expect((await s.api('PUT', '/variables/nope', { key: 'X', value: 'y' })).status).toBe(404);
    const del = await s.api('DELETE', `/variables/${id}`);
    expect(del.status).toBe(204);
    expect(await byKey('EDITED')).toBeUndefined();
    expect((await s.api('DELETE', `/variables/${id}`)).status).toBe(404);
  });

  test('cursor pagination: base64 {limit, offset}, bad cursor 400, state=empty', async () => {
    for (let i = 0; i < 3; i++)
      await s.api('POST', '/variables', { key: `PAGE_${i}`, value: i === 1 ? '' : String(i) });
    const seen: string[] = [];
    let cursor: string | null = null;
    let first = true;
    while (first || cursor) {
      const r: any = await s.api('GET', `/variables?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status).toBe(200);
      if (first)
        expect(JSON.parse(Buffer.from(r.body.nextCursor, 'base64').toString())).toEqual({ limit: 2, offset: 2 });
      seen.push(...r.body.data.map((v: any) => v.key));
      cursor = r.body.nextCursor;
      first = false;
    }
    expect(seen).toEqual(expect.arrayContaining(['PAGE_0', 'PAGE_1', 'PAGE_2']));
    expect(new Set(seen).size).toBe(seen.length);
    expect((await s.api('GET', '/variables?cursor=nope')).body).toEqual({ message: 'An invalid cursor was provided' });
    expect((await s.api('GET', '/variables?state=empty')).body.data.map((v: any) => v.key)).toEqual(['PAGE_1']);
  });

  test('$vars.NAME reads variables in expressions and in Code; a change is seen by the next run', async () => {
    await s.api('POST', '/variables', { key: 'GREETING', value: 'Hello' });
    const wf = manualSetWorkflow('vars', [
      { name: 'text', type: 'string', value: '={{ $vars.GREETING }} {{ $json.name }}' },
      { name: 'missing', type: 'string', value: '={{ $vars.NOPE ?? "none" }}' },
    ]);
    wf.nodes.push({
      id: 'c',
      name: 'Code',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      position: [400, 0],
      parameters: {
        jsCode: 'return [{ json: { fromCode: $vars.GREETING + "!", keys: Object.keys($vars).includes("GREETING") } }];',
      },
    } as any);
    (wf.connections as any).Set = { main: [[{ node: 'Code', type: 'main', index: 0 }]] };
    const { body: created } = await s.api('POST', '/workflows', wf);
    const run = async () =>
      (await s.api('POST', `/workflows/${created.id}/execute`, { data: { name: 'Ann' } })).body.data.resultData.runData;
    let rd = await run();
    expect(rd.Set[0].data.main[0][0].json).toEqual({ text: 'Hello Ann', missing: 'none' });
    expect(rd.Code[0].data.main[0][0].json).toEqual({ fromCode: 'Hello!', keys: true });
    const { id } = await byKey('GREETING');
    await s.api('PATCH', `/variables/${id}`, { value: 'Hi' });
    rd = await run();
    expect(rd.Set[0].data.main[0][0].json.text).toBe('Hi Ann');
  });
});
