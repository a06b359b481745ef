// The MQTT bridge: connects to the broker, announces the home on `<prefix>/status` (birth
// `online`, last will `offline`), picks up devices by discovery, mirrors their state topics
// into the state machine and publishes service calls as commands.
// In a cluster every instance is subscribed and hears every device message; only the home's
// leader writes what a state topic says (the others receive it as a replicated change), so
// one device message is one state change, one recorded row and one workflow trigger.
import type { Leadership } from '../../../platform/leader.js';
import type { MqttClient } from 'mqtt';
import { mqttLibrary } from '../../../platform/optional-modules.js';
import type { Home } from '../core/home.js';
import { slugify } from '../core/state.js';
import type { HomeSettings } from '../settings.js';
import { mqttBinarySensor } from './components/binary_sensor.js';
import { mqttLight } from './components/light.js';
import { mqttSensor } from './components/sensor.js';
import { mqttSwitch } from './components/switch.js';
import type { MqttComponent, StateSubscription } from './component.js';
import { expand, parseTopic, type DiscoveryConfig } from './discovery.js';

/** The discoverable components. Adding one: write its file, add one line here. */
const COMPONENTS: Record<string, MqttComponent> = {
  light: mqttLight,
  switch: mqttSwitch,
  sensor: mqttSensor,
  binary_sensor: mqttBinarySensor,
};

interface Discovered {
  entityId: string;
  topics: string[];
}

export interface MqttBridge {
  client: MqttClient;
  stop(): Promise<void>;
}

