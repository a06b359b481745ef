// mail_idempotency (the first answer to each Idempotency-Key) and mail_secrets (the service's own secrets).
import { refusingDuplicates } from './duplicates.js';
import type { MailDb } from './mail-db.js';
import type { Tx } from './tables.js';

export class IdempotencyStore {
  constructor(private readonly m: MailDb) {}

  get(orgId: string, key: string, trx: Tx = this.m.db) {
    return trx
      .selectFrom('mail_idempotency')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('key', '=', key)
      .executeTakeFirst();
  }

  /** Throws DomainError('conflict', code 'duplicate') when a concurrent request recorded the key first. */
  async insert(
    orgId: string,
    key: string,
    requestHash: string,
    response: unknown,
    now: string,
    trx: Tx,
  ): Promise<void> {
    await refusingDuplicates(
      () =>
        trx
          .insertInto('mail_idempotency')
          .values({
            org_id: orgId,
            key,
            request_hash: requestHash,
            response: JSON.stringify(response),
            created_at: now,
          })
          .execute(),
      'Idempotency-Key is being used by a concurrent request',
      { field: 'Idempotency-Key', code: 'IDEMPOTENCY_CONFLICT' },
    );
  }

  async prune(olderThan: string): Promise<void> {
    await this.m.db.deleteFrom('mail_idempotency').where('created_at', '<', olderThan).execute();
  }
}

/** The service's own secrets belong to this installation, not to the world a snapshot holds. */
export const SECRETS_TABLE = 'mail_secrets';

export class SecretStore {
  constructor(private readonly m: MailDb) {}

  /** The named secret, created with `create` the first time (the first writer wins a race). */
  async get(name: string, create: () => string): Promise<string> {
    const row = await this.m.db.selectFrom('mail_secrets').select('value').where('name', '=', name).executeTakeFirst();
    if (row) return row.value;
    await this.m.db
      .insertInto('mail_secrets')
      .values({ name, value: create() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const again = await this.m.db
      .selectFrom('mail_secrets')
      .select('value')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return again.value;
  }
}
