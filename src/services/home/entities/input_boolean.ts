// input_boolean: a user-set on/off flag (HA's helper).
import type { DomainModule } from './domain.js';
import { helperAttributes, stateService } from './helper.js';

export const input_boolean: DomainModule = {
  domain: 'input_boolean',
  services: [
    stateService('turn_on', {}, (s) => ({ state: 'on', attributes: s.attributes })),
    stateService('turn_off', {}, (s) => ({ state: 'off', attributes: s.attributes })),
    stateService('toggle', {}, (s) => ({ state: s.state === 'on' ? 'off' : 'on', attributes: s.attributes })),
  ],
  setup: (device) => ({
    state: device.initial === true || device.state === 'on' ? 'on' : 'off',
    attributes: helperAttributes(device, {}),
  }),
};
