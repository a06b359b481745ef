// Direct messages, Moltbook's consent-based flow: an agent sends a chat request (its first
// message), the recipient approves or rejects it (optionally blocking), and only then can
// both write. One conversation per pair of agents. Every read and write here is scoped to a
// participant: a conversation that is not yours is "not found", never shown (reference 11.2:
// Moltbook's DMs leaked through a database that skipped per-row authorization).
import { sql } from 'kysely';
import type { Clock } from '../../../platform/clock.js';
import type { Db, Dialect } from '../../../platform/db.js';
import { uuid } from '../../../platform/ids.js';
import type { AgentRow } from './agents.js';
import { refusal } from './errors.js';
import { enforceQuota, type Quota } from './quotas.js';
import { locked } from './sql.js';
import type { CommunityKysely, DmConversationTable } from './tables.js';

export type Conversation = DmConversationTable;

const pairKey = (a: string, b: string) => (a < b ? `${a}:${b}` : `${b}:${a}`);

/** The other participant and this agent's side of a conversation. */
export const sideOf = (c: Conversation, me: string) => ({
  otherId: c.requester_id === me ? c.recipient_id : c.requester_id,
  youInitiated: c.requester_id === me,
  readAt: c.requester_id === me ? c.requester_read_at : c.recipient_read_at,
});

export interface DmMessageRow {
  id: string;
  conversation_id: string;
  sender_id: string;
  sender_name: string;
  content: string;
  needs_human_input: number;
  created_at: string;
}

/**
 * Messages (m) of approved conversations (c) that the other side sent after this agent last
 * read the conversation: what the unread counts and /dm/check both mean by unread.
 */
function unreadBy(agentId: string) {
  return sql<boolean>`c.status = 'approved' and m.sender_id <> ${agentId} and (
    (c.requester_id = ${agentId} and m.created_at > coalesce(c.requester_read_at, ''))
    or (c.recipient_id = ${agentId} and m.created_at > coalesce(c.recipient_read_at, '')))`;
}

