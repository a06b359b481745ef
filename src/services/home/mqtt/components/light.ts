// MQTT light, default schema (one topic per property) and JSON schema (one JSON document per
// command and state). State messages are turned into attributes by the light domain's own
// turn_on/turn_off logic, so an MQTT light looks exactly like any other light.
import type { Home } from '../../core/home.js';
import type { Planned } from '../../core/services.js';
import type { Attributes, State } from '../../core/state.js';
import { light } from '../../entities/light.js';
import { commandPayload, readValue } from '../templates.js';
import { str, type MqttComponent, type StateSubscription } from '../component.js';

const turnOn = light.services.find((s) => s.service === 'turn_on')!;
const turnOff = light.services.find((s) => s.service === 'turn_off')!;

/** The light's next state for a reported change, via the domain's planning; undefined when the report is unusable. */
function planned(
  home: Home,
  cur: State,
  on: boolean,
  data: Record<string, unknown> = {},
): { state: string; attributes: Attributes } | undefined {
  const ctx = { home, context: home.context(), domain: 'light', service: on ? 'turn_on' : 'turn_off' };
  try {
    const p = (on ? turnOn : turnOff).plan!(cur, data, ctx);
    return p?.state ? { state: p.state, attributes: p.attributes ?? cur.attributes } : undefined;
  } catch {
    return undefined;
  }
}

const isJson = (cfg: Record<string, unknown>) => cfg.schema === 'json';
const scaleOf = (cfg: Record<string, unknown>) =>
  typeof cfg.brightness_scale === 'number' && cfg.brightness_scale > 0 ? cfg.brightness_scale : 255;
const BRIGHTNESS_KEYS = ['brightness', 'brightness_pct', 'brightness_step', 'brightness_step_pct'];
const COLOR_KEYS = ['rgb_color', 'hs_color', 'xy_color'];
const TEMP_KEYS = ['color_temp', 'color_temp_kelvin'];
const has = (data: Record<string, unknown>, keys: string[]) => keys.some((k) => data[k] !== undefined);

function colorModes(cfg: Record<string, unknown>): string[] {
  if (Array.isArray(cfg.supported_color_modes)) return cfg.supported_color_modes as string[];
  if (isJson(cfg)) return cfg.brightness === true ? ['brightness'] : ['onoff'];
  const modes: string[] = [];
  if (typeof cfg.rgb_command_topic === 'string') modes.push('rgb');
  if (typeof cfg.color_temp_command_topic === 'string') modes.push('color_temp');
  if (!modes.length) modes.push(typeof cfg.brightness_command_topic === 'string' ? 'brightness' : 'onoff');
  return modes;
}

function defaultSubscriptions(cfg: Record<string, unknown>, home: Home): StateSubscription[] {
  const subs: StateSubscription[] = [];
  const on = str(cfg.payload_on, 'ON');
  const off = str(cfg.payload_off, 'OFF');
  if (typeof cfg.state_topic === 'string') {
    subs.push({
      topic: cfg.state_topic,
      apply: (payload, cur) => {
        const v = readValue(home, cfg.state_value_template, payload);
        return v === on ? planned(home, cur, true) : v === off ? planned(home, cur, false) : undefined;
      },
    });
  }
  const whenOn = (topic: unknown, template: unknown, toData: (v: string) => Record<string, unknown> | undefined) => {
    if (typeof topic !== 'string') return;
    subs.push({
      topic,
      apply: (payload, cur) => {
        const v = readValue(home, template, payload);
        const data = v === undefined ? undefined : toData(v);
        return data && cur.state === 'on' ? planned(home, cur, true, data) : undefined;
      },
    });
  };
  whenOn(cfg.brightness_state_topic, cfg.brightness_value_template, (v) => {
    const n = Number(v);
    return Number.isFinite(n)
      ? { brightness: Math.max(0, Math.min(255, Math.round((n * 255) / scaleOf(cfg)))) }
      : undefined;
  });
  whenOn(cfg.rgb_state_topic, cfg.rgb_value_template, (v) => {
    const rgb = v.split(',').map(Number);
    return rgb.length === 3 && rgb.every((x) => Number.isInteger(x) && x >= 0 && x <= 255)
      ? { rgb_color: rgb }
      : undefined;
  });
  whenOn(cfg.color_temp_state_topic, cfg.color_temp_value_template, (v) => {
    const n = Number(v);
    return Number.isFinite(n) && n > 0
      ? cfg.color_temp_kelvin === true
        ? { color_temp_kelvin: n }
        : { color_temp: n }
      : undefined;
  });
  return subs;
}

