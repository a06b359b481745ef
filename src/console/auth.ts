// Who may use the console: holders of an admin key (`npx hamlet keys create admin`). People log
// in on /login and get a session (sessions.ts): the HttpOnly, SameSite=Strict cookie holds a
// random session id, never the key, and lasts HAMLET_CONSOLE_SESSION_TTL; logout or revoking the
// key ends it. Programs send the key as a bearer token. Writes made with the cookie must also
// carry the CSRF token (a header `x-csrf-token` or a form field `_csrf`): a token derived from
// the session id by HMAC, which a page of another origin cannot read. Bearer requests need none,
// since a browser never adds that header on its own.
//
// The login itself is guarded too: throttled per client address (the platform's rate limit
// `console_login`), and refused when posted from a page of another origin (login CSRF, which
// would log a victim's browser into the attacker's console).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, type App } from '../platform/http.js';
import type { Keys } from '../platform/keys.js';
import { byClientAddress, type RateLimits } from '../platform/ratelimit.js';
import { ADMIN_KEYS } from './admin-keys.js';
import { layout } from '../platform/console-layout.js';
import { escapeHtml } from '../platform/html.js';
import type { Session, Sessions } from './sessions.js';

const SESSION_COOKIE = 'hamlet_console';

declare module 'fastify' {
  interface FastifyRequest {
    /** The cookie's session, when the request came with one (logout ends it). */
    consoleSession?: Session;
  }
}

export interface AuthDeps {
  keys: Keys;
  sessions: Sessions;
  limits: RateLimits;
  /** The console's public URL (HAMLET_CONSOLE_URL), whose host a login may also be posted from. */
  publicUrl?: string;
}

/**
 * Paths outside the admin door: the login page, static assets, health, and the MCP endpoint,
 * whose tools act with the calling agent's own service keys (mcp/keyring.ts), not an admin's.
 */
