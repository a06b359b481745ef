// Outbound HTTP for webhooks and workflow HTTP nodes, guarded against internal addresses.
//
// A URL naming a public host can still resolve to 127.0.0.1, a cloud metadata address or a
// private network (SSRF). The check must happen on the address actually connected to, not
// on the name, or DNS rebinding slips past it: so the guard sits in the socket's DNS lookup.
// Operators who want webhooks to their own network set HAMLET_ALLOW_INTERNAL_REQUESTS=1.
import dns from 'node:dns';
import net from 'node:net';
import { Agent, fetch, type RequestInit, type Response } from 'undici';

const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, incl. cloud metadata 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) blocked.addSubnet(addr, prefix, 'ipv4');
for (const [addr, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) blocked.addSubnet(addr, prefix, 'ipv6');

/** True for loopback, private, link-local, multicast and other non-public addresses. */
export function isInternalAddress(ip: string): boolean {
  if (net.isIPv4(ip)) return blocked.check(ip, 'ipv4');
  if (net.isIPv6(ip)) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped) return blocked.check(mapped[1]!, 'ipv4');
    return blocked.check(ip, 'ipv6');
  }
  return true; // not an address at all: refuse
}

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
  constructor(host: string, address: string) {
    super(`refusing to connect to ${host} (${address}): internal addresses are blocked; set HAMLET_ALLOW_INTERNAL_REQUESTS=1 to allow them`);
  }
}

const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return (callback as (e: Error | null, a?: unknown, f?: number) => void)(err);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => isInternalAddress(a.address));
    if (bad) return (callback as (e: Error) => void)(new BlockedAddressError(hostname, bad.address));
    if ((options as dns.LookupOptions).all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    (callback as (e: null, a: string, f: number) => void)(null, list[0]!.address, list[0]!.family);
  });
};

const guardedAgent = new Agent({ connect: { lookup: guardedLookup } });
const openAgent = new Agent();

export interface OutboundOptions {
  allowInternal: boolean;
  timeoutMs?: number;
}

/** The operator's choice, read from the environment. */
export const allowInternalFrom = (env: Record<string, string | undefined>): boolean =>
  env.HAMLET_ALLOW_INTERNAL_REQUESTS === '1' || env.HAMLET_ALLOW_INTERNAL_REQUESTS === 'true';

/**
 * fetch() that refuses internal addresses (unless allowed), including literal IPs in the URL
 * (which skip DNS), and times out. Redirects are followed by undici through the same agent,
 * so a redirect to an internal address is refused too.
 */
export async function outboundFetch(url: string | URL, init: RequestInit, opts: OutboundOptions): Promise<Response> {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`unsupported URL scheme ${u.protocol}`);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!opts.allowInternal && net.isIP(host) && isInternalAddress(host)) throw new BlockedAddressError(host, host);
  const signal = AbortSignal.timeout(opts.timeoutMs ?? 30_000);
  return fetch(u, { ...init, signal: init.signal ?? signal, dispatcher: opts.allowInternal ? openAgent : guardedAgent });
}
