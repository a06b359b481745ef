// Simulated people (issue 31): rules a scenario declares for its agents, run on the platform
// clock. A mail to a simulated person gets its reply; a delayed reply and a timed thermostat
// change happen when the clock is moved, not before; a post in a community gets a comment; an
// external simulator over HTTP chooses the action, or (reply_from) says the words, told the
// conversation so far; a malformed rule is a 400 naming its place.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peopleOf } from '../../src/console/people/engine.js';
import { ControllableClock } from '../../src/platform/clock.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';

let t: TestHamlet;
let adminKey: string;
let keys: any;
let simulator: Server;
const asked: any[] = [];

async function call(url: string, init: { method?: string; key?: string; body?: unknown; yaml?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  let body: string | undefined;
  if (init.yaml !== undefined) [headers['content-type'], body] = ['text/yaml', init.yaml];
  else if (init.body !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(init.body)];
  const res = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await res.text();
  return {
    status: res.status,
    body: /json/.test(res.headers.get('content-type') ?? '') && text ? JSON.parse(text) : text,
  };
}

const admin = (p: string, init: Parameters<typeof call>[1] = {}) =>
  call(t.hamlet.console!.urls.web + p, { ...init, key: adminKey });
const engine = () => peopleOf(t.hamlet.platform, []);
/** Everything the people and the services were doing has finished. */
const settled = async () => {
  await engine().idle();
  await t.hamlet.platform.jobs.idle(undefined, 30_000);
  await engine().idle();
};

const send = (subject: string) =>
  call(`${t.url('mail')}/v0/inboxes/${encodeURIComponent(keys.butler.mail.inbox)}/messages/send`, {
    key: keys.butler.mail.key,
    body: { to: [keys.sam.mail.inbox], subject, text: 'Hello Sam.' },
  });
const butlerSubjects = async () =>
  (
    (
      await call(`${t.url('mail')}/v0/inboxes/${encodeURIComponent(keys.butler.mail.inbox)}/messages`, {
        key: keys.butler.mail.key,
      })
    ).body.messages as any[]
  ).map((m) => m.subject as string);
const temperature = async () =>
  (await call(`${t.url('home')}/api/states/climate.hvac`, { key: keys.butler.home.key })).body.attributes.temperature;

beforeAll(async () => {
  simulator = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const asking = JSON.parse(body);
      asked.push(asking);
      // reply_from: told the conversation, answers the words (plain text).
      if (asking.conversation)
        return res.end(`About "${asking.conversation[0].subject}": ${asking.conversation.length} turns so far.`);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ reply: `The simulator read: ${asking.event.text.trim()}` }));
    });
  });
  await new Promise<void>((r) => simulator.listen(0, '127.0.0.1', r));
  const simUrl = `http://127.0.0.1:${(simulator.address() as AddressInfo).port}/act`;
  t = await startTestHamlet({
    services: ['mail', 'community', 'home'],
    // The simulator is on this machine: allowed as an operator would (people/simulator-http.ts guards it like a webhook).
    env: { HAMLET_CONSOLE: 'on', HAMLET_RATE_COMMUNITY_REGISTER: '1000/1m', HAMLET_ALLOW_INTERNAL_REQUESTS: '1' },
    clock: new ControllableClock({ frozen: true, now: '2026-01-05T08:00:00Z' }),
  });
  adminKey = (await t.hamlet.platform.keys.create('admin')).key;
  const yaml = `name: people
agents:
  - { name: butler, mail: true, keys: [home] }
  - { name: sam, mail: true, community: {}, keys: [home] }
  - { name: ada, community: {} }
communities:
  - { name: street, owner: ada }
people:
  - name: sam
    rules:
      - { on: mail, match: { subject: movie }, reply: "Yes, eight o'clock is perfect." }
      - { on: mail, match: { subject: later }, after: 10m, reply: Answered ten minutes later. }
      - { at: "2026-01-05T20:00:00Z", home: { service: climate.set_temperature, data: { entity_id: climate.hvac, temperature: 23 } } }
      - { on: post, match: { community: street }, comment: Count me in. }
      - { on: mail, match: { subject: simulator }, simulator: "${simUrl}" }
      - { on: post, match: { title: simulated }, reply_from: "${simUrl}", timeout: 5s }
`;
  const seeded = await admin('/admin/api/world/seed', { yaml });
  expect(seeded.status, JSON.stringify(seeded.body)).toBe(200);
  keys = seeded.body.agents;
}, 120_000);
afterAll(async () => {
  await t?.destroy();
  simulator?.close();
});