const PUBLIC = [/^\/login(\?|$)/, /^\/static\//, /^\/healthz(\/|\?|$)/, /^\/mcp(\?|$)/];
/** Paths for programs: refused with 401 JSON, never redirected to a page. */
const API = /^\/(admin\/api|api)(\/|\?|$)/;
const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'];
const CSRF_REFUSAL = {
  message: 'This write needs the CSRF token (x-csrf-token header or _csrf form field) of your console session',
  code: 'csrf',
};

const csrfTokenOf = (secret: string): string =>
  createHmac('sha256', secret).update('hamlet-console-csrf').digest('hex').slice(0, 40);

/** A cookie's raw value; nothing is decoded, so no value can make parsing throw. */
function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const sameText = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export async function registerAuth(app: App, deps: AuthDeps): Promise<void> {
  const { keys, sessions } = deps;
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url;
    if (PUBLIC.some((p) => p.test(path))) return;
    const bearer = bearerToken(request);
    if (bearer) {
      if (!(await keys.verify(ADMIN_KEYS, bearer))) return refuse(request, reply);
      request.consoleCsrf = csrfTokenOf(bearer);
      return; // a browser never adds a bearer token by itself: no CSRF check
    }
    const secret = readCookie(request.headers.cookie, SESSION_COOKIE);
    const session = await sessions.find(secret);
    if (!session || !secret) return refuse(request, reply);
    request.consoleSession = session;
    request.consoleCsrf = csrfTokenOf(secret);
    if (SAFE_METHODS.includes(request.method)) return;
    // A cookie-authenticated write: the header is checked here; a form's `_csrf` field after parsing.
    const header = request.headers['x-csrf-token'];
    if (typeof header === 'string' && sameText(header, request.consoleCsrf)) return;
    if (/^application\/x-www-form-urlencoded/.test(request.headers['content-type'] ?? '')) return; // checked once parsed, before validation
    return reply.code(403).send(CSRF_REFUSAL);
  });
  // preValidation, not preHandler: a forged form must get its 403 before a route's body schema answers 400.
  app.addHook('preValidation', async (request, reply) => {
    if (!request.consoleSession || !request.consoleCsrf || SAFE_METHODS.includes(request.method)) return;
    if (!/^application\/x-www-form-urlencoded/.test(request.headers['content-type'] ?? '')) return;
    if (
      typeof request.headers['x-csrf-token'] === 'string' &&
      sameText(request.headers['x-csrf-token'], request.consoleCsrf)
    )
      return;
    const field = (request.body as Record<string, unknown> | undefined)?._csrf;
    if (typeof field === 'string' && sameText(field, request.consoleCsrf)) return;
    return reply.code(403).send(CSRF_REFUSAL);
  });

  await deps.limits.register(app);
  const throttle = deps.limits.route('console_login', '20/15m', {
    key: byClientAddress,
    description: 'console login attempts per client address',
  });
  const publicHost = deps.publicUrl ? new URL(deps.publicUrl).host : undefined;

  app.get('/login', { schema: { hide: true } }, async (request, reply) => {
    const q = request.query as { next?: string; failed?: string };
    return reply
      .type('text/html; charset=utf-8')
      .send(loginPage(safeNext(q.next), q.failed === '1' ? 'That is not a live admin key.' : undefined));
  });
  app.post('/login', { schema: { hide: true }, config: throttle }, async (request, reply) => {
    const body = (request.body ?? {}) as { key?: unknown; next?: unknown };
    const next = safeNext(typeof body.next === 'string' ? body.next : undefined);
    if (postedFromElsewhere(request, publicHost)) {
      return reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(loginPage(next, 'Log in from this console’s own login page: a login posted by another site is refused.'));
    }
    const key = typeof body.key === 'string' ? body.key.trim() : '';
    const record = await keys.verify(ADMIN_KEYS, key);
    if (!record) return reply.redirect(`/login?failed=1&next=${encodeURIComponent(next)}`, 303);
    const secret = await sessions.create(record.id);
    const maxAge = Math.floor(sessions.ttlMs / 1000);
    reply.header(
      'set-cookie',
      `${SESSION_COOKIE}=${secret}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAge}${request.protocol === 'https' ? '; Secure' : ''}`,
    );
    return reply.redirect(next, 303);
  });
  app.post('/logout', { schema: { hide: true } }, async (request, reply) => {
    if (request.consoleSession) await sessions.revoke(request.consoleSession.id);
    reply.header('set-cookie', `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`);
    return reply.redirect('/login', 303);
  });
}

/**
 * A login form posted by a page of another origin. Browsers say so in Sec-Fetch-Site, and in
 * the Origin of every POST; programs (curl, tests) send neither and pass. `same-site` is refused
 * too: another port of the same host (a blog, a mail page) is the same site but not this console.
 */
function postedFromElsewhere(request: FastifyRequest, publicHost: string | undefined): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true; // `null` (a sandboxed frame, a data: page) or garbage
  }
  return host !== request.headers.host && host !== publicHost;
}

function refuse(request: FastifyRequest, reply: FastifyReply) {
  const wantsPage =
    !API.test(request.url) && request.method === 'GET' && /text\/html/.test(request.headers.accept ?? '');
  if (wantsPage) return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 302);
  return reply.code(401).send({
    message: 'Log in to the console, or send an admin key as a bearer token (npx hamlet keys create admin)',
    code: 'unauthorized',
  });
}

/** Only a path on this console, so the login form cannot be made to redirect elsewhere. */
function safeNext(next: string | undefined): string {
  return next && /^\/(?![/\\])/.test(next) ? next : '/';
}

function loginPage(next: string, problem: string | undefined): string {
  return layout({
    title: 'Log in',
    nav: false,
    body: `<main class="narrow"><h1>Hamlet console</h1>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/login">
<label for="key">Admin key</label>
<input id="key" name="key" type="password" autocomplete="current-password" required autofocus>
<input type="hidden" name="next" value="${escapeHtml(next)}">
<button type="submit">Log in</button>
</form>
<p class="hint">Create one with <code>npx hamlet keys create admin</code>.</p></main>`,
  });
}
