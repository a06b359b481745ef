// /docs/json documents every home route with its request and response schemas, also with
// rate limits off (the platform refuses to start a route without a response schema). The
// WebSocket route is not among them: OpenAPI cannot describe it (docs/home.md does).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHome, type HomeTest } from './helpers.js';

let h: HomeTest;
beforeAll(async () => {
  h = await startHome({ env: { HAMLET_RATE_LIMITS: 'off' } });
});
afterAll(() => h?.t.destroy());

const EXPECTED = [
  'get /api/',
  'get /api/config',
  'get /api/states',
  'get /api/states/{entity_id}',
  'post /api/states/{entity_id}',
  'delete /api/states/{entity_id}',
  'get /api/services',
  'post /api/services/{domain}/{service}',
  'get /api/events',
  'post /api/events/{event_type}',
  'get /api/history/period',
  'get /api/history/period/{timestamp}',
  'get /api/logbook',
  'get /api/logbook/{timestamp}',
  'get /api/webhook/{webhook_id}',
  'post /api/webhook/{webhook_id}',
  'put /api/webhook/{webhook_id}',
  'get /api/config/automation/config/{id}',
  'post /api/config/automation/config/{id}',
  'delete /api/config/automation/config/{id}',
  'post /api/conversation/process',
  'post /api/intent/handle',
  'post /api/mcp',
  'get /api/mcp',
  'delete /api/mcp',
  'post /api/template',
  'get /api/components',
  'get /api/error_log',
  'get /api/core/state',
  'post /api/config/core/check_config',
];

it('lists every route with its response schemas, and request schemas where a request has parts', async () => {
  const doc = (await (await fetch(`${h.url}/docs/json`)).json()) as { paths: Record<string, Record<string, any>> };
  const listed: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (method === 'head') continue;
      listed.push(`${method} ${path}`);
      expect(Object.keys(op.responses ?? {}), `${method} ${path}`).not.toHaveLength(0);
      const success = op.responses['200'] ?? op.responses['201'] ?? op.responses['101'];
      expect(success, `${method} ${path} documents its success`).toBeDefined();
      if (path.includes('{'))
        expect(
          op.parameters?.some((p: { in: string }) => p.in === 'path'),
          `${method} ${path} params`,
        ).toBe(true);
      if (method === 'post' || method === 'put') expect(op.requestBody, `${method} ${path} body`).toBeDefined();
    }
  }
  expect(listed.sort()).toEqual([...EXPECTED].sort());
});
