// n8n's data tables through /api/v1/data-tables (issue 29): hostile inputs first (bad ids,
// unknown columns, wrong types, filters naming what is not there or trying SQL, deep and huge
// values, a table of many rows read in bounded pages, the instance's size limit), then n8n's
// answers for each row write (count/id/all, true, returnData, dry runs).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_TABLE_COLUMNS, newDataTable, startWorkflowServer, type WorkflowTestServer } from './helpers.js';

let s: WorkflowTestServer;
beforeAll(async () => {
  s = await startWorkflowServer({ env: { WORKFLOW_DATA_TABLES_MAX_BYTES: String(2 * 1024 * 1024) } });
}, 60_000);
afterAll(() => s?.stop());

const COLUMNS = DATA_TABLE_COLUMNS;
const newTable = (name: string) => newDataTable(s, name);

const q = (filter: unknown) => encodeURIComponent(JSON.stringify(filter));

describe('data tables: hostile input', () => {
  test('bad ids are n8n 404s; bad bodies 400s that change nothing', async () => {
    expect((await s.api('GET', '/data-tables/nope')).status).toBe(404);
    expect((await s.api('GET', `/data-tables/${'x'.repeat(500)}/rows`)).status).toBe(404);
    expect((await s.api('POST', '/data-tables/nope/rows', { data: [{}] })).body).toEqual({
      message: "Could not find the data table: 'nope'",
    });
    expect((await s.api('POST', '/data-tables', { name: 'x' })).body).toEqual({
      message: "request/body must have required property 'columns'",
    });
    for (const columns of [
      [{ name: '1abc' }],
      [{ name: 'a b' }],
      [{ name: "x'); drop table workflow_workflows;--" }],
      [{ name: 'ok', type: 'json' }],
      [{ name: 'id' }],
      [{ name: 'a' }, { name: 'a' }],
      Array.from({ length: 101 }, (_, i) => ({ name: `c${i}` })),
    ]) {
      const r = await s.api('POST', '/data-tables', { name: 'bad', columns });
      expect(r.status, JSON.stringify(columns).slice(0, 80)).toBe(400);
    }
    expect((await s.api('GET', '/data-tables')).body.data.map((t: any) => t.name)).not.toContain('bad');
    await newTable('dup');
    expect((await s.api('POST', '/data-tables', { name: 'dup', columns: COLUMNS })).status).toBe(409);
    expect(
      (await s.api('POST', '/data-tables', { name: 'elsewhere', columns: COLUMNS, projectId: 'another-project' }))
        .status,
    ).toBe(404);
  });

  test('rows: unknown columns, wrong types, deep and huge values are refused and nothing is written', async () => {
    const t = await newTable('strict');
    const bad = [
      [{ nope: 1 }],
      [{ age: 'abc' }],
      [{ member: 'yes' }],
      [{ joined: 'not a date' }],
      [{ name: { deep: { deeper: 1 } } }],
      [{ name: 'x'.repeat(1_000_001) }],
      [],
      'rows',
      Array.from({ length: 1001 }, () => ({})),
    ];
    for (const data of bad) {
      const r = await s.api('POST', `/data-tables/${t.id}/rows`, { data });
      expect(r.status, JSON.stringify(data).slice(0, 60)).toBe(400);
    }
    const deep = `{"data":[{"name":${'['.repeat(5000)}"x"${']'.repeat(5000)}}]}`;
    expect((await s.api('POST', `/data-tables/${t.id}/rows`, deep)).status).toBe(400);
    expect((await s.api('GET', `/data-tables/${t.id}/rows`)).body).toEqual({ data: [], nextCursor: null });
    expect((await s.api('POST', `/data-tables/${t.id}/rows`, { data: [{ age: 'abc' }] })).body).toEqual({
      message:
        "Validation error with data table request: value 'abc' does not match column type 'number': 'age' expects a number but we got 'abc'",
    });
  });

  test("values are coerced as n8n 2.8.4's API coerces them; like without % matches anywhere", async () => {
    // Observed on n8n 2.8.4's public API: '12' → 12, 'true' → true, 5 into a string column → '5',
    // a like pattern without % is wrapped in %…%.
    const t = await newTable('lenient');
    const r = await s.api('POST', `/data-tables/${t.id}/rows`, {
      data: [{ age: '12' }, { member: 'true' }, { name: 5 }, { name: 'Anna', age: 1 }],
      returnType: 'all',
    });
    expect(r.body.map((x: any) => [x.name, x.age, x.member])).toEqual([
      [null, 12, null],
      [null, null, true],
      ['5', null, null],
      ['Anna', 1, null],
    ]);
    const like = q({ type: 'and', filters: [{ columnName: 'name', condition: 'like', value: 'nn' }] });
    expect((await s.api('GET', `/data-tables/${t.id}/rows?filter=${like}`)).body.data.map((x: any) => x.name)).toEqual([
      'Anna',
    ]);
  });

  test("filters name only the table's columns; SQL in them is data", async () => {
    const t = await newTable('filters');
    await s.api('POST', `/data-tables/${t.id}/rows`, {
      data: [
        { name: "o'brien", age: 30 },
        { name: 'a%b_c', age: 40 },
      ],
    });
    const bad = [
      'not json',
      JSON.stringify({ filters: [{ columnName: 'missing', condition: 'eq', value: 1 }] }),
      JSON.stringify({ filters: [{ columnName: 'age', condition: 'regex', value: 1 }] }),
      JSON.stringify({ type: 'xor', filters: [] }),
      JSON.stringify({ filters: [{ columnName: 'name', condition: 'eq', value: { $ne: 1 } }] }),
      JSON.stringify({
        filters: Array.from({ length: 101 }, () => ({ columnName: 'age', condition: 'eq', value: 1 })),
      }),
    ];
    for (const f of bad)
      expect(
        (await s.api('GET', `/data-tables/${t.id}/rows?filter=${encodeURIComponent(f)}`)).status,
        f.slice(0, 60),
      ).toBe(400);
    const names = async (filter: unknown) =>
      (await s.api('GET', `/data-tables/${t.id}/rows?filter=${q(filter)}`)).body.data.map((r: any) => r.name);
    expect(await names({ filters: [{ columnName: 'name', condition: 'eq', value: "o'brien" }] })).toEqual(["o'brien"]);
    expect(await names({ filters: [{ columnName: 'name', condition: 'eq', value: "' or 1=1 --" }] })).toEqual([]);
    // n8n's LIKE: only % is a wildcard; _ is itself; like keeps case, ilike does not.
    expect(await names({ filters: [{ columnName: 'name', condition: 'like', value: 'a%b_c' }] })).toEqual(['a%b_c']);
    expect(await names({ filters: [{ columnName: 'name', condition: 'like', value: 'a_b%' }] })).toEqual([]);
    expect(await names({ filters: [{ columnName: 'name', condition: 'like', value: "O'%" }] })).toEqual([]);
    expect(await names({ filters: [{ columnName: 'name', condition: 'ilike', value: "O'%" }] })).toEqual(["o'brien"]);
    expect(await names({ filters: [{ columnName: 'age', condition: 'gt', value: 35 }] })).toEqual(['a%b_c']);
    expect(
      await names({
        type: 'or',
        filters: [
          { columnName: 'age', condition: 'lt', value: 35 },
          { columnName: 'id', condition: 'eq', value: 2 },
        ],
      }),
    ).toEqual(["o'brien", 'a%b_c']);
    // neq keeps rows whose value is null, as n8n does.
    expect(await names({ filters: [{ columnName: 'member', condition: 'neq', value: true }] })).toHaveLength(2);
    expect((await s.api('GET', `/data-tables/${t.id}/rows?sortBy=${encodeURIComponent('age;drop:asc')}`)).status).toBe(
      400,
    );
  });

  test('a table of many rows is read in bounded pages; the size limit refuses what would pass it', async () => {
    const t = await newTable('many');
    for (let i = 0; i < 3; i++) {
      const r = await s.api('POST', `/data-tables/${t.id}/rows`, {
        data: Array.from({ length: 1000 }, (_, j) => ({
          name: `n${i * 1000 + j}`,
          age: i * 1000 + j,
          member: j % 2 === 0,
        })),
      });
      expect(r.body).toEqual({ success: true, insertedRows: 1000 });
    }
    expect((await s.api('GET', `/data-tables/${t.id}/rows?limit=1001`)).status).toBe(400);
    let cursor: string | null = null;
    const ids: number[] = [];
    let pages = 0;
    do {
      const r: any = await s.api(
        'GET',
        `/data-tables/${t.id}/rows?limit=1000&sortBy=age:desc${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(r.status).toBe(200);
      expect(r.body.data.length).toBeLessThanOrEqual(1000);
      ids.push(...r.body.data.map((x: any) => x.id));
      cursor = r.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(ids).toHaveLength(3000);
    expect(ids[0]).toBe(3000);
    expect(new Set(ids).size).toBe(3000);
    expect(
      (await s.api('GET', `/data-tables/${t.id}/rows?limit=2&sortBy=age:desc&search=N299`)).body.data.map(
        (r: any) => r.name,
      ),
    ).toEqual(['n2999', 'n2998']);
    // 2 MB in all: a batch that would pass it is refused whole.
    const big = Array.from({ length: 40 }, () => ({ name: 'y'.repeat(60_000) }));
    const r = await s.api('POST', `/data-tables/${t.id}/rows`, { data: big });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/size limit/);
    expect(
      (
        await s.api(
          'GET',
          `/data-tables/${t.id}/rows?limit=1&filter=${q({ filters: [{ columnName: 'age', condition: 'eq', value: null }] })}`,
        )
      ).body.data,
    ).toEqual([]);
    expect((await s.api('DELETE', `/data-tables/${t.id}`)).status).toBe(204);
    expect((await s.api('GET', `/data-tables/${t.id}`)).status).toBe(404);
  });
});

describe("data tables: n8n's answers", () => {
  test('create, get, list, rename', async () => {
    const t = await newTable('people');
    expect(t).toMatchObject({ name: 'people', projectId: expect.any(String) });
    expect(t.columns.map((c: any) => [c.name, c.type, c.index])).toEqual([
      ['name', 'string', 0],
      ['age', 'number', 1],
      ['member', 'boolean', 2],
      ['joined', 'date', 3],
    ]);
    expect((await s.api('GET', `/data-tables/${t.id}`)).body).toEqual(t);
    const listed = await s.api('GET', `/data-tables?filter=${q({ name: 'peop' })}`);
    expect(listed.body.data.map((x: any) => x.id)).toEqual([t.id]);
    const renamed = await s.api('PATCH', `/data-tables/${t.id}`, { name: 'persons' });
    expect(renamed.body.name).toBe('persons');
    expect((await s.api('GET', '/data-tables?limit=1')).body.nextCursor).not.toBeNull();
  });

  test('insert returns count, ids or rows; update, upsert and delete return true, rows or dry-run rows', async () => {
    const t = await newTable('writes');
    const ids = await s.api('POST', `/data-tables/${t.id}/rows`, {
      data: [{ name: 'ada', age: 36 }],
      returnType: 'id',
    });
    expect(ids.body).toEqual([{ id: 1 }]);
    const all = await s.api('POST', `/data-tables/${t.id}/rows`, {
      data: [{ name: 'bob', age: 20, member: true, joined: '2024-01-02' }],
      returnType: 'all',
    });
    expect(all.body).toEqual([
      {
        id: 2,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        name: 'bob',
        age: 20,
        member: true,
        joined: '2024-01-02T00:00:00.000Z',
      },
    ]);
    const byName = (name: string) => ({ type: 'and', filters: [{ columnName: 'name', condition: 'eq', value: name }] });
    const dry = await s.api('PATCH', `/data-tables/${t.id}/rows/update`, {
      filter: byName('ada'),
      data: { age: 37 },
      dryRun: true,
    });
    expect(dry.body.map((r: any) => [r.dryRunState, r.age])).toEqual([
      ['before', 36],
      ['after', 37],
    ]);
    expect((await s.api('GET', `/data-tables/${t.id}/rows?filter=${q(byName('ada'))}`)).body.data[0].age).toBe(36);
    expect(
      (await s.api('PATCH', `/data-tables/${t.id}/rows/update`, { filter: byName('ada'), data: { age: 37 } })).body,
    ).toBe(true);
    expect(
      (
        await s.api('PATCH', `/data-tables/${t.id}/rows/update`, {
          filter: byName('ada'),
          data: { age: 38 },
          returnData: true,
        })
      ).body.map((r: any) => r.age),
    ).toEqual([38]);
    expect(
      (await s.api('PATCH', `/data-tables/${t.id}/rows/update`, { filter: { filters: [] }, data: { age: 1 } })).status,
    ).toBe(400);
    expect(
      (
        await s.api('POST', `/data-tables/${t.id}/rows/upsert`, {
          filter: byName('cy'),
          data: { name: 'cy', age: 5 },
          returnData: true,
        })
      ).body,
    ).toMatchObject([{ id: 3, name: 'cy', age: 5 }]);
    expect(
      (await s.api('POST', `/data-tables/${t.id}/rows/upsert`, { filter: byName('cy'), data: { age: 6 } })).body,
    ).toBe(true);
    const del = await s.api('DELETE', `/data-tables/${t.id}/rows/delete?filter=${q(byName('bob'))}&dryRun=true`);
    // As n8n 2.8.4 (oracle: dt-delete-dry-run): each row before, then its keys all null after.
    expect(del.body).toMatchObject([
      { name: 'bob', dryRunState: 'before' },
      { id: null, name: null, dryRunState: 'after' },
    ]);
    expect(
      (await s.api('DELETE', `/data-tables/${t.id}/rows/delete?filter=${q(byName('bob'))}&returnData=true`)).body,
    ).toMatchObject([{ id: 2, name: 'bob' }]);
    expect((await s.api('DELETE', `/data-tables/${t.id}/rows/delete`)).status).toBe(400);
    const rows = (await s.api('GET', `/data-tables/${t.id}/rows?sortBy=id:asc`)).body.data;
    expect(rows.map((r: any) => [r.id, r.name, r.age])).toEqual([
      [1, 'ada', 38],
      [3, 'cy', 6],
    ]);
    // Ids are never reused after a delete.
    expect(
      (await s.api('POST', `/data-tables/${t.id}/rows`, { data: [{ name: 'dee' }], returnType: 'id' })).body,
    ).toEqual([{ id: 4 }]);
  });
});
