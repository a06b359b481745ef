// What the log and the trace must never hold: credentials that travel in URLs (verification
// tokens, ?access_token= and ?api_key= that HA and AgentMail clients send, signed download
// links), in headers, and in bodies (keys, claim tokens, verification codes, webhook secrets).
// Whoever reads a log line or a trace entry could otherwise act as the client it names.
// The request log line and every `url` a log call passes go through here (see logger.ts), and
// so does everything the trace stores (trace.ts).
import type { FastifyRequest } from 'fastify';

export const REDACTED = '[redacted]';
/** What a dropped query value becomes (the trace keeps no query values of unauthenticated calls). */
const DROPPED = '…';

/** Names whose values are credentials, compared lower-case with separators removed. */
const SECRET_WORDS = [
  'token',
  'apikey',
  'secret',
  'passw',
  'passphrase',
  'signature',
  'credential',
  'accesskey',
  'privatekey',
  'webhookid',
  'verificationcode',
];
const SECRET_NAMES = new Set([
  'key',
  'sig',
  'code',
  'otp',
  'otpcode',
  'auth',
  'authorization',
  'session',
  'jwt',
  'pwd',
  'cookie',
]);

/** Answers for names seen before: route parameter and query names repeat on every request. Bounded, since query names come from callers. */
const secretNameCache = new Map<string, boolean>();

export function isSecretName(name: string): boolean {
  let secret = secretNameCache.get(name);
  if (secret !== undefined) return secret;
  const plain = name.toLowerCase().replace(/[-_.\s]/g, '');
  secret = SECRET_NAMES.has(plain) || SECRET_WORDS.some((w) => plain.includes(w));
  if (secretNameCache.size >= 1000) secretNameCache.clear();
  secretNameCache.set(name, secret);
  return secret;
}

/**
 * A URL (absolute, or a path with a query) with secret query values and any password masked;
 * with `dropValues`, every other non-empty query value becomes DROPPED too.
 *
 * The query is walked pair by pair with indexOf, not split into a list of pairs and joined
 * again: a value that is dropped or masked is never copied, so a URL with a 15 KB query value
 * (anyone can send one, and the trace masks every call's URL) costs one scan of its bytes.
 */
export function redactUrl(url: string, dropValues = false): string {
  const q = url.indexOf('?');
  const head = maskUrlPassword(q < 0 ? url : url.slice(0, q));
  if (q < 0) return head;
  let query = '';
  /** The first '=' at or after `start` that was found (-1: none is left); searched again only once passed, so the walk stays linear. */
  let eq = -1;
  for (let start = q + 1; ;) {
    let end = url.indexOf('&', start);
    if (end < 0) end = url.length;
    if (eq !== -2 && eq < start) eq = url.indexOf('=', start);
    if (eq === -1) eq = -2; // none left: not searched again
    let pair: string;
    if (eq < 0 || eq >= end - 1) pair = url.slice(start, end);
    else {
      const name = url.slice(start, eq);
      if (isSecretName(safeDecode(name))) pair = `${name}=${REDACTED}`;
      else pair = dropValues ? `${name}=${DROPPED}` : url.slice(start, end);
    }
    query = start === q + 1 ? pair : `${query}&${pair}`;
    if (end === url.length) break;
    start = end + 1;
  }
  return `${head}?${query}`;
}

/**
 * "postgres://user:pw@host/db" → "postgres://user:****@host/db", even when the URL does not
 * parse; works on any text (an error message) holding such URLs.
 */
export function maskUrlPassword(text: string): string {
  // Most texts (every request path) hold no URL with a scheme: skip the regex for them.
  if (!text.includes('://')) return text;
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^/?#:@\s]*):[^/?#@\s]*@/gi, '$1:****@');
}

/**
 * The URL of a request as the request log shows it: secret query values masked, and path
 * parameters with secret names (e.g. /v0/downloads/:token, /api/webhook/:webhook_id) too.
 * `dropQueryValues`: the other query values go as well (the trace, for unauthenticated calls).
 */
export function loggableUrl(request: FastifyRequest, dropQueryValues = false): string {
  return maskedUrl(request.url, secretParamValues(request.params), dropQueryValues);
}

