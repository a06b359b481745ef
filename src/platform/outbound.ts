// Outbound HTTP for webhooks and workflow HTTP nodes, guarded against internal addresses.
//
// A URL naming a public host can still lead to 127.0.0.1, a cloud metadata address or a
// private network (SSRF), directly or through a redirect. So every hop is checked:
// - redirects are followed here, one request at a time, never by undici; each new URL is
//   checked before it is requested (literal IPs never reach a DNS lookup, so the lookup hook
//   alone would let `Location: http://127.0.0.1/` through);
// - host names are checked in the socket's DNS lookup, on the address actually connected to,
//   so a name that resolves differently the second time (DNS rebinding) cannot slip past.
// Operators who want webhooks to their own network set HAMLET_ALLOW_INTERNAL_REQUESTS=1.
import dns from 'node:dns';
import net from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { Agent, RequestInit, Response } from 'undici';
import { isInternalAddress, isLocalHostName } from './internal-address.js';
import { undici } from './optional-modules.js';
import { DEFAULT_MAX_REDIRECTS, nextHop, REDIRECT_STATUSES, RedirectError, type Hop } from './redirects.js';

export { isInternalAddress } from './internal-address.js';
export { DEFAULT_MAX_REDIRECTS } from './redirects.js';

class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
  constructor(host: string, address: string) {
    super(
      `refusing to connect to ${host} (${address}): internal addresses are blocked; set HAMLET_ALLOW_INTERNAL_REQUESTS=1 to allow them`,
    );
  }
}

/** How host names are resolved and which addresses count as internal. */
export interface AddressPolicy {
  isInternal(ip: string): boolean;
  /** Every address of a name, as the socket would connect to it (family 0: any). */
  lookup(hostname: string, family: 0 | 4 | 6): Promise<dns.LookupAddress[]>;
}

const systemPolicy: AddressPolicy = {
  isInternal: isInternalAddress,
  lookup: (hostname, family) => dns.promises.lookup(hostname, { all: true, family }),
};
let policy = systemPolicy;

/**
 * Replaces the address policy; returns a function that puts the previous one back. For tests
 * that must simulate a public host without leaving the machine (a redirector on 127.0.0.2
 * judged public, names resolved by a table).
 */
export function replaceAddressPolicy(replacement: Partial<AddressPolicy>): () => void {
  const previous = policy;
  policy = { ...systemPolicy, ...replacement };
  return () => {
    policy = previous;
  };
}

type LookupCallback = (err: Error | null, address?: string | dns.LookupAddress[], family?: number) => void;

const guardedLookup = ((hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
  const family = options.family === 4 || options.family === 6 ? options.family : 0;
  policy.lookup(hostname, family).then(
    (list) => {
      const bad = list.find((a) => policy.isInternal(a.address));
      if (bad) return callback(new BlockedAddressError(hostname, bad.address));
      if (!list.length)
        return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    },
    (err: Error) => callback(err),
  );
}) as unknown as net.LookupFunction;

let agents: { guarded: Agent; open: Agent } | undefined;
/** The connection pools, guarded and open, made with the first outbound request (undici loads then). */
function agent(guarded: boolean): Agent {
  const { Agent } = undici();
  agents ??= { guarded: new Agent({ connect: { lookup: guardedLookup } }), open: new Agent() };
  return guarded ? agents.guarded : agents.open;
}

export interface OutboundOptions {
  /** The operator's HAMLET_ALLOW_INTERNAL_REQUESTS: no guard at all. */
  allowInternal: boolean;
  /**
   * The URL is the operator's own configuration (a sibling service's HAMLET_<SERVICE>_URL): its
   * origin may be internal. A redirect to any other origin is guarded like user input.
   */
  trustOrigin?: boolean;
  /** For the whole chain of redirects. */
  timeoutMs?: number;
}

const LOOKUP_BUDGET_MS = 3_000;

/**
 * Why a URL stored now and called later (a webhook) leads to an internal address, or
 * undefined: the same judgement as the guard's, given at configuration time so the caller can
 * refuse it at once instead of every delivery failing later. A name that does not resolve
 * (yet, or within a few seconds) is not refused here; each request is guarded anyway.
 */
export async function internalDestination(url: URL): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isLocalHostName(host)) return `${host} is this machine`;
  if (net.isIP(host)) return policy.isInternal(host) ? `${host} is an internal address` : undefined;
  const timeout = new Promise<dns.LookupAddress[]>((resolve) =>
    setTimeout(() => resolve([]), LOOKUP_BUDGET_MS).unref(),
  );
  const list = await Promise.race([policy.lookup(host, 0).catch(() => []), timeout]);
  const bad = list.find((a) => policy.isInternal(a.address));
  return bad ? `${host} resolves to the internal address ${bad.address}` : undefined;
}

