// binary_sensor: on/off, written by devices (REST, MQTT).
import type { DomainModule } from './domain.js';

export const binary_sensor: DomainModule = {
  domain: 'binary_sensor',
  services: [],
  setup: (device) => ({
    state: device.state === 'on' ? 'on' : 'off',
    attributes: {
      ...(typeof device.device_class === 'string' ? { device_class: device.device_class } : {}),
      friendly_name: device.name,
    },
  }),
};
