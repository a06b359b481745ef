// Votes on posts and comments. `/vote {direction}` is the contract's: it sets the vote and
// is safe to retry. `/upvote` and `/downvote` are Moltbook's toggles: the same direction
// again removes the vote. All share one vote row per agent and item (store/votes.ts).
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { Ctx } from '../context.js';
import type { VoteTarget } from '../store/tables.js';
import type { VoteAction, VoteIntent, VoteOutcome } from '../store/vote-decision.js';
import { agentOf } from './auth.js';
import { authed, IdParams, Nullable } from './schemas.js';

const VoteBody = Type.Object({
  direction: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('none')], {
    description: '"none" removes the vote',
  }),
});

const MESSAGES: Record<VoteAction, string> = {
  upvoted: 'Upvoted!',
  downvoted: 'Downvoted!',
  removed: 'Vote removed!',
  changed: 'Vote changed!',
  unchanged: 'Vote unchanged',
};

const DIRECTION = { up: 1, down: -1, none: 0 } as const;

// Fields in the order they are sent (the serializer writes them in schema order).
const Counts = { upvotes: Type.Integer(), downvotes: Type.Integer(), score: Type.Integer() };
const Said = {
  success: Type.Boolean(),
  message: Type.String(),
  action: Type.Union(Object.keys(MESSAGES).map((a) => Type.Literal(a))),
};
const Author = Type.Object({ name: Type.String() });
/** The contract's answer: the vote now held, and the item's counters under `post` or `comment`. */
const VoteSet = (type: VoteTarget) =>
  Type.Object({
    ...Said,
    vote: Nullable(Type.Union([Type.Literal('up'), Type.Literal('down')])),
    [type]: Type.Object(Counts),
    author: Author,
  });
/** Moltbook's answer: the counters at the top level. */
const VoteToggled = Type.Object({ ...Said, author: Author, ...Counts });

export function voteRoutes(app: App, ctx: Ctx) {
  const vote = async (type: VoteTarget, agentId: string, id: string, intent: VoteIntent): Promise<VoteOutcome> => {
    const outcome = await ctx.store.votes.cast(agentId, type, id.toLowerCase(), intent);
    if (outcome.action === 'unchanged') return outcome;
    // A post vote drops only the listing pages it can change; a comment vote, the post's comment tree.
    if (outcome.ranks && outcome.communityId) {
      const counts = { upvotes: outcome.upvotes, downvotes: outcome.downvotes, score: outcome.score };
      // Embedded SQLite runs votes one at a time in this process, so their outcomes arrive in
      // commit order and cached pages may be rewritten from them.
      await ctx.cache.invalidate(
        { vote: { postId: outcome.postId, communityId: outcome.communityId, ...outcome.ranks, counts } },
        { patchLocally: ctx.store.votes.serialized },
      );
    } else {
      await ctx.cache.invalidate({ postId: outcome.postId });
    }
    return outcome;
  };
  const counts = (o: VoteOutcome) => ({ upvotes: o.upvotes, downvotes: o.downvotes, score: o.score });
  const tags = ['votes'];

  for (const [type, base] of [
    ['post', '/api/v1/posts/:id'],
    ['comment', '/api/v1/comments/:id'],
  ] as const) {
    app.post(
      `${base}/vote`,
      {
        schema: {
          summary: `Set your vote on a ${type} (idempotent)`,
          tags,
          params: IdParams,
          body: VoteBody,
          response: authed({ 200: VoteSet(type) }, 404),
        },
        config: ctx.requestLimit,
      },
      async (request) => {
        const o = await vote(type, agentOf(request), request.params.id, {
          mode: 'set',
          value: DIRECTION[request.body.direction],
        });
        return {
          success: true,
          message: MESSAGES[o.action],
          action: o.action,
          vote: o.value === 1 ? 'up' : o.value === -1 ? 'down' : null,
          [type]: counts(o),
          author: { name: o.authorName },
        };
      },
    );

    // Moltbook's way to take a vote back; the same as /vote {direction: "none"}.
    app.delete(
      `${base}/vote`,
      {
        schema: {
          summary: `Remove your vote on a ${type}`,
          tags,
          params: IdParams,
          response: authed({ 200: VoteSet(type) }, 404),
        },
        config: ctx.requestLimit,
      },
      async (request) => {
        const o = await vote(type, agentOf(request), request.params.id, { mode: 'set', value: 0 });
        return {
          success: true,
          message: MESSAGES[o.action],
          action: o.action,
          vote: null,
          [type]: counts(o),
          author: { name: o.authorName },
        };
      },
    );

    for (const [path, value] of [
      ['upvote', 1],
      ['downvote', -1],
    ] as const) {
      app.post(
        `${base}/${path}`,
        {
          schema: {
            summary: `Moltbook's ${path} toggle on a ${type}`,
            tags,
            params: IdParams,
            response: authed({ 200: VoteToggled }, 404),
          },
          config: ctx.requestLimit,
        },
        async (request) => {
          const o = await vote(type, agentOf(request), request.params.id, { mode: 'toggle', value });
          return {
            success: true,
            message: MESSAGES[o.action],
            action: o.action,
            author: { name: o.authorName },
            ...counts(o),
          };
        },
      );
    }
  }
}
