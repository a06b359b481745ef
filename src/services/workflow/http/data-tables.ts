// /api/v1/data-tables: n8n's data tables and their rows, as n8n's public API answers (and
// n8n-mcp's n8n_manage_datatable calls): lists with offset cursors, rows paged by limit/cursor
// with a JSON filter, sortBy and search; row writes by filter with returnData and dryRun.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { badRequest } from '../../../platform/errors.js';
import { parseFilter } from '../store/data-table-filter.js';
import type { DataTables, InsertReturn } from '../data-tables/service.js';
import { DATA_TABLE_LIMITS } from '../data-tables/service.js';
import type { DataTable } from '../store/data-tables.js';
import type { InstanceOwner } from '../projects/owner.js';
import { decodeCursor, encodeCursor, notFoundError, parseBool, parseLimit, requireObjectBody } from './common.js';
import { errors, Page } from './schemas.js';

const open = { additionalProperties: true };
const Column = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.Union(['string', 'number', 'boolean', 'date'].map((t) => Type.Literal(t))),
    index: Type.Integer(),
  },
  open,
);
const DataTableJson = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    columns: Type.Array(Column),
    projectId: Type.String(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  open,
);
const Row = Type.Object(
  { id: Type.Integer(), createdAt: Type.String(), updatedAt: Type.String() },
  { additionalProperties: true, description: "n8n's system columns, then the table's columns" },
);
const RowWrite = Type.Unknown({
  description:
    "true; the rows (returnData); dry-run rows with dryRunState 'before'/'after'; for insert {success, insertedRows}, [{id}] or rows (returnType count/id/all)",
});
const TableParams = Type.Object({ dataTableId: Type.String() });
const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 250 })),
  cursor: Type.Optional(Type.String()),
  filter: Type.Optional(Type.String({ description: 'JSON {name?, projectId?}' })),
  sortBy: Type.Optional(Type.String({ description: 'name|createdAt|updatedAt|sizeBytes:asc|desc' })),
});
const RowsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: DATA_TABLE_LIMITS.pageRows, description: 'default 100' })),
  cursor: Type.Optional(Type.String()),
  filter: Type.Optional(
    Type.String({
      description: 'JSON {type: and|or, filters: [{columnName, condition: eq|neq|like|ilike|gt|gte|lt|lte, value}]}',
    }),
  ),
  sortBy: Type.Optional(Type.String({ description: 'columnName:asc|desc' })),
  search: Type.Optional(Type.String({ description: 'text in any string column' })),
});
const CreateBody = Type.Object(
  {
    name: Type.String(),
    columns: Type.Array(Type.Object({ name: Type.String(), type: Type.Optional(Type.String()) })),
    projectId: Type.Optional(Type.String()),
  },
  open,
);
const WriteBody = Type.Object(
  {
    filter: Type.Unknown(),
    data: Type.Unknown(),
    returnData: Type.Optional(Type.Boolean()),
    dryRun: Type.Optional(Type.Boolean()),
  },
  open,
);

