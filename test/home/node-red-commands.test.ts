// The WebSocket commands Node-RED's Home Assistant nodes (node-red-contrib-home-assistant-websocket
// 0.80.3) send beyond what home-assistant-js-websocket's own helpers use, each answered in Home
// Assistant's shape. The nodes themselves run against Hamlet in test/conformance/node-red.
import WebSocket from 'ws';
(globalThis as unknown as { WebSocket: unknown }).WebSocket = WebSocket;

import { createConnection, createLongLivedTokenAuth, getUser, type Connection } from 'home-assistant-js-websocket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoHouseWith, startHome, type HomeTest } from './helpers.js';

let h: HomeTest;
let conn: Connection;

beforeAll(async () => {
  // The demo house with a tag (HA's NFC/QR tags, which Node-RED's tag node listens to).
  h = await startHome({
    env: {
      HOME_CONFIG: demoHouseWith(['{ domain: tag, id: front_door_tag, name: Front door tag, tag_id: "04A1B2C3D4" }']),
    },
  });
  conn = await createConnection({ auth: createLongLivedTokenAuth(h.url, h.token) });
});

afterAll(async () => {
  conn?.close();
  await h?.t.destroy();
});

const send = <T = any>(type: string, extra: Record<string, unknown> = {}) =>
  conn.sendMessagePromise<T>({ type, ...extra });

describe('auth/current_user', () => {
  it("answers the token's user as HA does: an admin owner with a homeassistant credential", async () => {
    // hajs types only id, name, is_owner and is_admin; HA sends the credentials and MFA modules too.
    const user = (await getUser(conn)) as unknown as Record<string, unknown>;
    expect(Object.keys(user).sort()).toEqual(['credentials', 'id', 'is_admin', 'is_owner', 'mfa_modules', 'name']);
    expect(user.id).toMatch(/^[0-9a-f]{32}$/);
    expect(user).toMatchObject({ name: 'test', is_owner: true, is_admin: true });
    expect(user.credentials).toEqual([{ auth_provider_type: 'homeassistant', auth_provider_id: null }]);
    expect(user.mfa_modules).toEqual([{ id: 'totp', name: 'Authenticator app', enabled: false }]);
  });

  it("is the same user as the contexts of the token's calls", async () => {
    const user = await getUser(conn);
    const fired = await send<{ context: { user_id: string } }>('fire_event', { event_type: 'who_am_i' });
    expect(fired.context.user_id).toBe(user.id);
  });
});

describe('tags (tag/list, tag_scanned, tag entities)', () => {
  it('is a loaded component, so clients ask for the tag list', async () => {
    const config = await send<{ components: string[] }>('get_config');
    expect(config.components).toContain('tag');
  });

  it('lists the tags of the house file as HA does: id (the tag id) and name', async () => {
    const tags = await send<any[]>('tag/list');
    expect(tags).toEqual([{ id: '04A1B2C3D4', name: 'Front door tag' }]);
    const state = (await h.api('GET', '/api/states/tag.front_door_tag')).body;
    expect(state).toMatchObject({
      state: 'unknown',
      attributes: { tag_id: '04A1B2C3D4', last_scanned_by_device_id: null, friendly_name: 'Front door tag' },
    });
    const entry = await send<any>('config/entity_registry/get', { entity_id: 'tag.front_door_tag' });
    expect(entry).toMatchObject({ platform: 'tag', device_id: null, unique_id: '04A1B2C3D4' });
  });

  it('a tag_scanned event is a scan: last_scanned and the entity move; an unknown tag is added', async () => {
    const fired = await h.api('POST', '/api/events/tag_scanned', { tag_id: '04A1B2C3D4', device_id: 'phone1' });
    expect(fired.status).toBe(200);
    const tag = (await send<any[]>('tag/list')).find((t) => t.id === '04A1B2C3D4');
    expect(tag).toMatchObject({ name: 'Front door tag', device_id: 'phone1' });
    expect(tag.last_scanned).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
    const state = (await h.api('GET', '/api/states/tag.front_door_tag')).body;
    // The entity's state is the scan time to the millisecond.
    expect(state.state).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
    expect(state.attributes.last_scanned_by_device_id).toBe('phone1');

    await send('fire_event', { event_type: 'tag_scanned', event_data: { tag_id: 'new-tag-1' } });
    const added = (await send<any[]>('tag/list')).find((t) => t.id === 'new-tag-1');
    expect(added).toMatchObject({ id: 'new-tag-1', name: 'Tag new-tag-1' });
    expect((await h.api('GET', '/api/states/tag.new_tag_1')).body.attributes.tag_id).toBe('new-tag-1');
  });

  it('refuses a tag_scanned without a usable tag id without failing the event', async () => {
    const before = await send<any[]>('tag/list');
    expect((await h.api('POST', '/api/events/tag_scanned', { device_id: 'x' })).status).toBe(200);
    expect((await h.api('POST', '/api/events/tag_scanned', { tag_id: 42 })).status).toBe(200);
    expect((await h.api('POST', '/api/events/tag_scanned', { tag_id: 'x'.repeat(300) })).status).toBe(200);
    expect((await h.api('POST', '/api/events/tag_scanned', { tag_id: 'y', device_id: 'z'.repeat(300) })).status).toBe(
      200,
    );
    expect(await send<any[]>('tag/list')).toEqual(before);
  });

  it('gives two tags whose ids make the same entity id two entities', async () => {
    await h.api('POST', '/api/events/tag_scanned', { tag_id: 'Kitchen-1' });
    await h.api('POST', '/api/events/tag_scanned', { tag_id: 'kitchen_1' });
    await h.api('POST', '/api/events/tag_scanned', { tag_id: '!!!' });
    const tags = await send<any[]>('tag/list');
    for (const id of ['Kitchen-1', 'kitchen_1', '!!!']) expect(tags.map((t) => t.id)).toContain(id);
    expect((await h.api('GET', '/api/states/tag.kitchen_1')).body.attributes.tag_id).toBe('Kitchen-1');
    expect((await h.api('GET', '/api/states/tag.kitchen_1_2')).body.attributes.tag_id).toBe('kitchen_1');
  });
});
