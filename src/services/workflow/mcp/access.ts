// Access to the instance-level MCP server, as n8n 2.8.4 has it: off until enabled (n8n's
// `PATCH /rest/mcp/settings {mcpAccessEnabled}`), and one MCP API key for the owner, a JWT with
// n8n's claims (sub: the owner, iss "n8n", aud "mcp-server-api", a jti), shown in full once when
// made (`GET /rest/mcp/api-key` the first time, `POST /rest/mcp/api-key/rotate`) and redacted
// to its last four characters after. Only its SHA-256 is stored; a bearer token is checked by
// looking its digest up, so a key made here is as strong as its 256-bit random signature.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../../platform/clock.js';
import type { Db } from '../../../platform/db.js';
import { hashKey } from '../../../platform/keys.js';

interface AccessRow {
  id: string;
  enabled: number;
  key_id: string | null;
  token_hash: string | null;
  token_tail: string | null;
  key_created_at: string | null;
  updated_at: string;
}

interface Tables {
  workflow_mcp_access: AccessRow;
}

/** The one row of this instance's MCP access. */
const ROW_ID = 'instance';
const AUDIENCE = 'mcp-server-api';
const LABEL = 'MCP Server API Key';

/** n8n's ApiKey record as its REST API answers for the MCP key. */
export interface McpApiKeyJson {
  id: string;
  userId: string;
  label: string;
  apiKey: string;
  audience: string;
  scopes: string[];
  createdAt: string;
  updatedAt: string;
}

const b64url = (v: Buffer | string) => Buffer.from(v).toString('base64url');

/** n8n's redaction: ten characters, the last four of the key visible. */
const redact = (tail: string) => '******' + tail;

export class McpAccess {
  private readonly k: Kysely<Tables>;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.k = db.kysely as unknown as Kysely<Tables>;
  }

  private async row(): Promise<AccessRow | undefined> {
    return this.k.selectFrom('workflow_mcp_access').selectAll().where('id', '=', ROW_ID).executeTakeFirst();
  }

  /** Makes the row when it is missing (two processes racing both land on one row). */
  private async ensureRow(): Promise<AccessRow> {
    const now = this.clock.now().toISOString();
    const existing = await this.row();
    if (existing) return existing;
    await this.k.insertInto('workflow_mcp_access').values({ id: ROW_ID, enabled: 0, key_id: null, token_hash: null, token_tail: null, key_created_at: null, updated_at: now }).onConflict((oc) => oc.column('id').doNothing()).execute();
    return (await this.row())!;
  }

  async enabled(): Promise<boolean> {
    return (await this.row())?.enabled === 1;
  }

  async setEnabled(enabled: boolean): Promise<void> {
    await this.ensureRow();
    await this.k.updateTable('workflow_mcp_access').set({ enabled: enabled ? 1 : 0, updated_at: this.clock.now().toISOString() }).where('id', '=', ROW_ID).execute();
  }

  /** The key: made (and shown whole) when there is none, else redacted (n8n's getOrCreateApiKey). */
  async getOrCreate(ownerId: string): Promise<McpApiKeyJson> {
    const row = await this.ensureRow();
    if (row.token_hash && row.key_id && row.token_tail && row.key_created_at) return this.json(ownerId, row.key_id, redact(row.token_tail), row.key_created_at, row.updated_at);
    return this.rotate(ownerId);
  }

  /** A new key replaces the old one, which stops working at once. */
  async rotate(ownerId: string): Promise<McpApiKeyJson> {
    await this.ensureRow();
    const now = this.clock.now();
    const token = this.mint(ownerId, now);
    const keyId = randomUUID();
    const at = now.toISOString();
    await this.k
      .updateTable('workflow_mcp_access')
      .set({ key_id: keyId, token_hash: hashKey(token), token_tail: token.slice(-4), key_created_at: at, updated_at: at })
      .where('id', '=', ROW_ID)
      .execute();
    return this.json(ownerId, keyId, token, at, at);
  }

  /** Whether a bearer token is the current key. */
  async verify(token: string): Promise<boolean> {
    if (!token || token.length > 4096) return false;
    const r = await this.k.selectFrom('workflow_mcp_access').select('id').where('token_hash', '=', hashKey(token)).executeTakeFirst();
    return r !== undefined;
  }

  /** A JWT with n8n's MCP key claims; its HS256 signature is keyed by 32 random bytes used once. */
  private mint(ownerId: string, now: Date): string {
    const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const payload = b64url(JSON.stringify({ sub: ownerId, iss: 'n8n', aud: AUDIENCE, jti: randomUUID(), iat: Math.floor(now.getTime() / 1000) }));
    const signature = createHmac('sha256', randomBytes(32)).update(`${header}.${payload}`).digest('base64url');
    return `${header}.${payload}.${signature}`;
  }

  private json(ownerId: string, id: string, apiKey: string, createdAt: string, updatedAt: string): McpApiKeyJson {
    return { id, userId: ownerId, label: LABEL, apiKey, audience: AUDIENCE, scopes: [], createdAt, updatedAt };
  }
}
