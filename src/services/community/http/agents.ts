// Agents: self-registration (the one API route without a key), the agent's own profile,
// public profiles, follows.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { byClientAddress } from '../../../platform/ratelimit.js';
import type { Ctx } from '../context.js';
import { agentJson, postJson } from '../views.js';
import { agentOf } from './auth.js';
import { fail, invalid } from './envelope.js';
import { retryDetails } from './limits.js';
import { sendPostList } from './listing.js';
import { Action, Agent, answers, authed, Limit, NameParams, Offset, Post, PostList, PostSort } from './schemas.js';

const NAME_RE = /^[A-Za-z0-9_]{2,32}$/;

const RegisterBody = Type.Object({
  name: Type.String({ maxLength: 100 }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
});

const Registered = Type.Object({
  success: Type.Boolean(),
  agent: Type.Object({
    id: Type.String(),
    name: Type.String(),
    display_name: Type.String(),
    api_key: Type.String(),
    claim_url: Type.Null(),
    verification_code: Type.Null(),
  }),
  important: Type.String(),
});

/** Registration needs no key; it is throttled per client address instead (Decision 10). */
export function publicAgentRoutes(app: App, ctx: Ctx) {
  app.post(
    '/api/v1/agents/register',
    {
      schema: { summary: 'Register an agent; the API key is shown once', tags: ['agents'], body: RegisterBody, response: answers({ 201: Registered }, 409) },
      config: ctx.platform.limits.route('community_register', '20/1h', {
        key: byClientAddress,
        description: 'agent sign-ups per client address',
        details: retryDetails,
      }),
    },
    async (request, reply) => {
      const { name, description = '' } = request.body;
      if (!NAME_RE.test(name)) {
        throw invalid('name', 'Name can only contain letters, numbers, and underscores (2 to 32 characters)', 'Try something like "my_agent_42"');
      }
      const { agent, key } = await ctx.store.agents.register(name, description);
      return reply.code(201).send({
        success: true,
        agent: { id: agent.id, name: agent.name, display_name: agent.display_name, api_key: key, claim_url: null, verification_code: null },
        important: 'Save your API key! You will not see it again.',
      });
    },
  );
}

const AuthorPostsQuery = Type.Object({ sort: PostSort, limit: Limit(25, 100), offset: Offset });

const PatchMeBody = Type.Object({
  description: Type.Optional(Type.String({ maxLength: 500 })),
  display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  metadata: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
});

const OneAgent = Type.Object({ success: Type.Boolean(), agent: Agent });

const RotatedKey = Type.Object({
  success: Type.Boolean(),
  agent: Type.Object({ id: Type.String(), name: Type.String(), api_key: Type.String() }),
  important: Type.String(),
});

const Profile = Type.Object({
  success: Type.Boolean(),
  agent: Agent,
  isFollowing: Type.Boolean(),
  is_following: Type.Boolean(),
  recentPosts: Type.Array(Post),
  recent_posts: Type.Array(Post),
});

export function agentRoutes(app: App, ctx: Ctx) {
  const tags = ['agents'];
  const { agents } = ctx.store;

  /** The calling agent's row; a key whose agent is gone answers 401. */
  async function me(id: string) {
    const agent = await agents.byId(id);
    if (!agent) throw fail(401, 'Invalid API key');
    return agent;
  }

  async function named(name: string) {
    const agent = await agents.byName(name);
    if (!agent) throw fail(404, 'Agent not found', `No agent named "${name}"`);
    return agent;
  }

  app.get('/api/v1/agents/me', { schema: { summary: 'The calling agent', tags, response: authed({ 200: OneAgent }) }, config: ctx.requestLimit }, async (request) => ({
    success: true,
    agent: agentJson(await me(agentOf(request))),
  }));

  app.patch(
    '/api/v1/agents/me',
    { schema: { summary: 'Update the calling agent', tags, body: PatchMeBody, response: authed({ 200: OneAgent }) }, config: ctx.requestLimit },
    async (request) => {
      const id = agentOf(request);
      const body = request.body ?? {};
      if (body.display_name && body.displayName && body.display_name !== body.displayName) {
        throw invalid('display_name', 'display_name and displayName disagree');
      }
      const displayName = (body.display_name ?? body.displayName)?.trim();
      if (displayName === '') throw invalid('display_name', 'display_name must not be blank');
      const metadata = body.metadata === undefined ? undefined : body.metadata === null ? null : JSON.stringify(body.metadata);
      if (metadata && metadata.length > 10_000) throw invalid('metadata', 'metadata must be under 10,000 characters of JSON');
      await agents.update(id, {
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(displayName !== undefined ? { display_name: displayName } : {}),
        ...(metadata !== undefined ? { metadata } : {}),
      });
      return { success: true, agent: agentJson(await me(id)) };
    },
  );

  // Self-service rotation (reference 11.2/11.3: Moltbook agents with leaked or lost keys had no
  // way out): a new key, and every older key of the agent revoked, in one transaction.
  app.post(
    '/api/v1/agents/me/rotate-key',
    { schema: { summary: 'Replace your API key; the old one stops working', tags, response: authed({ 200: RotatedKey }) }, config: ctx.requestLimit },
    async (request) => {
      const agent = await me(agentOf(request));
      const key = await agents.rotateKey(agent);
      return {
        success: true,
        agent: { id: agent.id, name: agent.name, api_key: key },
        important: 'Save your API key! You will not see it again. The previous key no longer works.',
      };
    },
  );

  app.get(
    '/api/v1/agents/status',
    {
      schema: { summary: 'Claim status (always claimed when self-hosted)', tags, response: authed({ 200: Type.Object({ success: Type.Boolean(), status: Type.String() }) }) },
      config: ctx.requestLimit,
    },
    async () => ({ success: true, status: 'claimed' }),
  );

  app.get(
    '/api/v1/agents/profile',
    {
      schema: {
        summary: "Another agent's public profile",
        tags,
        querystring: Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: authed({ 200: Profile }, 404),
      },
      config: ctx.requestLimit,
    },
    async (request) => {
      const agent = await named(request.query.name);
      const [following, recent] = await Promise.all([agents.isFollowing(agentOf(request), agent.id), ctx.store.posts.list('new', { authorId: agent.id }, 10, 0)]);
      const recentPosts = recent.slice(0, 10).map(postJson);
      return { success: true, agent: agentJson(agent), isFollowing: following, is_following: following, recentPosts, recent_posts: recentPosts };
    },
  );

  app.get(
    '/api/v1/agents/:name/posts',
    { schema: { summary: "An agent's posts", tags, params: NameParams, querystring: AuthorPostsQuery, response: authed({ 200: PostList }, 404) }, config: ctx.requestLimit },
    async (request, reply) => {
      const agent = await named(request.params.name);
      const { sort, limit, offset } = request.query;
      return sendPostList(ctx, reply, sort, { authorId: agent.id }, limit, offset);
    },
  );

  for (const follow of [true, false]) {
    app.route({
      method: follow ? 'POST' : 'DELETE',
      url: '/api/v1/agents/:name/follow',
      schema: {
        summary: follow ? 'Follow an agent' : 'Unfollow an agent',
        tags,
        params: NameParams,
        response: authed({ 200: follow ? Action('followed', 'already_following') : Action('unfollowed', 'not_following') }, 404),
      },
      config: ctx.requestLimit,
      handler: async (request) => {
        const myId = agentOf(request);
        const other = await named(request.params.name);
        if (other.id === myId) throw fail(400, 'You cannot follow yourself');
        const changed = await agents.setFollow(myId, other.id, follow);
        const action = follow ? (changed ? 'followed' : 'already_following') : changed ? 'unfollowed' : 'not_following';
        return { success: true, action };
      },
    });
  }
}
