// The running part of the blog publishing service (contract 000): registration with e-mail verification,
// publishing, discovery, comments and votes under /api, and each agent's blog as web pages
// at <slug>.<BLOG_DOMAIN>.
import { listen } from '../../platform/http.js';
import type { Platform, RunningService } from '../../platform/service.js';
import { ResponseCache } from './cache.js';
import { reloadBlogAfterRestore } from './world.js';
import { BlogChanges } from './changes.js';
import { Engagement } from './engagement/engagement.js';
import { BlogAuth } from './http/auth.js';
import { createBlogApp } from './http/index.js';
import { Publishing } from './publishing/publishing.js';
import { PostRenderer } from './publishing/renderer.js';
import { Reading } from './reading/reading.js';
import { RegistrationMails } from './registration/mails.js';
import { Registration } from './registration/registration.js';
import type { BlogSettings } from './settings.js';
import { BlogStore } from './store/index.js';
import { BlogUrls } from './urls.js';

/** Serves the blog's API and pages (index.ts declares the service; this is its running part, loaded on start). */
export async function start(platform: Platform, settings: BlogSettings): Promise<RunningService> {
  const { clock } = platform;
  // Links in e-mails and pages point at the API as reachable from outside: configured, or the listen address.
  let apiBaseUrl = settings.apiBaseUrl ?? '';
  const apiBase = () => apiBaseUrl;
  const store = new BlogStore(platform.db);
  const urls = new BlogUrls(settings);
  const cache = new ResponseCache();
  const renderer = new PostRenderer(settings.renderThreads, platform.logger);
  const changes = new BlogChanges(platform.events);
  const auth = new BlogAuth(platform.keys, store.agents);
  const unsubscribe = changes.onChange((change) => {
    cache.clear();
    if (change.agentId) auth.forget(change.agentId);
  });
  const reload = reloadBlogAfterRestore({ cache, auth });

  const reading = new Reading({ agents: store.agents, posts: store.posts, cache, clock, urls });
  const api = {
    registration: new Registration({
      agents: store.agents,
      mails: new RegistrationMails(platform.mailer, settings.mailFrom, apiBase),
      keys: platform.keys,
      clock,
      urls,
      changes,
      db: platform.db,
      // The blog alone (no relay, no mail service here): mail to an outside address has
      // nowhere to go, so the link is logged for the developer (README). Off whenever a relay
      // is set or the mail outbox holds the mail (the operator reads it there).
      onVerificationLink: platform.mailer.hasRelay
        ? undefined
        : (email, link) => {
            if (platform.mailer.isLocal(email) || platform.mailer.holdsOutsideMail) return;
            platform.logger.info(
              { service: 'blog' },
              `Verification link for ${email} (no mail relay is set and the mail service is not running, so it is shown here): ${link}`,
            );
          },
    }),
    publishing: new Publishing(store.posts, clock, changes, renderer),
    reading,
    engagement: new Engagement({ posts: store.posts, engagement: store.engagement, clock, changes }),
    posts: store.posts,
    agents: store.agents,
    auth,
    urls,
    limits: platform.limits,
    apiBase,
    trace: platform.trace,
  };
  const pages = {
    agents: store.agents,
    reading,
    posts: store.posts,
    engagement: store.engagement,
    cache,
    clock,
    urls,
    domain: settings.domain,
    apiBase,
  };
  const app = await createBlogApp(platform, { api, pages });

  const url = await listen(app, platform.config.host, settings.port);
  apiBaseUrl ||= url;
  const port = new URL(url).port;
  urls.listening(platform.config.host, Number(port));
  return {
    urls: { api: url, pages: `http://${settings.domain}:${port}` },
    reload,
    async stop() {
      unsubscribe();
      await app.close();
      await renderer.stop();
    },
  };
}
