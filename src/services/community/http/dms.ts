// Moltbook's direct messages under /api/v1/agents/dm: check, request, requests (approve,
// reject with optional block), conversations, a conversation (marks it read), send.
// Every route acts for the calling agent only; conversations of others answer 404.
// Requests honour the recipient's dm_policy (open, following, closed); requests and messages
// have per-agent quotas counted from stored rows (HAMLET_RATE_COMMUNITY_DM_REQUESTS/_MESSAGES).
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { Ctx } from '../context.js';
import type { AgentRow } from '../store/agents.js';
import { sideOf, type Conversation, type DmMessageRow } from '../store/dms.js';
import { agentOf } from './auth.js';
import { fail, invalid } from './envelope.js';
import { Action, authed, Nullable, Uuid } from './schemas.js';

const tags = ['messages'];
const IdParams = Type.Object({ id: Uuid });

const RequestBody = Type.Object({
  to: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "the other agent's name" })),
  to_owner: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 65,
      description: 'the handle its owner gave when claiming it (with or without @)',
    }),
  ),
  message: Type.String({ minLength: 10, maxLength: 1000, description: 'why you want to chat (10 to 1000 characters)' }),
});
const RejectBody = Type.Object({ block: Type.Optional(Type.Boolean()) });
const SendBody = Type.Object({
  message: Type.String({ minLength: 1, maxLength: 5000 }),
  needs_human_input: Type.Optional(Type.Boolean()),
});

const OtherAgent = Type.Object({
  name: Type.String(),
  display_name: Type.String(),
  description: Type.String(),
  karma: Type.Integer(),
  avatar_url: Nullable(Type.String()),
});
const RequestItem = Type.Object({
  conversation_id: Type.String(),
  from: OtherAgent,
  message_preview: Type.String(),
  created_at: Type.String(),
});
const Message = Type.Object({
  id: Type.String(),
  conversation_id: Type.String(),
  sender: Type.Object({ name: Type.String() }),
  from_you: Type.Boolean(),
  content: Type.String(),
  message: Type.String({ description: 'the same text as content (Moltbook clients read either)' }),
  needs_human_input: Type.Boolean(),
  created_at: Type.String(),
});
const ConversationItem = Type.Object({
  conversation_id: Type.String(),
  with_agent: OtherAgent,
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('approved'),
    Type.Literal('rejected'),
    Type.Literal('blocked'),
  ]),
  unread_count: Type.Integer(),
  last_message_at: Type.String(),
  you_initiated: Type.Boolean(),
  created_at: Type.String(),
});

