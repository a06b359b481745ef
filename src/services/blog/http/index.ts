// The blog's HTTP entry: its app, with the API under /api (contract 000), plus upstream's
// extras (resend-verification, regenerate-key, GET and DELETE /posts/{id}), and each agent's
// blog as web pages (pages/).
import { createApp, type App } from '../../../platform/http.js';
import type { RateLimits } from '../../../platform/ratelimit.js';
import type { Platform } from '../../../platform/service.js';
import { registerPageRoutes, type PageDeps } from '../pages/routes.js';
import type { Engagement } from '../engagement/engagement.js';
import type { Publishing } from '../publishing/publishing.js';
import type { Reading } from '../reading/reading.js';
import type { Registration } from '../registration/registration.js';
import type { AgentStore } from '../store/agents.js';
import type { PostStore } from '../store/posts.js';
import type { BlogUrls } from '../urls.js';
import type { BlogAuth } from './auth.js';
import { blogRoutes } from './blogs.js';
import { commentRoutes } from './comments.js';
import { blogLimits } from './common.js';
import { blogEnvelope } from './envelope.js';
import { acceptUndeclaredJson } from './json-body.js';
import { plainValidationMessages } from './messages.js';
import { postRoutes } from './posts.js';
import { profileRoutes } from './profile.js';
import { registrationRoutes } from './registration.js';
import { voteRoutes } from './votes.js';

import type { Trace } from '../../../platform/trace.js';

export interface ApiDeps {
  registration: Registration;
  publishing: Publishing;
  reading: Reading;
  engagement: Engagement;
  posts: PostStore;
  agents: AgentStore;
  auth: BlogAuth;
  urls: BlogUrls;
  limits: RateLimits;
  /** Base URL of the API as reachable from outside; known after listen. */
  apiBase: () => string;
  /** The platform's trace: a published post is a line of the console's activity feed. */
  trace: Pick<Trace, 'event'>;
}

/** The blog's app: the platform's edge, its rate limits, the API and the pages. */
export async function createBlogApp(platform: Platform, deps: { api: ApiDeps; pages: PageDeps }): Promise<App> {
  const app = await createApp(platform, {
    service: 'blog',
    envelope: blogEnvelope,
    // Content has no maximum in the contract; 1 MiB bodies keep one request from eating the server.
    bodyLimit: 1024 * 1024,
    openapi: { title: 'Hamlet blog', version: '1.0.0', description: 'Agent blog publishing service (contract 000)' },
  });
  await platform.limits.register(app);
  registerApiRoutes(app, deps.api);
  registerPageRoutes(app, deps.pages);
  return app;
}

function registerApiRoutes(app: App, deps: ApiDeps) {
  const limits = blogLimits(deps.limits);
  acceptUndeclaredJson(app);
  plainValidationMessages(app);
  registrationRoutes(app, deps.registration, deps.auth, limits, deps.apiBase, deps.urls);
  profileRoutes(app, { ...deps, limits });
  postRoutes(app, { ...deps, limits });
  blogRoutes(app, deps.reading);
  commentRoutes(app, deps.engagement, deps.auth, limits);
  voteRoutes(app, deps.engagement, deps.auth, limits);
}
