// MQTT binary_sensor: state_topic with payload_on/payload_off.
import { readValue } from '../templates.js';
import { str, type MqttComponent } from '../component.js';

export const mqttBinarySensor: MqttComponent = {
  domain: 'binary_sensor',
  setup: (cfg, name) => ({
    state: 'unknown',
    attributes: {
      ...(typeof cfg.device_class === 'string' ? { device_class: cfg.device_class } : {}),
      friendly_name: name,
    },
  }),
  subscriptions(cfg, home) {
    if (typeof cfg.state_topic !== 'string') return [];
    const on = str(cfg.payload_on, 'ON');
    const off = str(cfg.payload_off, 'OFF');
    return [
      {
        topic: cfg.state_topic,
        apply: (payload, cur) => {
          const v = readValue(home, cfg.value_template, payload);
          return v === on
            ? { state: 'on', attributes: cur.attributes }
            : v === off
              ? { state: 'off', attributes: cur.attributes }
              : undefined;
        },
      },
    ];
  },
};
