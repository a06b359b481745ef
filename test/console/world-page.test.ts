// The console's world page (/world, a 404 before issue 31): the clock, snapshots, the diff and
// seeding, server-rendered over the admin API; and the home's history and logbook pages on the
// platform clock (with a clock in January 2026 they showed nothing: they asked for the last
// 24 hours of the real clock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllableClock } from '../../src/platform/clock.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;
let auth: Record<string, string>;
let homeKey: string;
const START = '2026-01-05T10:00:00.000Z';

beforeAll(async () => {
  t = await startTestHamlet({
    services: ['mail', 'community', 'home'],
    env: { HAMLET_CONSOLE: 'on' },
    clock: new ControllableClock({ frozen: true, now: START }),
  });
  auth = { authorization: `Bearer ${(await t.hamlet.platform.keys.create('admin')).key}` };
  homeKey = (await t.hamlet.platform.keys.create('home', { name: 'page-test' })).key;
}, 120_000);
afterAll(async () => t?.destroy());

const web = () => t.hamlet.console!.urls.web;
const page = async (path: string) => {
  const res = await fetch(web() + path, { headers: auth });
  return { status: res.status, text: await res.text() };
};
const post = async (path: string, fields: Record<string, string>) => {
  const res = await fetch(web() + path, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, text: await res.text() };
};
const setLight = (state: string) =>
  fetch(`${t.url('home')}/api/states/light.page_test`, {
    method: 'POST',
    headers: { authorization: `Bearer ${homeKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ state, attributes: { friendly_name: 'Page test' } }),
  });

describe('/world', () => {
  it('shows the platform clock and moves it', async () => {
    const home = await page('/world');
    expect(home.status).toBe(200);
    expect(home.text).toContain('<a href="/world" aria-current="page">World</a>');
    expect(home.text).toContain(`<strong data-clock-now>${START}</strong> (frozen)`);
    const advanced = await post('/world/clock/advance', { minutes: '90' });
    expect(advanced.status).toBe(200);
    expect(advanced.text).toContain('Advanced to 2026-01-05T11:30:00.000Z');
    const refused = await post('/world/clock/advance', { minutes: 'soon' });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/role="alert">[^<]*seconds/);
  });

  it('saves a snapshot, shows what changed since, and restores it', async () => {
    const saved = await post('/world/snapshots', { name: 'before <the light>' });
    expect(saved.status).toBe(200);
    const id = /Saved snapshot ([0-9a-f]{16})/.exec(saved.text)?.[1];
    expect(id).toBeTruthy();
    // The name is escaped wherever it is shown.
    expect(saved.text).toContain('before &lt;the light&gt;');
    expect(saved.text).not.toContain('<the light>');

    expect((await setLight('on')).status).toBeLessThan(300);
    const diff = await page(`/world/diff?from=${id}&to=now`);
    expect(diff.status).toBe(200);
    expect(diff.text).toContain('light.page_test');
    expect(diff.text).toMatch(/<tr><td>home<\/td><td>[1-9]/);

    const restored = await post(`/world/snapshots/${id}/restore`, {});
    expect(restored.status).toBe(200);
    expect(restored.text).toContain(`Restored snapshot ${id}`);
    expect((await page(`/world/diff?from=${id}&to=now`)).text).toContain('Nothing changed.');
    expect((await post('/world/snapshots/0000000000000000/restore', {})).status).toBe(404);
  });

  it('seeds a scenario from the form and shows its keys once; a bad one is a 400 naming the field', async () => {
    const seeded = await post('/world/seed', { yaml: 'name: page\nagents:\n  - name: pia\n    mail: true\n' });
    expect(seeded.status).toBe(200);
    expect(seeded.text).toContain('Seeded page.');
    expect(seeded.text).toMatch(/hamlet_mail_[A-Za-z0-9]+/);
    const bad = await post('/world/seed', { yaml: 'agents:\n  - name: pia\n    mail: maybe\n' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('agents[0].mail: true or false');
  });

  it('is behind the admin door', async () => {
    const res = await fetch(`${web()}/world`, { redirect: 'manual' });
    expect([302, 303, 401]).toContain(res.status);
  });
});

describe('home history on the platform clock', () => {
  it('the logbook and the entity page show what happened in the last hours of the platform clock', async () => {
    await setLight('off');
    const logbook = await page('/home/logbook?hours=1');
    expect(logbook.status).toBe(200);
    expect(logbook.text).toContain('Page test');
    const entity = await page('/home/entities/light.page_test?hours=1');
    expect(entity.status).toBe(200);
    expect(entity.text).toMatch(/Page test[\s\S]*off/);
    // The history drawn ends at the platform clock's time (2026), not today's.
    expect(entity.text).toContain('2026-01-05');
  });
});
