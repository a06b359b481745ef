// Every /api route needs a home token (Bearer), except inbound webhooks and the WebSocket,
// which authenticates inside its own protocol. The token's user id becomes the id of the
// user in the contexts the request causes.
import { HttpError } from '../../../platform/errors.js';
import { bearerToken, type App } from '../../../platform/http.js';
import type { Keys } from '../../../platform/keys.js';
import { userIdOf } from '../core/context.js';

declare module 'fastify' {
  interface FastifyRequest {
    homeUserId: string | null;
  }
}

export function requireToken(app: App, keys: Keys): void {
  app.decorateRequest('homeUserId', null);
  app.addHook('onRequest', async (request) => {
    const url = request.url;
    if (!url.startsWith('/api') || url.startsWith('/api/webhook/') || url.startsWith('/api/websocket')) return;
    const key = await keys.verify('home', bearerToken(request));
    if (!key) throw new HttpError(401, 'Unauthorized');
    request.homeUserId = userIdOf(key.id);
    request.apiKeyId = key.id;
  });
}
