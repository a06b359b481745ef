// The conversation API on the demo house: each common intent in English through
// POST /api/conversation/process (and the WebSocket), answered in HA's response shape,
// with the home's states checked over REST.
import WebSocket from 'ws';
(globalThis as unknown as { WebSocket: unknown }).WebSocket = WebSocket;

import { createConnection, createLongLivedTokenAuth } from 'home-assistant-js-websocket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHome, ULID, type HomeTest } from './helpers.js';

let h: HomeTest;

beforeAll(async () => {
  h = await startHome();
});

afterAll(async () => {
  await h?.t.destroy();
});

const say = async (text: string, extra: Record<string, unknown> = {}) => {
  const r = await h.api('POST', '/api/conversation/process', { text, language: 'en', ...extra });
  expect(r.status).toBe(200);
  return r.body;
};
const state = async (id: string) => (await h.api('GET', `/api/states/${id}`)).body;
const ids = (list: Array<{ id: string }>) => list.map((x) => x.id).sort();

describe('POST /api/conversation/process', () => {
  it('turn on a light by name: action_done with the entity in success', async () => {
    const r = await say('Turn on the kitchen');
    expect(r).toEqual({
      response: {
        speech: { plain: { speech: 'Turned on the light', extra_data: null } },
        card: {},
        language: 'en',
        response_type: 'action_done',
        data: { targets: [], success: [{ type: 'entity', name: 'Kitchen', id: 'light.kitchen' }], failed: [] },
      },
      conversation_id: expect.stringMatching(ULID),
      continue_conversation: false,
    });
    expect((await state('light.kitchen')).state).toBe('on');
  });

  it('turn off the lights in an area: the area and domain are the targets', async () => {
    await h.api('POST', '/api/services/light/turn_on', { entity_id: ['light.living_room', 'light.hall'] });
    const r = await say('turn off the lights in the living room', { conversation_id: 'conv-1' });
    expect(r.conversation_id).toBe('conv-1');
    expect(r.response.data.targets).toEqual([
      { type: 'area', name: 'Living Room', id: 'living_room' },
      { type: 'domain', name: 'light', id: 'light' },
    ]);
    expect(ids(r.response.data.success)).toEqual(['light.living_room']);
    expect((await state('light.living_room')).state).toBe('off');
    expect((await state('light.hall')).state).toBe('on');
    // "<area> lights" and an area alias say the same.
    await say('switch on lounge lights');
    expect((await state('light.living_room')).state).toBe('on');
  });

  it('set brightness and colour (HassLightSet)', async () => {
    const r = await say('set the brightness of the kitchen to 50%');
    expect(r.response).toMatchObject({
      response_type: 'action_done',
      speech: { plain: { speech: 'Brightness set to 50%' } },
    });
    expect((await state('light.kitchen')).attributes.brightness).toBe(128);
    await say('dim the hall to 10 percent');
    expect((await state('light.hall')).attributes.brightness).toBe(26);
    const c = await say('turn the living room light red');
    expect(c.response.speech.plain.speech).toBe('Colour set to red');
    expect((await state('light.living_room')).attributes.rgb_color).toEqual([255, 0, 0]);
    await say('set the colour of living room to blue');
    expect((await state('light.living_room')).attributes.rgb_color).toEqual([0, 0, 255]);
  });

  it('set the temperature (HassClimateSetTemperature) and ask for it (HassClimateGetTemperature)', async () => {
    const r = await say('set the temperature in the bedroom to 21 degrees');
    expect(r.response).toMatchObject({ response_type: 'action_done', data: { success: [{ id: 'climate.bedroom' }] } });
    expect((await state('climate.bedroom')).attributes.temperature).toBe(21);
    await say('set HVAC to 22.5 degrees');
    expect((await state('climate.hvac')).attributes.temperature).toBe(22.5);
    // "living room" is a light's name and an area: for a temperature it means the area's thermostat.
    await say('set the temperature in the living room to 23');
    expect((await state('climate.hvac')).attributes.temperature).toBe(23);
    const q = await say('what is the temperature in the living room?');
    expect(q.response).toMatchObject({
      response_type: 'query_answer',
      speech: { plain: { speech: '19.5 degrees' } },
      data: { success: [{ id: 'climate.hvac' }] },
    });
  });

  it('open and close covers, and set a position (HassSetPosition)', async () => {
    const o = await say('open the garage door');
    expect(o.response).toMatchObject({
      response_type: 'action_done',
      speech: { plain: { speech: 'Opened' } },
      data: { success: [{ id: 'cover.garage_door' }] },
    });
    expect(['opening', 'open']).toContain((await state('cover.garage_door')).state);
    const c = await say('close the blinds in the living room');
    expect(c.response.speech.plain.speech).toBe('Closed');
    expect(['closing', 'closed']).toContain((await state('cover.living_room_blinds')).state);
    const p = await say('set living room blinds to 40%');
    expect(p.response).toMatchObject({ response_type: 'action_done', speech: { plain: { speech: 'Position set' } } });
  });

  it('what is the state of …, and yes/no questions (HassGetState)', async () => {
    await h.api('POST', '/api/services/switch/turn_on', { entity_id: 'switch.coffee_maker' });
    const r = await say('what is the state of the coffee maker');
    expect(r.response).toMatchObject({
      response_type: 'query_answer',
      speech: { plain: { speech: 'Coffee Maker is on' } },
      data: { success: [{ type: 'entity', id: 'switch.coffee_maker' }] },
    });
    const yes = await say('is the coffee maker on?');
    expect(yes.response.speech.plain.speech).toBe('Yes');
    await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.porch' });
    const no = await say('is the porch off');
    expect(no.response).toMatchObject({
      response_type: 'query_answer',
      speech: { plain: { speech: 'No, Porch is on' } },
      data: { success: [], failed: [{ id: 'light.porch' }] },
    });
    const t = await say("what's outside temperature");
    expect(t.response.speech.plain.speech).toBe('Outside Temperature is 11.5 °C');
  });

  it('media and volume intents', async () => {
    await h.api('POST', '/api/services/media_player/play_media', {
      entity_id: 'media_player.living_room',
      media_content_type: 'music',
      media_content_id: 'x',
    });
    expect((await say('pause the living room speaker')).response.speech.plain.speech).toBe('Paused');
    expect((await state('media_player.living_room')).state).toBe('paused');
    expect((await say('resume')).response.speech.plain.speech).toBe('Resumed');
    expect((await state('media_player.living_room')).state).toBe('playing');
    await say('set the volume of living room speaker to 30%');
    expect((await state('media_player.living_room')).attributes.volume_level).toBe(0.3);
  });

  it('errors in HA shape: no intent match, unknown device, unknown area, bad body', async () => {
    const none = await say('sing me a song');
    expect(none.response).toEqual({
      speech: { plain: { speech: "Sorry, I couldn't understand that", extra_data: null } },
      card: {},
      language: 'en',
      response_type: 'error',
      data: { code: 'no_intent_match' },
    });
    const unknown = await say('turn on the jacuzzi');
    expect(unknown.response).toMatchObject({
      response_type: 'error',
      data: { code: 'no_valid_targets' },
      speech: { plain: { speech: 'Sorry, I am not aware of any device called jacuzzi' } },
    });
    const nothing = await say('turn on the fans in the garage');
    expect(nothing.response).toMatchObject({ response_type: 'error', data: { code: 'no_valid_targets' } });
    const out = await say('set the brightness of the kitchen to 300%');
    expect(out.response).toMatchObject({ response_type: 'error', data: { code: 'failed_to_handle' } });
    // A runaway text is simply not understood (the matcher is bounded), and quickly.
    const long = await say(`turn on ${'the lights in '.repeat(20_000)}kitchen`);
    expect(long.response.data).toEqual({ code: 'no_intent_match' });
    expect((await h.api('POST', '/api/conversation/process', { language: 'en' })).status).toBe(400);
    expect((await h.api('POST', '/api/conversation/process', '[1]')).status).toBe(400);
  });

  it('POST /api/intent/handle runs an intent by name', async () => {
    const r = await h.api('POST', '/api/intent/handle', { name: 'HassTurnOff', data: { name: 'Kitchen' } });
    expect(r.body).toMatchObject({ response_type: 'action_done', data: { success: [{ id: 'light.kitchen' }] } });
    expect((await state('light.kitchen')).state).toBe('off');
    expect((await h.api('POST', '/api/intent/handle', { name: 'HassNope' })).body).toMatchObject({
      response_type: 'error',
      data: { code: 'no_intent_match' },
    });
  });

  it('conversation/process over the WebSocket', async () => {
    const conn = await createConnection({ auth: createLongLivedTokenAuth(h.url, h.token) });
    const r = await conn.sendMessagePromise<any>({
      type: 'conversation/process',
      text: 'turn on hall',
      language: 'en',
    });
    expect(r.response).toMatchObject({ response_type: 'action_done', data: { success: [{ id: 'light.hall' }] } });
    conn.close();
  });
});
