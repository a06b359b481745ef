// Workflow folders through /api/v1/projects/{id}/folders (issue 29): a foreign project, bad
// ids, names and cycles first; then create, list with counts and paths, get, rename, move and
// both kinds of delete.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkflowServer, type WorkflowTestServer } from './helpers.js';

let s: WorkflowTestServer;
let project: string;
beforeAll(async () => {
  s = await startWorkflowServer();
  project = (await s.api('GET', '/projects')).body.data[0].id;
}, 60_000);
afterAll(() => s?.stop());

const create = async (name: string, parentFolderId?: string) => {
  const r = await s.api('POST', `/projects/personal/folders`, { name, ...(parentFolderId ? { parentFolderId } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
};

describe('folders: hostile input', () => {
  test("a foreign project's folders are 404, in every verb", async () => {
    const mine = await create('mine');
    for (const [method, path, body] of [
      ['GET', '/projects/someone-else/folders', undefined],
      ['POST', '/projects/someone-else/folders', { name: 'x' }],
      ['GET', `/projects/someone-else/folders/${mine}`, undefined],
      ['PATCH', `/projects/someone-else/folders/${mine}`, { name: 'stolen' }],
      ['DELETE', `/projects/someone-else/folders/${mine}`, undefined],
    ] as const) {
      const r = await s.api(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body).toEqual({ message: 'Not Found' });
    }
    expect((await s.api('GET', `/projects/${project}/folders/${mine}`)).body.name).toBe('mine');
  });

  test('bad names, ids, queries and cycles are 400s/404s that change nothing', async () => {
    const a = await create('a');
    const b = await create('b', a);
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(129) },
      { name: 5 },
      { name: 'p', parentFolderId: 'nope' },
      { name: 'p', parentFolderId: 'x'.repeat(100) },
    ]) {
      expect(
        (await s.api('POST', '/projects/personal/folders', body)).status,
        JSON.stringify(body).slice(0, 40),
      ).toBeGreaterThanOrEqual(400);
    }
    expect((await s.api('GET', '/projects/personal/folders/nope')).status).toBe(404);
    expect((await s.api('PATCH', `/projects/personal/folders/${a}`, { parentFolderId: a })).status).toBe(400);
    expect((await s.api('PATCH', `/projects/personal/folders/${a}`, { parentFolderId: b })).body).toEqual({
      message: "Cannot set a folder's parent to a folder inside it",
    });
    expect((await s.api('PATCH', `/projects/personal/folders/${a}`, {})).status).toBe(400);
    expect((await s.api('DELETE', `/projects/personal/folders/${a}?transferToFolderId=${b}`)).status).toBe(400);
    for (const q of ['filter=nope', 'sortBy=id:asc', 'take=0', 'take=1001', 'skip=-1', 'select=5'])
      expect((await s.api('GET', `/projects/personal/folders?${q}`)).status, q).toBe(400);
    expect((await s.api('GET', `/projects/personal/folders/${b}`)).body.parentFolderId).toBe(a);
  });

  test('nesting is bounded', async () => {
    let parent: string | undefined;
    for (let i = 0; i < 50; i++) parent = await create(`deep${i}`, parent);
    const r = await s.api('POST', '/projects/personal/folders', { name: 'too deep', parentFolderId: parent });
    expect(r.body).toEqual({ message: 'Folders can nest at most 50 deep' });
  });
});

describe("folders: n8n's answers", () => {
  test('create, list with counts and paths, get, rename, move, delete with and without transfer', async () => {
    const top = await create('Finance');
    const sub = await create('Invoices', top);
    const leaf = await create('2024', sub);
    const list = await s.api(
      'GET',
      `/projects/personal/folders?filter=${encodeURIComponent(JSON.stringify({ parentFolderId: top }))}&take=50&sortBy=name:asc&select=${encodeURIComponent('["id","name"]')}`,
    );
    expect(list.body).toEqual({
      count: 1,
      data: [
        {
          id: sub,
          name: 'Invoices',
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          parentFolder: { id: top, name: 'Finance', parentFolderId: null },
          workflowCount: 0,
          subFolderCount: 1,
          path: ['Finance', 'Invoices'],
        },
      ],
    });
    const byName = await s.api(
      'GET',
      `/projects/${project}/folders?filter=${encodeURIComponent(JSON.stringify({ name: 'invoi' }))}`,
    );
    expect(byName.body.data.map((f: any) => f.id)).toEqual([sub]);
    expect((await s.api('GET', `/projects/personal/folders/${top}`)).body).toMatchObject({
      id: top,
      name: 'Finance',
      parentFolderId: null,
      totalSubFolders: 2,
      totalWorkflows: 0,
      path: ['Finance'],
    });
    expect((await s.api('PATCH', `/projects/personal/folders/${sub}`, { name: 'Bills' })).body).toMatchObject({
      id: sub,
      name: 'Bills',
      parentFolderId: top,
    });
    expect(
      (await s.api('PATCH', `/projects/personal/folders/${leaf}`, { parentFolderId: '0' })).body.parentFolderId,
    ).toBeNull();
    expect(
      (await s.api('PATCH', `/projects/personal/folders/${leaf}`, { parentFolderId: top })).body.parentFolderId,
    ).toBe(top);
    // Transfer: the children move to the root; without: the sub-tree goes.
    expect((await s.api('DELETE', `/projects/personal/folders/${top}?transferToFolderId=0`)).status).toBe(204);
    expect((await s.api('GET', `/projects/personal/folders/${sub}`)).body.parentFolderId).toBeNull();
    expect((await s.api('GET', `/projects/personal/folders/${leaf}`)).body.parentFolderId).toBeNull();
    const x = await create('x');
    const y = await create('y', x);
    expect((await s.api('DELETE', `/projects/personal/folders/${x}`)).status).toBe(204);
    expect((await s.api('GET', `/projects/personal/folders/${y}`)).status).toBe(404);
  });
});
