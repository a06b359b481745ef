// Registries over the WebSocket with the official home-assistant-js-websocket client: the
// demo house's floors, areas, labels, devices and entities in HA's shapes, and service calls
// that target an area, a device, a floor or a label.
import WebSocket from 'ws';
(globalThis as unknown as { WebSocket: unknown }).WebSocket = WebSocket;

import { callService, createConnection, createLongLivedTokenAuth, type Connection } from 'home-assistant-js-websocket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DOMAINS } from '../../src/services/home/entities/index.js';
import { loadHouse } from '../../src/services/home/house.js';
import { areaEntities, areaId, areaName, deviceAttr, deviceId } from '../../src/services/home/core/registry/lookup.js';

const DEMO_HOUSE = path.join(import.meta.dirname, '../../src/services/home/demo-house.yaml');
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

const send = <T = any>(type: string, extra: Record<string, unknown> = {}) =>
  conn.sendMessagePromise<T>({ type, ...extra });
const state = async (id: string) => (await h.api('GET', `/api/states/${id}`)).body;

describe('registries (config/*_registry)', () => {
  it('lists floors, areas and labels with HA keys', async () => {
    const floors = await send<any[]>('config/floor_registry/list');
    expect(floors.map((f) => f.floor_id)).toEqual(['ground_floor', 'first_floor']);
    expect(Object.keys(floors[0]).sort()).toEqual([
      'aliases',
      'created_at',
      'floor_id',
      'icon',
      'level',
      'modified_at',
      'name',
    ]);
    expect(floors[1]).toMatchObject({ name: 'First Floor', level: 1 });

    const areas = await send<any[]>('config/area_registry/list');
    const kitchen = areas.find((a) => a.area_id === 'kitchen');
    expect(Object.keys(kitchen).sort()).toEqual([
      'aliases',
      'area_id',
      'created_at',
      'floor_id',
      'humidity_entity_id',
      'icon',
      'labels',
      'modified_at',
      'name',
      'picture',
      'temperature_entity_id',
    ]);
    expect(kitchen).toMatchObject({ name: 'Kitchen', floor_id: 'ground_floor' });
    expect(areas.find((a) => a.area_id === 'bedroom').floor_id).toBe('first_floor');
    expect(areas.find((a) => a.area_id === 'living_room').aliases).toEqual(['lounge']);
    expect(typeof kitchen.created_at).toBe('number');

    const labels = await send<any[]>('config/label_registry/list');
    expect(labels.find((l) => l.label_id === 'security')).toEqual({
      color: 'red',
      created_at: expect.any(Number),
      description: null,
      icon: 'mdi:shield-home',
      label_id: 'security',
      name: 'Security',
      modified_at: expect.any(Number),
    });
  });

  it('lists devices and entities, linked by device_id, with the area on the device', async () => {
    const devices = await send<any[]>('config/device_registry/list');
    const entities = await send<any[]>('config/entity_registry/list');
    const kitchenLight = entities.find((e) => e.entity_id === 'light.kitchen');
    expect(Object.keys(kitchenLight).sort()).toEqual(
      [
        'area_id',
        'categories',
        'config_entry_id',
        'config_subentry_id',
        'created_at',
        'device_id',
        'disabled_by',
        'entity_category',
        'entity_id',
        'has_entity_name',
        'hidden_by',
        'icon',
        'id',
        'labels',
        'modified_at',
        'name',
        'options',
        'original_name',
        'platform',
        'translation_key',
        'unique_id',
      ].sort(),
    );
    expect(kitchenLight).toMatchObject({
      area_id: null,
      labels: ['lighting'],
      original_name: 'Kitchen',
      disabled_by: null,
    });
    expect(kitchenLight.id).toMatch(/^[0-9a-f]{32}$/);
    const device = devices.find((d) => d.id === kitchenLight.device_id);
    expect(device).toMatchObject({
      area_id: 'kitchen',
      name: 'Kitchen',
      manufacturer: 'Hamlet',
      identifiers: [['hamlet', 'light.kitchen']],
      via_device_id: null,
      config_entries: [],
    });
    expect(devices.find((d) => d.name === 'Thermostat')).toMatchObject({
      area_id: 'living_room',
      model: 'Demo Thermostat',
    });
    // Helpers have no device; their area is their own.
    expect(entities.find((e) => e.entity_id === 'input_boolean.guest_mode')).toMatchObject({
      device_id: null,
      platform: 'input_boolean',
    });
  });

  it('gets one entity with the extended keys, and not_found for an unknown one', async () => {
    const e = await send('config/entity_registry/get', { entity_id: 'light.living_room' });
    expect(e).toMatchObject({
      entity_id: 'light.living_room',
      aliases: [],
      original_device_class: null,
      capabilities: { supported_color_modes: ['color_temp', 'hs'], effect_list: ['colorloop', 'random'] },
    });
    await expect(send('config/entity_registry/get', { entity_id: 'light.nope' })).rejects.toEqual({
      code: 'not_found',
      message: 'Entity not found',
    });
    await expect(send('config/entity_registry/get', {})).rejects.toMatchObject({ code: 'invalid_format' });
    const display = await send('config/entity_registry/list_for_display');
    expect(display.entities.find((e: any) => e.ei === 'light.kitchen')).toMatchObject({
      pl: 'hamlet',
      lb: ['lighting'],
      di: expect.any(String),
    });
  });

  it('targets an area, a device, a floor and a label in service calls (WS and REST)', async () => {
    await callService(conn, 'light', 'turn_off', {}, { entity_id: 'all' });
    // Area: only the lights of the living room (the speaker is there too, but this is light.turn_on).
    await callService(conn, 'light', 'turn_on', { brightness: 100 }, { area_id: 'living_room' });
    expect((await state('light.living_room')).state).toBe('on');
    expect((await state('light.kitchen')).state).toBe('off');

    // Floor (REST, area_id/floor_id in the body as HA accepts them): every light on the ground floor.
    const r = await h.api('POST', '/api/services/light/turn_on', { floor_id: 'ground_floor' });
    expect(r.status).toBe(200);
    expect(r.body.map((s: any) => s.entity_id).sort()).toEqual(['light.hall', 'light.kitchen']);
    expect((await state('light.porch')).state).toBe('off');

    // Label: lighting ∩ security = the porch light (and the motion sensor, which light.* ignores).
    await callService(conn, 'light', 'turn_on', {}, { label_id: 'security' });
    expect((await state('light.porch')).state).toBe('on');

    // Device: the thermostat device's entity.
    const devices = await send<any[]>('config/device_registry/list');
    const thermostat = devices.find((d) => d.name === 'Thermostat');
    await callService(conn, 'climate', 'set_hvac_mode', { hvac_mode: 'cool' }, { device_id: thermostat.id });
    expect((await state('climate.hvac')).state).toBe('cool');
  });

  it('an unknown area is not_found (404 over REST) and changes nothing', async () => {
    await expect(callService(conn, 'light', 'turn_on', {}, { area_id: 'attic' })).rejects.toMatchObject({
      code: 'not_found',
      message: 'Area attic not found.',
    });
    const r = await h.api('POST', '/api/services/light/turn_on', { area_id: ['kitchen', 'attic'] });
    expect(r).toMatchObject({ status: 404, body: { message: 'Area attic not found.' } });
  });

  it('answers the lookups templates use (area_entities, area_name, area_id, device_attr, device_id)', () => {
    const { registry } = loadHouse(
      DEMO_HOUSE,
      true,
      DOMAINS.map((d) => d.domain),
    );
    expect(areaEntities(registry, 'Kitchen').sort()).toEqual(['light.kitchen', 'switch.coffee_maker']);
    expect(areaEntities(registry, 'lounge')).toContain('media_player.living_room');
    expect(areaEntities(registry, 'attic')).toEqual([]);
    expect(areaName(registry, 'light.porch')).toBe('Outside');
    expect(areaName(registry, 'sensor.nope')).toBeNull();
    expect(areaId(registry, 'Living Room')).toBe('living_room');
    expect(deviceAttr(registry, 'climate.hvac', 'model')).toBe('Demo Thermostat');
    expect(deviceAttr(registry, deviceId(registry, 'light.kitchen')!, 'area_id')).toBe('kitchen');
    expect(deviceAttr(registry, 'light.kitchen', 'nope')).toBeNull();
  });

  it('refuses a house file whose device names an area that is not declared', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'house-')), 'home.yaml');
    writeFileSync(
      file,
      'areas:\n  - { id: kitchen, name: Kitchen, floor: cellar }\ndevices:\n  - { domain: light, id: a, area: attic }\n',
    );
    expect(() => loadHouse(file, true, ['light'])).toThrow(
      /floor cellar, which is not in floors[\s\S]*area attic, which is not in areas/,
    );
  });
});
