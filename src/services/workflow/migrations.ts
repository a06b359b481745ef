// The workflow service's tables. Workflows keep n8n's JSON in text columns; an execution is
// one row (its run data beside it, read only with includeData) so saving one is one insert.
import { PostgresAdapter, type Kysely } from 'kysely';
import type { Migrations } from '../../platform/db.js';

export const migrations: Migrations = {
  '001_workflows_executions_tags': {
    async up(db: Kysely<any>) {
      const pg = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema
        .createTable('workflow_workflows')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('nodes', 'text', (c) => c.notNull())
        .addColumn('connections', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('static_data', 'text')
        .addColumn('pin_data', 'text')
        .addColumn('meta', 'text')
        .addColumn('description', 'text')
        .addColumn('version_id', 'text', (c) => c.notNull())
        .addColumn('active_version_id', 'text')
        .addColumn('version_counter', 'integer', (c) => c.notNull())
        .addColumn('trigger_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('workflow_workflows_active')
        .on('workflow_workflows')
        .columns(['active', 'created_at'])
        .execute();

      await db.schema
        .createTable('workflow_tags')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('workflow_workflow_tags')
        .addColumn('workflow_id', 'text', (c) => c.notNull().references('workflow_workflows.id').onDelete('cascade'))
        .addColumn('tag_id', 'text', (c) => c.notNull().references('workflow_tags.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('workflow_workflow_tags_pk', ['workflow_id', 'tag_id'])
        .execute();

      await db.schema
        .createTable('workflow_executions')
        .addColumn('id', pg ? 'bigserial' : 'integer', (c) => c.primaryKey())
        .addColumn('workflow_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('retry_of', 'text')
        .addColumn('retry_success_id', 'text')
        .addColumn('started_at', 'text')
        .addColumn('stopped_at', 'text')
        .addColumn('wait_till', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('data', 'text')
        .addColumn('workflow_data', 'text')
        .addColumn('custom_data', 'text')
        .execute();
      await db.schema
        .createIndex('workflow_executions_wf')
        .on('workflow_executions')
        .columns(['workflow_id', 'id'])
        .execute();
      await db.schema
        .createIndex('workflow_executions_status')
        .on('workflow_executions')
        .columns(['status', 'id'])
        .execute();
      await db.schema
        .createIndex('workflow_executions_created')
        .on('workflow_executions')
        .columns(['created_at'])
        .execute();
    },
  },
  // The process running an execution (its advisory-lock key, PostgreSQL), so a restarted
  // process can tell the executions of a dead process from those of a live one.
  '002_execution_owner': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('workflow_executions').addColumn('owner', 'integer').execute();
    },
  },
  // n8n's public API beyond workflows (issue 11): the instance owner and their personal
  // project (one of each, as a single-owner self-hosted n8n has), variables ($vars), and
  // credentials, whose data column holds AES-256-GCM ciphertext only.
  '003_api_owner_variables_credentials': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('workflow_users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('workflow_projects')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('workflow_variables')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('workflow_credentials')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  // Issue 29: what n8n-mcp manages beyond workflows. Data tables (columns as JSON beside the
  // table, each row's values as JSON; a per-table row counter, row count and size), folders of
  // the owner's project, evaluation test runs with their cases, and the instance-level MCP
  // server's access token (its SHA-256 only) and on/off setting.
  '004_data_tables_folders_test_runs_mcp': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('workflow_data_tables')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('project_id', 'text', (c) => c.notNull())
        .addColumn('columns', 'text', (c) => c.notNull())
        .addColumn('next_row_id', 'integer', (c) => c.notNull())
        .addColumn('row_count', 'integer', (c) => c.notNull())
        .addColumn('size_bytes', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('workflow_data_tables_name', ['project_id', 'name'])
        .execute();
      await db.schema
        .createTable('workflow_data_table_rows')
        .addColumn('table_id', 'text', (c) => c.notNull())
        .addColumn('id', 'integer', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('workflow_data_table_rows_pk', ['table_id', 'id'])
        .execute();
      await db.schema
        .createTable('workflow_folders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('project_id', 'text', (c) => c.notNull())
        .addColumn('parent_folder_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('workflow_folders_parent')
        .on('workflow_folders')
        .columns(['project_id', 'parent_folder_id'])
        .execute();
      await db.schema
        .createTable('workflow_test_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workflow_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('run_at', 'text')
        .addColumn('completed_at', 'text')
        .addColumn('metrics', 'text')
        .addColumn('error_code', 'text')
        .addColumn('error_details', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('workflow_test_runs_wf')
        .on('workflow_test_runs')
        .columns(['workflow_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('workflow_test_cases')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('test_run_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('execution_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('inputs', 'text')
        .addColumn('outputs', 'text')
        .addColumn('metrics', 'text')
        .addColumn('error_code', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('workflow_test_cases_run')
        .on('workflow_test_cases')
        .columns(['test_run_id', 'position'])
        .execute();
      await db.schema
        .createTable('workflow_mcp_access')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('key_id', 'text')
        .addColumn('token_hash', 'text', (c) => c.unique())
        .addColumn('token_tail', 'text')
        .addColumn('key_created_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
};
