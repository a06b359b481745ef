// The mail service's HTTP entry: its app (AgentMail's envelope, the key check, the send quota,
// the live stream) and every route group under /v0, each given the one MailContext.
import { randomBytes } from 'node:crypto';
import { createApp, type App } from '../../../platform/http.js';
import type { Platform } from '../../../platform/service.js';
import type { MailApiKeys } from '../api-keys/keys.js';
import type { MailCore } from '../core.js';
import { Pods } from '../pods/pods.js';
import { IdempotentSends } from '../sending/idempotency.js';
import type { MailSettings } from '../settings.js';
import { apiKeyRoutes } from './api-keys.js';
import { attachmentRoutes } from './attachments.js';
import { installAuth } from './auth.js';
import type { MailContext } from './context.js';
import { domainRoutes } from './domains.js';
import { DownloadLinks } from './downloads.js';
import { draftRoutes } from './drafts.js';
import { mailEnvelope } from './envelope.js';
import { identityRoutes } from './identity.js';
import { inboxRoutes } from './inboxes.js';
import { installLimits } from './limits.js';
import { listRoutes } from './lists.js';
import { messageRoutes } from './messages.js';
import { metricRoutes } from './metrics.js';
import { outboxRoutes } from './outbox.js';
import { podRoutes } from './pods.js';
import { threadRoutes } from './threads.js';
import { webhookRoutes } from './webhooks.js';
import { agentRoutes } from './agent.js';
import { agentIdRoutes } from './agentid.js';
import { inboxEventRoutes } from './inbox-events.js';
import { AgentSignups } from '../agents/signups.js';

export interface MailHttpDeps {
  core: MailCore;
  settings: MailSettings;
  apiKeys: MailApiKeys;
  /** The API's base URL as reachable from outside (download links); known after listen. */
  baseUrl: () => string;
}

export async function createMailApp(
  platform: Platform,
  { core, settings, apiKeys, baseUrl }: MailHttpDeps,
): Promise<App> {
  // JSON bodies carry attachments as base64: a 6 MB message is a little over 6 MB of JSON.
  const app = await createApp(platform, {
    service: 'mail',
    envelope: mailEnvelope,
    bodyLimit: settings.maxMessageBytes,
    openapi: {
      title: 'Hamlet mail',
      version: '1.0.0',
      description: 'AgentMail-compatible inboxes, messages, threads and webhooks',
    },
    index: {
      title: 'Hamlet mail',
      summary:
        "Inboxes, messages, threads, drafts and webhooks under /v0, speaking AgentMail's API (the agentmail SDKs work with this URL as their base URL), with real SMTP in and out.",
      docs: 'docs/mail.md',
    },
  });
  installAuth(app, platform, (keyId) => apiKeys.scopeOf(keyId));
  const sendLimit = await installLimits(app, platform);

  const secret = await core.store.secrets.get('download_links', () => randomBytes(32).toString('base64url'));
  const ctx: MailContext = {
    ...core,
    platform,
    links: new DownloadLinks(secret, baseUrl),
    domains: () => settings.domains,
    sendLimit,
    sends: new IdempotentSends(core.store, platform.clock),
    pods: new Pods(core.store, platform.clock),
    apiKeys,
    baseUrl,
  };
  // First: its hook checks the pod of every /v0/pods/{pod_id}/… route.
  // First too: its hook refuses what an agent's unverified organization may not do.
  agentRoutes(app, ctx, new AgentSignups(platform, core.store, apiKeys, core.agentRules, settings.domains[0]));
  podRoutes(app, ctx);
  inboxRoutes(app, ctx);
  messageRoutes(app, ctx);
  threadRoutes(app, ctx);
  webhookRoutes(app, ctx);
  draftRoutes(app, ctx);
  outboxRoutes(app, ctx);
  attachmentRoutes(app, ctx);
  domainRoutes(app, ctx);
  listRoutes(app, ctx);
  metricRoutes(app, ctx);
  apiKeyRoutes(app, ctx);
  identityRoutes(app, ctx);
  inboxEventRoutes(app, ctx);
  agentIdRoutes(app, ctx);
  // Last: its scope inherits every hook above (stream.ts).
  await core.live.register(app);
  return app;
}
