// MQTT: a simulated device announces itself by discovery and reports state; the home mirrors
// it and publishes commands when its services are called. Runs against an in-process aedes
// broker, and against a real broker (Mosquitto in CI) when TEST_MQTT_URL is set.
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHome, type HomeTest } from './helpers.js';
import { waitFor } from '../helpers/wait.js';

interface Broker {
  url: string;
  close(): Promise<void>;
}

async function aedesBroker(): Promise<Broker> {
  const broker = await Aedes.createBroker();
  const server = net.createServer(broker.handle as unknown as (socket: net.Socket) => void);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((r) => broker.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const variants: Array<[string, () => Promise<Broker>]> = [['in-process aedes broker', aedesBroker]];
if (process.env.TEST_MQTT_URL)
  variants.push([
    `broker at ${process.env.TEST_MQTT_URL}`,
    async () => ({ url: process.env.TEST_MQTT_URL!, close: async () => {} }),
  ]);

describe.each(variants)('MQTT discovery against the %s', (_name, makeBroker) => {
  let broker: Broker;
  let device: MqttClient;
  let h: HomeTest;
  const received: Array<{ topic: string; payload: string }> = [];
  // A prefix of our own, so runs sharing a broker never see each other's (retained) configs.
  const prefix = `hamlet_test_${Math.random().toString(36).slice(2, 8)}`;
  const base = `${prefix}_dev`;
  const configs: string[] = [];

  const announce = (topic: string, config: unknown) => {
    configs.push(topic);
    return device.publishAsync(topic, JSON.stringify(config), { retain: true });
  };
  const state = async (id: string) => (await h.api('GET', `/api/states/${id}`)).body;
  const commandsOn = (topic: string) => received.filter((m) => m.topic === topic).map((m) => m.payload);

  beforeAll(async () => {
    broker = await makeBroker();
    device = await mqtt.connectAsync(broker.url, { clientId: `device-${prefix}` });
    device.on('message', (topic, payload) => received.push({ topic, payload: payload.toString() }));
    await device.subscribeAsync([`${prefix}/status`, `${base}/#`]);
    // The device is already there, with retained discovery, before the home starts.
    await announce(`${prefix}/light/kitchen01/config`, {
      name: 'Counter',
      uniq_id: 'counter_light_1',
      '~': `${base}/kitchen`,
      cmd_t: '~/set',
      stat_t: '~/state',
      bri_cmd_t: '~/brightness/set',
      bri_stat_t: '~/brightness',
      bri_scl: 100,
      rgb_cmd_t: '~/rgb/set',
      pl_on: 'ON',
      pl_off: 'OFF',
      dev: { ids: ['kitchen01'], name: 'Kitchen lamp' },
    });
    h = await startHome({ env: { MQTT_URL: broker.url, MQTT_DISCOVERY_PREFIX: prefix } });
  });

  afterAll(async () => {
    for (const t of configs) await device?.publishAsync(t, '', { retain: true });
    await device?.endAsync();
    await h?.t.destroy();
    await broker?.close();
  });

  it('announces itself on <prefix>/status', async () => {
    await waitFor(() => commandsOn(`${prefix}/status`).includes('online'));
  });

  it('a retained default-schema light becomes an entity and mirrors its state topics', async () => {
    await waitFor(async () => (await h.api('GET', '/api/states/light.counter')).status === 200);
    expect((await state('light.counter')).attributes).toMatchObject({
      friendly_name: 'Counter',
      supported_color_modes: ['rgb'],
    });
    await device.publishAsync(`${base}/kitchen/state`, 'ON');
    await waitFor(async () => (await state('light.counter')).state === 'on');
    await device.publishAsync(`${base}/kitchen/brightness`, '50');
    await waitFor(async () => (await state('light.counter')).attributes.brightness === 128);
  });

  it('light.turn_on publishes the right commands; state comes back from the device', async () => {
    const r = await h.api('POST', '/api/services/light/turn_on', {
      entity_id: 'light.counter',
      brightness: 255,
      rgb_color: [255, 0, 0],
    });
    expect(r.status).toBe(200);
    await waitFor(() => commandsOn(`${base}/kitchen/set`).length > 0);
    expect(commandsOn(`${base}/kitchen/brightness/set`)).toEqual(['100']);
    expect(commandsOn(`${base}/kitchen/rgb/set`)).toEqual(['255,0,0']);
    expect(commandsOn(`${base}/kitchen/set`)).toEqual(['ON']);
    await h.api('POST', '/api/services/light/turn_off', { entity_id: 'light.counter' });
    await waitFor(() => commandsOn(`${base}/kitchen/set`).includes('OFF'));
    // Not optimistic (it has a state topic): the state follows the device's report.
    expect((await state('light.counter')).state).toBe('on');
    await device.publishAsync(`${base}/kitchen/state`, 'OFF');
    await waitFor(async () => (await state('light.counter')).state === 'off');
  });

  it('JSON-schema light: one JSON document per command with only what changed', async () => {
    await announce(`${prefix}/light/desk/config`, {
      name: 'Desk',
      schema: 'json',
      command_topic: `${base}/desk/set`,
      state_topic: `${base}/desk/state`,
      brightness: true,
      supported_color_modes: ['rgb', 'color_temp'],
    });
    await waitFor(async () => (await h.api('GET', '/api/states/light.desk')).status === 200);
    await h.api('POST', '/api/services/light/turn_on', { entity_id: 'light.desk', brightness: 128, transition: 2 });
    await waitFor(() => commandsOn(`${base}/desk/set`).length > 0);
    expect(JSON.parse(commandsOn(`${base}/desk/set`)[0])).toEqual({ state: 'ON', brightness: 128, transition: 2 });
    await device.publishAsync(
      `${base}/desk/state`,
      JSON.stringify({ state: 'ON', brightness: 255, color_mode: 'rgb', color: { r: 255, g: 180, b: 200 } }),
    );
    await waitFor(async () => (await state('light.desk')).attributes.color_mode === 'rgb');
    expect((await state('light.desk')).attributes).toMatchObject({ brightness: 255, rgb_color: [255, 180, 200] });
  });

  it('a discovered device never takes over an entity of the house config', async () => {
    await announce(`${prefix}/switch/coffee/config`, { name: 'Coffee Maker', cmd_t: `${base}/coffee/set` });
    await waitFor(async () => (await h.api('GET', '/api/states/switch.coffee_maker_2')).status === 200);
    expect((await state('switch.coffee_maker')).attributes.friendly_name).toBe('Coffee Maker');
    // Without a state topic it is optimistic: the call shows at once.
    const r = await h.api('POST', '/api/services/switch/turn_on', { entity_id: 'switch.coffee_maker_2' });
    expect(r.body[0]).toMatchObject({ entity_id: 'switch.coffee_maker_2', state: 'on' });
    await waitFor(() => commandsOn(`${base}/coffee/set`).includes('ON'));
  });

  it('switch, sensor (value_json template) and binary_sensor', async () => {
    await announce(`${prefix}/switch/pump/config`, {
      name: 'Pump',
      cmd_t: `${base}/pump/set`,
      stat_t: `${base}/pump/state`,
    });
    await announce(`${prefix}/sensor/node1/temp/config`, {
      name: 'Outside',
      stat_t: `${base}/weather`,
      val_tpl: '{{ value_json.temperature }}',
      unit_of_meas: '°C',
      dev_cla: 'temperature',
    });
    await announce(`${prefix}/binary_sensor/door/config`, {
      name: 'Door',
      stat_t: `${base}/door`,
      dev_cla: 'door',
      avty_t: `${base}/door/avail`,
    });
    await waitFor(async () => (await h.api('GET', '/api/states/binary_sensor.door')).status === 200);
    await device.publishAsync(`${base}/weather`, JSON.stringify({ temperature: 12.5, humidity: 80 }));
    await device.publishAsync(`${base}/door`, 'ON');
    await waitFor(async () => (await state('sensor.outside')).state === '12.5');
    expect((await state('sensor.outside')).attributes).toMatchObject({
      unit_of_measurement: '°C',
      device_class: 'temperature',
    });
    await waitFor(async () => (await state('binary_sensor.door')).state === 'on');
    await device.publishAsync(`${base}/door/avail`, 'offline');
    await waitFor(async () => (await state('binary_sensor.door')).state === 'unavailable');
    await h.api('POST', '/api/services/switch/turn_on', { entity_id: 'switch.pump' });
    await waitFor(() => commandsOn(`${base}/pump/set`).includes('ON'));
  });

  it('value templates are rendered (filters, conditionals) and command templates shape payloads', async () => {
    await announce(`${prefix}/sensor/node1/power/config`, {
      name: 'Power',
      stat_t: `${base}/power`,
      val_tpl: '{{ (value_json.mw | float / 1000) | round(1) }}',
      unit_of_meas: 'W',
    });
    await announce(`${prefix}/switch/fan/config`, {
      name: 'Fan',
      cmd_t: `${base}/fan/set`,
      stat_t: `${base}/fan/state`,
      val_tpl: "{{ 'ON' if value_json.running else 'OFF' }}",
      cmd_tpl: '{"power": "{{ value | lower }}"}',
    });
    await announce(`${prefix}/light/desk/config`, {
      name: 'Desk',
      cmd_t: `${base}/desk/set`,
      bri_cmd_t: `${base}/desk/brightness`,
      bri_cmd_tpl: '{{ (value / 255 * 100) | round }}%',
      rgb_cmd_t: `${base}/desk/rgb`,
      rgb_cmd_tpl: '#{{ [red, green, blue] | join("-") }}',
    });
    await waitFor(
      async () =>
        (await h.api('GET', '/api/states/light.desk')).status === 200 &&
        (await h.api('GET', '/api/states/switch.fan')).status === 200,
    );
    await device.publishAsync(`${base}/power`, JSON.stringify({ mw: 12345 }));
    await waitFor(async () => (await state('sensor.power')).state === '12.3');
    await device.publishAsync(`${base}/fan/state`, JSON.stringify({ running: true }));
    await waitFor(async () => (await state('switch.fan')).state === 'on');
    await h.api('POST', '/api/services/switch/turn_off', { entity_id: 'switch.fan' });
    await waitFor(() => commandsOn(`${base}/fan/set`).includes('{"power": "off"}'));
    await h.api('POST', '/api/services/light/turn_on', {
      entity_id: 'light.desk',
      brightness: 128,
      rgb_color: [255, 0, 10],
    });
    await waitFor(
      () =>
        commandsOn(`${base}/desk/brightness`).includes('50%') && commandsOn(`${base}/desk/rgb`).includes('#255-0-10'),
    );
  });

  it('an empty retained config removes the entity', async () => {
    await device.publishAsync(`${prefix}/switch/pump/config`, '', { retain: true });
    await waitFor(async () => (await h.api('GET', '/api/states/switch.pump')).status === 404);
  });
});
