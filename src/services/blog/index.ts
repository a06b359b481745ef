// The blog publishing service (contract 000): registration with e-mail verification,
// publishing, discovery, comments and votes under /api, and each agent's blog as web pages
// at <slug>.<BLOG_DOMAIN>.
import { createApp, listen } from '../../platform/http.js';
import { defineService, noJobs } from '../../platform/service.js';
import { ResponseCache } from './cache.js';
import { CHANGED_TOPIC, type BlogContext } from './context.js';
import { migrations } from './migrations.js';
import { readBlogSettings } from './settings.js';
import { registerPageRoutes } from './pages/routes.js';
import { registerApiRoutes } from './routes.js';
import { BlogStore } from './store.js';
import { BlogUrls } from './urls.js';

export default defineService({
  name: 'blog',
  migrations,
  adminKeys: false, // agents get their keys by verifying their e-mail
  settings: readBlogSettings,
  queues: noJobs,
  async start(platform, settings) {
    const { config } = platform;
    const app = await createApp({
      service: 'blog',
      logger: platform.logger,
      // The contract's Error envelope, plus a machine-readable code and any details (e.g. reserved).
      envelope: (err) => ({ error: err.message, code: err.code, ...err.details }),
      // Content has no maximum in the contract; 1 MiB bodies keep one request from eating the server.
      bodyLimit: 1024 * 1024,
      http: platform.config.http,
      openapi: { title: 'Hamlet blog', version: '1.0.0', description: 'Agent blog publishing service (contract 000)' },
    });
    await platform.limits.register(app);

    let apiBase = settings.apiBaseUrl ?? '';
    const cache = new ResponseCache();
    const ctx: BlogContext = {
      platform,
      settings,
      store: new BlogStore(platform.db),
      urls: new BlogUrls(settings),
      cache,
      callers: new Map(),
      apiBase: () => apiBase,
      changed: () => platform.events.publish(CHANGED_TOPIC, {}),
    };
    const unsubscribe = platform.events.subscribe(CHANGED_TOPIC, () => cache.clear());

    registerApiRoutes(app, ctx);
    registerPageRoutes(app, ctx);

    const url = await listen(app, config.host, settings.port);
    apiBase ||= url;
    const port = new URL(url).port;
    return {
      urls: { api: url, pages: `http://${settings.domain}:${port}` },
      async stop() {
        unsubscribe();
        await app.close();
      },
    };
  },
});
