// input_select: one of a list of options (HA's helper).
import { validation } from '../core/errors.js';
import { bool, list, required, str } from '../core/fields.js';
import type { State } from '../core/state.js';
import type { DomainModule } from './domain.js';
import { helperAttributes, stateService } from './helper.js';

const optionsOf = (s: State) => (Array.isArray(s.attributes.options) ? (s.attributes.options as string[]) : []);

function select(s: State, option: string) {
  const options = optionsOf(s);
  if (!options.includes(option))
    throw validation(`Invalid option: ${option} (possible options: ${options.join(', ')})`);
  return { state: option, attributes: s.attributes };
}

/** select_next/select_previous: `cycle` (default true) wraps around the ends. */
function move(s: State, by: number, cycle: boolean) {
  const options = optionsOf(s);
  let i = options.indexOf(s.state) + by;
  if (cycle) i = (i + options.length) % options.length;
  else i = Math.min(options.length - 1, Math.max(0, i));
  return { state: options[i] ?? s.state, attributes: s.attributes };
}

export const input_select: DomainModule = {
  domain: 'input_select',
  services: [
    stateService('select_option', { option: required(str()) }, (s, d) => select(s, d.option as string)),
    stateService('select_next', { cycle: bool() }, (s, d) => move(s, 1, d.cycle !== false)),
    stateService('select_previous', { cycle: bool() }, (s, d) => move(s, -1, d.cycle !== false)),
    stateService('select_first', {}, (s) => ({ state: optionsOf(s)[0] ?? s.state, attributes: s.attributes })),
    stateService('select_last', {}, (s) => ({ state: optionsOf(s).at(-1) ?? s.state, attributes: s.attributes })),
    stateService('set_options', { options: required(list(str())) }, (s, d) => {
      const options = [...new Set(d.options as string[])];
      if (!options.length) throw validation('options: length of value must be at least 1');
      return { state: options.includes(s.state) ? s.state : options[0], attributes: { ...s.attributes, options } };
    }),
  ],
  setup(device) {
    const options = Array.isArray(device.options) ? device.options.map(String) : [];
    const initial =
      typeof device.initial === 'string' && options.includes(device.initial)
        ? device.initial
        : (options[0] ?? 'unknown');
    return { state: initial, attributes: helperAttributes(device, { options }) };
  },
};
