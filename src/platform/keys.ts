// API keys: random, prefixed per service so secret scanners recognise them
// (`hamlet_blog_…`), shown once, stored only as SHA-256 digests and looked up by digest.
// High-entropy keys need no slow password hash: nobody can brute-force 190 random bits.
import { createHash } from 'node:crypto';
import type { Db } from './db.js';
import type { Clock } from './clock.js';
import type { EventBus } from './events.js';
import { randomBase62, uuid } from './ids.js';
import { KEY_REVOKED } from './topics.js';

export interface ApiKeyRecord {
  id: string;
  service: string;
  name: string | null;
  ownerId: string | null;
  createdAt: string;
}

export const hashKey = (plaintext: string): string => createHash('sha256').update(plaintext).digest('hex');

const keyPrefix = (service: string): string => `hamlet_${service}_`;

/** A new plaintext key, for a caller that must write it into a mail before the transaction that stores it. */
export const mintKey = (service: string): string => keyPrefix(service) + randomBase62(32);

/** The name of the keys the console mints for its own use (console/service-client.ts). */
export const CONSOLE_KEY_NAME = 'hamlet-console';

/**
 * Whether a key is the operator's own: the console's key for a service (or one the operator
 * makes with `hamlet keys create <service> --name hamlet-console`). Agents cannot make one:
 * every key a service mints on an agent's request has an owner.
 */
export const isOperatorKey = (key: Pick<ApiKeyRecord, 'name' | 'ownerId'>): boolean =>
  key.name === CONSOLE_KEY_NAME && key.ownerId === null;

export class Keys {
  // digest -> record; keys are looked up on every authenticated request.
  private readonly cache = new Map<string, ApiKeyRecord>();
  /**
   * Digests revoked lately, never cached again: a lookup that read the row before the
   * revocation (or, on another instance, before the revoking transaction committed) must not
   * put the key back into the cache. Only the moments around a revocation need this, so the
   * set is simply emptied when it grows large.
   */
  private readonly revoked = new Set<string>();
  /**
   * Digests of keys that checked out, by the key: a SHA-256 of the key cost every authenticated
   * request a few microseconds (a tenth of a cached list's whole answer). Only keys that were
   * live when first seen are kept (made-up ones would grow it), in this process's memory, which
   * receives them with every request anyway; a revoked key misses the record cache all the same.
   */
  private readonly digests = new Map<string, string>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    events?: EventBus,
  ) {
    // Revocation on any instance drops the cached record everywhere.
    events?.subscribe(KEY_REVOKED, (msg: { hash: string }) => this.forget(msg.hash));
    this.events = events;
  }

  private readonly events?: EventBus;

  private forget(hash: string): void {
    if (this.revoked.size > 10_000) this.revoked.clear();
    this.revoked.add(hash);
    this.cache.delete(hash);
  }

  /** Creates a key and returns the plaintext, which is never stored. */
  async create(
    service: string,
    opts: { name?: string; ownerId?: string; /** From mintKey; a new one by default. */ key?: string } = {},
    trx = this.db.kysely,
  ): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = opts.key ?? mintKey(service);
    if (!key.startsWith(keyPrefix(service))) throw new Error(`a ${service} key must start with ${keyPrefix(service)}`);
    const record: ApiKeyRecord = {
      id: uuid(),
      service,
      name: opts.name ?? null,
      ownerId: opts.ownerId ?? null,
      createdAt: this.clock.now().toISOString(),
    };
    await trx
      .insertInto('platform_keys')
      .values({
        id: record.id,
        service,
        name: record.name,
        owner_id: record.ownerId,
        hash: hashKey(key),
        hint: key.slice(-4),
        created_at: record.createdAt,
        revoked_at: null,
      })
      .execute();
    return { key, record };
  }

  /** The live key record for a plaintext key of this service, or undefined. */
  async verify(service: string, plaintext: string | undefined): Promise<ApiKeyRecord | undefined> {
    if (!plaintext || plaintext.length > 200) return undefined;
    const hash = this.digests.get(plaintext) ?? hashKey(plaintext);
    const cached = this.cache.get(hash);
    if (cached) return cached.service === service ? cached : undefined;
    const row = await this.db.kysely
      .selectFrom('platform_keys')
      .select(['id', 'service', 'name', 'owner_id', 'created_at'])
      .where('hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    const record: ApiKeyRecord = {
      id: row.id,
      service: row.service,
      name: row.name,
      ownerId: row.owner_id,
      createdAt: row.created_at,
    };
    if (this.revoked.has(hash)) return record.service === service ? record : undefined;
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(hash, record);
    if (this.digests.size > 10_000) this.digests.clear();
    this.digests.set(plaintext, hash);
    return record.service === service ? record : undefined;
  }

  /**
   * Whether the key with this id is live, read from storage every time (never the cache): for a
   * check that must see a revocation made by another process (`hamlet keys revoke`).
   */
  async isLive(service: string, id: string): Promise<boolean> {
    const row = await this.db.kysely
      .selectFrom('platform_keys')
      .select('id')
      .where('id', '=', id)
      .where('service', '=', service)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  async list(service: string): Promise<Array<ApiKeyRecord & { hint: string; revokedAt: string | null }>> {
    const rows = await this.db.kysely
      .selectFrom('platform_keys')
      .selectAll()
      .where('service', '=', service)
      .orderBy('created_at')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      service: r.service,
      name: r.name,
      ownerId: r.owner_id,
      createdAt: r.created_at,
      hint: r.hint,
      revokedAt: r.revoked_at,
    }));
  }

  /** Revokes keys by id, or every live key of an owner. Returns how many were revoked. */
  async revoke(where: { id?: string; ownerId?: string; service: string }, trx = this.db.kysely): Promise<number> {
    let q = trx
      .selectFrom('platform_keys')
      .select(['hash'])
      .where('service', '=', where.service)
      .where('revoked_at', 'is', null);
    if (where.id) q = q.where('id', '=', where.id);
    if (where.ownerId) q = q.where('owner_id', '=', where.ownerId);
    const rows = await q.execute();
    if (!rows.length) return 0;
    const hashes = rows.map((r) => r.hash as string);
    await trx
      .updateTable('platform_keys')
      .set({ revoked_at: this.clock.now().toISOString() })
      .where('hash', 'in', hashes)
      .execute();
    for (const hash of hashes) {
      this.forget(hash);
      await this.events?.publish(KEY_REVOKED, { hash });
    }
    return rows.length;
  }

  /** Drops every cached verification (after the world's keys were replaced by a restore). */
  forgetCached(): void {
    this.cache.clear();
    this.digests.clear();
  }
}
