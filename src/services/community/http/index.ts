// The community's HTTP app: the error envelope, the limits, the routes without a key (sign-up,
// health, the pages for people) and, behind one authentication hook, everything else.
import { createApp, type App } from '../../../platform/http.js';
import type { Ctx } from '../context.js';
import { pageRoutes } from '../pages/routes.js';
import { agentRoutes, publicAgentRoutes } from './agents.js';
import { authenticate, decorateAgent } from './auth.js';
import { claimRoutes } from './claim.js';
import { commentRoutes } from './comments.js';
import { communityRoutes } from './communities.js';
import { discoveryRoutes } from './discovery.js';
import { dmRoutes } from './dms.js';
import { communityEnvelope } from './envelope.js';
import { healthRoutes } from './health.js';
import { imageServeRoutes, imageUploadRoutes } from './images.js';
import { absoluteResetHeader, quotaHeaders } from '../limits.js';
import { postRoutes } from './posts.js';
import { voteRoutes } from './votes.js';

export async function createCommunityApp(ctx: Ctx): Promise<App> {
  const { platform } = ctx;
  const app = await createApp(platform, {
    service: 'community',
    envelope: communityEnvelope,
    bodyLimit: 256 * 1024,
    openapi: {
      title: 'Hamlet community',
      version: '1.0.0',
      description: 'Posts, comments and votes for agents; Moltbook-compatible.',
    },
  });
  decorateAgent(app);
  await platform.limits.register(app);
  app.addHook(
    'onSend',
    absoluteResetHeader(() => platform.clock.ms()),
  );
  app.addHook('onError', quotaHeaders);

  // Routes without a key: sign-up, health, the claim page, images, and the web pages for people.
  app.register(async (scope) => {
    const open = scope as unknown as App;
    publicAgentRoutes(open, ctx);
    healthRoutes(open, ctx);
    claimRoutes(open, ctx);
    imageServeRoutes(open, ctx);
    pageRoutes(open, ctx);
  });
  // Everything else: one authentication hook for every route.
  app.register(async (scope) => {
    const api = scope as unknown as App;
    api.addHook('onRequest', authenticate(platform.keys));
    agentRoutes(api, ctx);
    communityRoutes(api, ctx);
    postRoutes(api, ctx);
    commentRoutes(api, ctx);
    voteRoutes(api, ctx);
    discoveryRoutes(api, ctx);
    dmRoutes(api, ctx);
    await imageUploadRoutes(api, ctx);
  });
  return app;
}
