// SQL of workflow folders (workflow_folders): a name, the project, the parent folder (null at
// the project's root).
import type { Kysely } from 'kysely';
import type { Db } from '../../../platform/db.js';

export interface FolderRow {
  id: string;
  name: string;
  project_id: string;
  parent_folder_id: string | null;
  created_at: string;
  updated_at: string;
}

interface Tables {
  workflow_folders: FolderRow;
}

export class FolderStore {
  private readonly k: Kysely<Tables>;

  constructor(db: Db) {
    this.k = db.kysely;
  }

  /** Every folder of a project (bounded by the service's per-project limit). */
  ofProject(projectId: string): Promise<FolderRow[]> {
    return this.k.selectFrom('workflow_folders').selectAll().where('project_id', '=', projectId).execute();
  }

  async count(projectId: string): Promise<number> {
    const r = await this.k
      .selectFrom('workflow_folders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async insert(row: FolderRow): Promise<void> {
    await this.k.insertInto('workflow_folders').values(row).execute();
  }

  async update(id: string, patch: Partial<Pick<FolderRow, 'name' | 'parent_folder_id' | 'updated_at'>>): Promise<void> {
    await this.k.updateTable('workflow_folders').set(patch).where('id', '=', id).execute();
  }

  /** Deletes folders and moves the given children to a new parent, in one transaction. */
  async deleteAndMove(deleteIds: string[], moveIds: string[], parent: string | null, now: string): Promise<void> {
    await this.k.transaction().execute(async (trx) => {
      for (let i = 0; i < moveIds.length; i += 500)
        await trx
          .updateTable('workflow_folders')
          .set({ parent_folder_id: parent, updated_at: now })
          .where('id', 'in', moveIds.slice(i, i + 500))
          .execute();
      for (let i = 0; i < deleteIds.length; i += 500)
        await trx
          .deleteFrom('workflow_folders')
          .where('id', 'in', deleteIds.slice(i, i + 500))
          .execute();
    });
  }
}
