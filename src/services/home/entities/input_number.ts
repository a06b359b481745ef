// input_number: a user-set number between min and max, in steps (HA's helper; state "40.0").
import { validation } from '../core/errors.js';
import { float, required } from '../core/fields.js';
import type { State } from '../core/state.js';
import type { DomainModule } from './domain.js';
import { helperAttributes, num, stateService } from './helper.js';

/** HA shows the value as a Python float ("40.0"). */
const show = (n: number) => (Number.isInteger(n) ? n.toFixed(1) : String(Math.round(n * 1e9) / 1e9));

function set(s: State, value: number) {
  const min = num(s.attributes.min, 0);
  const max = num(s.attributes.max, 100);
  if (value < min || value > max)
    throw validation(`Invalid value for ${s.entity_id}: ${show(value)} (range ${show(min)} - ${show(max)})`);
  return { state: show(value), attributes: s.attributes };
}

const step = (s: State, sign: 1 | -1) => {
  const min = num(s.attributes.min, 0);
  const max = num(s.attributes.max, 100);
  // HA: increment/decrement stop at the bounds rather than fail.
  const next = Math.min(max, Math.max(min, num(s.state, min) + sign * num(s.attributes.step, 1)));
  return { state: show(next), attributes: s.attributes };
};

export const input_number: DomainModule = {
  domain: 'input_number',
  services: [
    stateService('set_value', { value: required(float()) }, (s, d) => set(s, d.value as number)),
    stateService('increment', {}, (s) => step(s, 1)),
    stateService('decrement', {}, (s) => step(s, -1)),
  ],
  setup(device) {
    const min = num(device.min, 0);
    const max = num(device.max, 100);
    const initial = Math.min(max, Math.max(min, num(device.initial ?? device.state, min)));
    const attributes = {
      initial: device.initial ?? null,
      min,
      max,
      step: num(device.step, 1),
      mode: device.mode === 'box' ? 'box' : 'slider',
      ...(typeof device.unit_of_measurement === 'string' ? { unit_of_measurement: device.unit_of_measurement } : {}),
    };
    return { state: show(initial), attributes: helperAttributes(device, attributes) };
  },
};
