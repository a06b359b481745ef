// All SQL of the workflow service. Nothing else touches the workflow_* tables.
import { sql, type Kysely, type Transaction } from 'kysely';
import { isUniqueViolation, type Db } from '../../../platform/db.js';
import { DomainError } from '../../../platform/errors.js';

export interface WorkflowRow {
  id: string;
  name: string;
  active: number;
  nodes: string;
  connections: string;
  settings: string;
  static_data: string | null;
  pin_data: string | null;
  meta: string | null;
  description: string | null;
  version_id: string;
  active_version_id: string | null;
  version_counter: number;
  trigger_count: number;
  created_at: string;
  updated_at: string;
}

export interface TagRow {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface ExecutionRow {
  id: number | string;
  workflow_id: string;
  mode: string;
  status: string;
  retry_of: string | null;
  retry_success_id: string | null;
  started_at: string | null;
  stopped_at: string | null;
  wait_till: string | null;
  created_at: string;
  data: string | null;
  workflow_data: string | null;
  custom_data: string | null;
  /** Advisory-lock key of the process running it (PostgreSQL; see executions/interrupted.ts). */
  owner?: number | null;
}

interface Tables {
  workflow_workflows: WorkflowRow;
  workflow_tags: TagRow;
  workflow_workflow_tags: { workflow_id: string; tag_id: string };
  workflow_executions: ExecutionRow;
}

const LIGHT_EXECUTION_COLUMNS = [
  'id',
  'workflow_id',
  'mode',
  'status',
  'retry_of',
  'retry_success_id',
  'started_at',
  'stopped_at',
  'wait_till',
  'created_at',
] as const;

export type LightExecutionRow = Pick<ExecutionRow, (typeof LIGHT_EXECUTION_COLUMNS)[number]>;

/** Told about every execution write, so pages of execution lists cached anywhere are dropped. */
export interface ExecutionsChanged {
  invalidate(): void;
}

const TAG_EXISTS = () => new DomainError('conflict', 'Tag already exists');

/** A unique-name violation on a tag write is the domain's "that tag exists". */
async function uniqueTagName(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (err) {
    if (isUniqueViolation(err)) throw TAG_EXISTS();
    throw err;
  }
}

export class WorkflowStore {
  private readonly k: Kysely<Tables>;
  private nextId?: number;
  private insertStmt?: import('better-sqlite3').Statement;

  constructor(
    private readonly db: Db,
    private readonly executionsChanged: ExecutionsChanged,
  ) {
    this.k = db.kysely;
  }

  private onExecutionsChanged(): void {
    this.executionsChanged.invalidate();
  }

  // ---- workflows

  async insertWorkflow(row: WorkflowRow): Promise<void> {
    await this.k.insertInto('workflow_workflows').values(row).execute();
  }

