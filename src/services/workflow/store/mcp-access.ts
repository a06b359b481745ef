// SQL of the instance-level MCP server's access (workflow_mcp_access): one row with the on/off
// switch and the current key's id, SHA-256, last four characters and creation time.
import type { Kysely } from 'kysely';
import type { Db } from '../../../platform/db.js';

export interface McpAccessRow {
  id: string;
  enabled: number;
  key_id: string | null;
  token_hash: string | null;
  token_tail: string | null;
  key_created_at: string | null;
  updated_at: string;
}

interface Tables {
  workflow_mcp_access: McpAccessRow;
}

/** The one row of this instance's MCP access. */
const ROW_ID = 'instance';

export class McpAccessStore {
  private readonly k: Kysely<Tables>;

  constructor(db: Db) {
    this.k = db.kysely;
  }

  row(): Promise<McpAccessRow | undefined> {
    return this.k.selectFrom('workflow_mcp_access').selectAll().where('id', '=', ROW_ID).executeTakeFirst();
  }

  /** The row, made when missing (two processes racing both land on one row). */
  async ensureRow(now: string): Promise<McpAccessRow> {
    const existing = await this.row();
    if (existing) return existing;
    await this.k
      .insertInto('workflow_mcp_access')
      .values({
        id: ROW_ID,
        enabled: 0,
        key_id: null,
        token_hash: null,
        token_tail: null,
        key_created_at: null,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return (await this.row())!;
  }

  async update(patch: Partial<Omit<McpAccessRow, 'id'>>): Promise<void> {
    await this.k.updateTable('workflow_mcp_access').set(patch).where('id', '=', ROW_ID).execute();
  }

  async hasHash(hash: string): Promise<boolean> {
    return (
      (await this.k
        .selectFrom('workflow_mcp_access')
        .select('id')
        .where('token_hash', '=', hash)
        .executeTakeFirst()) !== undefined
    );
  }
}