/** `reserved`: entity ids of the house config, which a discovered device never takes over. */
export async function startMqtt(
  home: Home,
  settings: NonNullable<HomeSettings['mqtt']>,
  reserved: Set<string>,
  leadership: Leadership = { isLeader: () => true },
): Promise<MqttBridge> {
  const prefix = settings.discoveryPrefix;
  const statusTopic = `${prefix}/status`;
  const log = home.logger.child({ component: 'mqtt' });
  /** Discovery topic (+ component key for device discovery) → what it created. */
  const discovered = new Map<string, Discovered>();
  /** State topic → handlers. */
  const handlers = new Map<string, Set<{ entityId: string; sub: StateSubscription }>>();

  const client = mqttLibrary().connect(settings.url, {
    clientId: `hamlet-home-${Math.random().toString(16).slice(2, 10)}`,
    username: settings.username,
    password: settings.password,
    reconnectPeriod: 2000,
    connectTimeout: 5000,
    will: { topic: statusTopic, payload: Buffer.from('offline'), qos: 0, retain: false },
  });
  client.on('error', (err) => log.warn({ err: err.message }, 'mqtt error'));

  const publish = (topic: string, payload: string, retain = false) => {
    client.publish(topic, payload, { qos: 0, retain });
  };

  const subscribeState = (entityId: string, sub: StateSubscription) => {
    let set = handlers.get(sub.topic);
    if (!set) {
      handlers.set(sub.topic, (set = new Set()));
      client.subscribe(sub.topic);
    }
    set.add({ entityId, sub });
  };

  const forget = (key: string) => {
    const d = discovered.get(key);
    if (!d) return;
    discovered.delete(key);
    for (const topic of d.topics) {
      const set = handlers.get(topic);
      if (!set) continue;
      for (const h of [...set]) if (h.entityId === d.entityId) set.delete(h);
      if (set.size === 0) {
        handlers.delete(topic);
        client.unsubscribe(topic);
      }
    }
    home.setDriver(d.entityId, undefined);
  };

  const discover = (key: string, componentName: string, objectId: string, raw: DiscoveryConfig) => {
    const component = COMPONENTS[componentName];
    if (!component) return log.info({ component: componentName }, 'mqtt discovery: component not supported');
    const cfg = expand(raw);
    const device = (cfg.device ?? {}) as Record<string, unknown>;
    const name = typeof cfg.name === 'string' ? cfg.name : typeof device.name === 'string' ? device.name : objectId;
    const previous = discovered.get(key);
    forget(key);
    const entityId =
      previous?.entityId ??
      uniqueEntityId(`${component.domain}.${slugify(typeof cfg.object_id === 'string' ? cfg.object_id : name)}`, key);
    const initial = component.setup(cfg, name, home);
    const current = home.states.get(entityId);
    // A rediscovered entity keeps its state; its capabilities come from the new config.
    home.states.set(
      entityId,
      current && current.state !== 'unavailable' ? current.state : initial.state,
      current ? { ...current.attributes, ...initial.attributes } : initial.attributes,
      home.context(),
    );
    const topics: string[] = [];
    for (const sub of component.subscriptions(cfg, home)) {
      subscribeState(entityId, sub);
      topics.push(sub.topic);
    }
    for (const sub of availability(cfg)) {
      subscribeState(entityId, sub);
      topics.push(sub.topic);
    }
    if (component.driver) home.setDriver(entityId, component.driver(cfg, publish, home));
    discovered.set(key, { entityId, topics });
    log.info({ entityId }, 'mqtt discovery: entity added');
  };

  const uniqueEntityId = (wanted: string, key: string): string => {
    const taken = new Set([...reserved, ...[...discovered].filter(([k]) => k !== key).map(([, d]) => d.entityId)]);
    let id = wanted;
    for (let n = 2; taken.has(id); n++) id = `${wanted}_${n}`;
    return id;
  };

  const remove = (key: string) => {
    const d = discovered.get(key);
    if (!d) return;
    forget(key);
    home.states.remove(d.entityId, home.context());
  };

  client.on('message', (topic, payloadBuf) => {
    const payload = payloadBuf.toString();
    try {
      const parsed = parseTopic(prefix, topic);
      if (parsed) {
        if (parsed.component === 'device') return onDeviceDiscovery(topic, parsed.objectId, payload);
        if (payload === '') return remove(topic);
        return discover(topic, parsed.component, parsed.objectId, JSON.parse(payload));
      }
      const set = handlers.get(topic);
      if (!set || !leadership.isLeader()) return;
      for (const { entityId, sub } of [...set]) {
        const cur = home.states.get(entityId);
        if (!cur) continue;
        const next = sub.apply(payload, cur);
        if (next) home.states.set(entityId, next.state, next.attributes, home.context());
      }
    } catch (err) {
      log.warn({ topic, err: (err as Error).message }, 'mqtt: message ignored');
    }
  });

  /** Device discovery (2024.11+): one config with several components under `cmps`. */
  const onDeviceDiscovery = (topic: string, objectId: string, payload: string) => {
    const keys = [...discovered.keys()].filter((k) => k.startsWith(`${topic}#`));
    if (payload === '') return keys.forEach(remove);
    const cfg = expand(JSON.parse(payload));
    const cmps = (cfg.components ?? {}) as Record<string, DiscoveryConfig>;
    const shared = Object.fromEntries(Object.entries(cfg).filter(([k]) => k !== 'components'));
    for (const [id, c] of Object.entries(cmps)) {
      const comp = expand(c);
      discover(`${topic}#${id}`, String(comp.platform), `${objectId}_${id}`, { ...shared, ...comp });
    }
    for (const k of keys) if (!(k.slice(topic.length + 1) in cmps)) remove(k);
  };

  client.on('connect', () => {
    client.subscribe([`${prefix}/+/+/config`, `${prefix}/+/+/+/config`, ...handlers.keys()], (err) => {
      if (err) log.warn({ err: err.message }, 'mqtt subscribe failed');
      // Birth message: devices publish their discovery again when they see it.
      publish(statusTopic, 'online');
    });
  });

  await new Promise<void>((resolve) => {
    const done = () => resolve();
    client.once('connect', done);
    // The home starts even when the broker is down; the client keeps reconnecting.
    setTimeout(done, 3000).unref();
  });

  return {
    client,
    async stop() {
      if (client.connected)
        await new Promise<void>((r) => client.publish(statusTopic, 'offline', { qos: 0 }, () => r()));
      await client.endAsync();
    },
  };
}

/** Availability topics: `offline` makes the entity unavailable; `online` restores it to unknown until it reports. */
function availability(cfg: DiscoveryConfig): StateSubscription[] {
  const list: Array<{ topic: string; on: string; off: string }> = [];
  if (typeof cfg.availability_topic === 'string')
    list.push({
      topic: cfg.availability_topic,
      on: String(cfg.payload_available ?? 'online'),
      off: String(cfg.payload_not_available ?? 'offline'),
    });
  if (Array.isArray(cfg.availability)) {
    for (const a of cfg.availability as DiscoveryConfig[])
      if (typeof a.topic === 'string')
        list.push({
          topic: a.topic,
          on: String(a.payload_available ?? 'online'),
          off: String(a.payload_not_available ?? 'offline'),
        });
  }
  return list.map(({ topic, on, off }) => ({
    topic,
    apply: (payload, cur) =>
      payload === off
        ? { state: 'unavailable', attributes: cur.attributes }
        : payload === on && cur.state === 'unavailable'
          ? { state: 'unknown', attributes: cur.attributes }
          : undefined,
  }));
}