  getWorkflow(id: string): Promise<WorkflowRow | undefined> {
    return this.k.selectFrom('workflow_workflows').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async listWorkflows(q: {
    active?: boolean;
    name?: string;
    tagNames?: string[];
    limit: number;
    offset: number;
  }): Promise<WorkflowRow[]> {
    let query = this.k.selectFrom('workflow_workflows').selectAll();
    if (q.active !== undefined) query = query.where('active', '=', q.active ? 1 : 0);
    if (q.name !== undefined) query = query.where('name', '=', q.name);
    if (q.tagNames?.length) {
      query = query.where('id', 'in', (eb) =>
        eb
          .selectFrom('workflow_workflow_tags')
          .innerJoin('workflow_tags', 'workflow_tags.id', 'workflow_workflow_tags.tag_id')
          .select('workflow_workflow_tags.workflow_id')
          .where('workflow_tags.name', 'in', q.tagNames!),
      );
    }
    return query.orderBy('created_at').orderBy('id').limit(q.limit).offset(q.offset).execute();
  }

  activeWorkflows(): Promise<WorkflowRow[]> {
    return this.k.selectFrom('workflow_workflows').selectAll().where('active', '=', 1).execute();
  }

  async updateWorkflow(id: string, patch: Partial<WorkflowRow>): Promise<void> {
    await this.k.updateTable('workflow_workflows').set(patch).where('id', '=', id).execute();
  }

  async deleteWorkflow(id: string): Promise<void> {
    await this.k.deleteFrom('workflow_workflow_tags').where('workflow_id', '=', id).execute();
    await this.k.deleteFrom('workflow_workflows').where('id', '=', id).execute();
  }

  // ---- tags

  /** Throws DomainError conflict when the name is taken. */
  async insertTag(row: TagRow): Promise<void> {
    await uniqueTagName(this.k.insertInto('workflow_tags').values(row).execute());
  }

  getTag(id: string): Promise<TagRow | undefined> {
    return this.k.selectFrom('workflow_tags').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listTags(limit: number, offset: number): Promise<TagRow[]> {
    return this.k
      .selectFrom('workflow_tags')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** Throws DomainError conflict when the name is taken. */
  async updateTag(id: string, name: string, now: string): Promise<void> {
    await uniqueTagName(
      this.k.updateTable('workflow_tags').set({ name, updated_at: now }).where('id', '=', id).execute(),
    );
  }

  async deleteTag(id: string): Promise<void> {
    await this.k.deleteFrom('workflow_workflow_tags').where('tag_id', '=', id).execute();
    await this.k.deleteFrom('workflow_tags').where('id', '=', id).execute();
  }

  async tagsOf(workflowIds: string[]): Promise<Map<string, TagRow[]>> {
    const out = new Map<string, TagRow[]>();
    if (!workflowIds.length) return out;
    const rows = await this.k
      .selectFrom('workflow_workflow_tags')
      .innerJoin('workflow_tags', 'workflow_tags.id', 'workflow_workflow_tags.tag_id')
      .select([
        'workflow_workflow_tags.workflow_id',
        'workflow_tags.id',
        'workflow_tags.name',
        'workflow_tags.created_at',
        'workflow_tags.updated_at',
      ])
      .where('workflow_workflow_tags.workflow_id', 'in', workflowIds)
      .orderBy('workflow_tags.name')
      .execute();
    for (const r of rows) {
      const list = out.get(r.workflow_id) ?? [];
      list.push({ id: r.id, name: r.name, created_at: r.created_at, updated_at: r.updated_at });
      out.set(r.workflow_id, list);
    }
    return out;
  }

  async setWorkflowTags(workflowId: string, tagIds: string[]): Promise<void> {
    await this.k.transaction().execute(async (trx) => {
      await trx.deleteFrom('workflow_workflow_tags').where('workflow_id', '=', workflowId).execute();
      if (tagIds.length)
        await trx
          .insertInto('workflow_workflow_tags')
          .values(tagIds.map((tag_id) => ({ workflow_id: workflowId, tag_id })))
          .execute();
    });
  }

  // ---- executions

  /** A new execution id. SQLite belongs to one process, which counts; PostgreSQL uses the column's sequence. */
  async nextExecutionId(): Promise<string> {
    if (this.db.dialect === 'postgres') {
      const { rows } = await sql<{
        id: number;
      }>`select nextval(pg_get_serial_sequence('workflow_executions', 'id')) as id`.execute(this.k);
      return String(rows[0].id);
    }
    if (this.nextId === undefined) {
      const row = await this.k
        .selectFrom('workflow_executions')
        .select((eb) => eb.fn.max('id').as('max'))
        .executeTakeFirst();
      this.nextId = Number(row?.max ?? 0) + 1;
    }
    return String(this.nextId++);
  }

  /**
   * Writes an execution and, in the same transaction, whatever `alongside` writes (its job),
   * so neither exists without the other.
   */
  async insertExecutionWith(row: ExecutionRow, alongside: (trx: Transaction<any>) => Promise<unknown>): Promise<void> {
    await this.k.transaction().execute(async (trx) => {
      await this.insertExecution(row, trx);
      await alongside(trx);
    });
  }

  async insertExecution(row: ExecutionRow, trx?: Kysely<any>): Promise<void> {
    if (this.db.sqlite && !trx) {
      // The hot path (one insert per webhook execution) skips the query builder.
      await this.db.sqlite.run((s) => {
        this.insertStmt ??= s.prepare(
          `insert into workflow_executions (id, workflow_id, mode, status, retry_of, retry_success_id, started_at, stopped_at, wait_till, created_at, data, workflow_data, custom_data)
           values (@id, @workflow_id, @mode, @status, @retry_of, @retry_success_id, @started_at, @stopped_at, @wait_till, @created_at, @data, @workflow_data, @custom_data)`,
        );
        this.insertStmt.run({ ...row, id: Number(row.id) });
      });
    } else
      await ((trx ?? this.k) as Kysely<Tables>)
        .insertInto('workflow_executions')
        .values({ ...row, id: Number(row.id) })
        .execute();
    this.onExecutionsChanged();
  }

  async updateExecution(id: string, patch: Partial<ExecutionRow>): Promise<void> {
    await this.k.updateTable('workflow_executions').set(patch).where('id', '=', Number(id)).execute();
    this.onExecutionsChanged();
  }

  /** Updates an execution only while it still has `status`; false when it no longer has (someone else moved it). */
  async updateExecutionIf(id: string, status: string, patch: Partial<ExecutionRow>): Promise<boolean> {
    const r = await this.k
      .updateTable('workflow_executions')
      .set(patch)
      .where('id', '=', Number(id))
      .where('status', '=', status)
      .executeTakeFirst();
    const changed = Number(r.numUpdatedRows ?? 0) > 0;
    if (changed) this.onExecutionsChanged();
    return changed;
  }

  getExecution(id: string, withData: boolean): Promise<ExecutionRow | LightExecutionRow | undefined> {
    if (!/^\d{1,15}$/.test(id)) return Promise.resolve(undefined);
    const q = this.k.selectFrom('workflow_executions').where('id', '=', Number(id));
    return withData ? q.selectAll().executeTakeFirst() : q.select(LIGHT_EXECUTION_COLUMNS).executeTakeFirst();
  }

  private readonly listStatements = new Map<string, import('better-sqlite3').Statement>();

  listExecutions(q: {
    workflowId?: string;
    status?: string;
    lastId?: number;
    limit: number;
    withData: boolean;
  }): Promise<Array<ExecutionRow | LightExecutionRow>> {
    if (this.db.sqlite && !q.withData) {
      // The list a dashboard polls: a prepared statement per filter combination skips the query builder.
      const where = [
        q.workflowId !== undefined && 'workflow_id = @workflowId',
        q.status !== undefined && 'status = @status',
        q.lastId !== undefined && 'id < @lastId',
      ].filter(Boolean);
      const key = where.join(' and ');
      return this.db.sqlite.run((s) => {
        let stmt = this.listStatements.get(key);
        if (!stmt) {
          stmt = s.prepare(
            `select ${LIGHT_EXECUTION_COLUMNS.join(', ')} from workflow_executions ${where.length ? 'where ' + key : ''} order by id desc limit @limit`,
          );
          this.listStatements.set(key, stmt);
        }
        return stmt.all({
          workflowId: q.workflowId,
          status: q.status,
          lastId: q.lastId,
          limit: q.limit,
        }) as LightExecutionRow[];
      });
    }
    let query = this.k.selectFrom('workflow_executions');
    if (q.workflowId !== undefined) query = query.where('workflow_id', '=', q.workflowId);
    if (q.status !== undefined) query = query.where('status', '=', q.status);
    if (q.lastId !== undefined) query = query.where('id', '<', q.lastId);
    const ordered = query.orderBy('id', 'desc').limit(q.limit);
    return q.withData ? ordered.selectAll().execute() : ordered.select(LIGHT_EXECUTION_COLUMNS).execute();
  }

  async deleteExecution(id: string): Promise<void> {
    await this.k.deleteFrom('workflow_executions').where('id', '=', Number(id)).execute();
    this.onExecutionsChanged();
  }

  executionsWithStatuses(statuses: string[], workflowId?: string): Promise<LightExecutionRow[]> {
    if (!statuses.length) return Promise.resolve([]);
    let q = this.k.selectFrom('workflow_executions').select(LIGHT_EXECUTION_COLUMNS).where('status', 'in', statuses);
    if (workflowId !== undefined) q = q.where('workflow_id', '=', workflowId);
    return q.execute();
  }

  /** Ids of the workflows with an execution started at or after `since` (the audit's "recently executed"). */
  async workflowIdsExecutedSince(since: string): Promise<Set<string>> {
    const rows = await this.k
      .selectFrom('workflow_executions')
      .select('workflow_id')
      .distinct()
      .where('started_at', '>=', since)
      .execute();
    return new Set(rows.map((r) => r.workflow_id));
  }

  executionsWithStatus(status: string): Promise<LightExecutionRow[]> {
    return this.k
      .selectFrom('workflow_executions')
      .select(LIGHT_EXECUTION_COLUMNS)
      .where('status', '=', status)
      .execute();
  }

  /** Deletes finished executions older than `before` and beyond the newest `keep`. */
  async prune(before: string | undefined, keep: number | undefined): Promise<number> {
    let n = 0;
    const finished = ['success', 'error', 'canceled', 'crashed'];
    if (before) {
      const r = await this.k
        .deleteFrom('workflow_executions')
        .where('created_at', '<', before)
        .where('status', 'in', finished)
        .executeTakeFirst();
      n += Number(r.numDeletedRows ?? 0);
    }
    if (keep) {
      const edge = await this.k
        .selectFrom('workflow_executions')
        .select('id')
        .orderBy('id', 'desc')
        .offset(keep)
        .limit(1)
        .executeTakeFirst();
      if (edge) {
        const r = await this.k
          .deleteFrom('workflow_executions')
          .where('id', '<=', Number(edge.id))
          .where('status', 'in', finished)
          .executeTakeFirst();
        n += Number(r.numDeletedRows ?? 0);
      }
    }
    if (n) this.onExecutionsChanged();
    return n;
  }

  // ---- interrupted executions (see executions/interrupted.ts)

  /** Marks every `running` execution `crashed` (SQLite: the file has one process). */
  async crashAllRunning(stoppedAt: string): Promise<number> {
    const r = await this.k
      .updateTable('workflow_executions')
      .set({ status: 'crashed', stopped_at: stoppedAt })
      .where('status', '=', 'running')
      .executeTakeFirst();
    const n = Number(r.numUpdatedRows ?? 0);
    if (n) this.onExecutionsChanged();
    return n;
  }

  /** The owner keys of `running` executions (PostgreSQL). */
  async runningOwners(): Promise<number[]> {
    const rows = await this.k
      .selectFrom('workflow_executions')
      .select('owner')
      .distinct()
      .where('status', '=', 'running')
      .where('owner', 'is not', null)
      .execute();
    return rows.map((r) => Number(r.owner));
  }

  /** Marks the `running` executions of one owner `crashed`. */
  async crashRunningOf(owner: number, stoppedAt: string): Promise<number> {
    const r = await this.k
      .updateTable('workflow_executions')
      .set({ status: 'crashed', stopped_at: stoppedAt })
      .where('status', '=', 'running')
      .where('owner', '=', owner)
      .executeTakeFirst();
    const n = Number(r.numUpdatedRows ?? 0);
    if (n) this.onExecutionsChanged();
    return n;
  }
}
