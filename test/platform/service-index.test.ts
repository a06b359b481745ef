// Opening a printed service URL in a browser shows what the service is and where its docs are,
// not a JSON 404; a program asking for JSON gets the same facts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

let t: TestHamlet;
beforeAll(async () => {
  t = await startTestHamlet({ services: ['mail', 'home', 'workflow'] });
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});

it.each([
  ['mail', 'docs/mail.md', /AgentMail/],
  ['home', 'docs/home.md', /Home Assistant/],
  ['workflow', 'docs/workflow.md', /n8n/],
] as const)(
  '%s: / is a small index page for browsers and JSON for programs, without a key',
  async (service, docs, copies) => {
    const page = await fetch(`${t.url(service)}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toMatch(copies);
    expect(html).toContain('href="/docs/json"');
    expect(html).toContain(docs);
    const json = (await (await fetch(`${t.url(service)}/`)).json()) as { docs: string; links: Record<string, string> };
    expect(json.docs).toBe(docs);
    expect(Object.values(json.links)).toContain('/docs/json');
  },
);
