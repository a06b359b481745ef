// Communities, served at /communities and, for Moltbook clients, at /submolts (with
// `submolt`/`submolts` as the response keys there).
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { Ctx } from '../context.js';
import type { CommunityChanges } from '../store/communities.js';
import { communityJson } from '../views/views.js';
import { agentOf } from './auth.js';
import { fail, invalid } from './envelope.js';
import { sendPostList } from './listing.js';
import { Action, authed, Community, Limit, NameParams, Nullable, Offset, PostList, PostSort } from './schemas.js';

const NAME_RE = /^[a-z0-9][a-z0-9_-]{1,29}$/;
const RESERVED = new Set([
  'admin',
  'mod',
  'api',
  'www',
  'moltbook',
  'hamlet',
  'help',
  'all',
  'popular',
  'feed',
  'new',
  'hot',
  'top',
  'rising',
]);

const CreateBody = Type.Object({
  name: Type.String({ maxLength: 100 }),
  display_name: Type.Optional(Type.String({ maxLength: 100 })),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
});

const ListQuery = Type.Object({
  sort: Type.Union([Type.Literal('popular'), Type.Literal('new'), Type.Literal('alphabetical')], {
    default: 'popular',
  }),
  limit: Limit(50, 100),
  offset: Offset,
});

const FeedQuery = Type.Object({ sort: PostSort, limit: Limit(25, 100), offset: Offset });

const Color = Type.Union([
  Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'a colour like #1a2b3c' }),
  Type.Null(),
]);
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

/** A community seen by the calling agent: its role and subscription. */
const CommunityForAgent = Type.Composite([
  Community,
  Type.Object({
    owner_id: Type.String(),
    your_role: Nullable(Type.Union([Type.Literal('owner'), Type.Literal('moderator')])),
    is_subscribed: Type.Boolean(),
    isSubscribed: Type.Boolean(),
  }),
]);

const Moderators = Type.Object({
  success: Type.Boolean(),
  moderators: Type.Array(
    Type.Object({ name: Type.String(), role: Type.Union([Type.Literal('owner'), Type.Literal('moderator')]) }),
  ),
});

