// mail_webhooks: an organization's delivery endpoints.
import { refusingDuplicates } from './duplicates.js';
import { page, type MailDb } from './mail-db.js';
import type { Cursor, Tx, WebhookRow } from './tables.js';

export class WebhookStore {
  constructor(private readonly m: MailDb) {}

  get(webhookId: string) {
    return this.m.db.selectFrom('mail_webhooks').selectAll().where('webhook_id', '=', webhookId).executeTakeFirst();
  }

  byClientId(orgId: string, clientId: string) {
    return this.m.db
      .selectFrom('mail_webhooks')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }

  enabledOfOrg(orgId: string, trx: Tx = this.m.db) {
    return trx.selectFrom('mail_webhooks').selectAll().where('org_id', '=', orgId).where('enabled', '=', 1).execute();
  }

  /** Throws DomainError('conflict', code 'duplicate') when the client_id is taken. */
  async insert(row: WebhookRow): Promise<void> {
    await refusingDuplicates(
      () => this.m.db.insertInto('mail_webhooks').values(row).execute(),
      'A webhook with this client_id already exists',
      { field: 'client_id', code: 'ALREADY_EXISTS' },
    );
  }

  /** Throws DomainError('conflict', code 'duplicate') when a new client_id is taken. */
  async update(webhookId: string, set: Partial<WebhookRow>): Promise<void> {
    await refusingDuplicates(
      () => this.m.db.updateTable('mail_webhooks').set(set).where('webhook_id', '=', webhookId).execute(),
      'A webhook with this client_id already exists',
      { field: 'client_id', code: 'ALREADY_EXISTS' },
    );
  }

  /** Records how a delivery went (its status, attempts and, for a failure, the error). */
  async recordDelivery(
    webhookId: string,
    set: Pick<WebhookRow, 'last_delivery_status' | 'last_delivery_attempts'> &
      Partial<Pick<WebhookRow, 'last_delivery_error' | 'last_error_at'>>,
  ): Promise<void> {
    await this.m.db.updateTable('mail_webhooks').set(set).where('webhook_id', '=', webhookId).execute();
  }

  async delete(webhookId: string): Promise<void> {
    await this.m.db.deleteFrom('mail_webhooks').where('webhook_id', '=', webhookId).execute();
  }

  /** `within` keeps the webhooks that name that pod or inbox in their filters (the pod's and inbox's webhook routes). */
  list(
    orgId: string,
    opts: { limit: number; cursor?: Cursor; ascending?: boolean },
    within: { podId?: string; inboxId?: string } = {},
  ) {
    let q = this.m.db.selectFrom('mail_webhooks').selectAll().where('org_id', '=', orgId);
    if (within.podId) q = q.where(this.m.contains('pod_ids', JSON.stringify(within.podId)));
    if (within.inboxId) q = q.where(this.m.contains('inbox_ids', JSON.stringify(within.inboxId)));
    return page(q, 'created_at', 'webhook_id', opts).execute();
  }
}
