// Console login sessions: what the `hamlet_console` cookie holds instead of the admin key. A
// session id is random (190 bits), shown once in the cookie, and stored only as its SHA-256
// digest beside the admin key it was opened with and its expiry (HAMLET_CONSOLE_SESSION_TTL).
// It ends at logout, at its expiry, or when that admin key is revoked: every lookup reads the
// key's state from storage, so a revocation (`hamlet keys revoke admin …`, from any process)
// ends its sessions on the next request. Expiry is wall time, not the platform clock: moving the world's clock
// (admin API) must not log the operator out or keep a session alive.
//
// The table belongs to the console (its own migrations), outside every world: saving, loading
// or resetting a world never touches who is logged in.
import type { Kysely } from 'kysely';
import { migrate, type Db, type Migrations } from '../platform/db.js';
import { randomBase62, uuid } from '../platform/ids.js';
import { hashKey, type Keys } from '../platform/keys.js';
import { ADMIN_KEYS } from './admin-keys.js';

const consoleMigrations: Migrations = {
  '001_sessions': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('console_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('admin_key_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('console_sessions_expiry').on('console_sessions').columns(['expires_at']).execute();
    },
  },
};

/** What a session id looks like; anything else in the cookie is no session (never an error). */
const SESSION_ID = /^[A-Za-z0-9]{32}$/;

export interface Session {
  id: string;
  adminKeyId: string;
  expiresAt: string;
}

export class Sessions {
  private constructor(
    private readonly db: Db,
    private readonly keys: Keys,
    readonly ttlMs: number,
  ) {}

  static async open(db: Db, keys: Keys, ttlMs: number): Promise<Sessions> {
    await migrate(db, 'console', consoleMigrations);
    return new Sessions(db, keys, ttlMs);
  }

  /** Opens a session for an admin key; returns the id for the cookie (never stored). */
  async create(adminKeyId: string): Promise<string> {
    const secret = randomBase62(32);
    const now = Date.now();
    // Expired sessions go as new ones come (logins are throttled, so this stays small).
    await this.db.kysely.deleteFrom('console_sessions').where('expires_at', '<', new Date(now).toISOString()).execute();
    await this.db.kysely
      .insertInto('console_sessions')
      .values({
        id: uuid(),
        hash: hashKey(secret),
        admin_key_id: adminKeyId,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + this.ttlMs).toISOString(),
        revoked_at: null,
      })
      .execute();
    return secret;
  }

  /** The live session of a cookie value: known, not revoked, not expired, its admin key live. */
  async find(secret: string | undefined): Promise<Session | undefined> {
    if (!secret || !SESSION_ID.test(secret)) return undefined;
    const row = await this.db.kysely
      .selectFrom('console_sessions')
      .select(['id', 'admin_key_id', 'expires_at'])
      .where('hash', '=', hashKey(secret))
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date().toISOString())
      .executeTakeFirst();
    if (!row || !(await this.keys.isLive(ADMIN_KEYS, row.admin_key_id))) return undefined;
    return { id: row.id, adminKeyId: row.admin_key_id, expiresAt: row.expires_at };
  }

  /** Ends a session (logout). */
  async revoke(id: string): Promise<void> {
    await this.db.kysely
      .updateTable('console_sessions')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }
}