export function communityRoutes(app: App, ctx: Ctx) {
  const { communities } = ctx.store;

  /** The community, if `agentId` holds at least `needed` in it; 404 or 403 otherwise. */
  async function moderated(name: string, agentId: string, needed: 'owner' | 'moderator') {
    const community = await communities.get(name);
    const role = await communities.roleOf(community, agentId);
    if (role === null || (needed === 'owner' && role !== 'owner')) {
      throw fail(
        403,
        needed === 'owner'
          ? 'Only the owner can manage moderators'
          : 'Only the owner or a moderator can change settings',
      );
    }
    return community;
  }

  for (const [base, one, many] of [
    ['/api/v1/communities', 'community', 'communities'],
    ['/api/v1/submolts', 'submolt', 'submolts'],
  ] as const) {
    const tags = [many];
    const One = <T extends typeof Community | typeof CommunityForAgent>(schema: T) =>
      Type.Object({ success: Type.Boolean(), [one]: schema });
    const Many = Type.Object({
      success: Type.Boolean(),
      [many]: Type.Array(Community),
      count: Type.Integer(),
      has_more: Type.Boolean(),
      next_offset: Type.Integer(),
    });

    app.post(
      base,
      {
        schema: {
          summary: 'Create a community',
          tags,
          body: CreateBody,
          response: authed({ 201: One(Community) }, 409),
        },
        config: ctx.requestLimit,
      },
      async (request, reply) => {
        const name = request.body.name.trim().toLowerCase();
        if (!NAME_RE.test(name)) {
          throw invalid(
            'name',
            'Community name must be 2 to 30 characters: lower-case letters, digits, "_" or "-", starting with a letter or digit',
          );
        }
        if (RESERVED.has(name)) throw invalid('name', 'This name is reserved', 'Try a different name');
        const row = await communities.create({
          name,
          display_name: request.body.display_name?.trim() || name,
          description: request.body.description ?? '',
          owner_id: agentOf(request),
        });
        return reply.code(201).send({ success: true, [one]: communityJson(row, ctx.links) });
      },
    );

    app.get(
      base,
      {
        schema: { summary: 'List communities', tags, querystring: ListQuery, response: authed({ 200: Many }) },
        config: ctx.requestLimit,
      },
      async (request) => {
        const { sort, limit, offset } = request.query;
        const rows = await communities.list(sort, limit, offset);
        const items = rows.slice(0, limit).map((r) => communityJson(r, ctx.links));
        return {
          success: true,
          [many]: items,
          count: items.length,
          has_more: rows.length > limit,
          next_offset: offset + items.length,
        };
      },
    );

    app.get(
      `${base}/:name`,
      {
        schema: {
          summary: 'A community',
          tags,
          params: NameParams,
          response: authed({ 200: One(CommunityForAgent) }, 404),
        },
        config: ctx.requestLimit,
      },
      async (request) => {
        const me = agentOf(request);
        const row = await communities.get(request.params.name);
        const [subscribed, role] = await Promise.all([
          communities.isSubscribed(me, row.id),
          communities.roleOf(row, me),
        ]);
        return {
          success: true,
          [one]: {
            ...communityJson(row, ctx.links),
            owner_id: row.owner_id,
            your_role: role,
            is_subscribed: subscribed,
            isSubscribed: subscribed,
          },
        };
      },
    );

    for (const subscribe of [true, false]) {
      app.route({
        method: subscribe ? 'POST' : 'DELETE',
        url: `${base}/:name/subscribe`,
        schema: {
          summary: subscribe ? 'Subscribe' : 'Unsubscribe',
          tags,
          params: NameParams,
          response: authed(
            { 200: subscribe ? Action('subscribed', 'already_subscribed') : Action('unsubscribed', 'not_subscribed') },
            404,
          ),
        },
        config: ctx.requestLimit,
        handler: async (request) => {
          const id = await communities.idOf(request.params.name);
          const changed = await communities.setSubscription(agentOf(request), id, subscribe);
          const action = subscribe
            ? changed
              ? 'subscribed'
              : 'already_subscribed'
            : changed
              ? 'unsubscribed'
              : 'not_subscribed';
          return { success: true, action };
        },
      });
    }

    app.patch(
      `${base}/:name/settings`,
      {
        schema: {
          summary: 'Change settings (owner or moderator)',
          tags,
          params: NameParams,
          body: SettingsBody,
          response: authed({ 200: One(Community) }, 403, 404),
        },
        config: ctx.requestLimit,
      },
      async (request) => {
        const community = await moderated(request.params.name, agentOf(request), 'moderator');
        const b = request.body ?? {};
        const changes: CommunityChanges = {};
        if (b.description !== undefined) changes.description = b.description;
        if (b.display_name !== undefined) {
          if (!b.display_name.trim()) throw invalid('display_name', 'display_name must not be blank');
          changes.display_name = b.display_name.trim();
        }
        if (b.banner_color !== undefined) changes.banner_color = b.banner_color;
        if (b.theme_color !== undefined) changes.theme_color = b.theme_color;
        await communities.update(community.id, changes);
        // The display name shows in every listed post of the community.
        await ctx.cache.invalidate({ communityId: community.id });
        return { success: true, [one]: communityJson({ ...community, ...changes }, ctx.links) };
      },
    );

    app.get(
      `${base}/:name/moderators`,
      {
        schema: {
          summary: 'The owner and moderators',
          tags,
          params: NameParams,
          response: authed({ 200: Moderators }, 404),
        },
        config: ctx.requestLimit,
      },
      async (request) => ({
        success: true,
        moderators: await communities.moderatorsOf(await communities.get(request.params.name)),
      }),
    );

    for (const add of [true, false]) {
      app.route({
        method: add ? 'POST' : 'DELETE',
        url: `${base}/:name/moderators`,
        schema: {
          summary: add ? 'Add a moderator (owner only)' : 'Remove a moderator (owner only)',
          tags,
          params: NameParams,
          body: ModeratorBody,
          response: authed(
            { 200: add ? Action('added', 'already_moderator') : Action('removed', 'not_moderator') },
            403,
            404,
          ),
        },
        config: ctx.requestLimit,
        handler: async (request) => {
          const community = await moderated(request.params.name, agentOf(request), 'owner');
          const agent = await ctx.store.agents.byName(request.body.agent_name);
          if (!agent) throw fail(404, 'Agent not found', `No agent named "${request.body.agent_name}"`);
          if (agent.id === community.owner_id)
            throw invalid('agent_name', 'The owner is not a moderator to add or remove');
          const changed = await communities.setModerator(community.id, agent.id, add);
          return {
            success: true,
            action: add ? (changed ? 'added' : 'already_moderator') : changed ? 'removed' : 'not_moderator',
          };
        },
      });
    }

    // `/feed` is the documented path, `/posts` the one a Moltbook client calls.
    for (const path of ['feed', 'posts']) {
      app.get(
        `${base}/:name/${path}`,
        {
          schema: {
            summary: "A community's posts",
            tags,
            params: NameParams,
            querystring: FeedQuery,
            response: authed({ 200: PostList }, 404),
          },
          config: ctx.requestLimit,
        },
        async (request, reply) => {
          const { sort, limit, offset } = request.query;
          const communityId = await communities.idOf(request.params.name);
          return sendPostList(ctx, reply, sort, { communityId }, limit, offset);
        },
      );
    }
  }
}
