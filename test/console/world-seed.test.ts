// Scenarios seed a world through the services' APIs: what the YAML says exists afterwards,
// and the keys it returns work for the agents they belong to.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { readScenario } from '../../src/console/world/scenario.js';
import { seedScenario } from '../../src/console/world/seed.js';

let t: TestHamlet;
let adminKey: string;
const ROOT = path.resolve(import.meta.dirname, '../..');

beforeAll(async () => {
  t = await startTestHamlet({
    services: ['blog', 'mail', 'community', 'home', 'workflow'],
    env: { HAMLET_CONSOLE: 'on' },
  });
  adminKey = (await t.hamlet.platform.keys.create('admin')).key;
}, 120_000);
afterAll(async () => t?.destroy());

async function get(base: string, url: string, headers: Record<string, string>) {
  const res = await fetch(base + url, { headers });
  return { status: res.status, body: await res.json() };
}

describe('scenarios', () => {
  it('seeds examples/scenarios/newsroom.yaml: accounts, mail, posts, a community, the house and a workflow, and returns working keys', async () => {
    const { scenario, baseDir } = readScenario(path.join(ROOT, 'examples/scenarios/newsroom.yaml'));
    const keys = await seedScenario(t.hamlet.platform, t.hamlet.services, scenario, baseDir);
    const ada = keys.agents.ada;
    const ben = keys.agents.ben;
    expect(Object.keys(ada).sort()).toEqual(['blog', 'community', 'home', 'mail', 'workflow']);

    // Ada's inbox holds the outside tip and Ben's message; Ben's holds her reply.
    const mailAuth = { authorization: `Bearer ${ada.mail.key}` };
    const adaMail = await get(t.url('mail'), `/v0/inboxes/${encodeURIComponent(ada.mail.inbox)}/messages`, mailAuth);
    expect(adaMail.status).toBe(200);
    const subjects = adaMail.body.messages.map((m: any) => m.subject);
    expect(subjects).toEqual(expect.arrayContaining(['Road works on Elm Street', "Tonight's edition"]));
    const benMail = await get(t.url('mail'), `/v0/inboxes/${encodeURIComponent(ben.mail.inbox)}/messages`, {
      authorization: `Bearer ${ben.mail.key}`,
    });
    expect(benMail.body.messages.map((m: any) => m.subject)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Re: Tonight's edition/)]),
    );

    // The blog post, with Ben's comment and vote.
    const posts = await get(t.url('blog'), '/api/posts', {});
    const post = posts.body.posts.find((p: any) => p.title === 'Elm Street closes on Monday');
    expect(post).toBeTruthy();
    const comments = await get(t.url('blog'), `/api/posts/${post.id}/comments`, {});
    expect(comments.body.comments.map((c: any) => c.content)).toEqual(['Good catch.']);
    // Ada's blog key is hers: she can publish.
    const publish = await fetch(`${t.url('blog')}/api/publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada.blog.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Follow-up', content: 'More soon.' }),
    });
    expect(publish.status).toBeLessThan(300);

    // The community, its post, comment and upvote.
    const feed = await get(t.url('community'), '/api/v1/posts?community=citydesk', {
      authorization: `Bearer ${ben.community.key}`,
    });
    const cpost = feed.body.posts.find((p: any) => p.title === 'Who knew about the Elm Street works?');
    expect(cpost.upvotes).toBe(1);
    expect(cpost.comment_count).toBe(1);

    // The house and the workflow, seen with Ada's keys.
    const light = await get(t.url('home'), '/api/states/light.newsroom', { authorization: `Bearer ${ada.home.key}` });
    expect(light.body.state).toBe('on');
    const workflows = await get(t.url('workflow'), '/api/v1/workflows', { 'x-n8n-api-key': ada.workflow.key });
    expect(workflows.body.data.map((w: any) => [w.name, w.active])).toEqual([['Echo', true]]);
    const echo = await fetch(`${t.url('workflow')}/webhook/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ msg: 'hi' }),
    });
    expect(await echo.json()).toEqual({ echo: 'hi', length: 2 });
  });

  it('the admin API seeds a YAML body and refuses a scenario naming an unknown agent', async () => {
    const web = t.hamlet.console!.urls.web;
    const headers = { authorization: `Bearer ${adminKey}`, 'content-type': 'text/yaml' };
    const ok = await fetch(`${web}/admin/api/world/seed`, {
      method: 'POST',
      headers,
      body: 'name: tiny\nagents:\n  - name: cleo\n    community: {}\n',
    });
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body.agents.cleo.community.key).toMatch(/^moltbook_|^hamlet_/);
    const bad = await fetch(`${web}/admin/api/world/seed`, {
      method: 'POST',
      headers,
      body: 'communities:\n  - name: x\n    owner: nobody\n',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/nobody/);
    expect(readFileSync(path.join(ROOT, 'examples/scenarios/newsroom.yaml'), 'utf8')).toContain('name: newsroom');
  });
});

describe('example scenarios', () => {
  it('every file in examples/scenarios/ parses and names only agents it declares', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(path.join(ROOT, 'examples/scenarios')).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files)
      expect(readScenario(path.join(ROOT, 'examples/scenarios', f)).scenario.agents?.length, f).toBeGreaterThan(0);
  });
});
