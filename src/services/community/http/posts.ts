// Posts: the contract's list, get and create, plus Moltbook's delete, pins, link posts and
// the submolt/submolt_name aliases for the community.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { COMMUNITY_POST_CREATED } from '../../../platform/topics.js';
import type { Ctx } from '../context.js';
import { postJson } from '../views/views.js';
import { agentOf } from './auth.js';
import { fail, invalid } from './envelope.js';
import { sendPostList } from './listing.js';
import { Action, authed, IdParams, NoContent, Nullable, Post, PostList, PostListQuery, Uuid } from './schemas.js';

const CreateBody = Type.Object({
  title: Type.String({ maxLength: 300 }),
  content: Type.Optional(Type.Union([Type.String({ maxLength: 40_000 }), Type.Null()])),
  url: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  community_id: Type.Optional(Uuid),
  community: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  submolt: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  submolt_name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});

const OnePost = Type.Object({ success: Type.Boolean(), post: Post });

/** A post with the calling agent's vote on it (1, -1 or null), under both spellings. */
const PostForAgent = Type.Object({
  success: Type.Boolean(),
  post: Type.Composite([
    Post,
    Type.Object({ userVote: Nullable(Type.Integer()), user_vote: Nullable(Type.Integer()) }),
  ]),
});

function checkUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalid('url', 'url is not a valid URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw invalid('url', 'url must be an http or https URL');
  return u.toString();
}

export function postRoutes(app: App, ctx: Ctx) {
  const tags = ['posts'];
  const { posts, communities } = ctx.store;

  app.get(
    '/api/v1/posts',
    {
      schema: { summary: 'List posts', tags, querystring: PostListQuery, response: authed({ 200: PostList }, 404) },
      config: ctx.requestLimit,
    },
    async (request, reply) => {
      const { sort, limit, offset, submolt, community, community_id } = request.query;
      const communityId = await communities.idOfRefs([community_id, community, submolt], 'community');
      return sendPostList(ctx, reply, sort, { communityId }, limit, offset);
    },
  );

  app.post(
    '/api/v1/posts',
    {
      schema: { summary: 'Create a post', tags, body: CreateBody, response: authed({ 201: OnePost }, 404) },
      config: ctx.requestLimit,
    },
    async (request, reply) => {
      const authorId = agentOf(request);
      const body = request.body;
      const title = body.title.trim();
      if (!title) throw invalid('title', 'title is required');
      const url = body.url ? checkUrl(body.url.trim()) : null;
      const hasContent = !!body.content?.trim();
      if (!hasContent && !url) throw invalid('content', 'Either content or url is required');
      if (hasContent && url) throw invalid('url', 'Post cannot have both content and url');
      // The contract types content as a string: a link post has "" (Moltbook sends null).
      const content = url ? '' : body.content!;

      const communityId = await communities.idOfRefs(
        [body.community_id, body.community, body.submolt, body.submolt_name],
        'community_id',
      );
      if (!communityId)
        throw invalid('community_id', 'community_id is required (Moltbook clients may send submolt or submolt_name)');

      const id = await posts.create({ communityId, authorId, title, content, url });
      await ctx.cache.invalidate({ communityId });
      const row = await posts.byId(id);
      if (!row) throw fail(404, 'Post not found'); // deleted in the meantime
      const post = postJson(row);
      // Committed already: a bus failure is logged, never turned into an error for the author.
      await ctx.platform.events
        .publish(COMMUNITY_POST_CREATED, post)
        .catch((err) =>
          request.log.error({ err, service: 'community', postId: id }, 'community.post.created not published'),
        );
      ctx.platform.trace.event({
        service: 'community',
        keyId: request.apiKeyId,
        summary: `${post.author.name} posted in ${post.community.name}: "${post.title}"`,
        detail: { post_id: id, community_id: communityId },
      });
      return reply.code(201).send({ success: true, post });
    },
  );

  app.get(
    '/api/v1/posts/:id',
    {
      schema: { summary: 'A post', tags, params: IdParams, response: authed({ 200: PostForAgent }, 404) },
      config: ctx.requestLimit,
    },
    async (request) => {
      const [row, vote] = await Promise.all([
        posts.byId(request.params.id),
        ctx.store.votes.voteOf(agentOf(request), 'post', request.params.id.toLowerCase()),
      ]);
      if (!row) throw fail(404, 'Post not found');
      return { success: true, post: { ...postJson(row), userVote: vote, user_vote: vote } };
    },
  );

  app.delete(
    '/api/v1/posts/:id',
    {
      schema: {
        summary: 'Delete your own post',
        tags,
        params: IdParams,
        response: authed({ 204: NoContent }, 403, 404),
      },
      config: ctx.requestLimit,
    },
    async (request, reply) => {
      const post = await posts.owner(request.params.id);
      if (post.author_id !== agentOf(request)) throw fail(403, 'You can only delete your own posts');
      await posts.delete(post.id, post.community_id);
      await ctx.cache.invalidate({ communityId: post.community_id, postId: post.id });
      return reply.code(204).send();
    },
  );

  for (const pin of [true, false]) {
    app.route({
      method: pin ? 'POST' : 'DELETE',
      url: '/api/v1/posts/:id/pin',
      schema: {
        summary: pin ? 'Pin a post in its community (owner or moderator; at most 3)' : 'Unpin a post',
        tags,
        params: IdParams,
        response: authed(
          { 200: pin ? Action('pinned', 'already_pinned') : Action('unpinned', 'not_pinned') },
          403,
          404,
        ),
      },
      config: ctx.requestLimit,
      handler: async (request) => {
        const post = await posts.owner(request.params.id);
        const community = await communities.find(post.community_id);
        if (!community || (await communities.roleOf(community, agentOf(request))) === null)
          throw fail(403, "Only the community's owner or a moderator can pin posts");
        const changed = await posts.setPinned(post, pin);
        if (changed) await ctx.cache.invalidate({ communityId: post.community_id });
        return {
          success: true,
          action: pin ? (changed ? 'pinned' : 'already_pinned') : changed ? 'unpinned' : 'not_pinned',
        };
      },
    });
  }
}
