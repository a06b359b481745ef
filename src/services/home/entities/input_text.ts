// input_text: a user-set string, with HA's length and pattern limits.
import { validation } from '../core/errors.js';
import { required, str } from '../core/fields.js';
import type { DomainModule } from './domain.js';
import { helperAttributes, num, stateService } from './helper.js';

export const input_text: DomainModule = {
  domain: 'input_text',
  services: [
    stateService('set_value', { value: required(str()) }, (s, d) => {
      const value = d.value as string;
      const min = num(s.attributes.min, 0);
      const max = num(s.attributes.max, 100);
      if (value.length < min || value.length > max)
        throw validation(`Invalid value: ${value} (length range ${min} - ${max})`);
      const pattern = s.attributes.pattern;
      if (typeof pattern === 'string' && !new RegExp(`^(?:${pattern})$`).test(value))
        throw validation(`Invalid value: ${value} (does not match ${pattern})`);
      return { state: value, attributes: s.attributes };
    }),
  ],
  setup(device) {
    const max = Math.min(255, num(device.max, 100));
    const attributes = {
      min: num(device.min, 0),
      max,
      pattern: typeof device.pattern === 'string' ? device.pattern : null,
      mode: device.mode === 'password' ? 'password' : 'text',
    };
    const initial = typeof device.initial === 'string' ? device.initial.slice(0, max) : 'unknown';
    return { state: initial, attributes: helperAttributes(device, attributes) };
  },
};
