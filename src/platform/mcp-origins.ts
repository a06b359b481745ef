// Which browsers' requests the MCP endpoints answer: DNS-rebinding protection, which the MCP
// specification asks of servers on a machine's own addresses. A page on any site, open in a
// browser on this machine, could otherwise call the tools two ways: through a name of its own
// that resolves to 127.0.0.1 (the Host is then that name) or with a plain cross-site fetch (the
// Origin is then that site). Programs (MCP clients, curl) send no Origin and a Host they were
// given, so they pass.
//
// Host: loopback names (localhost, *.localhost), any IP address (a rebinding needs a name; an
// address typed by a person is what it says), the bind host, the service's public URL
// (HAMLET_<SERVICE>_URL), and the host names of HAMLET_MCP_ALLOWED_ORIGINS.
// Origin: absent, the server's own (the same host as the request), a loopback name or address,
// the public URL's host, an allowed host name, or exactly an allowed origin. `*` allows all.
import { isIP } from 'node:net';

export interface McpAllowList {
  any: boolean;
  /** Host names a Host header may carry besides the built-in ones. */
  hosts: Set<string>;
  /** Host names every origin of which is allowed (host-name entries, the public URL's host). */
  originHosts: Set<string>;
  /** Origins allowed exactly (scheme, host and port), from entries with a scheme. */
  origins: Set<string>;
}

export type OriginVerdict = { ok: true } | { ok: false; message: string };

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** HAMLET_MCP_ALLOWED_ORIGINS: `*`, origins (`https://app.example.com:8443`) and host names, comma separated; undefined when an entry is neither. */
export function parseAllowedOrigins(raw: string): string[] | undefined {
  const entries: string[] = [];
  for (const part of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (part === '*') entries.push(part);
    else if (part.includes('://')) {
      let u: URL;
      try {
        u = new URL(part);
      } catch {
        return undefined;
      }
      const bare = u.pathname === '/' && !u.search && !u.hash && !u.username && !u.password;
      if (!['http:', 'https:'].includes(u.protocol) || !bare) return undefined;
      entries.push(u.origin);
    } else if (HOST_NAME.test(part.toLowerCase())) entries.push(part.toLowerCase());
    else return undefined;
  }
  return entries;
}

/** The allow-list of one endpoint: the configured entries plus the bind host and the service's public URL. */
export function mcpAllowList(opts: { allowedOrigins: string[]; bindHost: string; publicUrl?: string }): McpAllowList {
  const list: McpAllowList = { any: false, hosts: new Set(), originHosts: new Set(), origins: new Set() };
  const name = (host: string) => (list.hosts.add(host), list.originHosts.add(host));
  for (const entry of opts.allowedOrigins) {
    if (entry === '*') list.any = true;
    else if (entry.includes('://')) {
      list.origins.add(entry);
      list.hosts.add(new URL(entry).hostname);
    } else name(entry);
  }
  if (opts.publicUrl) name(new URL(opts.publicUrl).hostname.toLowerCase());
  if (!isIP(opts.bindHost) && HOST_NAME.test(opts.bindHost.toLowerCase())) name(opts.bindHost.toLowerCase());
  return list;
}

const unbracketed = (host: string) => host.replace(/^\[(.*)\]$/, '$1');
const isLoopbackName = (host: string) => host === 'localhost' || host.endsWith('.localhost');
const isLoopbackAddress = (host: string) => {
  const ip = unbracketed(host);
  return (isIP(ip) === 4 && ip.startsWith('127.')) || ip === '::1';
};

/** The host name of a Host header (port dropped, lower case), or undefined when it is not one. */
function hostnameOf(host: string): string | undefined {
  if (/[\s/\\@?#]/.test(host)) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

const WIDEN = 'add it to HAMLET_MCP_ALLOWED_ORIGINS to allow it';

/** Whether a request with these headers may use the endpoint, and if not, why. */
export function checkMcpOrigin(
  list: McpAllowList,
  headers: { host?: string; origin?: string | string[] },
): OriginVerdict {
  if (list.any) return { ok: true };
  const host = headers.host ? hostnameOf(headers.host) : undefined;
  if (!host)
    return {
      ok: false,
      message: `Forbidden: this MCP endpoint needs a Host header naming it (got ${JSON.stringify(headers.host ?? null)})`,
    };
  if (!(isLoopbackName(host) || isIP(unbracketed(host)) || list.hosts.has(host))) {
    return {
      ok: false,
      message: `Forbidden: the Host ${host} is not allowed for this MCP endpoint (DNS-rebinding protection: loopback names, IP addresses and the public host are); ${WIDEN}`,
    };
  }
  const origin = Array.isArray(headers.origin) ? headers.origin[0] : headers.origin;
  if (origin === undefined) return { ok: true };
  let from: URL | undefined;
  try {
    from = /^https?:\/\//i.test(origin) ? new URL(origin) : undefined;
  } catch {
    from = undefined;
  }
  if (!from)
    return {
      ok: false,
      message: `Forbidden: requests from the Origin ${origin} are not allowed for this MCP endpoint (a page of an unknown site); ${WIDEN}`,
    };
  const fromHost = from.hostname;
  // The server's own origin (its Host was checked above), this machine, or an allowed one.
  if (
    fromHost === host ||
    isLoopbackName(fromHost) ||
    isLoopbackAddress(fromHost) ||
    list.originHosts.has(fromHost) ||
    list.origins.has(from.origin)
  )
    return { ok: true };
  return {
    ok: false,
    message: `Forbidden: requests from the Origin ${from.origin} are not allowed for this MCP endpoint (only this server's own, loopback and allowed origins are); ${WIDEN}`,
  };
}