function jsonSubscriptions(cfg: Record<string, unknown>, home: Home): StateSubscription[] {
  if (typeof cfg.state_topic !== 'string') return [];
  return [
    {
      topic: cfg.state_topic,
      apply: (payload, cur) => {
        let doc: Record<string, unknown>;
        try {
          doc = JSON.parse(payload);
        } catch {
          return undefined;
        }
        if (doc.state === 'OFF') return planned(home, cur, false);
        if (doc.state !== 'ON') return undefined;
        const data: Record<string, unknown> = {};
        if (typeof doc.brightness === 'number')
          data.brightness = Math.max(0, Math.min(255, Math.round((doc.brightness * 255) / scaleOf(cfg))));
        const c = doc.color as Record<string, number> | undefined;
        if (c && typeof c.r === 'number') data.rgb_color = [c.r, c.g, c.b];
        else if (c && typeof c.h === 'number') data.hs_color = [c.h, c.s];
        else if (c && typeof c.x === 'number') data.xy_color = [c.x, c.y];
        else if (typeof doc.color_temp === 'number')
          data[cfg.color_temp_kelvin === true ? 'color_temp_kelvin' : 'color_temp'] = doc.color_temp;
        // A device reports whatever it does; a report the light model rejects still sets on/off.
        return planned(home, cur, true, data) ?? planned(home, cur, true);
      },
    },
  ];
}

export const mqttLight: MqttComponent = {
  domain: 'light',
  setup(cfg, name, home) {
    const s = light.setup!(
      {
        domain: 'light',
        id: 'mqtt',
        name,
        supported_color_modes: colorModes(cfg),
        features: ['transition', ...(Array.isArray(cfg.effect_list) ? ['effect'] : [])],
        effect_list: cfg.effect_list,
      },
      home,
    );
    return { state: 'unknown', attributes: s.attributes };
  },
  subscriptions: (cfg, home) => (isJson(cfg) ? jsonSubscriptions(cfg, home) : defaultSubscriptions(cfg, home)),
  driver(cfg, publish, home) {
    const retain = cfg.retain === true;
    const optimistic = typeof cfg.state_topic !== 'string' || cfg.optimistic === true;
    return {
      command(_service, data, p: Planned) {
        const on = p.state === 'on';
        const attrs = p.attributes ?? {};
        if (isJson(cfg)) {
          // Only what the call changed, as HA sends it.
          const doc: Record<string, unknown> = { state: on ? 'ON' : 'OFF' };
          if (on && has(data, BRIGHTNESS_KEYS))
            doc.brightness = Math.round(((attrs.brightness as number) * scaleOf(cfg)) / 255);
          if (on && has(data, COLOR_KEYS)) {
            const [r, g, b] = attrs.rgb_color as number[];
            doc.color = { r, g, b };
          }
          if (on && has(data, TEMP_KEYS))
            doc.color_temp = cfg.color_temp_kelvin === true ? attrs.color_temp_kelvin : attrs.color_temp;
          if (data.transition !== undefined) doc.transition = data.transition;
          if (typeof cfg.command_topic === 'string') publish(cfg.command_topic, JSON.stringify(doc), retain);
          return optimistic;
        }
        if (on) {
          // The *_command_template of each topic (HA's default schema) shapes its payload.
          if (typeof cfg.brightness_command_topic === 'string' && has(data, BRIGHTNESS_KEYS)) {
            publish(
              cfg.brightness_command_topic,
              commandPayload(
                home,
                cfg.brightness_command_template,
                Math.round(((attrs.brightness as number) * scaleOf(cfg)) / 255),
              ),
              retain,
            );
          }
          if (typeof cfg.rgb_command_topic === 'string' && has(data, COLOR_KEYS)) {
            const [red, green, blue] = attrs.rgb_color as number[];
            publish(
              cfg.rgb_command_topic,
              commandPayload(home, cfg.rgb_command_template, (attrs.rgb_color as number[]).join(','), {
                red,
                green,
                blue,
              }),
              retain,
            );
          }
          if (typeof cfg.color_temp_command_topic === 'string' && has(data, TEMP_KEYS)) {
            publish(
              cfg.color_temp_command_topic,
              commandPayload(
                home,
                cfg.color_temp_command_template,
                (cfg.color_temp_kelvin === true ? attrs.color_temp_kelvin : attrs.color_temp) as number,
              ),
              retain,
            );
          }
        }
        // HA's default on_command_type "last": the power command goes after the others.
        if (typeof cfg.command_topic === 'string')
          publish(cfg.command_topic, on ? str(cfg.payload_on, 'ON') : str(cfg.payload_off, 'OFF'), retain);
        return optimistic;
      },
    };
  },
};
