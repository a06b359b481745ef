// What the log must never hold: credentials that travel in URLs (verification tokens,
// ?access_token= and ?api_key= that HA and AgentMail clients send, signed download links)
// and in headers. Whoever reads a log line could otherwise act as the client it names.
// The request log line and every `url` a log call passes go through here (see logger.ts).
import type { FastifyRequest } from 'fastify';

const REDACTED = '[redacted]';

/** Names whose values are credentials, compared lower-case with separators removed. */
const SECRET_WORDS = ['token', 'apikey', 'secret', 'passw', 'signature', 'credential', 'accesskey', 'webhookid'];
const SECRET_NAMES = new Set(['key', 'sig', 'code', 'auth', 'authorization', 'session', 'jwt', 'pwd']);

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

/** A URL (absolute, or a path with a query) with secret query values and any password masked. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const head = maskUrlPassword(q < 0 ? url : url.slice(0, q));
  if (q < 0) return head;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      return isSecretName(safeDecode(pair.slice(0, eq))) ? `${pair.slice(0, eq + 1)}${REDACTED}` : pair;
    })
    .join('&');
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
 */
export function loggableUrl(request: FastifyRequest): string {
  const url = redactUrl(request.url);
  const params = request.params as Record<string, unknown> | undefined;
  if (!params || typeof params !== 'object') return url;
  const secretValues = new Set(Object.entries(params).filter(([name, v]) => name !== '*' && isSecretName(name) && typeof v === 'string' && v).map(([, v]) => v as string));
  if (!secretValues.size) return url;
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
