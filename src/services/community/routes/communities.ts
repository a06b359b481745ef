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
import { findCommunity, insertCommunity, isSubscribed, listCommunities, setSubscription } from '../store/communities.js';
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

export function communityRoutes(app: App, ctx: Ctx) {
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
      const subscribed = await isSubscribed(ctx.store, me, row.id);
      return {
        success: true,
        [one]: { ...communityJson(row), owner_id: row.owner_id, your_role: row.owner_id === me ? 'owner' : null, is_subscribed: subscribed, isSubscribed: subscribed },
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
