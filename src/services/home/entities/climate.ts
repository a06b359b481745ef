// climate: the state is the HVAC mode. Target temperature within min..max, presets, and an
// hvac_action derived from the current and target temperatures. Out-of-range targets and
// unknown presets are HA ServiceValidationErrors (400 / service_validation_error).
import { validation, invalid } from '../core/errors.js';
import { float, oneOf, required, str } from '../core/fields.js';
import type { Planned, ServiceContext, ServiceSpec } from '../core/services.js';
import type { Attributes, State } from '../core/state.js';
import { featureMask, memory, num, type DomainModule } from './domain.js';

const FEATURES = {
  target_temperature: 1,
  target_temperature_range: 2,
  target_humidity: 4,
  fan_mode: 8,
  preset_mode: 16,
  swing_mode: 32,
  turn_off: 128,
  turn_on: 256,
};
const HVAC_MODES = ['off', 'heat', 'cool', 'heat_cool', 'auto', 'dry', 'fan_only'] as const;

function hvacAction(mode: string, attrs: Attributes): string {
  if (mode === 'off') return 'off';
  const current = attrs.current_temperature as number | undefined;
  const target = attrs.temperature as number | undefined;
  if (current === undefined || target === undefined || target === null) return 'idle';
  if ((mode === 'heat' || mode === 'auto' || mode === 'heat_cool') && current < target) return 'heating';
  if ((mode === 'cool' || mode === 'auto' || mode === 'heat_cool') && current > target) return 'cooling';
  if (mode === 'dry') return 'drying';
  if (mode === 'fan_only') return 'fan';
  return 'idle';
}

function withMode(s: State, mode: string, changes: Attributes = {}): Planned {
  const attrs = { ...s.attributes, ...changes };
  attrs.hvac_action = hvacAction(mode, attrs);
  return { state: mode, attributes: attrs };
}

function checkMode(s: State, mode: string) {
  const modes = (s.attributes.hvac_modes as string[]) ?? [];
  if (!modes.includes(mode))
    throw validation(`HVAC mode ${mode} is not valid. Valid HVAC modes are: ${modes.join(', ')}.`);
}

function checkTemp(s: State, t: number) {
  const min = num(s.attributes.min_temp, 7);
  const max = num(s.attributes.max_temp, 35);
  if (t < min || t > max)
    throw validation(`Provided temperature ${t.toFixed(1)} is not valid. Accepted range is ${min} to ${max}.`);
}

const services: ServiceSpec[] = [
  {
    service: 'set_temperature',
    name: 'Set target temperature',
    fields: { temperature: float(), target_temp_low: float(), target_temp_high: float(), hvac_mode: oneOf(HVAC_MODES) },
    check(d) {
      if (d.temperature === undefined && d.target_temp_low === undefined && d.target_temp_high === undefined)
        throw invalid('temperature', 'required key not provided');
      if (d.temperature !== undefined && (d.target_temp_low !== undefined || d.target_temp_high !== undefined)) {
        throw invalid(
          'target_temp_low',
          'two or more values in the same group of exclusion (temperature, target_temp_low)',
        );
      }
    },
    plan(s, d) {
      const features = num(s.attributes.supported_features, 0);
      const changes: Attributes = {};
      if (d.temperature !== undefined) {
        if (!(features & FEATURES.target_temperature))
          throw validation(
            `Set temperature action was used with the target temperature parameter but the entity does not support it.`,
          );
        checkTemp(s, d.temperature as number);
        changes.temperature = d.temperature;
      } else {
        if (!(features & FEATURES.target_temperature_range))
          throw validation(
            `Set temperature action was used with the target temperature low/high parameter but the entity does not support it.`,
          );
        for (const k of ['target_temp_low', 'target_temp_high']) if (d[k] !== undefined) checkTemp(s, d[k] as number);
        Object.assign(changes, {
          target_temp_low: d.target_temp_low ?? s.attributes.target_temp_low,
          target_temp_high: d.target_temp_high ?? s.attributes.target_temp_high,
        });
      }
      const mode = (d.hvac_mode as string | undefined) ?? s.state;
      if (d.hvac_mode) checkMode(s, mode);
      return withMode(s, mode, changes);
    },
  },
  {
    service: 'set_hvac_mode',
    name: 'Set HVAC mode',
    fields: { hvac_mode: required(oneOf(HVAC_MODES)) },
    plan(s, d) {
      checkMode(s, d.hvac_mode as string);
      return withMode(s, d.hvac_mode as string);
    },
  },
  {
    service: 'set_preset_mode',
    name: 'Set preset mode',
    feature: FEATURES.preset_mode,
    fields: { preset_mode: required(str()) },
    plan(s, d) {
      const presets = (s.attributes.preset_modes as string[]) ?? [];
      if (!presets.includes(d.preset_mode as string))
        throw validation(
          `Preset mode ${String(d.preset_mode)} is not valid. Valid preset modes are: ${presets.join(', ')}.`,
        );
      return withMode(s, s.state, { preset_mode: d.preset_mode });
    },
  },
  {
    service: 'turn_on',
    name: 'Turn on',
    feature: FEATURES.turn_on,
    fields: {},
    plan: (s, _d, ctx) =>
      s.state !== 'off' ? null : withMode(s, (memory(ctx.home, s.entity_id).lastMode as string) ?? firstOn(s)),
  },
  {
    service: 'turn_off',
    name: 'Turn off',
    feature: FEATURES.turn_off,
    fields: {},
    plan: (s, _d, ctx) => off(s, ctx),
  },
  {
    service: 'toggle',
    name: 'Toggle',
    fields: {},
    plan: (s, _d, ctx) =>
      s.state === 'off' ? withMode(s, (memory(ctx.home, s.entity_id).lastMode as string) ?? firstOn(s)) : off(s, ctx),
  },
];

/** Turning off remembers the mode, for turn_on — once the call is applied. */
function off(s: State, ctx: ServiceContext): Planned {
  const mode = s.state;
  return {
    ...withMode(s, 'off'),
    then: () => void (mode !== 'off' && (memory(ctx.home, s.entity_id).lastMode = mode)),
  };
}

const firstOn = (s: State) => ((s.attributes.hvac_modes as string[]) ?? []).find((m) => m !== 'off') ?? 'heat';

export const climate: DomainModule = {
  domain: 'climate',
  services,
  setup(device) {
    const hvacModes = Array.isArray(device.hvac_modes)
      ? (device.hvac_modes as string[])
      : ['off', 'heat', 'cool', 'auto'];
    const presets = Array.isArray(device.preset_modes) ? (device.preset_modes as string[]) : ['home', 'eco', 'away'];
    const features = featureMask(
      device.features,
      FEATURES,
      FEATURES.target_temperature | FEATURES.preset_mode | FEATURES.turn_off | FEATURES.turn_on,
    );
    const mode = typeof device.hvac_mode === 'string' ? device.hvac_mode : 'heat';
    const attrs: Attributes = {
      hvac_modes: hvacModes,
      min_temp: num(device.min_temp, 7),
      max_temp: num(device.max_temp, 35),
      target_temp_step: num(device.target_temp_step, 0.5),
      ...(features & FEATURES.preset_mode ? { preset_modes: presets } : {}),
      current_temperature: num(device.current_temperature, 19.5),
      temperature: num(device.temperature, 20),
      ...(features & FEATURES.preset_mode ? { preset_mode: presets[0] ?? null } : {}),
      friendly_name: device.name,
      supported_features: features,
    };
    attrs.hvac_action = hvacAction(mode, attrs);
    return { state: mode, attributes: attrs };
  },
};
