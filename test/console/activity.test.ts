// The console's activity feed: what agents did across the services, newest first, filterable
// by service, agent key and kind, and live (server-sent events tell the page when to refresh).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { startAgentRig, type AgentRig } from './agent-rig.js';

let rig: AgentRig;
let base: string;
let cookie: string;

beforeAll(async () => {
  rig = await startAgentRig({ HAMLET_CONSOLE: 'on' });
  base = rig.t.hamlet.console!.urls.web!;
  const admin = (await rig.t.hamlet.platform.keys.create('admin')).key;
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key: admin, next: '/activity' }),
  });
  cookie = login.headers.get('set-cookie')!.split(';')[0]!;
}, 120_000);
afterAll(async () => rig?.t.destroy());

const page = async (path: string) => {
  const res = await fetch(base + path, { headers: { cookie, accept: 'text/html' }, redirect: 'manual' });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
};

const ENTITIES: Record<string, string> = { quot: '"', '#39': "'", lt: '<', gt: '>', amp: '&' };
/** The feed's lines as text, tags dropped. */
const lines = (htmlText: string) =>
  [...htmlText.matchAll(/<li class="activity-item[^"]*"[^>]*>([\s\S]*?)<\/li>/g)].map((m) =>
    m[1]
      .replace(/<[^>]+>/g, '')
      .replace(/&(quot|#39|lt|gt|amp);/g, (_m, e: string) => ENTITIES[e])
      .replace(/\s+/g, ' ')
      .trim(),
  );

describe('the activity feed', () => {
  it('shows what happened across the services, newest first', async () => {
    await rig.sendMail('Activity mail');
    await rig.publishPost('Activity post');
    await rig.postInCommunity('Activity thread');
    await rig.turnOnLight('light.living_room');
    await rig.runWorkflow('Activity workflow');

    const feed = await waitFor(async () => {
      const { text } = await page('/activity?kind=event');
      return text.includes('Activity mail') ? text : undefined;
    });
    expect(feed).toContain('<h1>Activity</h1>');
    const events = lines(feed);
    const at = (text: string) => events.findIndex((l) => l.includes(text));
    for (const text of [
      'Activity mail',
      'published "Activity post"',
      'Activity thread',
      'Living Room turned on',
      'of "Activity workflow" finished: success',
    ])
      expect(at(text), text).toBeGreaterThanOrEqual(0);
    // Newest first: the workflow ran last, the mail was sent first.
    expect(at('Activity workflow')).toBeLessThan(at('Living Room turned on'));
    expect(at('Living Room turned on')).toBeLessThan(at('Activity mail'));
    expect(feed).toContain('aria-current="page"');
  });

  it('filters by service, by agent key and by kind', async () => {
    const blogOnly = lines((await page('/activity?service=blog')).text);
    expect(blogOnly.length).toBeGreaterThan(0);
    expect(blogOnly.every((l) => / blog /.test(` ${l} `))).toBe(true);
    expect(blogOnly.some((l) => l.includes('Activity mail'))).toBe(false);

    const byKey = await page(`/activity?key=${rig.keyIds.community}`);
    const keyLines = lines(byKey.text);
    expect(keyLines.some((l) => l.includes('Activity thread'))).toBe(true);
    expect(keyLines.some((l) => l.includes('Activity post'))).toBe(false);
    expect(keyLines.every((l) => l.includes('community ·'))).toBe(true); // the key's label
    expect(byKey.text).toMatch(new RegExp(`<option value="${rig.keyIds.community}" selected>`));

    const calls = lines((await page('/activity?kind=http&service=home')).text);
    expect(calls.some((l) => l.includes('POST /api/services/:domain/:service'))).toBe(true);
    expect(calls.some((l) => l.includes('turned on'))).toBe(false);

    const fragment = await page('/activity/feed?kind=event&service=workflow');
    expect(fragment.text).not.toContain('<html');
    expect(lines(fragment.text).every((l) => l.includes('workflow'))).toBe(true);
  });

  it('sends the page an event for each new matching entry', async () => {
    const abort = new AbortController();
    const res = await fetch(`${base}/activity/stream?service=home`, {
      headers: { cookie, accept: 'text/event-stream' },
      signal: abort.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const firstId = async () => {
      for (;;) {
        const m = /^data: (\S+)$/m.exec(received);
        if (m) return m[1];
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        received += decoder.decode(value);
      }
    };
    await rig.sendMail('Not for this stream'); // another service: not announced here
    await rig.turnOnLight('light.hall');
    const id = await firstId();
    abort.abort();
    const { entries } = await rig.t.hamlet.platform.trace.query({ limit: 1000 });
    expect(entries.find((e) => e.id === id)?.service).toBe('home');
  });

  it('sends people without a session to the login', async () => {
    const res = await fetch(`${base}/activity`, { headers: { accept: 'text/html' }, redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?next=%2Factivity');
  });
});
