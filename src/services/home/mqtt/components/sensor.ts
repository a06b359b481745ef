// MQTT sensor: state_topic (through a value_json path template) with a unit and classes.
import { readValue } from '../templates.js';
import type { MqttComponent } from '../component.js';

export const mqttSensor: MqttComponent = {
  domain: 'sensor',
  setup(cfg, name) {
    const attrs: Record<string, unknown> = {};
    for (const k of ['state_class', 'unit_of_measurement', 'device_class', 'icon'])
      if (typeof cfg[k] === 'string') attrs[k] = cfg[k];
    return { state: 'unknown', attributes: { ...attrs, friendly_name: name } };
  },
  subscriptions(cfg, home) {
    if (typeof cfg.state_topic !== 'string') return [];
    return [
      {
        topic: cfg.state_topic,
        apply: (payload, cur) => {
          const v = readValue(home, cfg.value_template, payload);
          return v === undefined ? undefined : { state: v.slice(0, 255), attributes: cur.attributes };
        },
      },
    ];
  },
};