/** fetch() options plus how many redirects to follow (`redirect: 'manual'` follows none). */
export type OutboundInit = RequestInit & { maxRedirects?: number };

/** The limit asked for (from a node's parameters, so maybe a string or nonsense), else n8n's default. */
function redirectLimit(wanted: unknown): number {
  const n = typeof wanted === 'number' || (typeof wanted === 'string' && wanted.trim() !== '') ? Number(wanted) : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : DEFAULT_MAX_REDIRECTS;
}

/** Refuses a hop the guard applies to, before any connection: scheme, local names, literal IPs. */
function checkHop(url: URL, guarded: boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported URL scheme ${url.protocol}`);
  if (!guarded) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isLocalHostName(host)) throw new BlockedAddressError(host, 'this machine');
  // The URL parser already turned 2130706433, 0x7f.1 and 017700000001 into 127.0.0.1.
  if (net.isIP(host) && policy.isInternal(host)) throw new BlockedAddressError(host, host);
}

/**
 * fetch() refuses a body on GET and HEAD, but n8n's HTTP Request node sends one when the
 * workflow asks for it (HTTP allows it): such a request goes through undici's lower-level
 * request(), on the same agents (so the same guard), and comes back as a fetch Response.
 */
async function sendBodyWithoutFetch(hop: Hop, guarded: boolean, signal: AbortSignal): Promise<Response> {
  const { request, Headers, Response } = undici();
  const r = await request(hop.url, {
    method: hop.method as 'GET' | 'HEAD',
    headers: Object.fromEntries(hop.headers),
    body: hop.body as string | Buffer,
    signal,
    dispatcher: agent(guarded),
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(r.headers))
    for (const one of [value ?? []].flat()) headers.append(name, one);
  const noBody = hop.method === 'HEAD' || [101, 204, 205, 304].includes(r.statusCode);
  const body = noBody ? (await r.body.dump(), null) : Buffer.from(await r.body.arrayBuffer());
  return new Response(body, { status: r.statusCode, statusText: STATUS_CODES[r.statusCode] ?? '', headers });
}

async function send(hop: Hop, init: RequestInit, guarded: boolean, signal: AbortSignal): Promise<Response> {
  try {
    if (
      (hop.method === 'GET' || hop.method === 'HEAD') &&
      (typeof hop.body === 'string' || hop.body instanceof Uint8Array)
    )
      return await sendBodyWithoutFetch(hop, guarded, signal);
    return await undici().fetch(hop.url, {
      ...init,
      method: hop.method,
      headers: hop.headers,
      body: hop.body,
      redirect: 'manual',
      signal,
      dispatcher: agent(guarded),
    });
  } catch (err) {
    // undici reports a refused lookup as "fetch failed"; the caller should read why.
    const cause = (err as { cause?: unknown }).cause;
    throw cause instanceof BlockedAddressError ? cause : err;
  }
}

/**
 * fetch() that refuses internal addresses (unless allowed) on every hop, follows redirects
 * itself (at most `maxRedirects`, default 21) and times out.
 */
export async function outboundFetch(url: string | URL, init: OutboundInit, opts: OutboundOptions): Promise<Response> {
  const { maxRedirects: wanted, redirect = 'follow', ...rest } = init;
  const maxRedirects = redirectLimit(wanted);
  const first = new URL(url);
  const trusted = opts.trustOrigin ? first.origin : undefined;
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? 30_000);
  const signal = rest.signal ? AbortSignal.any([rest.signal, timeout]) : timeout;
  let hop: Hop = {
    url: first,
    method: (rest.method ?? 'GET').toUpperCase(),
    headers: new (undici().Headers)(rest.headers),
    body: rest.body,
  };
  for (let followed = 0; ; followed++) {
    const guarded = !opts.allowInternal && hop.url.origin !== trusted;
    checkHop(hop.url, guarded);
    const res = await send(hop, rest, guarded, signal);
    const location = res.headers.get('location');
    if (!REDIRECT_STATUSES.has(res.status) || location === null || redirect === 'manual') return res;
    await res.body?.cancel().catch(() => {}); // a redirect's body is discarded; a failed cancel loses nothing
    if (redirect === 'error')
      throw new RedirectError(`${hop.url.origin} answered a redirect (${res.status}) and redirects are not followed`);
    if (followed >= maxRedirects) throw new RedirectError(`Maximum number of redirects exceeded (${maxRedirects})`);
    hop = nextHop(hop, res.status, location);
  }
}
