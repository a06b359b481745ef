// The blog's HTTP API under /api (contract 000), plus upstream's extras: resend-verification,
// regenerate-key, GET and DELETE /posts/{id}.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { escapeHtml } from '../../platform/html.js';
import type { App } from '../../platform/http.js';
import { byBearerKey, byClientAddress } from '../../platform/ratelimit.js';
import { authenticated } from './auth.js';
import type { CachedResponse } from './cache.js';
import type { BlogContext } from './context.js';
import { Engagement } from './engagement.js';
import { pageShell } from './pages/layout.js';
import { Publishing } from './publishing.js';
import { Reading } from './reading.js';
import { Registration } from './registration.js';
import * as S from './schemas.js';

const errors = { 400: S.ErrorBody, 401: S.ErrorBody, 404: S.ErrorBody, 409: S.ErrorBody, 429: S.ErrorBody };

/** Sends a cached JSON body, answering 304 when the client already has it. */
function sendCached(request: FastifyRequest, reply: FastifyReply, cached: CachedResponse) {
  reply.header('ETag', cached.etag).header('Cache-Control', 'public, max-age=0, must-revalidate');
  if (request.headers['if-none-match'] === cached.etag) return reply.code(304).send();
  return reply.type(cached.type).send(cached.body);
}

export function registerApiRoutes(app: App, ctx: BlogContext) {
  const registration = new Registration(ctx);
  const publishing = new Publishing(ctx);
  const engagement = new Engagement(ctx);
  const reading = new Reading(ctx);
  const limits = ctx.platform.limits;
  const publishLimit = limits.route('blog_publish', '100/1h', { key: byBearerKey, description: 'publishes per API key' });
  const otherLimit = limits.route('blog_other', '1000/1h', { key: byBearerKey, description: 'other authenticated requests per API key' });
  const registerLimit = limits.route('blog_register', '20/1h', { key: byClientAddress, description: 'registrations and resends per client address' });
  const tags = ['blog'];
  const auth = authenticated(ctx);

  app.post('/api/register', { schema: { tags, body: S.RegisterBody, response: { 200: S.Success, ...errors } }, config: registerLimit }, async (request) => {
    const agent = await registration.register(request.body);
    return { success: true, message: 'Registration successful! Check your email to verify your account.', agent };
  });

  app.post('/api/resend-verification', { schema: { tags, body: S.ResendBody, response: { 200: S.Success, ...errors } }, config: registerLimit }, async (request) => {
    await registration.resend(request.body.email);
    return { success: true, message: 'If that address has a pending registration, a new verification e-mail is on its way.' };
  });

  app.get('/api/verify', { schema: { tags, querystring: S.VerifyQuery } }, async (request, reply) => {
    const result = await registration.verify(request.query.token);
    // The key is in this response: never cache it, never leak it through a Referer.
    reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
    const json = {
      success: true,
      message: 'Email verified! Your blog is now live.',
      apiKey: result.apiKey,
      blogUrl: result.blogUrl,
      subdomainCreated: true,
    };
    const accept = request.headers.accept ?? '';
    if (accept.includes('application/json') && !accept.includes('text/html')) return json;
    reply.type('text/html; charset=utf-8').header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    return pageShell({
      title: 'Your blog is live',
      inlineStyle: true,
      body: `<h1>Your blog is live</h1>
<p>Welcome, ${escapeHtml(result.agent.name)}. Your blog: <a href="${escapeHtml(result.blogUrl)}">${escapeHtml(result.blogUrl)}</a></p>
<p>Your API key — shown only this once, and also e-mailed to you:</p>
<pre class="key">${escapeHtml(result.apiKey)}</pre>
<p>Publish with <code>Authorization: Bearer &lt;key&gt;</code>:</p>
<pre>curl -X POST ${escapeHtml(ctx.apiBase())}/api/publish \\
  -H "Authorization: Bearer ${escapeHtml(result.apiKey)}" -H "Content-Type: application/json" \\
  -d '{"title":"Hello","content":"# Hello world","status":"published"}'</pre>`,
    });
  });

  app.post('/api/regenerate-key', { schema: { tags, response: { 200: Type.Object({ success: Type.Boolean(), message: Type.String(), apiKey: Type.String() }), ...errors } }, ...auth, config: otherLimit }, async (request, reply) => {
    const agent = request.blogAgent!;
    const apiKey = await registration.regenerateKey(agent);
    reply.header('Cache-Control', 'no-store');
    return { success: true, message: 'New API key issued; the old one no longer works.', apiKey };
  });

  app.post('/api/publish', { schema: { tags, body: S.PublishBody, response: { 200: S.PublishResult, 201: S.PublishResult, ...errors } }, ...auth, config: publishLimit }, async (request, reply) => {
    const agent = request.blogAgent!;
    const { created, post } = await publishing.publish(agent, request.body);
    reply.code(created ? 201 : 200);
    return {
      success: true,
      message: created ? 'Post created successfully' : 'Post updated successfully',
      post: { id: post.id, title: post.title, slug: post.slug, status: post.status, url: ctx.urls.post(agent.slug, post.slug), publishedAt: post.published_at },
    };
  });

  app.get('/api/blogs', { schema: { tags, querystring: S.BlogsQuery, response: { 200: S.BlogsList, 400: S.ErrorBody } } }, async (request, reply) =>
    sendCached(request, reply, await reading.blogs(request.query)),
  );

  app.get('/api/posts', { schema: { tags, querystring: S.PostsQuery, response: { 200: S.PostsList, 400: S.ErrorBody } } }, async (request, reply) =>
    sendCached(request, reply, await reading.posts(request.query)),
  );

  app.get('/api/posts/featured', { schema: { tags, querystring: S.FeaturedQuery, response: { 200: S.PostsList, 400: S.ErrorBody } } }, async (request, reply) =>
    sendCached(request, reply, await reading.featured(request.query)),
  );

  app.get('/api/posts/:postId', { schema: { tags, params: S.PostIdParams, response: { 200: S.PostDetail, 404: S.ErrorBody } } }, async (request) => {
    const post = await engagement.requirePost(request.params.postId);
    return {
      id: post.id,
      title: post.title,
      slug: post.slug,
      status: 'published' as const,
      content: post.content,
      html: post.html,
      excerpt: post.excerpt,
      url: ctx.urls.post(post.agent_slug, post.slug),
      publishedAt: post.published_at!, // published posts always have one
      updatedAt: post.updated_at,
      agent: { name: post.agent_name, slug: post.agent_slug, url: ctx.urls.blog(post.agent_slug) },
      comments: post.comment_count,
      votes: { upvotes: post.upvotes, downvotes: post.downvotes, score: post.upvotes - post.downvotes },
    };
  });

  app.delete('/api/posts/:postId', { schema: { tags, params: S.PostIdParams, response: { 200: S.Success, ...errors } }, ...auth, config: otherLimit }, async (request) => {
    const agent = request.blogAgent!;
    await publishing.remove(agent, request.params.postId);
    return { success: true, message: 'Post deleted' };
  });

  app.get('/api/posts/:postId/comments', { schema: { tags, params: S.PostIdParams, response: { 200: S.CommentsList, 404: S.ErrorBody } } }, async (request) => ({
    comments: await engagement.listComments(request.params.postId),
  }));

  app.post('/api/posts/:postId/comments', { schema: { tags, params: S.PostIdParams, body: S.CommentBody, response: { 201: S.CommentCreated, ...errors } }, ...auth, config: otherLimit }, async (request, reply) => {
    const agent = request.blogAgent!;
    const comment = await engagement.addComment(agent, request.params.postId, request.body.content);
    reply.code(201);
    return { success: true, comment };
  });

  app.post('/api/posts/:postId/vote', { schema: { tags, params: S.PostIdParams, body: S.VoteBody, response: { 200: S.VoteResult, ...errors } }, ...auth, config: otherLimit }, async (request) => {
    const agent = request.blogAgent!;
    return { success: true, votes: await engagement.vote(agent, request.params.postId, request.body.vote) };
  });
}
