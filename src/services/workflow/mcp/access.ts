// Access to the instance-level MCP server, as n8n 2.8.4 has it: off until enabled (n8n's
// `PATCH /rest/mcp/settings {mcpAccessEnabled}`), and one MCP API key for the owner, a JWT with
// n8n's claims (sub: the owner, iss "n8n", aud "mcp-server-api", a jti), shown in full once when
// made (`GET /rest/mcp/api-key` the first time, `POST /rest/mcp/api-key/rotate`) and redacted
// to its last four characters after. Only its SHA-256 is stored; a bearer token is checked by
// looking its digest up, so a key made here is as strong as its 256-bit random signature.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../../platform/clock.js';
import { hashKey } from '../../../platform/keys.js';
import type { McpAccessStore } from '../store/mcp-access.js';

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
  constructor(
    private readonly store: McpAccessStore,
    private readonly clock: Clock,
  ) {}

  async enabled(): Promise<boolean> {
    return (await this.store.row())?.enabled === 1;
  }

  async setEnabled(enabled: boolean): Promise<void> {
    const now = this.clock.now().toISOString();
    await this.store.ensureRow(now);
    await this.store.update({ enabled: enabled ? 1 : 0, updated_at: now });
  }

  /** The key: made (and shown whole) when there is none, else redacted (n8n's getOrCreateApiKey). */
  async getOrCreate(ownerId: string): Promise<McpApiKeyJson> {
    const row = await this.store.ensureRow(this.clock.now().toISOString());
    if (row.token_hash && row.key_id && row.token_tail && row.key_created_at)
      return this.json(ownerId, row.key_id, redact(row.token_tail), row.key_created_at, row.updated_at);
    return this.rotate(ownerId);
  }

  /** A new key replaces the old one, which stops working at once. */
  async rotate(ownerId: string): Promise<McpApiKeyJson> {
    const now = this.clock.now();
    const at = now.toISOString();
    await this.store.ensureRow(at);
    const token = this.mint(ownerId, now);
    const keyId = randomUUID();
    await this.store.update({
      key_id: keyId,
      token_hash: hashKey(token),
      token_tail: token.slice(-4),
      key_created_at: at,
      updated_at: at,
    });
    return this.json(ownerId, keyId, token, at, at);
  }

  /** Whether a bearer token is the current key. */
  async verify(token: string): Promise<boolean> {
    if (!token || token.length > 4096) return false;
    return this.store.hasHash(hashKey(token));
  }

  /** A JWT with n8n's MCP key claims; its HS256 signature is keyed by 32 random bytes used once. */
  private mint(ownerId: string, now: Date): string {
    const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const payload = b64url(
      JSON.stringify({
        sub: ownerId,
        iss: 'n8n',
        aud: AUDIENCE,
        jti: randomUUID(),
        iat: Math.floor(now.getTime() / 1000),
      }),
    );
    const signature = createHmac('sha256', randomBytes(32)).update(`${header}.${payload}`).digest('base64url');
    return `${header}.${payload}.${signature}`;
  }

  private json(ownerId: string, id: string, apiKey: string, createdAt: string, updatedAt: string): McpApiKeyJson {
    return { id, userId: ownerId, label: LABEL, apiKey, audience: AUDIENCE, scopes: [], createdAt, updatedAt };
  }
}