describe('simulated people', () => {
  it('a mail to a simulated person gets its reply', async () => {
    expect((await send('Movie night?')).status).toBe(200);
    await settled();
    expect(await waitFor(async () => (await butlerSubjects()).includes('Re: Movie night?'))).toBe(true);
    const list = (
      await call(`${t.url('mail')}/v0/inboxes/${encodeURIComponent(keys.butler.mail.inbox)}/messages`, {
        key: keys.butler.mail.key,
      })
    ).body.messages as any[];
    const reply = list.find((m) => m.subject === 'Re: Movie night?');
    const full = await call(
      `${t.url('mail')}/v0/inboxes/${encodeURIComponent(keys.butler.mail.inbox)}/messages/${encodeURIComponent(reply.message_id)}`,
      { key: keys.butler.mail.key },
    );
    expect(full.body.text).toContain("Yes, eight o'clock is perfect.");
  });

  it('a delayed reply waits for the platform clock', async () => {
    expect((await send('See you later')).status).toBe(200);
    await settled();
    expect(await butlerSubjects()).not.toContain('Re: See you later');
    expect((await admin('/admin/api/clock/advance', { body: { seconds: 600 } })).status).toBe(200);
    await settled();
    expect(await waitFor(async () => (await butlerSubjects()).includes('Re: See you later'))).toBe(true);
  });

  it('a timed thermostat change happens when the clock is moved to its time', async () => {
    expect(await temperature()).toBe(20);
    // 08:10 → 19:10: not yet.
    expect((await admin('/admin/api/clock/advance', { body: { seconds: 11 * 3600 } })).status).toBe(200);
    await settled();
    expect(await temperature()).toBe(20);
    // → 20:10: the rule's 20:00 has passed.
    expect((await admin('/admin/api/clock/advance', { body: { seconds: 3600 } })).status).toBe(200);
    await settled();
    expect(await waitFor(async () => (await temperature()) === 23)).toBe(true);
  });

  it('a post in a community gets its comment', async () => {
    const post = await call(`${t.url('community')}/api/v1/posts`, {
      key: keys.ada.community.key,
      body: { community: 'street', title: 'Street party on Saturday', content: 'Who comes?' },
    });
    expect(post.status, JSON.stringify(post.body)).toBeLessThan(300);
    await settled();
    const comments = await waitFor(async () => {
      const r = await call(`${t.url('community')}/api/v1/posts/${post.body.post.id}/comments`, {
        key: keys.ada.community.key,
      });
      return (r.body.comments as any[])?.length ? r.body.comments : undefined;
    });
    expect(comments.map((c: any) => [c.author?.name, c.content])).toEqual([['sam', 'Count me in.']]);
  });

  it('an external simulator is told the event and its answer is the action', async () => {
    expect((await send('For the simulator')).status).toBe(200);
    await settled();
    expect(await waitFor(async () => (await butlerSubjects()).includes('Re: For the simulator'))).toBe(true);
    expect(asked.at(-1)).toMatchObject({
      person: 'sam',
      event: { kind: 'mail', subject: 'For the simulator', text: expect.stringContaining('Hello Sam.') },
    });
    const listed = await admin('/admin/api/world/people');
    expect(listed.body.people[0].fired).toEqual([1, 1, 1, 1, 1, 0]);
  });

  it('a person whose words come from an outside simulator is told the post and its comments so far', async () => {
    // Ada posted in an earlier test: past the community's one post per 30 minutes.
    expect((await admin('/admin/api/clock/advance', { body: { seconds: 1900 } })).status).toBe(200);
    const post = await call(`${t.url('community')}/api/v1/posts`, {
      key: keys.ada.community.key,
      body: { community: 'street', title: 'A simulated question', content: 'Anyone?' },
    });
    expect(post.status, JSON.stringify(post.body)).toBeLessThan(300);
    await settled();
    const comments = await waitFor(async () => {
      const r = await call(`${t.url('community')}/api/v1/posts/${post.body.post.id}/comments?sort=old`, {
        key: keys.ada.community.key,
      });
      return (r.body.comments as any[])?.length === 2 ? r.body.comments : undefined;
    });
    // The rules run in order: the fixed comment first, then the simulator's, which saw it (two
    // turns). Listed, the two may come in either order: the frozen clock gives them one time.
    expect(comments.map((c: any) => [c.author?.name, c.content]).sort()).toEqual([
      ['sam', 'About "A simulated question": 2 turns so far.'],
      ['sam', 'Count me in.'],
    ]);
    expect(asked.at(-1)).toMatchObject({
      person: 'sam',
      event: { kind: 'post', community: 'street', title: 'A simulated question', author: 'ada' },
      conversation: [
        { from: 'ada', subject: 'A simulated question', text: 'Anyone?', self: false },
        { from: 'sam', text: 'Count me in.', self: true },
      ],
    });
  });

  it('a malformed rule is a 400 naming its place, and nothing is seeded', async () => {
    const before = (await admin('/admin/api/world/hash')).body.hash;
    const cases: Array<[string, RegExp]> = [
      [
        'agents: [{ name: zoe, mail: true }]\npeople: [{ name: zoe, rules: [{ on: mail, at: "2026-01-05T20:00:00Z", reply: hi }] }]\n',
        /people\[0\]\.rules\[0\]: either on/,
      ],
      [
        'agents: [{ name: zoe, mail: true }]\npeople: [{ name: nobody, rules: [{ on: mail, reply: hi }] }]\n',
        /people\[0\]\.name/,
      ],
      [
        'agents: [{ name: zoe, mail: true }]\npeople: [{ name: zoe, rules: [{ on: mail, match: { subject: "(" }, reply: hi }] }]\n',
        /match\.subject: not a regular expression/,
      ],
      [
        'agents: [{ name: zoe, mail: true }]\npeople: [{ name: zoe, rules: [{ on: mail, after: soon, reply: hi }] }]\n',
        /after: a duration/,
      ],
      [
        'agents: [{ name: zoe, mail: true }]\npeople: [{ name: zoe, rules: [{ on: post, reply: hi }] }]\n',
        /reply: a text \(or a list of 1 to 50\), on a rule with on: mail/,
      ],
    ];
    for (const [yaml, message] of cases) {
      const r = await admin('/admin/api/world/seed', { yaml });
      expect(r.status, yaml).toBe(400);
      expect(r.body.message, yaml).toMatch(message);
    }
    expect((await admin('/admin/api/world/hash')).body.hash).toBe(before);
  });
});
