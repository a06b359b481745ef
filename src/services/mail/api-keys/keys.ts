// API keys minted through the API (/v0/api-keys, and under a pod or an inbox): real platform
// keys (random, shown once, stored as SHA-256 digests, revocable everywhere at once), owned by
// the organization, plus the mail service's row with their scope, name and permissions.
import type { Platform } from '../../../platform/service.js';
import { DomainError } from '../../../platform/errors.js';
import { notFoundError } from '../errors.js';
import { grantable } from './permissions.js';
import type { KeyScope, RequestScope } from '../identity/scope.js';
import type { ApiKeyRow, MailStore } from '../store/index.js';

/** AgentMail's ApiKeyPermissions: absent means every permission; otherwise only those set true. */
export type Permissions = Record<string, boolean>;

const KEYS_CHANGED_TOPIC = 'mail.api_keys.changed';

export class MailApiKeys {
  // key id -> scope; a key's scope never changes, so the cache needs no invalidation but on revoke.
  private readonly scopes = new Map<string, KeyScope>();

  /** After a world restore: every key's scope is read again. */
  forgetAll(): void {
    this.scopes.clear();
  }

  readonly close: () => void;

  constructor(
    private readonly store: MailStore,
    private readonly platform: Platform,
  ) {
    // Permissions can change: every instance forgets a changed key's cached scope.
    this.close = platform.events.subscribe<{ keyId: string }>(KEYS_CHANGED_TOPIC, (m) => {
      this.scopes.delete(m.keyId);
    });
  }

  /** The scope of a verified key: its pod or inbox for keys minted here, none for operators' keys. */
  async scopeOf(keyId: string): Promise<KeyScope> {
    const hit = this.scopes.get(keyId);
    if (hit) return hit;
    const row = await this.store.apiKeys.get(keyId);
    const scope: KeyScope = row
      ? {
          ...(row.pod_id ? { podId: row.pod_id } : {}),
          ...(row.inbox_id ? { inboxId: row.inbox_id } : {}),
          ...(row.permissions ? { permissions: JSON.parse(row.permissions) as Permissions } : {}),
        }
      : {};
    if (this.scopes.size > 50_000) this.scopes.clear();
    this.scopes.set(keyId, scope);
    return scope;
  }

  /**
   * Mints a key in `scope` (an inbox scope also names the inbox's pod). Answers the plaintext
   * once. A key with limited permissions (`own`) grants at most those.
   */
  async create(
    scope: RequestScope & { podOfInbox?: string },
    input: { name?: string | null; permissions?: Permissions | null },
    own?: Permissions,
  ): Promise<{ row: ApiKeyRow; key: string }> {
    const permissions = grantable(own, input.permissions ?? undefined);
    const { key, record } = await this.platform.keys.create('mail', {
      name: input.name ?? undefined,
      ownerId: scope.orgId,
    });
    const now = record.createdAt;
    const row: ApiKeyRow = {
      api_key_id: record.id,
      org_id: scope.orgId,
      pod_id: scope.inboxId ? (scope.podOfInbox ?? null) : (scope.podId ?? null),
      inbox_id: scope.inboxId ?? null,
      name: input.name ?? 'API key',
      // Enough of the key to recognise it; the rest is never stored.
      prefix: key.slice(0, 'hamlet_mail_'.length + 4),
      permissions: permissions ? JSON.stringify(permissions) : null,
      used_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.store.apiKeys.insert(row);
    return { row, key };
  }

  /** The key if `scope` may see it: same organization, and inside the scope's pod or inbox. */
  async visible(scope: RequestScope, apiKeyId: string): Promise<ApiKeyRow> {
    const row = await this.store.apiKeys.get(apiKeyId);
    if (
      !row ||
      row.org_id !== scope.orgId ||
      (scope.podId && row.pod_id !== scope.podId) ||
      (scope.inboxId && row.inbox_id !== scope.inboxId)
    )
      throw notFoundError('API key');
    return row;
  }

  async update(row: ApiKeyRow, input: { name?: string | null; permissions?: Permissions | null }): Promise<ApiKeyRow> {
    if (input.name === undefined && input.permissions === undefined)
      throw new DomainError('invalid', 'give name or permissions to update', 'validation_error', {
        field: 'name',
        code: 'REQUIRED',
      });
    const set: Partial<ApiKeyRow> = { updated_at: this.platform.clock.now().toISOString() };
    if (input.name != null) set.name = input.name;
    if (input.permissions !== undefined) set.permissions = input.permissions ? JSON.stringify(input.permissions) : null;
    await this.store.apiKeys.update(row.api_key_id, set);
    this.scopes.delete(row.api_key_id);
    await this.platform.events.publish(KEYS_CHANGED_TOPIC, { keyId: row.api_key_id });
    return { ...row, ...set };
  }

  /** Revokes the platform key (refused at once on every instance) and forgets its row. */
  async revoke(row: ApiKeyRow): Promise<void> {
    await this.platform.keys.revoke({ id: row.api_key_id, service: 'mail' });
    await this.store.apiKeys.delete(row.api_key_id);
    this.scopes.delete(row.api_key_id);
  }
}

const scopeFields = (r: ApiKeyRow) => ({
  ...(r.pod_id ? { pod_id: r.pod_id } : {}),
  ...(r.inbox_id ? { inbox_id: r.inbox_id } : {}),
  ...(r.permissions ? { permissions: JSON.parse(r.permissions) as Permissions } : {}),
});

/** AgentMail's BearerApiKey. */
export const apiKeyRecord = (r: ApiKeyRow) => ({
  type: 'bearer' as const,
  api_key_id: r.api_key_id,
  prefix: r.prefix,
  name: r.name,
  ...scopeFields(r),
  ...(r.used_at ? { used_at: r.used_at } : {}),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** AgentMail's CreateApiKeyResponse: the only time the plaintext key is shown. */
export const createdKeyRecord = (r: ApiKeyRow, key: string) => ({
  api_key_id: r.api_key_id,
  api_key: key,
  prefix: r.prefix,
  name: r.name,
  ...scopeFields(r),
  created_at: r.created_at,
});
