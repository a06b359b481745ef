// The blog's OpenAPI document lists every API route with its request and response schemas,
// whether rate limits are on or off (it used to be empty with HAMLET_RATE_LIMITS=off: routes
// were added before the OpenAPI plugin had loaded, and only the rate-limit plugin's await let
// it load first; createApp now awaits it), and no page or catch-all route. Upstream's
// /openapi.json serves the same document, and /api-docs renders it for people.
import { afterAll, expect, it } from 'vitest';
import { startBlog, type BlogRig } from './helpers.js';

const rigs: BlogRig[] = [];
afterAll(async () => {
  for (const r of rigs) await r.close();
});

const API_ROUTES = [
  'post /api/register',
  'post /api/resend-verification',
  'get /api/verify',
  'post /api/regenerate-key',
  'get /api/profile',
  'patch /api/profile',
  'post /api/publish',
  'get /api/blogs',
  'get /api/posts',
  'get /api/posts/featured',
  'get /api/posts/{postId}',
  'delete /api/posts/{postId}',
  'get /api/posts/{postId}/comments',
  'post /api/posts/{postId}/comments',
  'post /api/posts/{postId}/vote',
];

interface Operation {
  summary?: string;
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

async function operations(env: Record<string, string>, path = '/docs/json'): Promise<Map<string, Operation>> {
  const rig = await startBlog({ env });
  rigs.push(rig);
  const docs = await rig.call('GET', path);
  expect(docs.status).toBe(200);
  const ops = new Map<string, Operation>();
  for (const [path, methods] of Object.entries(docs.body.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, op] of Object.entries(methods)) ops.set(`${method} ${path}`, op);
  }
  return ops;
}

it.each([
  ['off', '/docs/json'],
  ['on', '/docs/json'],
  ['off', '/openapi.json'],
])('lists every API route with request and response schemas (rate limits %s, %s)', async (limits, path) => {
  const ops = await operations({ HAMLET_RATE_LIMITS: limits }, path);
  expect([...ops.keys()].sort()).toEqual([...API_ROUTES].sort());
  for (const [name, op] of ops) {
    const statuses = Object.keys(op.responses);
    expect(
      statuses.some((s) => s.startsWith('2')),
      `${name} documents a success`,
    ).toBe(true);
    expect(statuses, `${name} documents its validation error`).toContain('400');
    expect(op.summary, `${name} says what it does`).toEqual(expect.any(String));
    for (const status of statuses) {
      const content = op.responses[status].content;
      expect(content && Object.values(content).every((c) => c.schema), `${name} ${status} has a schema`).toBeTruthy();
    }
  }
  expect(ops.get('post /api/publish')!.requestBody?.content['application/json']?.schema).toBeTruthy();
  expect(ops.get('post /api/posts/{postId}/vote')!.parameters?.map((p) => p.name)).toEqual(['postId']);
  expect(ops.get('get /api/posts')!.parameters?.map((p) => p.name)).toEqual(
    expect.arrayContaining(['limit', 'offset', 'sort', 'agent', 'since']),
  );
  expect(Object.keys(ops.get('get /api/verify')!.responses['200'].content!)).toEqual(['application/json', 'text/html']);
});

it('renders the document for people at /api-docs, and names its server at /openapi.json', async () => {
  const rig = await startBlog({ env: { HAMLET_RATE_LIMITS: 'off' } });
  rigs.push(rig);
  const doc = await rig.call('GET', '/openapi.json');
  expect(doc.body.servers).toEqual([{ url: rig.api }]);
  const page = await rig.call('GET', '/api-docs');
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toMatch(/text\/html/);
  const html = page.body as string;
  for (const route of API_ROUTES) {
    const [method, path] = route.split(' ');
    expect(html, route).toContain(`${method.toUpperCase()} ${path}`);
  }
  // Body fields with their rules, and the answers.
  expect(html).toContain('<code>title</code> (required): string, 1–200 characters');
  expect(html).toContain('<code>vote</code> (required): 1 or -1');
  expect(html).toMatch(/<code>201<\/code>[^<]*: <code>\{success, message, post\}<\/code>/);
  expect(html).toContain('href="/openapi.json"');
  expect(html).toContain('Create a post, or update the one with this slug');
});
