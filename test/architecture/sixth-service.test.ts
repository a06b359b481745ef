// Adding a service is its folder plus one registry line (docs/adding-a-service.md): a fixture
// service (fixtures/notes, outside src/ so it never ships) registered the way the registry
// registers Hamlet's own is seen by the console (its page and nav entry), the MCP server (its
// tool), the CLI's help and its command, and the world (its table saved and restored).
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { main } from '../../src/commands/main.js';
import { worldOf } from '../../src/console/world/index.js';
import { registerService } from '../../src/services/registry.js';
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';

const unregister = registerService('notes', async () => (await import('./fixtures/notes/index.js')).default);

let t: TestHamlet;
let adminKey: string;
beforeAll(async () => {
  t = await startTestHamlet({ services: ['notes'], env: { HAMLET_CONSOLE: 'on', NOTES_PORT: '0' } });
  adminKey = (await t.hamlet.platform.keys.create('admin')).key;
  const res = await fetch(`${t.url('notes')}/api/notes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'first <note>' }),
  });
  expect(res.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await t?.destroy();
  unregister();
});

it('the console shows its page, in the navigation too, through its API', async () => {
  const res = await fetch(`${t.hamlet.console!.urls.web}/notes`, { headers: { authorization: `Bearer ${adminKey}` } });
  expect(res.status).toBe(200);
  const page = await res.text();
  expect(page).toContain('<li>first &lt;note&gt;</li>');
  expect(page).toContain('<a href="/notes" aria-current="page">Notes</a>');
});

it('the MCP server offers its tool, and the tool calls the service', async () => {
  const rpc = async (method: string, params: unknown) => {
    const res = await fetch(`${t.hamlet.console!.urls.web}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return (await res.json()) as { result: any };
  };
  const tools = await rpc('tools/list', {});
  expect(tools.result.tools.map((x: { name: string }) => x.name)).toEqual(['notes_list']);
  const called = await rpc('tools/call', { name: 'notes_list', arguments: {} });
  expect(called.result.content[0].text).toContain('first <note>');
});

it('the CLI lists its command in the help and runs it', async () => {
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  try {
    expect(await main(['help'])).toBe(0);
    expect(out.join('\n')).toMatch(/hamlet notes count\s+print how many notes there are/);
    out.length = 0;
    expect(await main(['notes', 'count', '--services', 'notes', '--data-dir', t.dataDir])).toBe(0);
    expect(out).toEqual(['1']);
  } finally {
    log.mockRestore();
  }
});

it('the world saves and restores its table', async () => {
  const world = worldOf(t.hamlet.platform, [
    { definition: (await import('./fixtures/notes/index.js')).default, settings: { port: 0 } },
  ]);
  const saved = await world.read();
  expect(saved.tables.find((x) => x.name === 'notes_items')?.rows).toEqual([{ id: 1, text: 'first <note>' }]);
  await world.reset();
  expect((await (await fetch(`${t.url('notes')}/api/notes`)).json()).notes).toEqual([]);
  await world.restore(saved);
  expect((await (await fetch(`${t.url('notes')}/api/notes`)).json()).notes).toEqual([{ id: 1, text: 'first <note>' }]);
});
