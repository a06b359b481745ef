// The home's HTTP entry: its app, with Home Assistant's REST API under /api (one file per
// resource), its bodies, token check and 405s, and the WebSocket route. Errors are always JSON
// {"message"} with HA's status codes (envelope.ts).
import websocket from '@fastify/websocket';
import { createApp, type App } from '../../../platform/http.js';
import type { Platform } from '../../../platform/service.js';
import { requireToken } from './auth.js';
import { registerAutomationConfigRoutes } from './automation-config.js';
import { parseBodiesLikeHa } from './body.js';
import { registerConversationRoutes } from './conversation.js';
import type { HttpDeps } from './deps.js';
import { homeEnvelope } from './envelope.js';
import { registerEventRoutes } from './events.js';
import { registerHistoryRoutes } from './history.js';
import { registerLogbookRoutes } from './logbook.js';
import { registerMcpRoutes } from './mcp.js';
import { refuseOtherMethods } from './methods.js';
import { registerServiceRoutes } from './services.js';
import { registerStateRoutes } from './states.js';
import { registerStatusRoutes } from './status.js';
import { registerSystemRoutes } from './system.js';
import { registerTemplateRoutes } from './template.js';
import { registerWebhookRoutes } from './webhooks.js';
import { registerWebSocketRoute } from './websocket.js';

export async function createHomeApp(platform: Platform, deps: HttpDeps): Promise<App> {
  const app = await createApp(platform, {
    service: 'home',
    envelope: homeEnvelope,
    openapi: { title: 'Hamlet home (Home Assistant API)', version: '1.0.0' },
    index: {
      title: 'Hamlet home',
      summary:
        "A smart home speaking Home Assistant's REST API under /api and its WebSocket API at /api/websocket (Bearer token from `npx hamlet keys create home`).",
      docs: 'docs/home.md',
      links: { 'REST API root (needs a token)': '/api/' },
    },
  });
  await platform.limits.register(app);
  await app.register(websocket, { options: { maxPayload: 4 * 1024 * 1024 } });
  registerHomeHttp(app, deps);
  return app;
}

function registerHomeHttp(app: App, deps: HttpDeps): void {
  parseBodiesLikeHa(app);
  requireToken(app, deps.keys);
  refuseOtherMethods(app);
  registerStatusRoutes(app, deps.home);
  registerStateRoutes(app, deps);
  registerServiceRoutes(app, deps);
  registerEventRoutes(app, deps);
  registerHistoryRoutes(app, deps);
  registerLogbookRoutes(app, deps);
  registerWebhookRoutes(app, deps.home);
  registerAutomationConfigRoutes(app, deps);
  registerConversationRoutes(app, deps);
  registerMcpRoutes(app, deps);
  registerTemplateRoutes(app, deps);
  registerSystemRoutes(app, deps);
  registerWebSocketRoute(app, {
    home: deps.home,
    persist: deps.persist,
    store: deps.store,
    automations: deps.automations,
    ...deps.websocket,
  });
}
