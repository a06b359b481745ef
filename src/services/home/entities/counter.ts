// counter: an integer that services step up and down within optional bounds (HA's helper).
import { validation } from '../core/errors.js';
import { int, required } from '../core/fields.js';
import type { State } from '../core/state.js';
import type { DomainModule } from './domain.js';
import { helperAttributes, num, stateService } from './helper.js';

const bounds = (s: State) => ({
  min: typeof s.attributes.minimum === 'number' ? s.attributes.minimum : -Infinity,
  max: typeof s.attributes.maximum === 'number' ? s.attributes.maximum : Infinity,
});

/** HA clamps increments and decrements to the bounds. */
function stepBy(s: State, sign: 1 | -1) {
  const { min, max } = bounds(s);
  return {
    state: String(Math.min(max, Math.max(min, num(s.state, 0) + sign * num(s.attributes.step, 1)))),
    attributes: s.attributes,
  };
}

export const counter: DomainModule = {
  domain: 'counter',
  services: [
    stateService('increment', {}, (s) => stepBy(s, 1)),
    stateService('decrement', {}, (s) => stepBy(s, -1)),
    stateService('reset', {}, (s) => ({ state: String(num(s.attributes.initial, 0)), attributes: s.attributes })),
    stateService('set_value', { value: required(int()) }, (s, d) => {
      const value = d.value as number;
      const { min, max } = bounds(s);
      if (value > max) throw validation(`Value ${value} for ${s.entity_id} exceeding the maximum value of ${max}`);
      if (value < min) throw validation(`Value ${value} for ${s.entity_id} exceeding the minimum value of ${min}`);
      return { state: String(value), attributes: s.attributes };
    }),
  ],
  setup(device) {
    const initial = Math.trunc(num(device.initial, 0));
    const attributes = {
      initial,
      step: Math.trunc(num(device.step, 1)),
      ...(typeof device.minimum === 'number' ? { minimum: device.minimum } : {}),
      ...(typeof device.maximum === 'number' ? { maximum: device.maximum } : {}),
    };
    return { state: String(initial), attributes: helperAttributes(device, attributes) };
  },
};