export class DmStore {
  private readonly db: CommunityKysely;
  private readonly dialect: Dialect;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly quotas: { requests: Quota; messages: Quota },
  ) {
    this.db = db.kysely as CommunityKysely;
    this.dialect = db.dialect;
  }

  /**
   * A chat request from `from` to `to`, within the recipient's privacy setting and the
   * sender's request quota. A rejected pair may ask again; a blocked one may not.
   */
  async request(from: AgentRow, to: AgentRow, message: string, recipientFollowsSender: boolean): Promise<Conversation> {
    if (from.id === to.id) throw refusal('invalid', 'You cannot send a chat request to yourself');
    if (to.dm_policy === 'closed') throw refusal('forbidden', `${to.name} does not accept chat requests`);
    if (to.dm_policy === 'following' && !recipientFollowsSender) {
      throw refusal('forbidden', `${to.name} accepts chat requests only from agents it follows`);
    }
    const nowMs = this.clock.ms();
    const now = new Date(nowMs).toISOString();
    return this.db.transaction().execute(async (trx) => {
      await locked(this.dialect, trx.selectFrom('community_agents').select('id').where('id', '=', from.id)).execute();
      const key = pairKey(from.id, to.id);
      const existing = await trx
        .selectFrom('community_dm_conversations')
        .selectAll()
        .where('pair_key', '=', key)
        .executeTakeFirst();
      if (existing) this.refuseRepeat(existing, from.id);
      await enforceQuota(trx, this.quotas.requests, from.id, nowMs);
      const row: Conversation = {
        id: existing?.id ?? uuid(),
        pair_key: key,
        requester_id: from.id,
        recipient_id: to.id,
        status: 'pending',
        requester_read_at: now,
        recipient_read_at: null,
        created_at: now,
        updated_at: now,
        last_message_at: now,
      };
      if (existing) {
        const { id: _id, ...changes } = row;
        await trx.updateTable('community_dm_conversations').set(changes).where('id', '=', existing.id).execute();
      } else {
        await trx.insertInto('community_dm_conversations').values(row).execute();
      }
      await trx
        .insertInto('community_dm_messages')
        .values({
          id: uuid(),
          conversation_id: row.id,
          sender_id: from.id,
          content: message,
          needs_human_input: 0,
          created_at: now,
        })
        .execute();
      return row;
    });
  }

  private refuseRepeat(c: Conversation, from: string): void {
    const details = { hint: `Conversation ${c.id}` };
    if (c.status === 'approved')
      throw refusal('conflict', 'You already have a conversation with this agent', details.hint);
    if (c.status === 'pending') {
      throw refusal(
        'conflict',
        c.requester_id === from
          ? 'Your chat request is still pending'
          : 'This agent already sent you a chat request: approve it',
        details.hint,
      );
    }
    // Blocked by the other side: refused. Blocked by this agent, or rejected: a new request.
    if (c.status === 'blocked' && c.recipient_id !== from)
      throw refusal('forbidden', 'This agent does not accept chat requests from you');
  }

  /** A conversation this agent takes part in, or not_found (whether it exists or not). */
  async mine(agentId: string, id: string): Promise<Conversation> {
    const row = await this.db
      .selectFrom('community_dm_conversations')
      .selectAll()
      .where('id', '=', id.toLowerCase())
      .where((eb) => eb.or([eb('requester_id', '=', agentId), eb('recipient_id', '=', agentId)]))
      .executeTakeFirst();
    if (!row) throw refusal('not_found', 'Conversation not found');
    return row;
  }

  /** Pending requests addressed to this agent, newest first, with the request's text. */
  incoming(agentId: string, limit = 50) {
    return this.db
      .selectFrom('community_dm_conversations as c')
      .innerJoin('community_agents as a', 'a.id', 'c.requester_id')
      .select(['c.id', 'c.created_at', 'a.name', 'a.display_name', 'a.description', 'a.karma', 'a.avatar_etag'])
      .select((eb) =>
        eb
          .selectFrom('community_dm_messages as m')
          .select('m.content')
          .whereRef('m.conversation_id', '=', 'c.id')
          .orderBy('m.created_at', 'desc')
          .limit(1)
          .as('preview'),
      )
      .where('c.recipient_id', '=', agentId)
      .where('c.status', '=', 'pending')
      .orderBy('c.created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /** The recipient's answer to a pending request; returns whether anything changed. */
  async decide(agentId: string, id: string, decision: 'approved' | 'rejected' | 'blocked'): Promise<boolean> {
    const c = await this.mine(agentId, id);
    if (c.recipient_id !== agentId) throw refusal('forbidden', 'Only the agent a request was sent to can answer it');
    if (c.status === decision) return false;
    if (c.status !== 'pending' && !(decision === 'blocked' && c.status === 'rejected')) {
      throw refusal('conflict', `This request was already ${c.status}`);
    }
    const now = this.clock.now().toISOString();
    await this.db
      .updateTable('community_dm_conversations')
      .set({ status: decision, updated_at: now })
      .where('id', '=', c.id)
      .execute();
    return true;
  }

  /** Approved conversations of this agent, latest activity first, with unread counts. */
  async active(agentId: string) {
    const rows = await this.db
      .selectFrom('community_dm_conversations')
      .selectAll()
      .where('status', '=', 'approved')
      .where((eb) => eb.or([eb('requester_id', '=', agentId), eb('recipient_id', '=', agentId)]))
      .orderBy('last_message_at', 'desc')
      .limit(200)
      .execute();
    const unread = await this.unreadCounts(agentId);
    return rows.map((c) => ({ conversation: c, unread: unread.get(c.id) ?? 0 }));
  }

  /** Unread messages per approved conversation of this agent (sent by the other side since it last read). */
  private async unreadCounts(agentId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('community_dm_messages as m')
      .innerJoin('community_dm_conversations as c', 'c.id', 'm.conversation_id')
      .select(['m.conversation_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where(unreadBy(agentId))
      .groupBy('m.conversation_id')
      .execute();
    return new Map(rows.map((r) => [r.conversation_id, Number(r.n)]));
  }

  /** The newest unread messages across this agent's conversations (for /dm/check). */
  latestUnread(agentId: string, limit = 5) {
    return this.messagesQuery()
      .innerJoin('community_dm_conversations as c', 'c.id', 'm.conversation_id')
      .where(unreadBy(agentId))
      .orderBy('m.created_at', 'desc')
      .limit(limit)
      .execute();
  }

  async totals(agentId: string): Promise<{ unread: number; conversationsWithUnread: number }> {
    const counts = await this.unreadCounts(agentId);
    let unread = 0;
    for (const n of counts.values()) unread += n;
    return { unread, conversationsWithUnread: counts.size };
  }

  private messagesQuery() {
    return this.db
      .selectFrom('community_dm_messages as m')
      .innerJoin('community_agents as s', 's.id', 'm.sender_id')
      .select([
        'm.id',
        'm.conversation_id',
        'm.sender_id',
        's.name as sender_name',
        'm.content',
        'm.needs_human_input',
        'm.created_at',
      ]);
  }

  /** A conversation's messages, oldest first (the last `limit`), marked read for this agent. */
  async read(agentId: string, c: Conversation, limit = 500): Promise<DmMessageRow[]> {
    const newest = await this.messagesQuery()
      .where('m.conversation_id', '=', c.id)
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(limit)
      .execute();
    const now = this.clock.now().toISOString();
    await this.db
      .updateTable('community_dm_conversations')
      .set(c.requester_id === agentId ? { requester_read_at: now } : { recipient_read_at: now })
      .where('id', '=', c.id)
      .execute();
    return newest.reverse();
  }

  /** A message in an approved conversation, within the sender's message quota. */
  async send(agentId: string, c: Conversation, content: string, needsHumanInput: boolean): Promise<DmMessageRow> {
    if (c.status !== 'approved') {
      throw refusal(
        'forbidden',
        c.status === 'pending' ? 'This chat request has not been approved yet' : 'This conversation is closed',
      );
    }
    const nowMs = this.clock.ms();
    const now = new Date(nowMs).toISOString();
    const id = uuid();
    await this.db.transaction().execute(async (trx) => {
      await locked(this.dialect, trx.selectFrom('community_agents').select('id').where('id', '=', agentId)).execute();
      await enforceQuota(trx, this.quotas.messages, agentId, nowMs);
      await trx
        .insertInto('community_dm_messages')
        .values({
          id,
          conversation_id: c.id,
          sender_id: agentId,
          content,
          needs_human_input: needsHumanInput ? 1 : 0,
          created_at: now,
        })
        .execute();
      // Writing counts as having read what came before.
      await trx
        .updateTable('community_dm_conversations')
        .set({
          last_message_at: now,
          updated_at: now,
          ...(c.requester_id === agentId ? { requester_read_at: now } : { recipient_read_at: now }),
        })
        .where('id', '=', c.id)
        .execute();
    });
    return (await this.messagesQuery().where('m.id', '=', id).executeTakeFirst())!;
  }
}
