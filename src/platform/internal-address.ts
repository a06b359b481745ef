// Which addresses and host names are "internal": this machine, private networks, link-local
// (cloud metadata at 169.254.169.254), multicast and the other ranges no public server uses.
//
// IPv6 has several ways to carry an IPv4 address inside it (mapped ::ffff:a.b.c.d, the old
// "compatible" ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo 2001::/32), and the URL
// parser writes them in hex (`[::ffff:127.0.0.1]` becomes `[::ffff:7f00:1]`), so a pattern
// on the text misses them: the address is parsed into its 16-bit groups and any embedded IPv4
// address is judged by the IPv4 list.
import net from 'node:net';

const internalV4 = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8], // "this" network; 0.0.0.0 reaches this machine
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, incl. cloud metadata 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  internalV4.addSubnet(addr, prefix, 'ipv4');

const internalV6 = new net.BlockList();
for (const [addr, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed by some)
  ['ff00::', 8], // multicast
] as const)
  internalV6.addSubnet(addr, prefix, 'ipv6');

/** The eight 16-bit groups of a valid IPv6 address (dotted IPv4 tail allowed). */
function ipv6Groups(ip: string): number[] {
  let text = ip;
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, dotted.index) + '0'; // placeholder group, dropped below
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const parse = (s: string) => (s ? s.split(':').map((h) => parseInt(h, 16)) : []);
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  if (tail.length) (right.length ? right : left).pop();
  const fill = 8 - left.length - right.length - tail.length;
  return [...left, ...new Array<number>(Math.max(fill, 0)).fill(0), ...right, ...tail];
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/** The IPv4 address an IPv6 address carries, for the forms that route to it. */
function embeddedIPv4(g: number[]): string | undefined {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && (g[5] === 0xffff || g[5] === 0)) return v4(g[6], g[7]); // mapped, compatible (incl. :: and ::1)
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6], g[7]); // SIIT ::ffff:0:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4(g[6], g[7]); // NAT64
  if (g[0] === 0x2002) return v4(g[1], g[2]); // 6to4
  if (g[0] === 0x2001 && g[1] === 0) return v4(~g[6] & 0xffff, ~g[7] & 0xffff); // Teredo client, stored inverted
  return undefined;
}

/** True for loopback, private, link-local, multicast and other non-public addresses. */
export function isInternalAddress(ip: string): boolean {
  if (net.isIPv4(ip)) return internalV4.check(ip, 'ipv4');
  if (net.isIPv6(ip)) {
    const bare = ip.replace(/%.*$/, ''); // a zone (fe80::1%eth0) says which link, not which address
    const inner = embeddedIPv4(ipv6Groups(bare));
    if (inner !== undefined && internalV4.check(inner, 'ipv4')) return true;
    return internalV6.check(bare, 'ipv6');
  }
  return true; // not an address at all: refuse
}

/**
 * True for names that resolve to this machine without asking DNS (RFC 6761: `localhost` and
 * everything under it), so no resolver, real or stubbed, is trusted with them.
 */
export function isLocalHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