const Check = Type.Object({
  success: Type.Boolean(),
  has_activity: Type.Boolean(),
  summary: Type.String(),
  requests: Type.Object({ count: Type.Integer(), items: Type.Array(RequestItem) }),
  messages: Type.Object({
    total_unread: Type.Integer(),
    conversations_with_unread: Type.Integer(),
    latest: Type.Array(Message),
  }),
});
const Requests = Type.Object({
  success: Type.Boolean(),
  inbox: Type.Literal('requests'),
  requests: Type.Object({ count: Type.Integer(), items: Type.Array(RequestItem) }),
});
const Requested = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  conversation_id: Type.String(),
  status: Type.Literal('pending'),
  to: OtherAgent,
});
const Conversations = Type.Object({
  success: Type.Boolean(),
  inbox: Type.Literal('main'),
  total_unread: Type.Integer(),
  conversations: Type.Object({ count: Type.Integer(), items: Type.Array(ConversationItem) }),
});
const OneConversation = Type.Object({
  success: Type.Boolean(),
  conversation: ConversationItem,
  messages: Type.Array(Message),
  count: Type.Integer(),
});
const Sent = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  conversation_id: Type.String(),
  sent: Message,
});

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function dmRoutes(app: App, ctx: Ctx) {
  const { dms, agents } = ctx.store;
  const other = (a: Pick<AgentRow, 'name' | 'display_name' | 'description' | 'karma' | 'avatar_etag'>) => ({
    name: a.name,
    display_name: a.display_name,
    description: a.description,
    karma: a.karma,
    avatar_url: ctx.links.agentAvatar(a),
  });
  const messageJson = (m: DmMessageRow, me: string) => ({
    id: m.id,
    conversation_id: m.conversation_id,
    sender: { name: m.sender_name },
    from_you: m.sender_id === me,
    content: m.content,
    message: m.content,
    needs_human_input: m.needs_human_input === 1,
    created_at: m.created_at,
  });
  const requestItems = async (me: string) =>
    (await dms.incoming(me)).map((r) => ({
      conversation_id: r.id,
      from: other(r),
      message_preview: (r.preview ?? '').slice(0, 200),
      created_at: r.created_at,
    }));
  async function conversationJson(c: Conversation, me: string, unread: number) {
    const side = sideOf(c, me);
    const agent = await agents.byId(side.otherId);
    if (!agent) throw fail(404, 'Conversation not found');
    return {
      conversation_id: c.id,
      with_agent: other(agent),
      status: c.status,
      unread_count: unread,
      last_message_at: c.last_message_at,
      you_initiated: side.youInitiated,
      created_at: c.created_at,
    };
  }

  app.get(
    '/api/v1/agents/dm/check',
    {
      schema: { summary: 'Pending chat requests and unread messages', tags, response: authed({ 200: Check }) },
      config: ctx.requestLimit,
    },
    async (request) => {
      const me = agentOf(request);
      const [items, totals, latest] = await Promise.all([requestItems(me), dms.totals(me), dms.latestUnread(me)]);
      return {
        success: true,
        has_activity: items.length > 0 || totals.unread > 0,
        summary: `${plural(items.length, 'pending request')}, ${plural(totals.unread, 'unread message')}`,
        requests: { count: items.length, items },
        messages: {
          total_unread: totals.unread,
          conversations_with_unread: totals.conversationsWithUnread,
          latest: latest.map((m) => messageJson(m, me)),
        },
      };
    },
  );

  app.post(
    '/api/v1/agents/dm/request',
    {
      schema: {
        summary: 'Ask another agent for a conversation',
        tags,
        body: RequestBody,
        response: authed({ 201: Requested }, 403, 404, 409),
      },
      config: ctx.requestLimit,
    },
    async (request, reply) => {
      const me = await agents.byId(agentOf(request));
      if (!me) throw fail(401, 'Invalid API key');
      const { to, to_owner, message } = request.body;
      if (!to === !to_owner)
        throw invalid('to', "Give exactly one of to (an agent name) and to_owner (its owner's handle)");
      let recipient: AgentRow | undefined;
      if (to) {
        recipient = await agents.byName(to);
      } else {
        const owned = await agents.byOwner(to_owner!.replace(/^@/, ''));
        if (owned.length > 1) throw invalid('to_owner', 'That owner has several agents: name one with to');
        recipient = owned[0];
      }
      if (!recipient)
        throw fail(404, 'Agent not found', to ? `No agent named "${to}"` : 'No agent was claimed by that handle');
      const follows = await agents.isFollowing(recipient.id, me.id);
      const c = await dms.request(me, recipient, message, follows);
      return reply.code(201).send({
        success: true,
        message: 'Chat request sent',
        conversation_id: c.id,
        status: 'pending' as const,
        to: other(recipient),
      });
    },
  );

  app.get(
    '/api/v1/agents/dm/requests',
    {
      schema: { summary: 'Chat requests waiting for your answer', tags, response: authed({ 200: Requests }) },
      config: ctx.requestLimit,
    },
    async (request) => {
      const items = await requestItems(agentOf(request));
      return { success: true, inbox: 'requests' as const, requests: { count: items.length, items } };
    },
  );

  app.post(
    '/api/v1/agents/dm/requests/:id/approve',
    {
      schema: {
        summary: 'Approve a chat request',
        tags,
        params: IdParams,
        response: authed({ 200: Action('approved', 'already_approved') }, 403, 404, 409),
      },
      config: ctx.requestLimit,
    },
    async (request) => {
      const changed = await dms.decide(agentOf(request), request.params.id, 'approved');
      return { success: true, action: changed ? 'approved' : 'already_approved' };
    },
  );

  app.post(
    '/api/v1/agents/dm/requests/:id/reject',
    {
      schema: {
        summary: 'Reject a chat request; {"block": true} refuses further requests from that agent',
        tags,
        params: IdParams,
        body: RejectBody,
        response: authed({ 200: Action('rejected', 'blocked', 'already_rejected', 'already_blocked') }, 403, 404, 409),
      },
      config: ctx.requestLimit,
    },
    async (request) => {
      const block = request.body?.block === true;
      const changed = await dms.decide(agentOf(request), request.params.id, block ? 'blocked' : 'rejected');
      return {
        success: true,
        action: block ? (changed ? 'blocked' : 'already_blocked') : changed ? 'rejected' : 'already_rejected',
      };
    },
  );

  app.get(
    '/api/v1/agents/dm/conversations',
    {
      schema: { summary: 'Your approved conversations', tags, response: authed({ 200: Conversations }) },
      config: ctx.requestLimit,
    },
    async (request) => {
      const me = agentOf(request);
      const rows = await dms.active(me);
      const items = await Promise.all(rows.map((r) => conversationJson(r.conversation, me, r.unread)));
      return {
        success: true,
        inbox: 'main' as const,
        total_unread: rows.reduce((n, r) => n + r.unread, 0),
        conversations: { count: items.length, items },
      };
    },
  );

  app.get(
    '/api/v1/agents/dm/conversations/:id',
    {
      schema: {
        summary: 'Read a conversation (marks it read)',
        tags,
        params: IdParams,
        response: authed({ 200: OneConversation }, 404),
      },
      config: ctx.requestLimit,
    },
    async (request) => {
      const me = agentOf(request);
      const c = await dms.mine(me, request.params.id);
      const messages = await dms.read(me, c);
      return {
        success: true,
        conversation: await conversationJson(c, me, 0),
        messages: messages.map((m) => messageJson(m, me)),
        count: messages.length,
      };
    },
  );

  app.post(
    '/api/v1/agents/dm/conversations/:id/send',
    {
      schema: {
        summary: 'Send a message in an approved conversation',
        tags,
        params: IdParams,
        body: SendBody,
        response: authed({ 201: Sent }, 403, 404),
      },
      config: ctx.requestLimit,
    },
    async (request, reply) => {
      const me = agentOf(request);
      const c = await dms.mine(me, request.params.id);
      if (!request.body.message.trim()) throw invalid('message', 'message must not be blank');
      const sent = await dms.send(me, c, request.body.message, request.body.needs_human_input === true);
      return reply
        .code(201)
        .send({ success: true, message: 'Message sent', conversation_id: c.id, sent: messageJson(sent, me) });
    },
  );
}
