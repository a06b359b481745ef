// The WebSocket commands Node-RED's Home Assistant nodes (node-red-contrib-home-assistant-websocket
// 0.80.3) send beyond what home-assistant-js-websocket's own helpers use, each answered in Home
// Assistant's shape. The nodes themselves run against Hamlet in test/conformance/node-red.
import WebSocket from 'ws';
(globalThis as unknown as { WebSocket: unknown }).WebSocket = WebSocket;

import { createConnection, createLongLivedTokenAuth, getUser, type Connection } from 'home-assistant-js-websocket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHome, type HomeTest } from './helpers.js';

let h: HomeTest;
let conn: Connection;

beforeAll(async () => {
  h = await startHome();
  conn = await createConnection({ auth: createLongLivedTokenAuth(h.url, h.token) });
});

afterAll(async () => {
  conn?.close();
  await h?.t.destroy();
});

const send = <T = any>(type: string, extra: Record<string, unknown> = {}) => conn.sendMessagePromise<T>({ type, ...extra });

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
