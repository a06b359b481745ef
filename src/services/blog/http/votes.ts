// Votes on a published post: one per agent, a repeat replaces it.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { Engagement } from '../engagement/engagement.js';
import type { BlogAuth } from './auth.js';
import { PostIdParams, tags, Votes, type BlogLimits } from './common.js';
import { errorResponses } from './envelope.js';

const VoteBody = Type.Object({ vote: Type.Union([Type.Literal(1), Type.Literal(-1)]) });
const VoteResult = Type.Object({ success: Type.Boolean(), votes: Votes });

export function voteRoutes(app: App, engagement: Engagement, auth: BlogAuth, limits: BlogLimits) {
  app.post(
    '/api/posts/:postId/vote',
    {
      schema: {
        tags,
        summary: 'Vote on a post (a second vote replaces the first)',
        params: PostIdParams,
        body: VoteBody,
        response: { 200: VoteResult, ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
      ...auth.required,
      config: limits.other,
    },
    async (request) => ({
      success: true,
      votes: await engagement.vote(request.blogAgent!, request.params.postId, request.body.vote),
    }),
  );
}
