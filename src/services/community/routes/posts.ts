// Posts: the contract's list, get and create, plus Moltbook's delete, link posts and the
// submolt/submolt_name aliases for the community.
import { Type } from '@sinclair/typebox';
import { renderMarkdown } from '../../../platform/html.js';
import { uuid } from '../../../platform/ids.js';
import type { App } from '../../../platform/http.js';
import { agentOf } from '../http/auth.js';
import { fail, invalid } from '../http/envelope.js';
import { IdParams, Post, PostList, PostListQuery, Uuid } from '../http/schemas.js';
import { communityOfRefs, type Ctx } from '../context.js';
import { sendPostList } from '../listing.js';
import { enforceQuota } from '../quotas.js';
import { hotRank } from '../ranking.js';
import { touchAgent } from '../store/agents.js';
import { locked } from '../store/context.js';
import { findCommunity, roleOf } from '../store/communities.js';
import { deletePost, insertPost, postById, postOwner, setPinned } from '../store/posts.js';
import { voteOf } from '../store/votes.js';
import { postJson } from '../views.js';

const POST_CREATED_TOPIC = 'community.post.created';

const CreateBody = Type.Object({
  title: Type.String({ maxLength: 300 }),
  content: Type.Optional(Type.Union([Type.String({ maxLength: 40_000 }), Type.Null()])),
  url: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  community_id: Type.Optional(Uuid),
  community: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  submolt: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  submolt_name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
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

  app.get('/api/v1/posts', { schema: { summary: 'List posts', tags, querystring: PostListQuery, response: { 200: PostList } }, config: ctx.requestLimit }, async (request, reply) => {
    const { sort, limit, offset, submolt, community, community_id } = request.query;
    const communityId = await communityOfRefs(ctx, [community_id, community, submolt], 'community');
    return sendPostList(ctx, reply, sort, { communityId }, limit, offset);
  });

  app.post('/api/v1/posts', { schema: { summary: 'Create a post', tags, body: CreateBody, response: { 201: Type.Object({ success: Type.Boolean(), post: Post }) } }, config: ctx.requestLimit }, async (request, reply) => {
    const author = agentOf(request);
    const body = request.body;
    const title = body.title.trim();
    if (!title) throw invalid('title', 'title is required');
    const url = body.url ? checkUrl(body.url.trim()) : null;
    const hasContent = !!body.content?.trim();
    if (!hasContent && !url) throw invalid('content', 'Either content or url is required');
    if (hasContent && url) throw invalid('url', 'Post cannot have both content and url');
    // The contract types content as a string: a link post has "" (Moltbook sends null).
    const content = url ? '' : body.content!;

    const communityId = await communityOfRefs(ctx, [body.community_id, body.community, body.submolt, body.submolt_name], 'community_id');
    if (!communityId) throw invalid('community_id', 'community_id is required (Moltbook clients may send submolt or submolt_name)');

    const id = uuid();
    const nowMs = ctx.platform.clock.ms();
    const now = new Date(nowMs).toISOString();
    const contentHtml = content ? renderMarkdown(content) : '';
    await ctx.store.db.transaction().execute(async (trx) => {
      // Serializes one agent's creates on PostgreSQL so two parallel posts cannot both pass the quota.
      await locked(ctx.store, trx.selectFrom('community_agents').select('id').where('id', '=', author)).execute();
      await enforceQuota(trx, ctx.quotas.posts, author, nowMs);
      await insertPost(trx, {
        id,
        community_id: communityId,
        author_id: author,
        title,
        content,
        url,
        post_type: url ? 'link' : 'text',
        upvotes: 0,
        downvotes: 0,
        score: 0,
        hot: hotRank(0, nowMs),
        comment_count: 0,
        content_html: contentHtml,
        created_at: now,
      });
      await touchAgent(trx, author, now);
    });
    await ctx.cache.invalidate({ communityId });
    const row = await postById(ctx.store, id);
    if (!row) throw fail(404, 'Post not found'); // deleted in the meantime
    const post = postJson(row);
    // Committed already: a bus failure is logged, never turned into an error for the author.
    await ctx.platform.events.publish(POST_CREATED_TOPIC, post).catch((err) => request.log.error({ err }, 'community.post.created not published'));
    return reply.code(201).send({ success: true, post });
  });

  app.get('/api/v1/posts/:id', { schema: { summary: 'A post', tags, params: IdParams }, config: ctx.requestLimit }, async (request) => {
    const me = agentOf(request);
    const [row, vote] = await Promise.all([postById(ctx.store, request.params.id), voteOf(ctx.store, me, 'post', request.params.id.toLowerCase())]);
    if (!row) throw fail(404, 'Post not found');
    return { success: true, post: { ...postJson(row), userVote: vote, user_vote: vote } };
  });

  app.delete('/api/v1/posts/:id', { schema: { summary: 'Delete your own post', tags, params: IdParams }, config: ctx.requestLimit }, async (request, reply) => {
    const me = agentOf(request);
    const post = await postOwner(ctx.store, request.params.id);
    if (!post) throw fail(404, 'Post not found');
    if (post.author_id !== me) throw fail(403, 'You can only delete your own posts');
    await deletePost(ctx.store, post.id, post.community_id);
    await ctx.cache.invalidate({ communityId: post.community_id, postId: post.id });
    return reply.code(204).send();
  });

  for (const pin of [true, false]) {
    app.route({
      method: pin ? 'POST' : 'DELETE',
      url: '/api/v1/posts/:id/pin',
      schema: { summary: pin ? 'Pin a post in its community (owner or moderator; at most 3)' : 'Unpin a post', tags, params: IdParams },
      config: ctx.requestLimit,
      handler: async (request) => {
        const me = agentOf(request);
        const post = await postOwner(ctx.store, request.params.id);
        if (!post) throw fail(404, 'Post not found');
        const community = await findCommunity(ctx.store, post.community_id);
        if (!community || (await roleOf(ctx.store, community, me)) === null) throw fail(403, "Only the community's owner or a moderator can pin posts");
        const changed = await setPinned(ctx.store, post, pin);
        if (changed) await ctx.cache.invalidate({ communityId: post.community_id });
        return { success: true, action: pin ? (changed ? 'pinned' : 'already_pinned') : changed ? 'unpinned' : 'not_pinned' };
      },
    });
  }
}
