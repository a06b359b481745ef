// HA's MCP server endpoint with the official @modelcontextprotocol/sdk client over streamable
// HTTP and the home's bearer token: it lists HA's Assist tools, turns a light on (checked
// with GET /api/states), reads the live context, and refuses a client without a token.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHome, type HomeTest } from './helpers.js';

let h: HomeTest;
let client: Client;

const connect = async (token?: string) => {
  const c = new Client({ name: 'hamlet-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(
    new URL(`${h.url}/api/mcp`),
    token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {},
  );
  await c.connect(transport);
  return c;
};

beforeAll(async () => {
  h = await startHome();
  client = await connect(h.token);
});

afterAll(async () => {
  await client?.close();
  await h?.t.destroy();
});

const text = (r: any) => JSON.parse(r.content[0].text);

describe('MCP server at /api/mcp', () => {
  it('identifies itself as Home Assistant and lists the Assist tools', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'home-assistant' });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'HassTurnOn',
        'HassTurnOff',
        'HassLightSet',
        'HassClimateSetTemperature',
        'HassSetPosition',
        'HassMediaPause',
        'HassSetVolume',
        'GetLiveContext',
        'GetDateTime',
      ]),
    );
    const lightSet = tools.find((t) => t.name === 'HassLightSet')!;
    expect(Object.keys(lightSet.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['name', 'area', 'floor', 'domain', 'brightness', 'color']),
    );
  });

  it('turns a light on (HassTurnOn), seen in GET /api/states', async () => {
    expect((await h.api('GET', '/api/states/light.kitchen')).body.state).toBe('off');
    const r = await client.callTool({ name: 'HassTurnOn', arguments: { name: 'Kitchen', domain: ['light'] } });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toEqual({
      speech: { plain: { speech: 'Turned on the light', extra_data: null } },
      response_type: 'action_done',
      data: { targets: [], success: [{ type: 'entity', name: 'Kitchen', id: 'light.kitchen' }], failed: [] },
    });
    const kitchen = (await h.api('GET', '/api/states')).body.find((s: any) => s.entity_id === 'light.kitchen');
    expect(kitchen.state).toBe('on');
    // The change is the token's user's, as with REST.
    expect(kitchen.context.user_id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('sets brightness by area, a temperature and a cover position', async () => {
    await client.callTool({ name: 'HassLightSet', arguments: { area: 'Hall', brightness: 50 } });
    expect((await h.api('GET', '/api/states/light.hall')).body.attributes.brightness).toBe(128);
    await client.callTool({ name: 'HassClimateSetTemperature', arguments: { area: 'Bedroom', temperature: 19 } });
    expect((await h.api('GET', '/api/states/climate.bedroom')).body.attributes.temperature).toBe(19);
    const r = await client.callTool({
      name: 'HassSetPosition',
      arguments: { name: 'Living Room Blinds', position: 30 },
    });
    expect(text(r).response_type).toBe('action_done');
  });

  it('GetLiveContext describes entities with their areas and states; GetDateTime answers', async () => {
    const live = text(await client.callTool({ name: 'GetLiveContext', arguments: {} }));
    expect(live.success).toBe(true);
    expect(live.result).toMatch(/^Live Context: An overview of the areas and the devices in this smart home:\n/);
    expect(live.result).toContain('- names: Kitchen\n  domain: light\n  state: on\n  areas: Kitchen\n');
    expect(live.result).toContain(
      '- names: HVAC\n  domain: climate\n  state: heat\n  areas: Living Room, lounge\n  attributes:\n    current_temperature: 19.5\n',
    );
    expect(live.result).not.toContain('notify');
    const dt = text(await client.callTool({ name: 'GetDateTime', arguments: {} }));
    expect(dt.result).toMatchObject({
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      timezone: 'Europe/Amsterdam',
    });
  });

  it('an unknown device is a tool error with HA intent error data; bad arguments are refused', async () => {
    const r = await client.callTool({ name: 'HassTurnOff', arguments: { name: 'Jacuzzi' } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatchObject({ response_type: 'error', data: { code: 'no_valid_targets' } });
    const bad = await client.callTool({ name: 'HassLightSet', arguments: { name: 'Kitchen', brightness: 300 } });
    expect(bad.isError).toBe(true);
    expect((await h.api('GET', '/api/states/light.kitchen')).body.attributes.brightness).not.toBe(300);
  });

  it('refuses a client without a valid token (401)', async () => {
    await expect(connect()).rejects.toThrow(/Unauthorized/);
    await expect(connect('hamlet_home_nope')).rejects.toThrow(/Unauthorized/);
    const raw = await fetch(`${h.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(raw.status).toBe(401);
  });

  it('answers bad requests in JSON-RPC or HA JSON, never hanging: invalid JSON 400, a form 415, GET/DELETE 405', async () => {
    const headers = { authorization: `Bearer ${h.token}`, accept: 'application/json, text/event-stream' };
    const invalid = await fetch(`${h.url}/api/mcp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    const form = await fetch(`${h.url}/api/mcp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(form.status).toBe(415);
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(`${h.url}/api/mcp`, { method, headers, signal: AbortSignal.timeout(3000) });
      expect(r.status).toBe(405);
      expect(await r.json()).toEqual({ message: 'Method not allowed' });
    }
  });
});
