// MQTT switch: command_topic takes payload_on/payload_off; state_topic reports state_on/state_off.
import { readValue } from '../discovery.js';
import { str, type MqttComponent } from '../component.js';

export const mqttSwitch: MqttComponent = {
  domain: 'switch',
  setup: (_cfg, name) => ({ state: 'unknown', attributes: { friendly_name: name, supported_features: 0 } }),
  subscriptions(cfg) {
    if (typeof cfg.state_topic !== 'string') return [];
    const on = str(cfg.state_on, str(cfg.payload_on, 'ON'));
    const off = str(cfg.state_off, str(cfg.payload_off, 'OFF'));
    return [
      {
        topic: cfg.state_topic,
        apply: (payload, cur) => {
          const v = readValue(cfg.value_template, payload);
          return v === on ? { state: 'on', attributes: cur.attributes } : v === off ? { state: 'off', attributes: cur.attributes } : undefined;
        },
      },
    ];
  },
  driver(cfg, publish) {
    return {
      command(service, _data, planned) {
        if (typeof cfg.command_topic === 'string') publish(cfg.command_topic, planned.state === 'on' ? str(cfg.payload_on, 'ON') : str(cfg.payload_off, 'OFF'), cfg.retain === true);
        return typeof cfg.state_topic !== 'string' || cfg.optimistic === true;
      },
    };
  },
};
