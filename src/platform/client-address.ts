// Who the client is behind reverse proxies. X-Forwarded-For is a list every proxy appends
// to, so only its right-hand end was written by proxies we run; the left-hand end is
// whatever the client sent. The client address is therefore the right-most entry that is
// not a trusted proxy, found by walking from the socket address leftwards.
//
// Fastify hands its trustProxy function each address in that walk, the socket first
// (index 0); the walk stops at the first address the function does not trust.
import { BlockList, isIP } from 'node:net';

/** HAMLET_TRUST_PROXY: how many proxies stand in front, or which addresses they have. */
export type TrustProxySetting = { hops: number } | { addresses: string[] };

/** Parses "2" (hops) or "10.0.0.0/8, 127.0.0.1, ::1" (addresses); a string describes the mistake. */
export function parseTrustProxy(raw: string): TrustProxySetting | undefined | string {
  const text = raw.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 32) return 'a hop count must be from 0 to 32';
    return hops === 0 ? undefined : { hops };
  }
  const addresses = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const a of addresses)
    if (!validAddressOrCidr(a)) return `${a} is neither a hop count nor an IP address or CIDR range`;
  return addresses.length ? { addresses } : 'expected a hop count or a comma-separated list of proxy addresses';
}

function validAddressOrCidr(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Fastify's trustProxy for a setting: false (trust nothing) when there is none. */
export function trustProxyFunction(
  setting: TrustProxySetting | undefined,
): false | ((address: string, hop: number) => boolean) {
  if (!setting) return false;
  if ('hops' in setting) {
    // Trust the socket and the entries the next hops-1 proxies appended; not one more.
    const hops = setting.hops;
    return (_address, hop) => hop < hops;
  }
  const trusted = new BlockList();
  for (const entry of setting.addresses) {
    const [address, prefix] = entry.split('/') as [string, string | undefined];
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) trusted.addAddress(address, type);
    else trusted.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    const plain = unmapIPv4(address);
    const family = isIP(plain);
    return family !== 0 && trusted.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** "::ffff:127.0.0.1" (an IPv4 client on a dual-stack socket) → "127.0.0.1". */
function unmapIPv4(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1] : address;
}
