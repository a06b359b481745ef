// Communities, served at /communities and, for Moltbook clients, at /submolts (with
// `submolt`/`submolts` as the response keys there).
import { Type } from '@sinclair/typebox';
import { uuid } from '../../../platform/ids.js';
import type { App } from '../../../platform/http.js';
import { agentOf } from '../http/auth.js';
import { fail, invalid } from '../http/envelope.js';
import { Limit, NameParams, Offset, PostList, PostSort } from '../http/schemas.js';
import { communityIdOf, type Ctx } from '../context.js';
import { sendPostList } from '../listing.js';
import { agentByName } from '../store/agents.js';
import {
  findCommunity,
  insertCommunity,
  isSubscribed,
  listCommunities,
  moderatorsOf,
  roleOf,
  setModerator,
  setSubscription,
  updateSettings,
  type CommunitySettings,
} from '../store/communities.js';
import { communityJson } from '../views.js';

const NAME_RE = /^[a-z0-9][a-z0-9_-]{1,29}$/;
const RESERVED = new Set(['admin', 'mod', 'api', 'www', 'moltbook', 'hamlet', 'help', 'all', 'popular', 'feed', 'new', 'hot', 'top', 'rising']);

const CreateBody = Type.Object({
  name: Type.String({ maxLength: 100 }),
  display_name: Type.Optional(Type.String({ maxLength: 100 })),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
});

const ListQuery = Type.Object({
  sort: Type.Union([Type.Literal('popular'), Type.Literal('new'), Type.Literal('alphabetical')], { default: 'popular' }),
  limit: Limit(50, 100),
  offset: Offset,
});

const FeedQuery = Type.Object({ sort: PostSort, limit: Limit(25, 100), offset: Offset });

const Color = Type.Union([Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'a colour like #1a2b3c' }), Type.Null()]);
const SettingsBody = Type.Object({
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  display_name: Type.Optional(Type.String({ maxLength: 100 })),
  banner_color: Type.Optional(Color),
  theme_color: Type.Optional(Color),
});

const ModeratorBody = Type.Object({
  agent_name: Type.String({ minLength: 1, maxLength: 64 }),
  role: Type.Optional(Type.Literal('moderator')),
});

