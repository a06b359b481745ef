// switch: on/off. Demo switches and MQTT-discovered ones.
import type { ServiceSpec } from '../core/services.js';
import type { DomainModule } from './domain.js';

const set = (service: string, next: (state: string) => string): ServiceSpec => ({
  service,
  fields: {},
  plan: (s) => ({ state: next(s.state), attributes: s.attributes }),
});

export const switchDomain: DomainModule = {
  domain: 'switch',
  services: [
    set('turn_on', () => 'on'),
    set('turn_off', () => 'off'),
    set('toggle', (s) => (s === 'on' ? 'off' : 'on')),
  ],
  setup: (device) => ({
    state: device.state === 'on' ? 'on' : 'off',
    attributes: { friendly_name: device.name, supported_features: 0 },
  }),
};
