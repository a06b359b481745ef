// Shared setup for the community suites: a Hamlet running only the community, with the
// posting quotas and request limits raised (the rate-limit suite sets its own), and a tiny
// HTTP client that returns status, headers and parsed body.
import type { Clock } from '../../src/platform/clock.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface Community {
  t: TestHamlet;
  base: string;
  call<T = any>(
    method: string,
    path: string,
    opts?: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<Reply<T>>;
  register(name: string): Promise<{ key: string; id: string; name: string }>;
  createCommunity(key: string, name: string): Promise<{ id: string; name: string }>;
  createPost(key: string, community: string, title?: string, extra?: Record<string, unknown>): Promise<any>;
}

export const GENEROUS = {
  HAMLET_RATE_COMMUNITY_REQUESTS: '1000000/1m',
  HAMLET_RATE_COMMUNITY_REGISTER: '1000000/1m',
  HAMLET_RATE_COMMUNITY_POSTS: '1000000/1m',
  HAMLET_RATE_COMMUNITY_COMMENTS: '1000000/1m',
};

/** `defaults` names limits (e.g. HAMLET_RATE_COMMUNITY_POSTS) left at their defaults. */
export async function startCommunity(
  opts: { env?: Record<string, string>; clock?: Clock; defaults?: string[] } = {},
): Promise<Community> {
  const generous = Object.fromEntries(Object.entries(GENEROUS).filter(([k]) => !opts.defaults?.includes(k)));
  const t = await startTestHamlet({ services: ['community'], env: { ...generous, ...opts.env }, clock: opts.clock });
  return wrap(t);
}

export function wrap(t: TestHamlet): Community {
  const base = t.url('community');
  const c: Community = {
    t,
    base,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      let body: string | undefined = opts.raw;
      if (opts.body !== undefined) body = JSON.stringify(opts.body);
      if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
      const res = await fetch(base + path, { method, headers, body });
      const text = await res.text();
      let parsed: any;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    async register(name) {
      const r = await c.call('POST', '/api/v1/agents/register', { body: { name, description: `I am ${name}` } });
      if (r.status !== 201) throw new Error(`register ${name}: ${r.status} ${r.text}`);
      return { key: r.body.agent.api_key, id: r.body.agent.id, name: r.body.agent.name };
    },
    async createCommunity(key, name) {
      const r = await c.call('POST', '/api/v1/communities', {
        key,
        body: { name, display_name: name.toUpperCase(), description: `About ${name}` },
      });
      if (r.status !== 201) throw new Error(`community ${name}: ${r.status} ${r.text}`);
      return r.body.community;
    },
    async createPost(key, community, title = 'A title', extra = {}) {
      const r = await c.call('POST', '/api/v1/posts', {
        key,
        body: { title, content: `Body of ${title}`, community_id: community, ...extra },
      });
      if (r.status !== 201) throw new Error(`post: ${r.status} ${r.text}`);
      return r.body.post;
    },
  };
  return c;
}

/** Asserts the Moltbook error envelope and returns it. */
export function expectEnvelope(r: Reply, status: number, code?: string) {
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.text}`);
  const b = r.body;
  if (!b || b.success !== false || typeof b.error !== 'string' || typeof b.code !== 'string' || !('hint' in b)) {
    throw new Error(`not the envelope: ${r.text}`);
  }
  if (code && b.code !== code) throw new Error(`expected code ${code}, got ${b.code}: ${r.text}`);
  return b as { success: false; error: string; code: string; hint: string | null; [k: string]: unknown };
}
