// Who may use the console: holders of an admin key (`npx hamlet keys create admin`). People log
// in once on /login and the key is kept in an HttpOnly, SameSite=Strict cookie; programs send it
// as a bearer token. Writes made with the cookie must also carry the CSRF token (a header
// `x-csrf-token` or a form field `_csrf`): a token derived from the key by HMAC, which a page of
// another origin cannot read. Bearer requests need none, since a browser never adds that header
// on its own.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, type App } from '../platform/http.js';
import type { Keys } from '../platform/keys.js';
import { ADMIN_KEYS } from './admin-keys.js';
import { layout } from './pages/layout.js';
import { escapeHtml } from '../platform/html.js';

const SESSION_COOKIE = 'hamlet_console';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the admin key checks out: the CSRF token pages must embed in their forms. */
    consoleCsrf?: string;
  }
}

/**
 * Paths outside the admin door: the login page, static assets, health, and the MCP endpoint,
 * whose tools act with the calling agent's own service keys (mcp/keyring.ts), not an admin's.
 */
const PUBLIC = [/^\/login(\?|$)/, /^\/static\//, /^\/healthz(\/|\?|$)/, /^\/mcp(\?|$)/];
/** Paths for programs: refused with 401 JSON, never redirected to a page. */
const API = /^\/(admin\/api|api)(\/|\?|$)/;

const csrfTokenOf = (key: string): string => createHmac('sha256', key).update('hamlet-console-csrf').digest('hex').slice(0, 40);

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

const sameText = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function registerAuth(app: App, keys: Keys): void {
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url;
    if (PUBLIC.some((p) => p.test(path))) return;
    const fromCookie = readCookie(request.headers.cookie, SESSION_COOKIE);
    const bearer = bearerToken(request);
    const key = bearer ?? fromCookie;
    const record = await keys.verify(ADMIN_KEYS, key);
    if (!record || !key) return refuse(request, reply);
    request.consoleCsrf = csrfTokenOf(key);
    if (bearer || ['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return;
    // A cookie-authenticated write: the header is checked here; a form's `_csrf` field after parsing.
    const header = request.headers['x-csrf-token'];
    if (typeof header === 'string' && sameText(header, request.consoleCsrf)) return;
    if (/^application\/x-www-form-urlencoded/.test(request.headers['content-type'] ?? '')) return; // checked once parsed, before validation
    return reply.code(403).send({ message: 'This write needs the CSRF token (x-csrf-token header or _csrf form field) of your console session', code: 'csrf' });
  });
  // preValidation, not preHandler: a forged form must get its 403 before a route's body schema answers 400.
  app.addHook('preValidation', async (request, reply) => {
    if (!request.consoleCsrf || ['GET', 'HEAD', 'OPTIONS'].includes(request.method) || bearerToken(request)) return;
    if (!/^application\/x-www-form-urlencoded/.test(request.headers['content-type'] ?? '')) return;
    if (typeof request.headers['x-csrf-token'] === 'string' && sameText(request.headers['x-csrf-token'], request.consoleCsrf)) return;
    const field = (request.body as Record<string, unknown> | undefined)?._csrf;
    if (typeof field === 'string' && sameText(field, request.consoleCsrf)) return;
    return reply.code(403).send({ message: 'This write needs the CSRF token (x-csrf-token header or _csrf form field) of your console session', code: 'csrf' });
  });

  app.get('/login', { schema: { hide: true } }, async (request, reply) => {
    const q = request.query as { next?: string; failed?: string };
    return reply.type('text/html; charset=utf-8').send(loginPage(safeNext(q.next), q.failed === '1'));
  });
  app.post('/login', { schema: { hide: true } }, async (request, reply) => {
    const body = (request.body ?? {}) as { key?: unknown; next?: unknown };
    const key = typeof body.key === 'string' ? body.key.trim() : '';
    const next = safeNext(typeof body.next === 'string' ? body.next : undefined);
    if (!(await keys.verify(ADMIN_KEYS, key))) return reply.redirect(`/login?failed=1&next=${encodeURIComponent(next)}`, 303);
    reply.header('set-cookie', `${SESSION_COOKIE}=${encodeURIComponent(key)}; HttpOnly; SameSite=Strict; Path=/${request.protocol === 'https' ? '; Secure' : ''}`);
    return reply.redirect(next, 303);
  });
  app.post('/logout', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('set-cookie', `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`);
    return reply.redirect('/login', 303);
  });
}

function refuse(request: FastifyRequest, reply: FastifyReply) {
  const wantsPage = !API.test(request.url) && request.method === 'GET' && /text\/html/.test(request.headers.accept ?? '');
  if (wantsPage) return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 302);
  return reply.code(401).send({ message: 'Log in to the console, or send an admin key as a bearer token (npx hamlet keys create admin)', code: 'unauthorized' });
}

/** Only a path on this console, so the login form cannot be made to redirect elsewhere. */
function safeNext(next: string | undefined): string {
  return next && /^\/(?![/\\])/.test(next) ? next : '/';
}

function loginPage(next: string, failed: boolean): string {
  return layout({
    title: 'Log in',
    nav: false,
    body: `<main class="narrow"><h1>Hamlet console</h1>
${failed ? '<p class="error" role="alert">That is not a live admin key.</p>' : ''}
<form method="post" action="/login">
<label for="key">Admin key</label>
<input id="key" name="key" type="password" autocomplete="current-password" required autofocus>
<input type="hidden" name="next" value="${escapeHtml(next)}">
<button type="submit">Log in</button>
</form>
<p class="hint">Create one with <code>npx hamlet keys create admin</code>.</p></main>`,
  });
}
