// Shared by the mail tests: a running Hamlet with the mail service, a key, an SDK client that
// fails on "Failed to validate" warnings, a webhook receiver and a plain SMTP client.
import http from 'node:http';
import net from 'node:net';
import { AgentMailClient } from 'agentmail';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';
import type { ServiceName } from '../../src/services/registry.js';
import type { Clock } from '../../src/platform/clock.js';

export interface MailTestEnv {
  t: TestHamlet;
  api: string;
  smtpPort: number;
  key: string;
  client: AgentMailClient;
  /** Raw JSON request against the API with the key. */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
}

export async function startMail(
  opts: { services?: ServiceName[]; env?: Record<string, string>; clock?: Clock } = {},
): Promise<MailTestEnv> {
  const t = await startTestHamlet({
    services: opts.services ?? ['mail'],
    clock: opts.clock,
    env: {
      HAMLET_ALLOW_INTERNAL_REQUESTS: '1',
      MAIL_DOMAIN: 'mail.test',
      MAIL_WEBHOOK_RETRY_SCHEDULE: '200ms,400ms,1s',
      ...opts.env,
    },
  });
  const { key } = await t.hamlet.platform.keys.create('mail', { name: 'test' });
  const api = t.url('mail');
  const smtpPort = Number(new URL(t.url('mail', 'smtp')).port);
  const client = new AgentMailClient({ apiKey: key, baseUrl: api, maxRetries: 0 });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(api + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as any, headers: res.headers };
  };
  return { t, api, smtpPort, key, client, call };
}

/** Collects console.warn output so a test can fail on the SDK's "Failed to validate" warnings. */
export function captureWarnings(): { warnings: string[]; restore(): void } {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => {
    warnings.push(args.map(String).join(' '));
    original(...args);
  };
  return { warnings, restore: () => (console.warn = original) };
}

export interface Received {
  /** Path and query the delivery was posted to (tells webhooks sharing a receiver apart). */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local HTTP server that records every webhook delivery; `respond` picks the status. */
export async function webhookReceiver(respond: (n: number, req: Received) => number = () => 200, port = 0) {
  const received: Received[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const r = { url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const status = respond(n++, r);
      if (status >= 200 && status < 300) received.push(r);
      res.writeHead(status, status >= 300 && status < 400 ? { location: 'http://127.0.0.1:1/' } : {}).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`,
    received,
    attempts: () => n,
    /** Resolves when a delivery matches, or rejects after the timeout. */
    async waitFor(
      pred: (event: any, r: Received) => boolean,
      timeoutMs = 10_000,
    ): Promise<{ event: any; r: Received }> {
      const hit = await waitFor(() => received.find((r) => pred(JSON.parse(r.body), r)), {
        timeoutMs,
        message: () =>
          `a webhook delivery matching ${pred.toString()} (got ${received.length}: ${received.map((r) => JSON.parse(r.body).event_type).join(', ')})`,
      });
      return { event: JSON.parse(hit.body), r: hit };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * A minimal SMTP client over a raw socket: the real protocol, one command at a time, so a
 * test sees every reply code (nodemailer hides them behind its own retries).
 */
export async function smtpSession(port: number, host = '127.0.0.1', localAddress?: string) {
  // All of 127/8 is loopback: binding 127.0.0.2 makes a client from "another address".
  const socket = net.connect({ port, host, localAddress });
  let buffer = '';
  const pending: Array<(line: string) => void> = [];
  socket.on('data', (d) => {
    buffer += d.toString('latin1');
    for (;;) {
      // A reply ends with a line "NNN text" (a space after the code, not a dash).
      const m = /^(?:\d{3}-[^\n]*\n)*\d{3} [^\n]*\n/.exec(buffer);
      if (!m) break;
      buffer = buffer.slice(m[0].length);
      pending.shift()?.(m[0].trim());
    }
  });
  const next = () => new Promise<string>((r) => pending.push(r));
  const greeting = await next();
  const cmd = async (line: string | Buffer) => {
    const p = next();
    socket.write(typeof line === 'string' ? line + '\r\n' : line);
    return p;
  };
  return {
    greeting,
    cmd,
    /** Sends DATA and the message (dot-stuffed), returns the final reply. */
    async data(raw: string | Buffer) {
      const go = await cmd('DATA');
      if (!go.startsWith('354')) return go;
      const text = Buffer.isBuffer(raw) ? raw.toString('latin1') : raw;
      const stuffed = text.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
      return cmd(Buffer.from(stuffed + (stuffed.endsWith('\r\n') ? '' : '\r\n') + '.\r\n', 'latin1'));
    },
    close: async () => {
      await cmd('QUIT').catch(() => {});
      socket.destroy();
    },
  };
}

/** Sends one message over SMTP; returns the final reply line. */
export async function smtpSend(
  port: number,
  from: string,
  to: string[],
  raw: string | Buffer,
  localAddress?: string,
): Promise<string> {
  const s = await smtpSession(port, '127.0.0.1', localAddress);
  await s.cmd('EHLO test.local');
  await s.cmd(`MAIL FROM:<${from}>`);
  for (const r of to) {
    const reply = await s.cmd(`RCPT TO:<${r}>`);
    if (!reply.startsWith('250')) {
      await s.close();
      return reply;
    }
  }
  const reply = await s.data(raw);
  await s.close();
  return reply;
}
