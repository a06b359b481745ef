// The mail service's tables. Timestamps are ISO text, booleans 0/1, JSON arrays and objects
// text (see src/platform/db.ts); labels are a JSON array so a label filter is a substring test.
import { PostgresAdapter, type Kysely } from 'kysely';
import type { Migrations } from '../../platform/db.js';

/** Raw messages are bytes: bytea on PostgreSQL, a blob in SQLite (both drivers give a Buffer back). */
const bytesType = (db: Kysely<any>) => (db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob');

export const migrations: Migrations = {
  '001_mail': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('mail_inboxes')
        .addColumn('inbox_id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('pod_id', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text')
        .addColumn('client_id', 'text')
        .addColumn('metadata', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('mail_inboxes_org')
        .on('mail_inboxes')
        .columns(['org_id', 'created_at', 'inbox_id'])
        .execute();
      await db.schema
        .createIndex('mail_inboxes_client')
        .on('mail_inboxes')
        .columns(['org_id', 'client_id'])
        .unique()
        .execute();

      await db.schema
        .createTable('mail_threads')
        .addColumn('thread_id', 'text', (c) => c.primaryKey())
        .addColumn('inbox_id', 'text', (c) => c.notNull())
        .addColumn('subject', 'text')
        .addColumn('preview', 'text')
        .addColumn('labels', 'text', (c) => c.notNull())
        .addColumn('senders', 'text', (c) => c.notNull())
        .addColumn('recipients', 'text', (c) => c.notNull())
        .addColumn('attachments', 'text')
        .addColumn('last_message_id', 'text', (c) => c.notNull())
        .addColumn('message_count', 'integer', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('timestamp', 'text', (c) => c.notNull())
        .addColumn('received_timestamp', 'text')
        .addColumn('sent_timestamp', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('mail_threads_inbox')
        .on('mail_threads')
        .columns(['inbox_id', 'timestamp', 'thread_id'])
        .execute();
      await db.schema.createIndex('mail_threads_time').on('mail_threads').columns(['timestamp', 'thread_id']).execute();

      await db.schema
        .createTable('mail_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('inbox_id', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('thread_id', 'text', (c) => c.notNull())
        .addColumn('labels', 'text', (c) => c.notNull())
        .addColumn('timestamp', 'text', (c) => c.notNull())
        .addColumn('from_addr', 'text', (c) => c.notNull())
        .addColumn('to_addrs', 'text', (c) => c.notNull())
        .addColumn('cc_addrs', 'text')
        .addColumn('bcc_addrs', 'text')
        .addColumn('reply_to', 'text')
        .addColumn('subject', 'text')
        .addColumn('preview', 'text')
        .addColumn('text_body', 'text')
        .addColumn('html_body', 'text')
        .addColumn('extracted_text', 'text')
        .addColumn('extracted_html', 'text')
        .addColumn('attachments', 'text')
        .addColumn('in_reply_to', 'text')
        .addColumn('refs', 'text')
        .addColumn('headers', 'text')
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('mail_messages_rfc')
        .on('mail_messages')
        .columns(['inbox_id', 'message_id'])
        .unique()
        .execute();
      await db.schema
        .createIndex('mail_messages_inbox')
        .on('mail_messages')
        .columns(['inbox_id', 'timestamp', 'id'])
        .execute();
      await db.schema
        .createIndex('mail_messages_thread')
        .on('mail_messages')
        .columns(['thread_id', 'timestamp', 'id'])
        .execute();

      await db.schema
        .createTable('mail_raw')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // Bytes, not text: no encoding on the way in (base64 text cost a third of SMTP ingest).
        .addColumn('raw', bytesType(db), (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('mail_webhooks')
        .addColumn('webhook_id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('event_types', 'text', (c) => c.notNull())
        .addColumn('inbox_ids', 'text')
        .addColumn('pod_ids', 'text')
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('client_id', 'text')
        .addColumn('headers', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('mail_webhooks_org')
        .on('mail_webhooks')
        .columns(['org_id', 'created_at', 'webhook_id'])
        .execute();
      await db.schema
        .createIndex('mail_webhooks_client')
        .on('mail_webhooks')
        .columns(['org_id', 'client_id'])
        .unique()
        .execute();

      await db.schema
        .createTable('mail_idempotency')
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('response', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('mail_idempotency_pk', ['org_id', 'key'])
        .execute();

      // One row: the secret that signs attachment and raw download URLs (shared by every instance).
      await db.schema
        .createTable('mail_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '002_drafts': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('mail_drafts')
        .addColumn('draft_id', 'text', (c) => c.primaryKey())
        .addColumn('inbox_id', 'text', (c) => c.notNull())
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text')
        // The draft's fields (recipients, subject, bodies, attachments with their bytes) as JSON.
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('labels', 'text', (c) => c.notNull())
        .addColumn('send_at', 'text')
        .addColumn('send_status', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('mail_drafts_inbox')
        .on('mail_drafts')
        .columns(['inbox_id', 'updated_at', 'draft_id'])
        .execute();
      await db.schema
        .createIndex('mail_drafts_org')
        .on('mail_drafts')
        .columns(['org_id', 'updated_at', 'draft_id'])
        .execute();
      await db.schema
        .createIndex('mail_drafts_client')
        .on('mail_drafts')
        .columns(['org_id', 'client_id'])
        .unique()
        .execute();
    },
  },
  // The development catch-all (mail to other domains held while no relay is set) and what a
  // webhook's deliveries last did. Named mail_smtp_… so they sort after the others.
  mail_smtp_001_outbox: {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('mail_outbox')
        .addColumn('outbox_id', 'text', (c) => c.primaryKey())
        // Null for the platform's own mail (the blog's verification mail): it has no organization.
        .addColumn('org_id', 'text')
        .addColumn('inbox_id', 'text')
        // The sender's copy in mail_messages (its `queued` label goes when the mail leaves).
        .addColumn('message_row_id', 'text')
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('mail_from', 'text', (c) => c.notNull())
        .addColumn('rcpt_to', 'text', (c) => c.notNull())
        .addColumn('subject', 'text')
        .addColumn('text_body', 'text')
        .addColumn('html_body', 'text')
        .addColumn('raw', bytesType(db), (c) => c.notNull())
        // What the platform mailer echoes in its sent/failed events, kept for the relay.
        .addColumn('meta', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('mail_outbox_time').on('mail_outbox').columns(['created_at', 'outbox_id']).execute();
      for (const column of ['last_delivery_status', 'last_delivery_error', 'last_error_at']) {
        await db.schema.alterTable('mail_webhooks').addColumn(column, 'text').execute();
      }
      await db.schema.alterTable('mail_webhooks').addColumn('last_delivery_attempts', 'integer').execute();
    },
  },
  // Pods, domains, allow/block lists and scoped API keys (the AgentMail surface beyond the core).
  mail_surface_001: {
    async up(db: Kysely<any>) {
      // Pods an organization created; its default pod (podIdOf in http/auth.ts) gets a row too,
      // written the first time pods are listed or read.
      await db.schema
        .createTable('mail_pods')
        .addColumn('pod_id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('mail_pods_org')
        .on('mail_pods')
        .columns(['org_id', 'created_at', 'pod_id'])
        .execute();
      await db.schema
        .createIndex('mail_pods_client')
        .on('mail_pods')
        .columns(['org_id', 'client_id'])
        .unique()
        .execute();

      // Custom sending and receiving domains, with the DKIM key generated for each.
      await db.schema
        .createTable('mail_domains')
        .addColumn('domain_id', 'text', (c) => c.primaryKey())
        .addColumn('domain', 'text', (c) => c.notNull().unique())
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('pod_id', 'text')
        .addColumn('client_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('feedback_enabled', 'integer', (c) => c.notNull())
        .addColumn('subdomains_enabled', 'integer', (c) => c.notNull())
        .addColumn('tracking_enabled', 'integer', (c) => c.notNull())
        .addColumn('dkim_selector', 'text', (c) => c.notNull())
        .addColumn('dkim_private_key', 'text', (c) => c.notNull())
        .addColumn('dkim_public_key', 'text', (c) => c.notNull())
        // The last verification's record statuses, JSON (type:name -> status).
        .addColumn('record_status', 'text')
        .addColumn('verified_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('mail_domains_org')
        .on('mail_domains')
        .columns(['org_id', 'created_at', 'domain_id'])
        .execute();

      // Allow and block lists, per organization, pod or inbox, by direction.
      await db.schema
        .createTable('mail_list_entries')
        .addColumn('org_id', 'text', (c) => c.notNull())
        // '' for an organization-wide entry (a key column cannot be NULL in a primary key).
        .addColumn('pod_id', 'text', (c) => c.notNull())
        .addColumn('inbox_id', 'text', (c) => c.notNull())
        .addColumn('direction', 'text', (c) => c.notNull())
        .addColumn('list_type', 'text', (c) => c.notNull())
        .addColumn('entry', 'text', (c) => c.notNull())
        .addColumn('entry_type', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('mail_list_entries_pk', [
          'org_id',
          'pod_id',
          'inbox_id',
          'direction',
          'list_type',
          'entry',
        ])
        .execute();

      // What the mail service adds to a platform key it minted: scope, name and permissions.
      // The key itself (its SHA-256 digest) lives in platform_keys.
      await db.schema
        .createTable('mail_api_keys')
        .addColumn('api_key_id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('pod_id', 'text')
        .addColumn('inbox_id', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('permissions', 'text')
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('mail_api_keys_org')
        .on('mail_api_keys')
        .columns(['org_id', 'created_at', 'api_key_id'])
        .execute();
    },
  },
  // AgentMail's log of label changes per inbox (GET /v0/inboxes/{id}/events), and the agent
  // organizations that signed themselves up (POST /v0/agent/sign-up) with their verification.
  '003_inbox_events_and_agent_signups': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('mail_inbox_events')
        .addColumn('event_id', 'text', (c) => c.primaryKey())
        .addColumn('inbox_id', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('event_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('mail_inbox_events_inbox')
        .on('mail_inbox_events')
        .columns(['inbox_id', 'event_id'])
        .execute();

      await db.schema
        .createTable('mail_agent_orgs')
        .addColumn('org_id', 'text', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('inbox_id', 'text', (c) => c.notNull())
        .addColumn('api_key_id', 'text', (c) => c.notNull())
        .addColumn('human_email', 'text')
        .addColumn('human_changes', 'integer', (c) => c.notNull())
        .addColumn('otp_digest', 'text')
        .addColumn('otp_issued_at', 'text')
        .addColumn('otp_attempts', 'integer', (c) => c.notNull())
        .addColumn('sent_day', 'text')
        .addColumn('sent_count', 'integer', (c) => c.notNull())
        .addColumn('source', 'text')
        .addColumn('referrer', 'text')
        .addColumn('verified_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // One organization per person: a repeat sign-up with the same address finds it.
      await db.schema
        .createIndex('mail_agent_orgs_human')
        .on('mail_agent_orgs')
        .column('human_email')
        .unique()
        .execute();
    },
  },
  // AgentID ("Sign in with AgentMail"): the providers an inbox can sign in to, the sign-ins
  // under way (a connect's magic link, or a provider's waiting sign-in an agent authorizes), the
  // public-key credentials they mint, and the accounts: one inbox signed in at one provider.
  '004_agentid': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('mail_providers')
        .addColumn('provider_id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('logo_url', 'text')
        .addColumn('terms_url', 'text')
        .addColumn('privacy_url', 'text')
        .addColumn('listed', 'integer', (c) => c.notNull())
        .addColumn('owner_signup_limit', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('mail_sign_ins')
        .addColumn('token', 'text', (c) => c.primaryKey())
        .addColumn('flow', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('org_id', 'text')
        .addColumn('inbox_id', 'text')
        .addColumn('api_key_id', 'text')
        .addColumn('authorized_by', 'text')
        .addColumn('public_key', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('mail_sign_in_keys')
        .addColumn('api_key_id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('pod_id', 'text', (c) => c.notNull())
        .addColumn('inbox_id', 'text', (c) => c.notNull())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('public_key', 'text')
        .addColumn('fingerprint', 'text')
        .addColumn('permissions', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .execute();
      await db.schema
        .createIndex('mail_sign_in_keys_org')
        .on('mail_sign_in_keys')
        .columns(['org_id', 'created_at', 'api_key_id'])
        .execute();
      await db.schema
        .createTable('mail_accounts')
        .addColumn('account_id', 'text', (c) => c.primaryKey())
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('inbox_id', 'text', (c) => c.notNull())
        .addColumn('pod_id', 'text', (c) => c.notNull())
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('first_signed_in_at', 'text', (c) => c.notNull())
        .addColumn('last_signed_in_at', 'text', (c) => c.notNull())
        .addColumn('sign_in_count', 'integer', (c) => c.notNull())
        .execute();
      // One account per inbox and provider: a later sign-in counts on it.
      await db.schema
        .createIndex('mail_accounts_provider_inbox')
        .on('mail_accounts')
        .columns(['provider_id', 'inbox_id'])
        .unique()
        .execute();
      await db.schema
        .createIndex('mail_accounts_org')
        .on('mail_accounts')
        .columns(['org_id', 'last_signed_in_at', 'account_id'])
        .execute();
    },
  },
};
