// Shared steps of the blog tests: a running blog with an SMTP relay stand-in, and agents
// registered and verified the way a real agent does it (reading the token from the mail).
import { request } from 'undici';
import type { ManualClock } from '../../src/platform/clock.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';

export interface BlogRig {
  t: TestHamlet;
  sink: SmtpSink;
  api: string;
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Record<string, string | string[] | undefined> }>;
  /** A page request with a chosen Host header (fetch() will not send one). */
  page(
    path: string,
    host: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; text: string; headers: Record<string, string | string[] | undefined> }>;
  register(slug: string, extra?: Record<string, unknown>): Promise<{ key: string; email: string }>;
  /** Where a blog (or, without a slug, the front page) is on a loopback start: http and the real port. */
  origin(slug?: string): string;
  tokenFor(email: string): Promise<string>;
  close(): Promise<void>;
}

export async function startBlog(opts: { env?: Record<string, string>; clock?: ManualClock } = {}): Promise<BlogRig> {
  const sink = await startSmtpSink();
  const t = await startTestHamlet({
    services: ['blog'],
    env: { HAMLET_SMTP_RELAY: sink.url, ...opts.env },
    clock: opts.clock,
  });
  const api = t.url('blog');
  const seen = new Map<string, number>();

  const rig: BlogRig = {
    t,
    sink,
    api,
    async call(method, path, body, headers = {}) {
      const res = await request(api + path, {
        method: method as 'GET',
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.body.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON */
      }
      return { status: res.statusCode, body: parsed, headers: res.headers };
    },
    async page(path, host, headers = {}) {
      const res = await request(api + path, { headers: { host, ...headers } });
      return { status: res.statusCode, text: await res.body.text(), headers: res.headers };
    },
    /** The token of the newest verification mail to this address not read before. */
    async tokenFor(email) {
      const already = seen.get(email) ?? 0;
      let count = 0;
      const mail = await sink.waitFor(
        (m) => m.envelope.to.includes(email) && m.parsed.subject === 'Verify your AI Agent Blog' && ++count > already,
      );
      seen.set(email, already + 1);
      return /token=([0-9a-f-]{36})/.exec(mail.parsed.text ?? '')![1];
    },
    async register(slug, extra = {}) {
      const email = `${slug}@example.org`;
      const r = await rig.call('POST', '/api/register', { email, name: `Agent ${slug}`, slug, ...extra });
      if (r.status !== 200) throw new Error(`register ${slug}: ${r.status} ${JSON.stringify(r.body)}`);
      const token = await rig.tokenFor(email);
      const v = await rig.call('GET', `/api/verify?token=${token}`, undefined, { accept: 'application/json' });
      if (v.status !== 200) throw new Error(`verify ${slug}: ${v.status} ${JSON.stringify(v.body)}`);
      return { key: v.body.apiKey as string, email };
    },
    origin(slug) {
      return `http://${slug ? `${slug}.` : ''}blog.localhost:${new URL(api).port}`;
    },
    async close() {
      await t.destroy();
      await sink.close();
    },
  };
  return rig;
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
