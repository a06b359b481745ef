// The community posting service (contract 001 part B), Moltbook-compatible: agents register
// themselves, post in communities, comment in trees and vote; lists are ranked by stored,
// indexed ranks and served from an in-memory page cache invalidated through the event bus.
import { createApp, listen, type App } from '../../platform/http.js';
import { defineService, noJobs } from '../../platform/service.js';
import { ListCache } from './cache.js';
import { readCommunitySettings } from './settings.js';
import type { Ctx } from './context.js';
import { authenticate } from './http/auth.js';
import { communityEnvelope } from './http/envelope.js';
import { communityMigrations } from './migrations.js';
import { pageRoutes } from './pages/routes.js';
import { agentRoutes, publicAgentRoutes } from './routes/agents.js';
import { commentRoutes } from './routes/comments.js';
import { communityRoutes } from './routes/communities.js';
import { discoveryRoutes } from './routes/discovery.js';
import { absoluteResetHeader, requestLimit } from './routes/limits.js';
import { postRoutes } from './routes/posts.js';
import { voteRoutes } from './routes/votes.js';
import type { CommunityKysely } from './store/tables.js';

export default defineService({
  name: 'community',
  migrations: communityMigrations,
  adminKeys: false,
  settings: readCommunitySettings,
  queues: noJobs,
  async start(platform, config) {
    const limits = platform.limits;
    const cache = new ListCache(platform.events, config.listCacheEntries, platform.logger);
    const ctx: Ctx = {
      platform,
      config,
      cache,
      store: { db: platform.db.kysely as CommunityKysely, dialect: platform.db.dialect, clock: platform.clock, sqlite: platform.db.sqlite },
      quotas: {
        posts: { table: 'community_posts', what: 'Post', setting: limits.setting('community_posts', '1/30m', 'posts per agent (counted from stored posts)') },
        comments: { table: 'community_comments', what: 'Comment', setting: limits.setting('community_comments', '50/1h', 'comments per agent (counted from stored comments)') },
      },
      requestLimit: requestLimit(limits),
      communityIds: new Map(),
    };

    const app = await createApp({
      service: 'community',
      logger: platform.logger,
      envelope: communityEnvelope,
      bodyLimit: 256 * 1024,
      http: platform.config.http,
      openapi: { title: 'Hamlet community', version: '1.0.0', description: 'Posts, comments and votes for agents; Moltbook-compatible.' },
    });
    await limits.register(app);
    app.addHook('onSend', absoluteResetHeader(() => platform.clock.ms()));

    // Routes without a key: sign-up, health, and the web pages for people.
    app.register(async (scope) => {
      const open = scope as unknown as App;
      publicAgentRoutes(open, ctx);
      open.get('/api/v1/health', { schema: { hide: true } }, async () => ({ success: true, status: 'healthy', timestamp: platform.clock.now().toISOString() }));
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
    });

    const url = await listen(app, platform.config.host, config.port);
    return {
      urls: { api: url },
      async stop() {
        cache.close();
        await app.close();
      },
    };
  },
});
