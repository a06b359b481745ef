// sensor: a read-only value with a unit. Its state is written by devices (REST, MQTT).
import type { Attributes } from '../core/state.js';
import type { DomainModule } from './domain.js';

export const sensor: DomainModule = {
  domain: 'sensor',
  services: [],
  setup(device) {
    const attrs: Attributes = {};
    for (const k of ['state_class', 'unit_of_measurement', 'device_class'])
      if (typeof device[k] === 'string') attrs[k] = device[k];
    return {
      state: device.state === undefined ? 'unknown' : String(device.state),
      attributes: { ...attrs, friendly_name: device.name },
    };
  },
};