function tableJson(t: DataTable) {
  return {
    id: t.id,
    name: t.name,
    columns: t.columns,
    projectId: t.projectId,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/** `{limit, offset}` of a rows page: the page size may be up to 1000 (n8n's `take`), a cursor wins. */
function rowWindow(rawLimit: unknown, rawCursor: unknown): { limit: number; offset: number } {
  let limit = 100;
  if (rawLimit !== undefined && rawLimit !== '') {
    const n = Number(rawLimit);
    if (!/^\d+$/.test(String(rawLimit)) || n < 1) throw badRequest('request/query/limit must be >= 1');
    if (n > DATA_TABLE_LIMITS.pageRows)
      throw badRequest(`request/query/limit must be <= ${DATA_TABLE_LIMITS.pageRows}`);
    limit = n;
  }
  if (!rawCursor) return { limit, offset: 0 };
  const c = decodeCursor<{ limit: number; offset: number }>(
    rawCursor,
    (v) =>
      Number.isInteger(v.limit) && Number.isInteger(v.offset) && (v.limit as number) > 0 && (v.offset as number) >= 0,
  );
  return { limit: Math.min(c.limit, DATA_TABLE_LIMITS.pageRows), offset: c.offset };
}

const nextCursor = (limit: number, offset: number, total: number) =>
  offset + limit < total ? encodeCursor({ limit, offset: offset + limit }) : null;

const SORT_FIELDS = {
  name: 'name',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  sizeBytes: 'size_bytes',
} as const;

function writeOptions(body: Record<string, unknown>): { returnData?: boolean; dryRun?: boolean } {
  for (const k of ['returnData', 'dryRun'])
    if (body[k] !== undefined && typeof body[k] !== 'boolean') throw badRequest(`request/body/${k} must be boolean`);
  return { returnData: body.returnData as boolean | undefined, dryRun: body.dryRun as boolean | undefined };
}

export function dataTableRoutes(app: App, d: { tables: DataTables; owner: InstanceOwner }): void {
  const tags = ['data tables'];
  const load = (id: string) => d.tables.table(id);

  app.get(
    '/data-tables',
    {
      schema: {
        summary: 'List data tables',
        tags,
        querystring: ListQuery,
        response: { 200: Page(DataTableJson), ...errors(400) },
      },
    },
    async (req) => {
      const q = req.query as Record<string, string | undefined>;
      const limit = parseLimit(q.limit);
      let offset = 0;
      if (q.cursor)
        offset = decodeCursor<{ offset: number }>(
          q.cursor,
          (v) => Number.isInteger(v.offset) && (v.offset as number) >= 0,
        ).offset;
      let nameContains: string | undefined;
      if (q.filter) {
        let f: Record<string, unknown>;
        try {
          f = JSON.parse(q.filter);
        } catch {
          throw badRequest('request/query/filter must be valid JSON');
        }
        if (!f || typeof f !== 'object') throw badRequest('request/query/filter must be an object');
        if (f.projectId !== undefined && !d.owner.matchesProject(String(f.projectId)))
          return { data: [], nextCursor: null };
        if (f.name !== undefined) nameContains = String(f.name);
      }
      let sort: { field: (typeof SORT_FIELDS)[keyof typeof SORT_FIELDS]; desc: boolean } | undefined;
      if (q.sortBy) {
        const [field, dir] = q.sortBy.split(':');
        if (!(field in SORT_FIELDS) || !['asc', 'desc'].includes(dir))
          throw badRequest(
            'request/query/sortBy must be one of name, createdAt, updatedAt, sizeBytes with :asc or :desc',
          );
        sort = { field: SORT_FIELDS[field as keyof typeof SORT_FIELDS], desc: dir === 'desc' };
      }
      const { tables, count } = await d.tables.store.listTables({ limit, offset, nameContains, sort });
      return { data: tables.map(tableJson), nextCursor: nextCursor(limit, offset, count) };
    },
  );

  app.post(
    '/data-tables',
    {
      schema: {
        summary: 'Create a data table',
        tags,
        body: CreateBody,
        response: { 201: DataTableJson, ...errors(400, 404, 409) },
      },
    },
    async (req, reply) => {
      const body = requireObjectBody(req.body);
      if (body.name === undefined) throw badRequest("request/body must have required property 'name'");
      if (body.columns === undefined) throw badRequest("request/body must have required property 'columns'");
      if (body.projectId !== undefined && body.projectId !== null && !d.owner.matchesProject(String(body.projectId)))
        throw notFoundError();
      const table = await d.tables.create(d.owner.projectId, body.name, body.columns);
      return reply.code(201).send(tableJson(table));
    },
  );

  app.get<{ Params: { dataTableId: string } }>(
    '/data-tables/:dataTableId',
    {
      schema: {
        summary: 'Get a data table',
        tags,
        params: TableParams,
        response: { 200: DataTableJson, ...errors(404) },
      },
    },
    async (req) => tableJson(await load(req.params.dataTableId)),
  );

  app.patch<{ Params: { dataTableId: string } }>(
    '/data-tables/:dataTableId',
    {
      schema: {
        summary: 'Rename a data table',
        tags,
        params: TableParams,
        body: Type.Object({ name: Type.String() }),
        response: { 200: DataTableJson, ...errors(400, 404, 409) },
      },
    },
    async (req) => {
      const body = requireObjectBody(req.body);
      if (body.name === undefined) throw badRequest("request/body must have required property 'name'");
      return tableJson(await d.tables.rename(req.params.dataTableId, body.name));
    },
  );

  app.delete<{ Params: { dataTableId: string } }>(
    '/data-tables/:dataTableId',
    {
      schema: {
        summary: 'Delete a data table and its rows',
        tags,
        params: TableParams,
        response: { 204: Type.Null(), ...errors(404) },
      },
    },
    async (req, reply) => {
      await d.tables.delete(req.params.dataTableId);
      return reply.code(204).send();
    },
  );

  app.get<{ Params: { dataTableId: string } }>(
    '/data-tables/:dataTableId/rows',
    {
      schema: {
        summary: 'Rows of a data table (paged)',
        tags,
        params: TableParams,
        querystring: RowsQuery,
        response: { 200: Page(Row), ...errors(400, 404) },
      },
    },
    async (req) => {
      const table = await load(req.params.dataTableId);
      const q = req.query as Record<string, string | undefined>;
      const { limit, offset } = rowWindow(q.limit, q.cursor);
      const { rows, count } = await d.tables.store.rows(table, {
        filter: parseFilter(q.filter),
        sortBy: q.sortBy,
        search: q.search,
        limit,
        offset,
      });
      return { data: rows, nextCursor: nextCursor(limit, offset, count) };
    },
  );

  app.post<{ Params: { dataTableId: string } }>(
    '/data-tables/:dataTableId/rows',
    {
      schema: {
        summary: 'Insert rows',
        tags,
        params: TableParams,
        body: Type.Object({
          data: Type.Array(Type.Object({}, open)),
          returnType: Type.Optional(Type.String({ description: 'count (default), id or all' })),
        }),
        response: { 200: RowWrite, ...errors(400, 404) },
      },
    },
    async (req) => {
      const table = await load(req.params.dataTableId);
      const body = requireObjectBody(req.body);
      if (body.data === undefined) throw badRequest("request/body must have required property 'data'");
      const returnType = (body.returnType ?? 'count') as InsertReturn;
      if (!['count', 'id', 'all'].includes(returnType))
        throw badRequest('request/body/returnType must be one of count, id, all');
      return d.tables.insert(table, body.data, returnType);
    },
  );

  app.patch<{ Params: { dataTableId: string } }>(
    '/data-tables/:dataTableId/rows/update',
    {
      schema: {
        summary: 'Update the rows a filter selects',
        tags,
        params: TableParams,
        body: WriteBody,
        response: { 200: RowWrite, ...errors(400, 404) },
      },
    },
    async (req) => {
      const table = await load(req.params.dataTableId);
      const body = requireObjectBody(req.body);
      return d.tables.update(table, body.filter, body.data, writeOptions(body));
    },
  );

  app.post<{ Params: { dataTableId: string } }>(
    '/data-tables/:dataTableId/rows/upsert',
    {
      schema: {
        summary: 'Update the rows a filter selects, or insert one',
        tags,
        params: TableParams,
        body: WriteBody,
        response: { 200: RowWrite, ...errors(400, 404) },
      },
    },
    async (req) => {
      const table = await load(req.params.dataTableId);
      const body = requireObjectBody(req.body);
      return d.tables.upsert(table, body.filter, body.data, writeOptions(body));
    },
  );

  app.delete<{ Params: { dataTableId: string } }>(
    '/data-tables/:dataTableId/rows/delete',
    {
      schema: {
        summary: 'Delete the rows a filter selects',
        tags,
        params: TableParams,
        querystring: Type.Object({
          filter: Type.String(),
          returnData: Type.Optional(Type.Boolean()),
          dryRun: Type.Optional(Type.Boolean()),
        }),
        response: { 200: RowWrite, ...errors(400, 404) },
      },
    },
    async (req) => {
      const table = await load(req.params.dataTableId);
      const q = req.query as Record<string, string | undefined>;
      if (q.filter === undefined) throw badRequest("request/query must have required property 'filter'");
      return d.tables.deleteRows(table, q.filter, {
        returnData: parseBool('returnData', q.returnData),
        dryRun: parseBool('dryRun', q.dryRun),
      });
    },
  );
}
