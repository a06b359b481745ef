// The mail API's credential: a bearer key (or ?api_key= on the WebSocket stream) on every /v0
// route but download links; the key's organization scopes everything the request sees.
import { DomainError, unauthorized } from '../../../platform/errors.js';
import { missingPermissions } from '../api-keys/permissions.js';
import { bearerToken, type App } from '../../../platform/http.js';
import { isOperatorKey } from '../../../platform/keys.js';
import type { Platform } from '../../../platform/service.js';
import { orgOfKey, type KeyScope } from '../identity/scope.js';
import { SIGN_UP_PATH } from './agent.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organization of the request's API key (set by the mail service's auth hook). */
    mailOrgId: string;
    /** The id of the request's API key (the WebSocket stream counts connections per key). */
    mailKeyId: string;
    /** The request's key is the operator's own (platform/keys.ts isOperatorKey): it also sees the platform's held mail. */
    mailOperator: boolean;
  }
}

/** Checks the bearer key on every /v0 route but download links (their URL is the credential). */
export function installAuth(app: App, platform: Platform, keyScope: (keyId: string) => Promise<KeyScope>): void {
  app.decorateRequest('mailOrgId', '');
  app.decorateRequest('mailKeyId', '');
  app.decorateRequest('mailOperator', false);
  app.decorateRequest('mailKeyScope', null as unknown as KeyScope);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/v0') || request.url.startsWith('/v0/downloads/')) return;
    // Agents sign themselves up without a key (a new organization, limited per address).
    if (request.url.split('?')[0] === SIGN_UP_PATH) return;
    // The WebSocket stream also takes the key as ?api_key= (browsers cannot set headers).
    const queryKey = request.url.startsWith('/v0?') ? (request.query as { api_key?: string }).api_key : undefined;
    const token = bearerToken(request) ?? (typeof queryKey === 'string' ? queryKey : undefined);
    const key = await platform.keys.verify('mail', token);
    if (!key) throw unauthorized(token ? 'Invalid API key' : 'Missing API key: send Authorization: Bearer <key>');
    request.mailOrgId = orgOfKey(key);
    request.mailKeyId = key.id;
    request.mailOperator = isOperatorKey(key);
    request.apiKeyId = key.id;
    request.mailKeyScope = await keyScope(key.id);
    const missing = missingPermissions(
      request.mailKeyScope.permissions,
      request.method,
      request.routeOptions.url ?? '',
      (request.query ?? {}) as Record<string, unknown>,
    );
    if (missing.length)
      throw new DomainError('forbidden', `This API key lacks the permission ${missing.join(', ')}`, 'forbidden', {
        field: 'permissions',
        code: 'MISSING_PERMISSION',
      });
  });
}
