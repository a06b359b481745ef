// The clock's admin API on the console port: read, freeze, jump and advance the production
// (controllable) clock, behind the admin key, with bad input refused with a 400 that says why.
// Through it a blog verification token holds while frozen and expires after an advance, and a
// rate-limit window resets after an advance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllableClock } from '../../src/platform/clock.js';
import { startBlog, type BlogRig } from '../blog/helpers.js';

let rig: BlogRig;
let base: string;
let adminKey: string;

beforeAll(async () => {
  rig = await startBlog({ env: { HAMLET_CONSOLE: 'on', HAMLET_RATE_BLOG_REGISTER: '3/1h' } });
  base = rig.t.hamlet.console!.urls.web!;
  adminKey = (await rig.t.hamlet.platform.keys.create('admin')).key;
}, 60_000);
afterAll(async () => rig?.close());

async function admin(method: string, path: string, body?: unknown, key: string | null = adminKey) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const HOUR_S = 3600;

describe('clock admin API', () => {
  it('is the default production clock: controllable, running', async () => {
    expect(rig.t.hamlet.platform.clock).toBeInstanceOf(ControllableClock);
    const r = await admin('GET', '/admin/api/clock');
    expect(r.status).toBe(200);
    expect(r.body.frozen).toBe(false);
    expect(Number.isNaN(Date.parse(r.body.now))).toBe(false);
  });

  it('answers 401 without the admin key, or with another service key', async () => {
    expect((await admin('GET', '/admin/api/clock', undefined, null)).status).toBe(401);
    expect((await admin('POST', '/admin/api/clock', { frozen: true }, null)).status).toBe(401);
    expect((await admin('POST', '/admin/api/clock/advance', { seconds: 60 }, null)).status).toBe(401);
    const blogKey = (await rig.t.hamlet.platform.keys.create('blog')).key;
    expect((await admin('POST', '/admin/api/clock/advance', { seconds: 60 }, blogKey)).status).toBe(401);
    expect((await admin('GET', '/admin/api/clock')).body.frozen).toBe(false);
  });

  it.each([
    ['an empty body', '/admin/api/clock', {}, /frozen.*now/],
    ['a frozen that is not a boolean', '/admin/api/clock', { frozen: 'yes' }, /frozen/],
    ['a now that is not a date', '/admin/api/clock', { now: 'tomorrow' }, /now must be an ISO 8601/],
    ['an unknown field', '/admin/api/clock', { frozen: true, speed: 2 }, /speed|additional/],
    ['no seconds', '/admin/api/clock/advance', {}, /seconds/],
    ['negative seconds', '/admin/api/clock/advance', { seconds: -5 }, /seconds/],
    ['zero seconds', '/admin/api/clock/advance', { seconds: 0 }, /seconds/],
    ['seconds as text', '/admin/api/clock/advance', { seconds: 'ten' }, /seconds/],
    ['more than a year', '/admin/api/clock/advance', { seconds: 400 * 86_400 }, /seconds/],
    ['malformed JSON', '/admin/api/clock/advance', '{"seconds":', /JSON|body/i],
  ])('refuses %s with a 400 that says why, leaving the clock alone', async (_what, path, body, message) => {
    const before = (await admin('GET', '/admin/api/clock')).body;
    const r = await admin('POST', path, body);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(message);
    expect((await admin('GET', '/admin/api/clock')).body.frozen).toBe(before.frozen);
  });

  it('a frozen clock holds a verification token while real time passes; an advance past its 24 h expires it', async () => {
    const frozen = await admin('POST', '/admin/api/clock', { frozen: true, now: '2026-03-01T08:00:00Z' });
    expect(frozen).toEqual({ status: 200, body: { frozen: true, now: '2026-03-01T08:00:00.000Z' } });
    expect(
      (await rig.call('POST', '/api/register', { email: 'early@example.org', name: 'E', slug: 'early-agent' })).status,
    ).toBe(200);
    expect(
      (await rig.call('POST', '/api/register', { email: 'late@example.org', name: 'L', slug: 'late-agent' })).status,
    ).toBe(200);
    const early = await rig.tokenFor('early@example.org');
    const late = await rig.tokenFor('late@example.org');
    // Real time went by while the mails were sent and read; the clock did not move.
    expect((await admin('GET', '/admin/api/clock')).body).toEqual({ frozen: true, now: '2026-03-01T08:00:00.000Z' });

    const advanced = await admin('POST', '/admin/api/clock/advance', { seconds: 23 * HOUR_S + 59 * 60 });
    expect(advanced).toEqual({ status: 200, body: { frozen: true, now: '2026-03-02T07:59:00.000Z' } });
    expect(
      (await rig.call('GET', `/api/verify?token=${early}`, undefined, { accept: 'application/json' })).status,
    ).toBe(200);

    expect((await admin('POST', '/admin/api/clock/advance', { seconds: 120 })).body.now).toBe(
      '2026-03-02T08:01:00.000Z',
    );
    const expired = await rig.call('GET', `/api/verify?token=${late}`, undefined, { accept: 'application/json' });
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('token_expired');
  });

  it('a rate-limit window holds while frozen and resets after an advance past it', async () => {
    await admin('POST', '/admin/api/clock', { frozen: true });
    const register = (slug: string) =>
      rig.call('POST', '/api/register', { email: `${slug}@example.org`, name: slug, slug });
    // A fresh window: the registrations above are more than an hour of clock time ago.
    for (const slug of ['rl-one', 'rl-two', 'rl-three']) expect((await register(slug)).status).toBe(200);
    expect((await register('rl-four')).status).toBe(429);
    expect((await admin('POST', '/admin/api/clock/advance', { seconds: 59 * 60 })).status).toBe(200);
    expect((await register('rl-four')).status).toBe(429);
    expect((await admin('POST', '/admin/api/clock/advance', { seconds: 60 })).status).toBe(200);
    expect((await register('rl-four')).status).toBe(200);
  });

  it('a clock set back does not lock a throttled caller out for the length of the jump', async () => {
    await admin('POST', '/admin/api/clock', { frozen: true, now: '2026-06-01T12:00:00Z' });
    const register = (slug: string) =>
      rig.call('POST', '/api/register', { email: `${slug}@example.org`, name: slug, slug });
    for (const slug of ['back-one', 'back-two', 'back-three']) expect((await register(slug)).status).toBe(200);
    expect((await register('back-four')).status).toBe(429);
    // A day back (a world restored, an evaluator rewinding): still limited, but for one window at most.
    expect((await admin('POST', '/admin/api/clock', { now: '2026-05-31T12:00:00Z' })).status).toBe(200);
    const res = await register('back-five');
    if (res.status === 429) expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(HOUR_S);
    expect((await admin('POST', '/admin/api/clock/advance', { seconds: HOUR_S })).status).toBe(200);
    expect((await register('back-six')).status).toBe(200);
  });

  it('unfreezes from where it stood, and jumps while running', async () => {
    const r = await admin('POST', '/admin/api/clock', { frozen: false, now: '2027-01-01T00:00:00Z' });
    expect(r.status).toBe(200);
    expect(r.body.frozen).toBe(false);
    const t = Date.parse(r.body.now);
    // Running from the jump target: within the minute after it (real time moves on).
    expect(t).toBeGreaterThanOrEqual(Date.parse('2027-01-01T00:00:00Z'));
    expect(t).toBeLessThan(Date.parse('2027-01-01T00:01:00Z'));
    const again = await admin('GET', '/admin/api/clock');
    expect(Date.parse(again.body.now)).toBeGreaterThanOrEqual(t);
  });
});
