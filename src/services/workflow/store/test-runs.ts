// SQL of evaluation test runs (workflow_test_runs) and their cases (workflow_test_cases).
import type { Kysely } from 'kysely';
import type { Db } from '../../../platform/db.js';

export interface TestRunRow {
  id: string;
  workflow_id: string;
  status: string;
  run_at: string | null;
  completed_at: string | null;
  /** JSON Record<string, number> */
  metrics: string | null;
  error_code: string | null;
  error_details: string | null;
  created_at: string;
  updated_at: string;
}

export interface TestCaseRow {
  id: string;
  test_run_id: string;
  position: number;
  execution_id: string | null;
  status: string;
  inputs: string | null;
  outputs: string | null;
  metrics: string | null;
  error_code: string | null;
  created_at: string;
  updated_at: string;
}

interface Tables {
  workflow_test_runs: TestRunRow;
  workflow_test_cases: TestCaseRow;
}

export class TestRunStore {
  private readonly k: Kysely<Tables>;

  constructor(db: Db) {
    this.k = db.kysely;
  }

  async insertRun(row: TestRunRow): Promise<void> {
    await this.k.insertInto('workflow_test_runs').values(row).execute();
  }

  getRun(id: string): Promise<TestRunRow | undefined> {
    return this.k.selectFrom('workflow_test_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A page of a workflow's runs, newest first. */
  listRuns(workflowId: string, status: string | undefined, limit: number, offset: number): Promise<TestRunRow[]> {
    let q = this.k.selectFrom('workflow_test_runs').selectAll().where('workflow_id', '=', workflowId);
    if (status) q = q.where('status', '=', status);
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
  }

  async runningFor(workflowId: string): Promise<boolean> {
    const r = await this.k
      .selectFrom('workflow_test_runs')
      .select('id')
      .where('workflow_id', '=', workflowId)
      .where('status', 'in', ['new', 'running'])
      .executeTakeFirst();
    return r !== undefined;
  }

  async updateRun(id: string, patch: Partial<Omit<TestRunRow, 'id' | 'workflow_id' | 'created_at'>>): Promise<void> {
    await this.k.updateTable('workflow_test_runs').set(patch).where('id', '=', id).execute();
  }

  /** Sets a status only while the run still has one of `from` (a cancel does not lose to a finish). */
  async moveRun(
    id: string,
    from: string[],
    patch: Partial<Omit<TestRunRow, 'id' | 'workflow_id' | 'created_at'>>,
  ): Promise<boolean> {
    const r = await this.k
      .updateTable('workflow_test_runs')
      .set(patch)
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async insertCase(row: TestCaseRow): Promise<void> {
    await this.k.insertInto('workflow_test_cases').values(row).execute();
  }

  listCases(runId: string, limit: number, offset: number): Promise<TestCaseRow[]> {
    return this.k
      .selectFrom('workflow_test_cases')
      .selectAll()
      .where('test_run_id', '=', runId)
      .orderBy('position')
      .limit(limit)
      .offset(offset)
      .execute();
  }
}
