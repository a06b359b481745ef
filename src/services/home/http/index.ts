// The home's HTTP side: Home Assistant's REST API under /api (one file per resource), its
// bodies, token check and 405s, and the WebSocket route. Errors are always JSON {"message"}
// with HA's status codes (envelope.ts).
import type { App } from '../../../platform/http.js';
import { requireToken } from './auth.js';
import { registerAutomationConfigRoutes } from './automation-config.js';
import { parseBodiesLikeHa } from './body.js';
import { registerConversationRoutes } from './conversation.js';
import type { HttpDeps } from './deps.js';
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

export function registerHomeHttp(app: App, deps: HttpDeps): void {
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
  registerWebSocketRoute(app, { home: deps.home, persist: deps.persist, store: deps.store, automations: deps.automations, ...deps.websocket });
}
