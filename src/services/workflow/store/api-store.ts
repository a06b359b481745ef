// SQL of the public API's other resources: the owner and their project, variables and
// credentials (workflow_users, workflow_projects, workflow_variables, workflow_credentials).
import type { Kysely } from 'kysely';
import { isUniqueViolation, type Db } from '../../../platform/db.js';
import { DomainError } from '../../../platform/errors.js';

export interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  created_at: string;
  updated_at: string;
}

export interface ProjectRow {
  id: string;
  name: string;
  type: string;
  owner_id: string;
  created_at: string;
  updated_at: string;
}

export interface VariableRow {
  id: string;
  key: string;
  value: string;
  type: string;
  created_at: string;
  updated_at: string;
}

export interface CredentialRow {
  id: string;
  name: string;
  type: string;
  /** AES-256-GCM ciphertext (credentials/cipher.ts), never the clear data. */
  data: string;
  created_at: string;
  updated_at: string;
}

interface Tables {
  workflow_users: UserRow;
  workflow_projects: ProjectRow;
  workflow_variables: VariableRow;
  workflow_credentials: CredentialRow;
}

/** n8n's words for a second variable with a taken key. */
const VARIABLE_EXISTS = (key: string) => new DomainError('invalid', `Variable with key ${key} already exists`);

/**
 * The instance's owner, their personal project and their instance-MCP key and switch: this
 * installation's, not part of a saved world.
 */
export const OWNER_TABLES = ['workflow_users', 'workflow_projects', 'workflow_mcp_access'];

export class ApiStore {
  private readonly k: Kysely<Tables>;

  constructor(private readonly db: Db) {
    this.k = db.kysely;
  }

  // ---- owner and project

  firstUser(): Promise<UserRow | undefined> {
    return this.k.selectFrom('workflow_users').selectAll().orderBy('created_at').limit(1).executeTakeFirst();
  }

  projectOf(ownerId: string): Promise<ProjectRow | undefined> {
    return this.k.selectFrom('workflow_projects').selectAll().where('owner_id', '=', ownerId).executeTakeFirst();
  }

  /** Creates the owner and their project together (first start); false when another process did it first. */
  async insertOwner(user: UserRow, project: ProjectRow): Promise<boolean> {
    try {
      await this.k.transaction().execute(async (trx) => {
        await trx.insertInto('workflow_users').values(user).execute();
        await trx.insertInto('workflow_projects').values(project).execute();
      });
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async updateOwner(user: UserRow, project: ProjectRow): Promise<void> {
    await this.k
      .updateTable('workflow_users')
      .set({ email: user.email, first_name: user.first_name, last_name: user.last_name, updated_at: user.updated_at })
      .where('id', '=', user.id)
      .execute();
    await this.k
      .updateTable('workflow_projects')
      .set({ name: project.name, updated_at: project.updated_at })
      .where('id', '=', project.id)
      .execute();
  }

  // ---- variables

  /** Throws DomainError invalid when the key is taken. */
  async insertVariable(row: VariableRow): Promise<void> {
    try {
      await this.k.insertInto('workflow_variables').values(row).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw VARIABLE_EXISTS(row.key);
      throw err;
    }
  }

  getVariable(id: string): Promise<VariableRow | undefined> {
    return this.k.selectFrom('workflow_variables').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A page of variables; `emptyOnly`: those whose value is empty (n8n's state=empty). */
  listVariables(limit: number, offset: number, emptyOnly = false): Promise<VariableRow[]> {
    let q = this.k.selectFrom('workflow_variables').selectAll();
    if (emptyOnly) q = q.where('value', '=', '');
    return q.orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
  }

  allVariables(): Promise<Array<Pick<VariableRow, 'key' | 'value'>>> {
    return this.k.selectFrom('workflow_variables').select(['key', 'value']).execute();
  }

  /** Throws DomainError invalid when the new key is taken. */
  async updateVariable(id: string, patch: Pick<VariableRow, 'key' | 'value' | 'updated_at'>): Promise<void> {
    try {
      await this.k.updateTable('workflow_variables').set(patch).where('id', '=', id).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw VARIABLE_EXISTS(patch.key);
      throw err;
    }
  }

  async deleteVariable(id: string): Promise<void> {
    await this.k.deleteFrom('workflow_variables').where('id', '=', id).execute();
  }

  // ---- credentials

  async insertCredential(row: CredentialRow): Promise<void> {
    await this.k.insertInto('workflow_credentials').values(row).execute();
  }

  getCredential(id: string): Promise<CredentialRow | undefined> {
    return this.k.selectFrom('workflow_credentials').selectAll().where('id', '=', id).executeTakeFirst();
  }

  credentialByName(type: string, name: string): Promise<CredentialRow | undefined> {
    return this.k
      .selectFrom('workflow_credentials')
      .selectAll()
      .where('type', '=', type)
      .where('name', '=', name)
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
  }

  /** Credentials without their data (lists, the audit). */
  listCredentials(limit: number, offset: number): Promise<Array<Omit<CredentialRow, 'data'>>> {
    return this.k
      .selectFrom('workflow_credentials')
      .select(['id', 'name', 'type', 'created_at', 'updated_at'])
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async updateCredential(id: string, patch: Partial<Omit<CredentialRow, 'id' | 'created_at'>>): Promise<void> {
    await this.k.updateTable('workflow_credentials').set(patch).where('id', '=', id).execute();
  }

  async deleteCredential(id: string): Promise<void> {
    await this.k.deleteFrom('workflow_credentials').where('id', '=', id).execute();
  }
}
