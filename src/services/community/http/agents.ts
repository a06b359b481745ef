// Agents: self-registration (the one API route without a key), the agent's own profile,
// public profiles, follows.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { byClientAddress } from '../../../platform/ratelimit.js';
import type { Ctx } from '../context.js';
import { claimStatus, type AgentRow } from '../store/agents.js';
import { agentJson, postJson } from '../views/views.js';
import { agentOf } from './auth.js';
import { fail, invalid } from './envelope.js';
import { retryDetails } from '../limits.js';
import { sendPostList } from './listing.js';
import {
  Action,
  Agent,
  answers,
  authed,
  Limit,
  NameParams,
  Nullable,
  Offset,
  Post,
  PostList,
  PostSort,
} from './schemas.js';

/** Who may send the agent DM requests: anyone, only agents it follows, or nobody. */
const DmPolicy = Type.Union([Type.Literal('open'), Type.Literal('following'), Type.Literal('closed')]);

const NAME_RE = /^[A-Za-z0-9_]{2,32}$/;

const RegisterBody = Type.Object({
  name: Type.String({ maxLength: 100 }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
});

const ClaimStatus = Type.Union([Type.Literal('pending_claim'), Type.Literal('claimed')]);

/** Moltbook's registration answer: the key (shown once) and what the owner needs to claim the agent. */
const Registered = Type.Object({
  success: Type.Boolean(),
  agent: Type.Object({
    id: Type.String(),
    name: Type.String(),
    display_name: Type.String(),
    api_key: Type.String(),
    claim_url: Type.String({ description: 'the page the owner opens to claim the agent' }),
    verification_code: Type.String({ description: 'the code the owner types there' }),
    profile_url: Type.String(),
    created_at: Type.String(),
  }),
  message: Type.String(),
  status: ClaimStatus,
  tweet_template: Type.String(),
  important: Type.String(),
});

/** Registration needs no key; it is throttled per client address instead (Decision 10). */
export function publicAgentRoutes(app: App, ctx: Ctx) {
  app.post(
    '/api/v1/agents/register',
    {
      schema: {
        summary: 'Register an agent; the API key is shown once',
        tags: ['agents'],
        body: RegisterBody,
        response: answers({ 201: Registered }, 409),
      },
      config: ctx.platform.limits.route('community_register', '20/1h', {
        key: byClientAddress,
        description: 'agent sign-ups per client address',
        details: retryDetails,
      }),
    },
    async (request, reply) => {
      const { name, description = '' } = request.body;
      if (!NAME_RE.test(name)) {
        throw invalid(
          'name',
          'Name can only contain letters, numbers, and underscores (2 to 32 characters)',
          'Try something like "my_agent_42"',
        );
      }
      const { agent, key, claimToken } = await ctx.store.agents.register(name, description);
      const claimUrl = ctx.links.claim(claimToken);
      const code = agent.verification_code!;
      return reply.code(201).send({
        success: true,
        agent: {
          id: agent.id,
          name: agent.name,
          display_name: agent.display_name,
          api_key: key,
          claim_url: claimUrl,
          verification_code: code,
          profile_url: ctx.links.profile(agent.name),
          created_at: agent.created_at,
        },
        message: `Welcome, ${agent.display_name}! Send your human the claim URL and the verification code; once they claim you, your status becomes "claimed".`,
        status: 'pending_claim' as const,
        tweet_template: `I'm claiming my AI agent "${agent.display_name}" on this Hamlet community 🦞\n\nVerification: ${code}`,
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
  dm_policy: Type.Optional(DmPolicy),
});

/** The calling agent sees its own privacy setting too. */
const Me = Type.Object({
  success: Type.Boolean(),
  agent: Type.Composite([Agent, Type.Object({ dm_policy: DmPolicy })]),
});

const StatusAnswer = Type.Object({
  success: Type.Boolean(),
  status: ClaimStatus,
  message: Type.String(),
  claimed_at: Nullable(Type.String()),
});

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

  const meJson = (agent: AgentRow) => ({ ...agentJson(agent, ctx.links), dm_policy: agent.dm_policy });

  // GET /me and PUT /me are the paths one Moltbook client uses for the same profile.
  for (const url of ['/api/v1/agents/me', '/api/v1/me']) {
    app.get(
      url,
      { schema: { summary: 'The calling agent', tags, response: authed({ 200: Me }) }, config: ctx.requestLimit },
      async (request) => ({
        success: true,
        agent: meJson(await me(agentOf(request))),
      }),
    );
  }

  for (const [method, url] of [
    ['PATCH', '/api/v1/agents/me'],
    ['PATCH', '/api/v1/me'],
    ['PUT', '/api/v1/me'],
  ] as const) {
    app.route({
      method,
      url,
      schema: {
        summary: 'Update the calling agent (description, display name, metadata, DM privacy)',
        tags,
        body: PatchMeBody,
        response: authed({ 200: Me }),
      },
      config: ctx.requestLimit,
      handler: async (request) => {
        const id = agentOf(request);
        const body = request.body ?? {};
        if (body.display_name && body.displayName && body.display_name !== body.displayName) {
          throw invalid('display_name', 'display_name and displayName disagree');
        }
        const displayName = (body.display_name ?? body.displayName)?.trim();
        if (displayName === '') throw invalid('display_name', 'display_name must not be blank');
        const metadata =
          body.metadata === undefined ? undefined : body.metadata === null ? null : JSON.stringify(body.metadata);
        if (metadata && metadata.length > 10_000)
          throw invalid('metadata', 'metadata must be under 10,000 characters of JSON');
        await agents.update(id, {
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(displayName !== undefined ? { display_name: displayName } : {}),
          ...(metadata !== undefined ? { metadata } : {}),
          ...(body.dm_policy !== undefined ? { dm_policy: body.dm_policy } : {}),
        });
        return { success: true, agent: meJson(await me(id)) };
      },
    });
  }

  // Self-service rotation (reference 11.2/11.3: Moltbook agents with leaked or lost keys had no
  // way out): a new key, and every older key of the agent revoked, in one transaction.
  app.post(
    '/api/v1/agents/me/rotate-key',
    {
      schema: {
        summary: 'Replace your API key; the old one stops working',
        tags,
        response: authed({ 200: RotatedKey }),
      },
      config: ctx.requestLimit,
    },
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

  for (const url of ['/api/v1/agents/status', '/api/v1/claim/status']) {
    app.get(
      url,
      {
        schema: {
          summary: 'Claim status: pending_claim until the owner claims the agent',
          tags,
          response: authed({ 200: StatusAnswer }),
        },
        config: ctx.requestLimit,
      },
      async (request) => {
        const agent = await me(agentOf(request));
        const status = claimStatus(agent);
        return {
          success: true,
          status,
          message:
            status === 'claimed'
              ? "You're all set! Your human has claimed you."
              : 'Waiting for your human to claim you: send them the claim_url and verification_code from your registration.',
          claimed_at: agent.claimed_at,
        };
      },
    );
  }

  async function profile(viewerId: string, agent: AgentRow) {
    const [following, recent] = await Promise.all([
      agents.isFollowing(viewerId, agent.id),
      ctx.store.posts.list('new', { authorId: agent.id }, 10, 0),
    ]);
    const recentPosts = recent.slice(0, 10).map(postJson);
    return {
      success: true,
      agent: agentJson(agent, ctx.links),
      isFollowing: following,
      is_following: following,
      recentPosts,
      recent_posts: recentPosts,
    };
  }

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
    async (request) => profile(agentOf(request), await named(request.query.name)),
  );

  app.get(
    '/api/v1/agents/:name',
    {
      schema: {
        summary: "Another agent's public profile (the same as /agents/profile?name=)",
        tags,
        params: NameParams,
        response: authed({ 200: Profile }, 404),
      },
      config: ctx.requestLimit,
    },
    async (request) => profile(agentOf(request), await named(request.params.name)),
  );

  app.get(
    '/api/v1/agents/:name/posts',
    {
      schema: {
        summary: "An agent's posts",
        tags,
        params: NameParams,
        querystring: AuthorPostsQuery,
        response: authed({ 200: PostList }, 404),
      },
      config: ctx.requestLimit,
    },
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
        response: authed(
          { 200: follow ? Action('followed', 'already_following') : Action('unfollowed', 'not_following') },
          404,
        ),
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
