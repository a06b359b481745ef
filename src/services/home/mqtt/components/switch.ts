// MQTT switch: command_topic takes payload_on/payload_off (through command_template if given);
// state_topic reports state_on/state_off (through value_template).
import { commandPayload, readValue } from '../templates.js';
import { str, type MqttComponent } from '../component.js';

export const mqttSwitch: MqttComponent = {
  domain: 'switch',
  setup: (_cfg, name) => ({ state: 'unknown', attributes: { friendly_name: name, supported_features: 0 } }),
  subscriptions(cfg, home) {
    if (typeof cfg.state_topic !== 'string') return [];
    const on = str(cfg.state_on, str(cfg.payload_on, 'ON'));
    const off = str(cfg.state_off, str(cfg.payload_off, 'OFF'));
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
  driver(cfg, publish, home) {
    return {
      command(service, _data, planned) {
        const payload = planned.state === 'on' ? str(cfg.payload_on, 'ON') : str(cfg.payload_off, 'OFF');
        if (typeof cfg.command_topic === 'string')
          publish(cfg.command_topic, commandPayload(home, cfg.command_template, payload), cfg.retain === true);
        return typeof cfg.state_topic !== 'string' || cfg.optimistic === true;
      },
    };
  },
};
