// The Data Table node (n8n-nodes-base.dataTable) in workflow runs, on the same tables the public
// API serves. Hostile cases first: a table of another project or none, an insert past the size
// limit (refused whole), 101 conditions, injection-looking names and values, `%` and `_` in
// like, the API deleting the table while a workflow writes; then each operation's answers.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_TABLE_COLUMNS, newDataTable, startWorkflowServer, type WorkflowTestServer } from './helpers.js';

let s: WorkflowTestServer;
beforeAll(async () => {
  s = await startWorkflowServer({ env: { WORKFLOW_DATA_TABLES_MAX_BYTES: String(512 * 1024) } });
}, 60_000);
afterAll(() => s?.stop());

const COLUMNS = DATA_TABLE_COLUMNS;
const newTable = (name: string, columns = COLUMNS) => newDataTable(s, name, columns);

const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });

/** Runs Manual → Data Table (with `params`) on `items`; answers the node's items or the run's error. */
async function run(params: Record<string, unknown>, items: unknown[] = [{}], extra: Record<string, unknown> = {}) {
  const wf = {
    name: `dt ${Math.random()}`,
    nodes: [
      {
        id: 'm',
        name: 'Manual',
        type: 'n8n-nodes-base.manualTrigger',
        typeVersion: 1,
        position: [0, 0],
        parameters: {},
      },
      {
        id: 'd',
        name: 'Data table',
        type: 'n8n-nodes-base.dataTable',
        typeVersion: 1.1,
        position: [200, 0],
        parameters: params,
        ...extra,
      },
    ],
    connections: { Manual: { main: [[{ node: 'Data table', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  };
  const created = await s.api('POST', '/workflows', wf);
  expect(created.status, created.text).toBe(200);
  const e = await s.api('POST', `/workflows/${created.body.id}/execute`, { inputData: items });
  await s.api('DELETE', `/workflows/${created.body.id}`);
  const data = e.body.data?.resultData;
  const out = data?.runData?.['Data table']?.[0]?.data?.main?.[0]?.map((i: any) => i.json);
  return { out, error: data?.error?.message as string | undefined, status: e.body.status, raw: e.body };
}

const rowsOf = async (id: string) =>
  ((await s.api('GET', `/data-tables/${id}/rows?limit=1000`)).body.data as any[]).map(
    ({ id: _i, createdAt: _c, updatedAt: _u, ...rest }) => rest,
  );

const insert = (id: string, extra: Record<string, unknown> = {}) => ({
  resource: 'row',
  operation: 'insert',
  dataTableId: byId(id),
  columns: { mappingMode: 'autoMapInputData', value: null },
  options: {},
  ...extra,
});

const cond = (keyName: string, keyValue?: unknown, condition?: string) => ({
  keyName,
  ...(condition ? { condition } : {}),
  ...(keyValue !== undefined ? { keyValue } : {}),
});

describe('Data Table node: hostile input', () => {
  test('a missing table, a table of another project and no table at all are n8n not-found failures', async () => {
    expect((await run(insert('nope'), [{ name: 'a' }])).error).toBe("Could not find the data table: 'nope'");
    expect((await run(insert(''), [{ name: 'a' }])).error).toBe("Could not find the data table: ''");
    // A table of another project (only the database can make one: the API refuses other projects).
    const t = await newTable('elsewhere');
    await s.t.hamlet.platform.db.kysely
      .updateTable('workflow_data_tables' as never)
      .set({ project_id: 'another-project' } as never)
      .where('id' as never, '=', t.id as never)
      .execute();
    const r = await run(insert(t.id), [{ name: 'a' }]);
    expect(r.error).toBe(`Could not find the data table: '${t.id}'`);
    const byName = await run({ ...insert(''), dataTableId: { __rl: true, mode: 'name', value: 'elsewhere' } }, [
      { name: 'a' },
    ]);
    expect(byName.error).toBe('Data table with name "elsewhere" not found');
    // Nor does the node list, rename or delete it.
    expect((await run({ resource: 'table', operation: 'list' })).out.map((x: any) => x.id)).not.toContain(t.id);
    expect((await run({ resource: 'table', operation: 'delete', dataTableId: byId(t.id) })).error).toBe(
      `Could not find the data table: '${t.id}'`,
    );
  });

  test('an insert past the size limit is refused whole; a 10,000-row insert within it is one write', async () => {
    const t = await newTable('big');
    const many = Array.from({ length: 10_000 }, (_, i) => ({ name: `row ${i} ${'x'.repeat(40)}`, age: i }));
    const r = await run(insert(t.id, { options: { optimizeBulk: true } }), many);
    expect(r.error).toMatch(/Data table size limit exceeded/);
    expect((await s.api('GET', `/data-tables/${t.id}/rows`)).body.data).toEqual([]);
    const fits = Array.from({ length: 10_000 }, (_, i) => ({ age: i }));
    const ok = await run(insert(t.id, { options: { optimizeBulk: true } }), fits);
    expect(ok.out).toEqual([{ success: true, insertedRows: 10_000 }]);
    await s.api('DELETE', `/data-tables/${t.id}`);
  }, 60_000);

  test('101 conditions are refused; 100 are run', async () => {
    const t = await newTable('many conditions');
    await run(insert(t.id), [{ age: 5 }]);
    const get = (n: number) => ({
      resource: 'row',
      operation: 'get',
      dataTableId: byId(t.id),
      filters: { conditions: Array.from({ length: n }, (_, i) => cond('age', String(i))) },
    });
    expect((await run(get(101))).error).toMatch(/at most 100 conditions/);
    expect((await run(get(100))).out.map((r: any) => r.age)).toEqual([5]);
  });

  test('injection-looking values, `%` and `_` in like, and unknown or hostile column names', async () => {
    const t = await newTable('inject');
    const names = ["'; drop table rows; --", '100%', 'a_c', 'abc', 'ABC'];
    await run(
      insert(t.id),
      names.map((name) => ({ name })),
    );
    expect((await rowsOf(t.id)).map((r) => r.name)).toEqual(names);
    const get = (keyValue: string, condition: string) =>
      run({
        resource: 'row',
        operation: 'get',
        dataTableId: byId(t.id),
        returnAll: true,
        filters: { conditions: [cond('name', keyValue, condition)] },
      });
    // like without % is wrapped in %…%; `_` is a character, not a wildcard; ilike ignores case.
    expect((await get('_', 'like')).out.map((r: any) => r.name)).toEqual(['a_c']);
    expect((await get('%', 'like')).out.map((r: any) => r.name)).toEqual(names);
    expect((await get('0%', 'like')).out.map((r: any) => r.name)).toEqual([]);
    expect((await get('%0%', 'like')).out.map((r: any) => r.name)).toEqual(['100%']);
    expect((await get('abc', 'like')).out.map((r: any) => r.name)).toEqual(['abc']);
    expect((await get('abc', 'ilike')).out.map((r: any) => r.name)).toEqual(['abc', 'ABC']);
    expect((await get("'; drop", 'eq')).out).toEqual([]);
    expect((await get("'; drop table rows; --", 'eq')).out).toHaveLength(1);
    const badColumn = await run({
      resource: 'row',
      operation: 'get',
      dataTableId: byId(t.id),
      filters: { conditions: [cond('name"); drop table x; --', 'a')] },
    });
    expect(badColumn.error).toBe(
      'Filter validation failed: Column(s) "name"); drop table x; --" do not exist in the selected table. This often happens when switching between tables with different schemas. Please update your filter conditions.',
    );
    const unknown = await run(insert(t.id), [{ name: 'x', "nope'--": 1 }]);
    expect(unknown.error).toBe("Validation error with data table request: unknown column name 'nope'--'");
    expect(await rowsOf(t.id)).toHaveLength(names.length);
    // Objects and arrays are not values.
    expect((await run(insert(t.id), [{ name: { deep: 1 } }])).error).toBe(
      'unexpected object input \'{"deep":1}\' in row 0',
    );
    expect((await run(insert(t.id), [{ name: 'ok' }, { name: [1] }])).error).toBe(
      "unexpected array input '[1]' in row 1",
    );
    expect(await rowsOf(t.id)).toHaveLength(names.length);
  });

  test('an "any condition" filter or a search never reaches rows of another table (node and API)', async () => {
    const a = await newTable('or a');
    const b = await newTable('or b');
    await run(insert(a.id), [{ name: 'a1', age: 1 }]);
    await run(insert(b.id), [{ name: 'b1', age: 1 }]);
    const any = [cond('age', '1'), cond('name', 'zz')];
    const got = await run({ resource: 'row', operation: 'get', dataTableId: byId(a.id), filters: { conditions: any } });
    expect(got.out.map((r: any) => r.name)).toEqual(['a1']);
    const filter = encodeURIComponent(
      JSON.stringify({
        type: 'or',
        filters: [
          { columnName: 'age', condition: 'eq', value: 1 },
          { columnName: 'name', condition: 'eq', value: 'zz' },
        ],
      }),
    );
    expect((await s.api('GET', `/data-tables/${a.id}/rows?filter=${filter}`)).body.data).toHaveLength(1);
    expect((await s.api('GET', `/data-tables/${a.id}/rows?search=1`)).body.data).toHaveLength(1);
    const del = await run({
      resource: 'row',
      operation: 'deleteRows',
      dataTableId: byId(a.id),
      filters: { conditions: any },
    });
    expect(del.out.map((r: any) => r.name)).toEqual(['a1']);
    expect((await rowsOf(b.id)).map((r) => r.name)).toEqual(['b1']);
  });

  test('a workflow writing while the API deletes the table fails cleanly and leaves no rows behind', async () => {
    const t = await newTable('vanishing');
    const items = Array.from({ length: 300 }, (_, i) => ({ age: i }));
    const writes = Promise.all(Array.from({ length: 5 }, () => run(insert(t.id), items)));
    const del = s.api('DELETE', `/data-tables/${t.id}`);
    const results = await writes;
    expect((await del).status).toBe(204);
    for (const r of results)
      if (r.error) expect(r.error).toBe(`Could not find the data table: '${t.id}'`);
      else expect(r.out).toHaveLength(300);
    expect((await s.api('GET', `/data-tables/${t.id}/rows`)).status).toBe(404);
    const orphans = await s.t.hamlet.platform.db.kysely
      .selectFrom('workflow_data_table_rows' as never)
      .select((eb: any) => eb.fn.countAll().as('n'))
      .where('table_id' as never, '=', t.id as never)
      .executeTakeFirst();
    expect(Number((orphans as any).n)).toBe(0);
  });
});

describe('Data Table node: operations', () => {
  test('insert: auto-mapped (system columns dropped) and defined below; values coerced as n8n; wrong types refused', async () => {
    const t = await newTable('people');
    const r = await run(insert(t.id), [
      { id: 99, createdAt: 'x', name: 'Ann', age: '41', member: 'true', joined: '2024-01-02' },
      { name: 'Bob', age: 7, member: 0 },
    ]);
    expect(r.error).toBeUndefined();
    expect(r.out.map(({ createdAt: _c, updatedAt: _u, ...rest }: any) => rest)).toEqual([
      { id: 1, name: 'Ann', age: 41, member: true, joined: '2024-01-02T00:00:00.000Z' },
      { id: 2, name: 'Bob', age: 7, member: false, joined: null },
    ]);
    const below = await run(
      insert(t.id, {
        columns: { mappingMode: 'defineBelow', value: { name: '={{ $json.who }}', age: 3 } },
      }),
      [{ who: 'Cy' }],
    );
    expect(below.out.map((x: any) => [x.id, x.name, x.age, x.member])).toEqual([[3, 'Cy', 3, null]]);
    expect((await run(insert(t.id), [{ age: 'abc' }])).error).toBe(
      "Validation error with data table request: value 'abc' does not match column type 'number': 'age' expects a number but we got 'abc'",
    );
    expect((await run(insert(t.id), [{ member: 'yes' }])).error).toMatch(/does not match column type 'boolean'/);
    expect((await run(insert(t.id), [{ joined: 'someday' }])).error).toMatch(/does not match column type 'date'/);
    expect(await rowsOf(t.id)).toHaveLength(3);
    const count = await run(insert(t.id, { options: { optimizeBulk: true } }), [{ name: 'D' }, { name: 'E' }]);
    expect(count.out).toEqual([{ success: true, insertedRows: 2 }]);
    // The node's rows are the API's rows.
    expect((await rowsOf(t.id)).map((x) => x.name)).toEqual(['Ann', 'Bob', 'Cy', 'D', 'E']);
  });

  test('get: any/all conditions, limit, return all, order, empty and true/false conditions; by name', async () => {
    const t = await newTable('getters');
    await run(insert(t.id), [
      { name: 'a', age: 1, member: true },
      { name: 'b', age: 2, member: false },
      { name: 'c', age: 3 },
      { name: 'd', age: 4, member: true },
    ]);
    const get = async (extra: Record<string, unknown>) =>
      (await run({ resource: 'row', operation: 'get', dataTableId: byId(t.id), ...extra })).out?.map(
        (r: any) => r.name,
      );
    expect(await get({})).toEqual(['a', 'b', 'c', 'd']);
    expect(await get({ limit: 2 })).toEqual(['a', 'b']);
    expect(await get({ returnAll: true, orderBy: true, orderByColumn: 'age', orderByDirection: 'DESC' })).toEqual([
      'd',
      'c',
      'b',
      'a',
    ]);
    const two = [cond('age', '1', 'gt'), cond('member', undefined, 'isTrue')];
    expect(await get({ filters: { conditions: two } })).toEqual(['a', 'b', 'c', 'd']);
    expect(await get({ matchType: 'allConditions', filters: { conditions: two } })).toEqual(['d']);
    expect(await get({ filters: { conditions: [cond('member', undefined, 'isEmpty')] } })).toEqual(['c']);
    expect(await get({ filters: { conditions: [cond('member', undefined, 'isFalse')] } })).toEqual(['b']);
    expect(await get({ filters: { conditions: [cond('id', '2')] } })).toEqual(['b']);
    expect(
      await get({
        dataTableId: { __rl: true, mode: 'name', value: 'GETTERS' },
        filters: { conditions: [cond('name', 'c')] },
      }),
    ).toEqual(['c']);
    const badDate = await run({
      resource: 'row',
      operation: 'get',
      dataTableId: byId(t.id),
      filters: { conditions: [cond('joined', 'soon', 'gt')] },
    });
    expect(badDate.error).toBe("Invalid date string 'soon' for column 'joined'");
  });

  test('rowExists and rowNotExists pass the input item on or not', async () => {
    const t = await newTable('seen');
    await run(insert(t.id), [{ name: 'x' }]);
    const params = (operation: string) => ({
      resource: 'row',
      operation,
      dataTableId: byId(t.id),
      filters: { conditions: [cond('name', '={{ $json.n }}')] },
    });
    const items = [{ n: 'x' }, { n: 'y' }];
    expect((await run(params('rowExists'), items)).out).toEqual([{ n: 'x' }]);
    expect((await run(params('rowNotExists'), items)).out).toEqual([{ n: 'y' }]);
  });

  test('update, upsert and delete by conditions, with dry runs and n8n refusals', async () => {
    const t = await newTable('changes');
    await run(insert(t.id), [
      { name: 'a', age: 1 },
      { name: 'b', age: 2 },
    ]);
    const write = (operation: string, conditions: unknown[], value: unknown, options = {}) =>
      run({
        resource: 'row',
        operation,
        dataTableId: byId(t.id),
        filters: { conditions },
        columns: { mappingMode: 'defineBelow', value },
        options,
      });
    const strip = (rows: any[]) => rows.map(({ createdAt: _c, updatedAt: _u, ...r }) => r);
    const dry = await write('update', [cond('name', 'a')], { age: 10 }, { dryRun: true });
    expect(strip(dry.out)).toEqual([
      { id: 1, name: 'a', age: 1, member: null, joined: null, dryRunState: 'before' },
      { id: 1, name: 'a', age: 10, member: null, joined: null, dryRunState: 'after' },
    ]);
    expect((await rowsOf(t.id))[0].age).toBe(1);
    expect(strip((await write('update', [cond('name', 'a')], { age: 10 })).out)).toEqual([
      { id: 1, name: 'a', age: 10, member: null, joined: null },
    ]);
    expect((await write('update', [], { age: 1 })).error).toBe('At least one condition is required');
    expect((await write('update', [cond('name', 'a')], {})).error).toBe(
      'Validation error with data table request: Data columns must not be empty',
    );
    expect(strip((await write('upsert', [cond('name', 'z')], { name: 'z', age: 26 })).out)).toEqual([
      { id: 3, name: 'z', age: 26, member: null, joined: null },
    ]);
    expect(strip((await write('upsert', [cond('name', 'z')], { age: 27 })).out)).toEqual([
      { id: 3, name: 'z', age: 27, member: null, joined: null },
    ]);
    const del = (conditions: unknown[], options = {}) =>
      run({ resource: 'row', operation: 'deleteRows', dataTableId: byId(t.id), filters: { conditions }, options });
    expect((await del([cond('age', '5', 'gt')], { dryRun: true })).out.map((r: any) => [r.id, r.dryRunState])).toEqual([
      [1, 'before'],
      [null, 'after'],
      [3, 'before'],
      [null, 'after'],
    ]);
    expect((await rowsOf(t.id)).length).toBe(3);
    expect((await del([cond('age', '5', 'gt')])).out.map((r: any) => r.id)).toEqual([1, 3]);
    expect((await del([])).error).toBe('At least one condition is required');
    expect((await rowsOf(t.id)).map((r) => r.name)).toEqual(['b']);
    expect((await del([cond('name', 'b')], { dryRun: 'yes' })).error).toBe('unexpected input "yes" for boolean dryRun');
  });

  test('tables: create (and reuse), list, rename, delete', async () => {
    const created = await run({
      resource: 'table',
      operation: 'create',
      tableName: 'made by node',
      columns: { column: [{ name: 'title' }, { name: 'score', type: 'number' }] },
    });
    expect(created.out[0]).toMatchObject({
      name: 'made by node',
      // In name order, as n8n answers them.
      columns: [
        { name: 'score', type: 'number', index: 1 },
        { name: 'title', type: 'string', index: 0 },
      ],
    });
    const id = created.out[0].id;
    expect((await s.api('GET', `/data-tables/${id}`)).body.name).toBe('made by node');
    const again = await run({ resource: 'table', operation: 'create', tableName: 'made by node' });
    expect(again.error).toBe("Data table with name 'made by node' already exists in this project");
    const reused = await run({
      resource: 'table',
      operation: 'create',
      tableName: 'made by node',
      options: { createIfNotExists: true },
    });
    expect(reused.out[0].id).toBe(id);
    const listed = await run({ resource: 'table', operation: 'list', options: { filterName: 'MADE BY' } });
    expect(listed.out.map((x: any) => x.id)).toEqual([id]);
    expect(
      (await run({ resource: 'table', operation: 'update', dataTableId: byId(id), newName: 'renamed' })).out,
    ).toEqual([{ success: true, name: 'renamed' }]);
    expect(
      (
        await run({
          resource: 'table',
          operation: 'delete',
          dataTableId: { __rl: true, mode: 'name', value: 'renamed' },
        })
      ).out,
    ).toEqual([{ success: true, deletedTableId: 'renamed' }]);
    expect((await s.api('GET', `/data-tables/${id}`)).status).toBe(404);
  });

  test('continueOnFail keeps the input as n8n 2.8.4 does (bulk inserts wrap whole items)', async () => {
    const r = await run(insert('nope'), [{ name: 'a' }], { onError: 'continueRegularOutput' });
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual([{ json: { name: 'a' }, pairedItem: { item: 0 } }]);
    const get = { resource: 'row', operation: 'get', dataTableId: byId('nope') };
    expect((await run(get, [{ a: 1 }], { onError: 'continueRegularOutput' })).out).toEqual([{ a: 1 }]);
  });
});

describe('Data Table node: dates from expressions', () => {
  test('a Luxon DateTime or a JS Date from an expression is a date value', async () => {
    const t = await newTable('dates');
    const r = await run(
      insert(t.id, {
        columns: {
          mappingMode: 'defineBelow',
          value: {
            joined: '={{ DateTime.fromISO("2024-05-06T07:08:09Z") }}',
            name: '={{ new Date(0).toISOString() }}',
          },
        },
      }),
    );
    expect(r.error).toBeUndefined();
    expect(r.out.map((x: any) => [x.joined, x.name])).toEqual([
      ['2024-05-06T07:08:09.000Z', '1970-01-01T00:00:00.000Z'],
    ]);
  });
});

describe('Data Table node: listing tables', () => {
  test('sorted by name ignoring case, limited, filtered by part of the name', async () => {
    for (const name of ['sortme b', 'sortme A', 'sortme C']) await newTable(name);
    const list = async (options: Record<string, unknown>, more: Record<string, unknown> = {}) =>
      (await run({ resource: 'table', operation: 'list', options, ...more })).out.map((t: any) => t.name);
    expect(await list({ filterName: 'SORTME', sortField: 'name', sortDirection: 'asc' })).toEqual([
      'sortme A',
      'sortme b',
      'sortme C',
    ]);
    expect(
      await list({ filterName: 'sortme', sortField: 'name', sortDirection: 'desc' }, { returnAll: false, limit: 1 }),
    ).toEqual(['sortme C']);
  });
});
