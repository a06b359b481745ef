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
      await db.schema.createIndex('workflow_workflows_active').on('workflow_workflows').columns(['active', 'created_at']).execute();

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
      await db.schema.createIndex('workflow_executions_wf').on('workflow_executions').columns(['workflow_id', 'id']).execute();
      await db.schema.createIndex('workflow_executions_status').on('workflow_executions').columns(['status', 'id']).execute();
      await db.schema.createIndex('workflow_executions_created').on('workflow_executions').columns(['created_at']).execute();
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
};
