// One redirect step, built the way fetch() builds it (WHATWG Fetch, "HTTP-redirect fetch"), so
// that following redirects ourselves (to check every hop's address) changes nothing else:
// 303, and 301/302 after a POST, continue as GET without a body; 307/308 repeat the request.
// Credentials go only to the origin they were written for.
import type { Headers, RequestInit } from 'undici';
import { undici } from './optional-modules.js';

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** n8n's HTTP Request default (`maxRedirects`), also follow-redirects' and Chrome's limit. */
export const DEFAULT_MAX_REDIRECTS = 21;

export interface Hop {
  url: URL;
  method: string;
  headers: Headers;
  body: RequestInit['body'];
}

/** Headers that describe the body; dropped when the body is. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
/** Headers that carry credentials; never sent to an origin the caller did not name. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** A body fetch() consumed while sending (a stream) cannot be sent a second time. */
const replayable = (body: RequestInit['body']) =>
  body === null ||
  body === undefined ||
  !(typeof body === 'object' && (Symbol.asyncIterator in body || 'getReader' in body));

export class RedirectError extends Error {
  readonly code = 'EREDIRECT';
}

/** The request that follows `hop` after it was answered `status` with `Location: location`. */
export function nextHop(hop: Hop, status: number, location: string): Hop {
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch {
    throw new RedirectError(`redirect from ${hop.url.origin} to an invalid location: ${location.slice(0, 200)}`);
  }
  const headers = new (undici().Headers)(hop.headers);
  let { method, body } = hop;
  if (
    (status === 303 && method !== 'GET' && method !== 'HEAD') ||
    ((status === 301 || status === 302) && method === 'POST')
  ) {
    method = 'GET';
    body = undefined;
    for (const h of BODY_HEADERS) headers.delete(h);
  } else if (!replayable(body)) {
    throw new RedirectError(`cannot repeat a streamed request body after a ${status} redirect`);
  }
  if (url.origin !== hop.url.origin) for (const h of CREDENTIAL_HEADERS) headers.delete(h);
  return { url, method, headers, body };
}
