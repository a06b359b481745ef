// Servers for the SSRF tests, all on loopback so nothing leaves the machine:
// - an "internal" service on 127.0.0.1 and ::1 that counts every request it gets (the thing
//   an attacker wants to reach);
// - "public" servers on 127.0.0.2, which the test's address policy judges public: each
//   redirects `/to?url=…&status=…` to any URL and echoes every other request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isInternalAddress, replaceAddressPolicy } from '../../src/platform/outbound.js';

/** The address the test policy treats as a public host. */
const PUBLIC_IP = '127.0.0.2';

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface TestServer {
  url: string;
  port: number;
  seen: Seen[];
  close(): Promise<void>;
}

async function listen(
  host: string,
  handle: (seen: Seen, res: http.ServerResponse) => void,
  port = 0,
): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const s = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(s);
      handle(s, res);
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
    port: actual,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const echo = (s: Seen, res: http.ServerResponse, extra: Record<string, unknown> = {}) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      ...extra,
      method: s.method,
      url: s.url,
      authorization: s.headers.authorization ?? null,
      cookie: s.headers.cookie ?? null,
      contentType: s.headers['content-type'] ?? null,
      body: s.body,
    }),
  );

/** The internal service: answers a secret to anyone who reaches it, on 127.0.0.1 and [::1]. */
export async function startInternal(): Promise<{
  v4: TestServer;
  v6: TestServer;
  hits(): number;
  close(): Promise<void>;
}> {
  const answer = (s: Seen, res: http.ServerResponse) => echo(s, res, { secret: 'internal-only' });
  const v4 = await listen('127.0.0.1', answer);
  // Without IPv6 loopback (some containers) nothing can be reached at [::1]: the tests still
  // ask for it, and the guard must still refuse it, but there is no listener to count.
  const v6 = await listen('::1', answer).catch(() => ({
    url: `http://[::1]:${v4.port}`,
    port: v4.port,
    seen: [] as Seen[],
    close: async () => {},
  }));
  return {
    v4,
    v6,
    hits: () => v4.seen.length + v6.seen.length,
    close: async () => void (await Promise.all([v4.close(), v6.close()])),
  };
}

/** A public server: `/to?url=U&status=S` redirects to U (302 by default), anything else is echoed. */
export async function startRedirector(
  host = PUBLIC_IP,
): Promise<TestServer & { to(url: string, status?: number): string }> {
  const server = await listen(host, (s, res) => {
    const u = new URL(s.url, 'http://x');
    if (u.pathname === '/to')
      return res
        .writeHead(Number(u.searchParams.get('status') ?? 302), { location: u.searchParams.get('url') ?? '/' })
        .end();
    echo(s, res);
  });
  return { ...server, to: (url, status = 302) => `${server.url}/to?status=${status}&url=${encodeURIComponent(url)}` };
}

/**
 * Judges PUBLIC_IP public (everything else as in production) and resolves `*.public.test` to
 * it, `rebind.test` to 127.0.0.1; other names go to the system resolver.
 */
export function usePublicLoopbackPolicy(): () => void {
  return replaceAddressPolicy({
    isInternal: (ip) => ip !== PUBLIC_IP && isInternalAddress(ip),
    lookup: async (hostname) => {
      if (hostname.endsWith('.public.test')) return [{ address: PUBLIC_IP, family: 4 }];
      if (hostname === 'rebind.test') return [{ address: '127.0.0.1', family: 4 }];
      const { promises } = await import('node:dns');
      return promises.lookup(hostname, { all: true });
    },
  });
}