/** The values of a request's path parameters with secret names (e.g. :token), if any. */
export function secretParamValues(params: unknown): string[] | undefined {
  if (!params || typeof params !== 'object') return undefined;
  let values: string[] | undefined;
  // for…in, not Object.entries: this runs for every request the trace records, most with no parameters.
  for (const name in params) {
    if (!Object.hasOwn(params, name)) continue;
    const v = (params as Record<string, unknown>)[name];
    if (name !== '*' && typeof v === 'string' && v && isSecretName(name)) (values ??= []).push(v);
  }
  return values;
}

/** loggableUrl on a URL and the secret values its path holds (secretParamValues): for the trace, which masks off the request's path. */
export function maskedUrl(
  rawUrl: string,
  secretSegments: readonly string[] | undefined,
  dropQueryValues = false,
): string {
  const url = redactUrl(rawUrl, dropQueryValues);
  if (!secretSegments?.length) return url;
  const secretValues = new Set(secretSegments);
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const masked = path
    .split('/')
    .map((segment) => (secretValues.has(safeDecode(segment)) ? REDACTED : segment))
    .join('/');
  return q < 0 ? masked : masked + url.slice(q);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * Hamlet's own credentials by their shape, wherever they appear in a text: keys
 * (hamlet_<service>_…), claim tokens (hamlet_claim_…, base64url) and webhook signing secrets
 * (whsec_…, base64).
 */
const CREDENTIAL_PATTERN = /hamlet_[a-z]+_[A-Za-z0-9_-]{16,}|whsec_[A-Za-z0-9+/=]{16,}/g;
/** A one-time code where a mail names it ("verification code: 123456", as mail's agent sign-up writes it). */
const ONE_TIME_CODE = /(verification code:?\s*)\d{4,8}\b/gi;
/** A query parameter of a URL inside a text (a mail's body, a page's link; `&amp;` in HTML), or of a form body. */
const QUERY_PAIR = /(^|[?&;])([A-Za-z0-9_.-]+)=([^&#\s"'<>\\]+)/g;

/**
 * A text with every credential in it masked: Hamlet's keys and tokens by their shape, the
 * values of secret-named query parameters of the URLs it holds, and whatever `secretPaths`
 * matches (the trace builds it from the routes whose path carries a secret, e.g.
 * /v0/downloads/:token; group 1 is kept, the rest masked).
 */
export function redactText(text: string, secretPaths?: RegExp): string {
  let out = text.replace(CREDENTIAL_PATTERN, REDACTED);
  if (/verification code/i.test(out)) out = out.replace(ONE_TIME_CODE, `$1${REDACTED}`);
  if (out.includes('='))
    out = out.replace(QUERY_PAIR, (pair: string, sep: string, name: string) =>
      isSecretName(name) ? `${sep}${name}=${REDACTED}` : pair,
    );
  if (secretPaths) out = out.replace(secretPaths, `$1${REDACTED}`);
  return out;
}

const ANY_SEGMENT = '[^/?#\\s"\'<>\\\\]+';
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where a route's path carries a secret (a secret-named parameter: /v0/downloads/:token,
 * /claim/:token, /api/webhook/:webhook_id), the part before it as a regular expression source
 * (earlier parameters match any segment); undefined for routes without one, or whose secret
 * follows no fixed segment (that would mask every path).
 */
export function secretPathPrefix(route: string): string | undefined {
  const segments = route.split('/');
  const at = segments.findIndex((s) => s.startsWith(':') && isSecretName(s.slice(1)));
  if (at < 0) return undefined;
  const before = segments.slice(0, at);
  if (!before.some((s) => s && !s.startsWith(':') && s !== '*')) return undefined;
  return `${before.map((s) => (s.startsWith(':') || s === '*' ? ANY_SEGMENT : escapeRegex(s))).join('/')}/`;
}

/** One expression masking the secret segment after any of these prefixes (for redactText). */
export function secretPathPattern(prefixes: Iterable<string>): RegExp | undefined {
  const list = [...prefixes];
  return list.length ? new RegExp(`(${list.join('|')})${ANY_SEGMENT}`, 'g') : undefined;
}
