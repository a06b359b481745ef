// mail_api_keys: scope, name and permissions of the keys the API minted (their digests are
// in platform_keys, which verifies them).
import { page, type MailDb } from './mail-db.js';
import type { ApiKeyRow, Cursor } from './tables.js';

export class ApiKeyStore {
  constructor(private readonly m: MailDb) {}

  get(apiKeyId: string) {
    return this.m.db.selectFrom('mail_api_keys').selectAll().where('api_key_id', '=', apiKeyId).executeTakeFirst();
  }

  async insert(row: ApiKeyRow): Promise<void> {
    await this.m.db.insertInto('mail_api_keys').values(row).execute();
  }

  async update(apiKeyId: string, set: Partial<ApiKeyRow>): Promise<void> {
    await this.m.db.updateTable('mail_api_keys').set(set).where('api_key_id', '=', apiKeyId).execute();
  }

  async delete(apiKeyId: string): Promise<void> {
    await this.m.db.deleteFrom('mail_api_keys').where('api_key_id', '=', apiKeyId).execute();
  }

  list(
    where: { orgId: string; podId?: string; inboxId?: string },
    opts: { limit: number; cursor?: Cursor; ascending?: boolean },
  ) {
    let q = this.m.db.selectFrom('mail_api_keys').selectAll().where('org_id', '=', where.orgId);
    if (where.podId) q = q.where('pod_id', '=', where.podId);
    if (where.inboxId) q = q.where('inbox_id', '=', where.inboxId);
    return page(q, 'created_at', 'api_key_id', opts).execute();
  }
}
