// Whether a client address is local (private, loopback or link-local), for webhooks that
// are `local_only` (HA's default).
import { BlockList, isIPv4 } from 'node:net';

const local = new BlockList();
for (const [net, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
] as const)
  local.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  local.addSubnet(net, prefix, 'ipv6');

export function isLocalAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return local.check(mapped[1], 'ipv4');
  return isIPv4(ip) ? local.check(ip, 'ipv4') : local.check(ip, 'ipv6');
}