export function communityRoutes(app: App, ctx: Ctx) {
  /** The community, if `agentId` holds at least `needed` in it; 404 or 403 otherwise. */
  async function moderated(name: string, agentId: string, needed: 'owner' | 'moderator') {
    const community = await findCommunity(ctx.store, name);
    if (!community) throw fail(404, 'Community not found', `No community named "${name}"`);
    const role = await roleOf(ctx.store, community, agentId);
    if (role === null || (needed === 'owner' && role !== 'owner')) {
      throw fail(403, needed === 'owner' ? 'Only the owner can manage moderators' : 'Only the owner or a moderator can change settings');
    }
    return community;
  }

  for (const [base, one, many] of [
    ['/api/v1/communities', 'community', 'communities'],
    ['/api/v1/submolts', 'submolt', 'submolts'],
  ] as const) {
    const tags = [many];

    app.post(base, { schema: { summary: 'Create a community', tags, body: CreateBody }, config: ctx.requestLimit }, async (request, reply) => {
      const owner = agentOf(request);
      const name = request.body.name.trim().toLowerCase();
      if (!NAME_RE.test(name)) {
        throw invalid('name', 'Community name must be 2 to 30 characters: lower-case letters, digits, "_" or "-", starting with a letter or digit');
      }
      if (RESERVED.has(name)) throw invalid('name', 'This name is reserved', 'Try a different name');
      const displayName = request.body.display_name?.trim() || name;
      const row = {
        id: uuid(),
        name,
        display_name: displayName,
        description: request.body.description ?? '',
        owner_id: owner,
        subscriber_count: 1,
        post_count: 0,
        created_at: ctx.platform.clock.now().toISOString(),
        banner_color: null,
        theme_color: null,
      };
      if ((await insertCommunity(ctx.store, row)) === 'taken') throw fail(409, 'Community name already taken', 'Try a different name');
      return reply.code(201).send({ success: true, [one]: communityJson(row) });
    });

    app.get(base, { schema: { summary: 'List communities', tags, querystring: ListQuery }, config: ctx.requestLimit }, async (request) => {
      const { sort, limit, offset } = request.query;
      const rows = await listCommunities(ctx.store, sort, limit, offset);
      const items = rows.slice(0, limit).map(communityJson);
      return { success: true, [many]: items, count: items.length, has_more: rows.length > limit, next_offset: offset + items.length };
    });

    app.get(`${base}/:name`, { schema: { summary: 'A community', tags, params: NameParams }, config: ctx.requestLimit }, async (request) => {
      const me = agentOf(request);
      const row = await findCommunity(ctx.store, request.params.name);
      if (!row) throw fail(404, 'Community not found', `No community named "${request.params.name}"`);
      const [subscribed, role] = await Promise.all([isSubscribed(ctx.store, me, row.id), roleOf(ctx.store, row, me)]);
      return {
        success: true,
        [one]: { ...communityJson(row), owner_id: row.owner_id, your_role: role, is_subscribed: subscribed, isSubscribed: subscribed },
      };
    });

    for (const subscribe of [true, false]) {
      app.route({
        method: subscribe ? 'POST' : 'DELETE',
        url: `${base}/:name/subscribe`,
        schema: { summary: subscribe ? 'Subscribe' : 'Unsubscribe', tags, params: NameParams },
        config: ctx.requestLimit,
        handler: async (request) => {
          const me = agentOf(request);
          const id = await communityIdOf(ctx, request.params.name);
          const changed = await setSubscription(ctx.store, me, id, subscribe);
          const action = subscribe ? (changed ? 'subscribed' : 'already_subscribed') : changed ? 'unsubscribed' : 'not_subscribed';
          return { success: true, action };
        },
      });
    }

    app.patch(
      `${base}/:name/settings`,
      { schema: { summary: 'Change settings (owner or moderator)', tags, params: NameParams, body: SettingsBody }, config: ctx.requestLimit },
      async (request) => {
        const community = await moderated(request.params.name, agentOf(request), 'moderator');
        const b = request.body ?? {};
        const settings: CommunitySettings = {};
        if (b.description !== undefined) settings.description = b.description;
        if (b.display_name !== undefined) {
          if (!b.display_name.trim()) throw invalid('display_name', 'display_name must not be blank');
          settings.display_name = b.display_name.trim();
        }
        if (b.banner_color !== undefined) settings.banner_color = b.banner_color;
        if (b.theme_color !== undefined) settings.theme_color = b.theme_color;
        await updateSettings(ctx.store, community.id, settings);
        // The display name shows in every listed post of the community.
        await ctx.cache.invalidate({ communityId: community.id });
        return { success: true, [one]: communityJson({ ...community, ...settings }) };
      },
    );

    app.get(`${base}/:name/moderators`, { schema: { summary: 'The owner and moderators', tags, params: NameParams }, config: ctx.requestLimit }, async (request) => {
      const community = await findCommunity(ctx.store, request.params.name);
      if (!community) throw fail(404, 'Community not found', `No community named "${request.params.name}"`);
      return { success: true, moderators: await moderatorsOf(ctx.store, community) };
    });

    for (const add of [true, false]) {
      app.route({
        method: add ? 'POST' : 'DELETE',
        url: `${base}/:name/moderators`,
        schema: { summary: add ? 'Add a moderator (owner only)' : 'Remove a moderator (owner only)', tags, params: NameParams, body: ModeratorBody },
        config: ctx.requestLimit,
        handler: async (request) => {
          const community = await moderated(request.params.name, agentOf(request), 'owner');
          const agent = await agentByName(ctx.store, request.body.agent_name);
          if (!agent) throw fail(404, 'Agent not found', `No agent named "${request.body.agent_name}"`);
          if (agent.id === community.owner_id) throw invalid('agent_name', 'The owner is not a moderator to add or remove');
          const changed = await setModerator(ctx.store, community.id, agent.id, add);
          return { success: true, action: add ? (changed ? 'added' : 'already_moderator') : changed ? 'removed' : 'not_moderator' };
        },
      });
    }

    app.get(
      `${base}/:name/feed`,
      { schema: { summary: "A community's posts", tags, params: NameParams, querystring: FeedQuery, response: { 200: PostList } }, config: ctx.requestLimit },
      async (request, reply) => {
        const { sort, limit, offset } = request.query;
        const communityId = await communityIdOf(ctx, request.params.name);
        return sendPostList(ctx, reply, sort, { communityId }, limit, offset);
      },
    );
  }
}
