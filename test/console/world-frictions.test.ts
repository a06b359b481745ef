// Frictions an evaluator met with worlds (issue 31), each a test that failed before its fix:
// - seeding the example scenarios through the admin API answered 500 (a workflow's relative
//   `file` had nowhere to be read from) and left the world half-seeded;
// - a scenario refused half-way left what it had made so far;
// - there was no way to act as one of the world's agents without the keys of the seed;
// - the key policy of restores: the evaluator's admin key outlives restores and resets, keys
//   made after a snapshot (world state) do not.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;
let adminKey: string;
const ROOT = path.resolve(import.meta.dirname, '../..');

async function call(
  url: string,
  init: { method?: string; key?: string; body?: unknown; yaml?: string; header?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (init.key) headers[init.header ?? 'authorization'] = init.header ? init.key : `Bearer ${init.key}`;
  let body: string | undefined;
  if (init.yaml !== undefined) {
    headers['content-type'] = 'text/yaml';
    body = init.yaml;
  } else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const res = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await res.text();
  return {
    status: res.status,
    body: /json/.test(res.headers.get('content-type') ?? '') && text ? JSON.parse(text) : text,
  };
}

const web = () => t.hamlet.console!.urls.web;
const admin = (p: string, init: Parameters<typeof call>[1] = {}) => call(web() + p, { ...init, key: adminKey });
const hash = async () => (await admin('/admin/api/world/hash')).body.hash as string;
const reset = async () => expect((await admin('/admin/api/world/reset', { method: 'POST' })).status).toBe(200);

beforeAll(async () => {
  t = await startTestHamlet({
    services: ['blog', 'mail', 'community', 'home', 'workflow'],
    env: {
      HAMLET_CONSOLE: 'on',
      HAMLET_SCENARIO_DIR: path.join(ROOT, 'examples/scenarios'),
      HAMLET_RATE_COMMUNITY_REGISTER: '1000/1m',
    },
  });
  adminKey = (await t.hamlet.platform.keys.create('admin')).key;
}, 120_000);
afterAll(async () => t?.destroy());

describe('the example scenarios seed through the admin API', () => {
  it('?example=newsroom: its workflow file is read beside it, the keys work', async () => {
    await reset();
    const r = await admin('/admin/api/world/seed?example=newsroom', { method: 'POST' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const ada = r.body.agents.ada;
    const workflows = await call(`${t.url('workflow')}/api/v1/workflows`, {
      key: ada.workflow.key,
      header: 'x-n8n-api-key',
    });
    expect(workflows.body.data.map((w: any) => [w.name, w.active])).toEqual([['Echo', true]]);
  });

  it('?file=help-desk.yaml from HAMLET_SCENARIO_DIR', async () => {
    await reset();
    const r = await admin('/admin/api/world/seed?file=help-desk.yaml', { method: 'POST' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(Object.keys(r.body.agents).sort()).toEqual(['desk', 'mira', 'oskar']);
  });

  it('smart-home.yaml posted as the body: its file is read from HAMLET_SCENARIO_DIR', async () => {
    await reset();
    const { readFileSync } = await import('node:fs');
    const r = await admin('/admin/api/world/seed', {
      yaml: readFileSync(path.join(ROOT, 'examples/scenarios/smart-home.yaml'), 'utf8'),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const light = await call(`${t.url('home')}/api/states/light.kitchen`, { key: r.body.agents.butler.home.key });
    expect(light.body.state).toBe('on');
  });

  it('names outside the folders are refused, with the parameter named', async () => {
    for (const q of ['example=../../package', 'file=../../package.json', 'file=nothing.yaml', 'example=nope']) {
      const r = await admin(`/admin/api/world/seed?${q}`, { method: 'POST' });
      expect(r.status, q).toBe(400);
      expect(r.body.message, q).toMatch(/^(example|file)/);
    }
  });
});

describe('seeding is all or nothing', () => {
  it('a scenario a service refuses half-way leaves the world as it was, and the 400 names the step', async () => {
    await reset();
    const before = await hash();
    const yaml =
      'name: broken\nagents:\n  - name: nina\n    mail: true\n    community: {}\nmail:\n  - from: nina\n    to: nina\n    subject: Hello\n    text: To myself.\ncommunities:\n  - name: "Not A Valid Name!"\n    owner: nina\n';
    const r = await admin('/admin/api/world/seed', { yaml });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/community POST \/api\/v1\/communities answered 400/);
    expect(r.body.message).toMatch(/nothing was seeded/);
    expect(await hash()).toBe(before);
    // Nina's inbox and community account are gone with the rest: the same scenario, fixed, seeds.
    const fixed = await admin('/admin/api/world/seed', { yaml: yaml.replace('"Not A Valid Name!"', 'ninas-place') });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
  });

  it('a field of the wrong type or shape is a 400 naming its place, before anything is seeded', async () => {
    const before = await hash();
    const cases: Array<[string, RegExp]> = [
      [
        'agents:\n  - name: zed\n    mail: true\nmail:\n  - from: zed\n    subject: x\n    text: y\n',
        /^mail\[0\]\.to: missing/,
      ],
      ['agents:\n  - name: zed\n    mail: yes please\n', /^agents\[0\]\.mail: true or false/],
      ['home:\n  states:\n    - entity_id: light.x\n      state: 1\n', /^home\.states\[0\]\.state: a text/],
      ['agent:\n  - name: zed\n', /^agent: not a field here/],
      ['workflows:\n  - definition: {}\n    run: -1\n', /^workflows\[0\]\.run/],
    ];
    for (const [yaml, message] of cases) {
      const r = await admin('/admin/api/world/seed', { yaml });
      expect(r.status, yaml).toBe(400);
      expect(r.body.message, yaml).toMatch(message);
    }
    expect(await hash()).toBe(before);
  });
});

describe("acting as one of the world's agents", () => {
  it('mints keys for every account an agent holds; an unknown agent is a 404', async () => {
    await reset();
    expect((await admin('/admin/api/world/seed?example=newsroom', { method: 'POST' })).status).toBe(200);
    const r = await admin('/admin/api/world/agents/ada/keys', { method: 'POST' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const keys = r.body.keys;
    expect(Object.keys(keys).sort()).toEqual(['blog', 'community', 'home', 'mail', 'workflow']);
    // Each key acts as Ada: her inbox, her blog, her community account.
    const inbox = await call(`${t.url('mail')}/v0/inboxes/${encodeURIComponent(keys.mail.inbox)}/messages`, {
      key: keys.mail.key,
    });
    expect(inbox.body.messages.map((m: any) => m.subject)).toEqual(
      expect.arrayContaining(['Road works on Elm Street']),
    );
    const published = await call(`${t.url('blog')}/api/publish`, {
      key: keys.blog.key,
      body: { title: 'Written with a minted key', content: 'Hello.' },
    });
    expect(published.status).toBeLessThan(300);
    expect(published.body.post.url).toMatch(/ada/);
    const me = await call(`${t.url('community')}/api/v1/agents/me`, { key: keys.community.key });
    expect(me.body.agent.name).toBe('ada');

    const only = await admin('/admin/api/world/agents/ben/keys?services=community', { method: 'POST' });
    expect(Object.keys(only.body.keys)).toEqual(['community']);
    expect((await admin('/admin/api/world/agents/nobody/keys', { method: 'POST' })).status).toBe(404);
    expect((await admin('/admin/api/world/agents/ada/keys?services=shop', { method: 'POST' })).status).toBe(400);
    expect((await call(`${web()}/admin/api/world/agents/ada/keys`, { method: 'POST' })).status).toBe(401);
  });
});

describe('keys and restores', () => {
  it("the evaluator's admin key outlives restores and resets; keys made after a snapshot are world state and go with it", async () => {
    await reset();
    const snap = await admin('/admin/api/world/snapshots', { body: { name: 'empty' } });
    expect(snap.status).toBe(201);
    const laterAdmin = (await t.hamlet.platform.keys.create('admin')).key;
    const agentKey = (await t.hamlet.platform.keys.create('home', { name: 'agent' })).key;
    expect((await call(`${t.url('home')}/api/states`, { key: agentKey })).status).toBe(200);

    expect((await admin(`/admin/api/world/snapshots/${snap.body.id}/restore`, { method: 'POST' })).status).toBe(200);
    expect((await call(`${t.url('home')}/api/states`, { key: agentKey })).status).toBe(401);
    // Both admin keys still open the admin API, the one made after the snapshot too.
    expect((await call(`${web()}/admin/api/world/hash`, { key: laterAdmin })).status).toBe(200);
    await reset();
    expect((await call(`${web()}/admin/api/world/hash`, { key: adminKey })).status).toBe(200);
    expect((await call(`${web()}/admin/api/world/hash`, { key: laterAdmin })).status).toBe(200);
  });
});
