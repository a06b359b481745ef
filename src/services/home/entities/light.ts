// light: on/off, brightness, colour temperature (mireds and kelvin, both in attributes per
// ruling §1.3), hs/rgb/xy colours, effects. The state jumps at once; transition is accepted.
import { invalid, validation } from '../core/errors.js';
import { float, int, oneOf, str, tuple } from '../core/fields.js';
import type { Planned, ServiceContext, ServiceSpec } from '../core/services.js';
import type { Attributes, State } from '../core/state.js';
import { hsToRgb, kelvinToMired, kelvinToRgb, miredToKelvin, rgbToHs, rgbToXy, xyToRgb } from './color.js';
import { featureMask, memory, num, type DomainModule } from './domain.js';

const FEATURES = { effect: 4, flash: 8, transition: 32 };
const COLOR_MODES = ['onoff', 'brightness', 'color_temp', 'hs', 'xy', 'rgb', 'rgbw', 'rgbww', 'white'];
const COLOR_DESCRIPTORS = ['color_temp', 'color_temp_kelvin', 'hs_color', 'rgb_color', 'xy_color'];
const BRIGHTNESS_DESCRIPTORS = ['brightness', 'brightness_pct', 'brightness_step', 'brightness_step_pct'];
const HUE_MODES = ['hs', 'xy', 'rgb', 'rgbw', 'rgbww'];

const modes = (s: State): string[] => (s.attributes.supported_color_modes as string[] | undefined) ?? ['onoff'];
const supportsBrightness = (m: string[]) => m.some((x) => x !== 'onoff');

/** Attributes the light always has (capabilities), whatever its state. */
function capabilities(s: State): Attributes {
  const keep = [
    'min_color_temp_kelvin',
    'max_color_temp_kelvin',
    'min_mireds',
    'max_mireds',
    'effect_list',
    'supported_color_modes',
    'friendly_name',
    'supported_features',
  ];
  return Object.fromEntries(keep.filter((k) => k in s.attributes).map((k) => [k, s.attributes[k]]));
}

/** The off-state attributes: every state attribute the light can have, as null. */
function offAttributes(caps: Attributes, m: string[]): Attributes {
  const { friendly_name, supported_features, ...rest } = caps;
  const out: Attributes = { ...rest, color_mode: null };
  if (supportsBrightness(m)) out.brightness = null;
  if (m.includes('color_temp')) Object.assign(out, { color_temp_kelvin: null, color_temp: null });
  if (m.some((x) => HUE_MODES.includes(x)) || m.includes('color_temp'))
    Object.assign(out, { hs_color: null, rgb_color: null, xy_color: null });
  if ('effect_list' in caps) out.effect = null;
  return { ...out, friendly_name, supported_features };
}

interface Color {
  mode: string;
  kelvin?: number;
  hs: [number, number];
  rgb: [number, number, number];
  xy: [number, number];
}

function fromRgb(mode: string, rgb: [number, number, number]): Color {
  return { mode, rgb, hs: rgbToHs(...rgb), xy: rgbToXy(...rgb) };
}

/** The colour a call asks for, converted to a mode the light supports (HA does the same). */
function requestedColor(s: State, data: Record<string, unknown>): Color | undefined {
  const m = modes(s);
  const hueMode = m.find((x) => HUE_MODES.includes(x));
  if (data.color_temp !== undefined || data.color_temp_kelvin !== undefined) {
    const minK = num(s.attributes.min_color_temp_kelvin, 2000);
    const maxK = num(s.attributes.max_color_temp_kelvin, 6535);
    let kelvin: number;
    if (data.color_temp !== undefined) {
      const mired = data.color_temp as number;
      const minM = kelvinToMired(maxK);
      const maxM = kelvinToMired(minK);
      if (mired < minM) throw invalid('color_temp', `value must be at least ${minM}`);
      if (mired > maxM) throw invalid('color_temp', `value must be at most ${maxM}`);
      kelvin = miredToKelvin(mired);
    } else {
      kelvin = data.color_temp_kelvin as number;
      if (kelvin < minK) throw invalid('color_temp_kelvin', `value must be at least ${minK}`);
      if (kelvin > maxK) throw invalid('color_temp_kelvin', `value must be at most ${maxK}`);
    }
    const rgb = kelvinToRgb(kelvin);
    if (m.includes('color_temp')) return { ...fromRgb('color_temp', rgb), kelvin };
    return hueMode ? fromRgb(hueMode, rgb) : undefined;
  }
  let rgb: [number, number, number] | undefined;
  let hs: [number, number] | undefined;
  if (data.rgb_color) rgb = data.rgb_color as [number, number, number];
  if (data.hs_color) {
    hs = data.hs_color as [number, number];
    rgb = hsToRgb(...hs);
  }
  if (data.xy_color) rgb = xyToRgb(...(data.xy_color as [number, number]));
  if (!rgb) return undefined;
  if (!hueMode) return undefined; // a colour on a white-only light is ignored, as in HA
  const c = fromRgb(hueMode, rgb);
  if (hs) c.hs = hs;
  return c;
}

function colorAttributes(c: Color): Attributes {
  return {
    color_mode: c.mode,
    ...(c.kelvin !== undefined
      ? { color_temp_kelvin: c.kelvin, color_temp: kelvinToMired(c.kelvin) }
      : { color_temp_kelvin: null, color_temp: null }),
    hs_color: c.hs,
    rgb_color: c.rgb,
    xy_color: c.xy,
  };
}

function planOn(s: State, data: Record<string, unknown>, remembered: Attributes | undefined): Planned {
  const m = modes(s);
  const caps = capabilities(s);
  const on = s.state === 'on';
  // Start from what the light shows now, or what it showed before it went off.
  const base: Attributes = on ? { ...s.attributes } : { ...offAttributes(caps, m), ...(remembered ?? {}) };
  let brightness = (base.brightness as number | null) ?? 255;
  if (data.brightness !== undefined) brightness = data.brightness as number;
  if (data.brightness_pct !== undefined) brightness = Math.round(((data.brightness_pct as number) * 255) / 100);
  if (data.brightness_step !== undefined)
    brightness = Math.max(0, Math.min(255, brightness + (data.brightness_step as number)));
  if (data.brightness_step_pct !== undefined)
    brightness = Math.max(
      0,
      Math.min(255, brightness + Math.round(((data.brightness_step_pct as number) * 255) / 100)),
    );
  if (brightness === 0 && supportsBrightness(m)) return { state: 'off', attributes: offAttributes(caps, m) };

  const attrs: Attributes = { ...base };
  if (supportsBrightness(m)) attrs.brightness = brightness;
  const color = requestedColor(s, data);
  if (color) Object.assign(attrs, colorAttributes(color));
  else if (attrs.color_mode == null) {
    // First turn-on: a default colour mode (warm white for colour-temperature lights).
    const first = m.includes('color_temp')
      ? 'color_temp'
      : (m.find((x) => HUE_MODES.includes(x)) ?? (supportsBrightness(m) ? 'brightness' : 'onoff'));
    if (first === 'color_temp')
      Object.assign(attrs, colorAttributes({ ...fromRgb('color_temp', kelvinToRgb(4000)), kelvin: 4000 }));
    else if (HUE_MODES.includes(first)) Object.assign(attrs, colorAttributes(fromRgb(first, [255, 255, 255])));
    else attrs.color_mode = first;
  }
  if (data.effect !== undefined) {
    const list = (s.attributes.effect_list as string[] | undefined) ?? [];
    if (!list.includes(data.effect as string))
      throw validation(
        `Effect ${String(data.effect)} is not valid for ${s.entity_id}. Valid effects are: ${list.join(', ')}.`,
      );
    attrs.effect = data.effect;
  }
  // friendly_name and supported_features last, as HA orders them.
  const { friendly_name, supported_features, ...rest } = attrs;
  return { state: 'on', attributes: { ...rest, friendly_name, supported_features } };
}

function planOff(s: State): Planned {
  return { state: 'off', attributes: offAttributes(capabilities(s), modes(s)) };
}

const onFields = {
  brightness: int({ min: 0, max: 255 }),
  brightness_pct: float({ min: 0, max: 100 }),
  brightness_step: int({ min: -255, max: 255 }),
  brightness_step_pct: float({ min: -100, max: 100 }),
  color_temp: int({ min: 1 }),
  color_temp_kelvin: int({ min: 1 }),
  kelvin: int({ min: 1 }),
  rgb_color: tuple(int({ min: 0, max: 255 }), 3),
  hs_color: { ...tuple(float({ min: 0, max: 360 }), 2), parse: (v: unknown, n: string) => parseHs(v, n) },
  xy_color: tuple(float({ min: 0, max: 1 }), 2),
  transition: float({ min: 0, max: 6553 }),
  flash: oneOf(['short', 'long'] as const),
  effect: str(),
  profile: str(),
};

function parseHs(v: unknown, name: string): number[] {
  const [h, s] = tuple(float(), 2).parse(v, name);
  if (h < 0 || h > 360) throw invalid(name, 'hue must be between 0 and 360');
  if (s < 0 || s > 100) throw invalid(name, 'saturation must be between 0 and 100');
  return [h, s];
}

/** Only one colour descriptor and one brightness descriptor per call. */
function checkExclusive(data: Record<string, unknown>) {
  if ('kelvin' in data) {
    data.color_temp_kelvin = data.kelvin; // the pre-2022 name
    delete data.kelvin;
  }
  for (const group of [COLOR_DESCRIPTORS, BRIGHTNESS_DESCRIPTORS]) {
    const given = group.filter((k) => data[k] !== undefined);
    if (given.length > 1)
      throw invalid(given[1], `two or more values in the same group of exclusion (${given.join(', ')})`);
  }
}

/**
 * Plans with what the light showed before it last went off (so turn_on restores it), and
 * remembers the current look when this call turns it off — once the call is applied.
 */
function withMemory(s: State, ctx: ServiceContext, plan: (remembered?: Attributes) => Planned): Planned {
  const mem = memory(ctx.home, s.entity_id);
  const p = plan(mem.lastOn as Attributes | undefined);
  if (s.state !== 'on' || p.state !== 'off') return p;
  const look = { ...s.attributes };
  return { ...p, then: () => void (mem.lastOn = look) };
}

const services: ServiceSpec[] = [
  {
    service: 'turn_on',
    name: 'Turn on',
    description: 'Turns on one or more lights and adjusts their properties.',
    fields: onFields,
    check: checkExclusive,
    plan: (s, data, ctx) => withMemory(s, ctx, (mem) => planOn(s, data, mem)),
  },
  {
    service: 'turn_off',
    name: 'Turn off',
    description: 'Turns off one or more lights.',
    fields: { transition: onFields.transition, flash: onFields.flash },
    plan: (s, _data, ctx) => withMemory(s, ctx, () => planOff(s)),
  },
  {
    service: 'toggle',
    name: 'Toggle',
    description: 'Toggles one or more lights.',
    fields: onFields,
    check: checkExclusive,
    plan: (s, data, ctx) => withMemory(s, ctx, (mem) => (s.state === 'on' ? planOff(s) : planOn(s, data, mem))),
  },
];

export const light: DomainModule = {
  domain: 'light',
  services,
  setup(device) {
    const m = Array.isArray(device.supported_color_modes)
      ? (device.supported_color_modes as string[]).filter((x) => COLOR_MODES.includes(x))
      : ['brightness'];
    const caps: Attributes = {};
    if (m.includes('color_temp')) {
      const minK = num(device.min_color_temp_kelvin, 2000);
      const maxK = num(device.max_color_temp_kelvin, 6535);
      Object.assign(caps, {
        min_color_temp_kelvin: minK,
        max_color_temp_kelvin: maxK,
        min_mireds: kelvinToMired(maxK),
        max_mireds: kelvinToMired(minK),
      });
    }
    const features = featureMask(device.features, FEATURES, FEATURES.transition);
    if (features & FEATURES.effect)
      caps.effect_list = Array.isArray(device.effect_list) ? device.effect_list : ['colorloop', 'random'];
    caps.supported_color_modes = [...m].sort();
    caps.friendly_name = device.name;
    caps.supported_features = features;
    const off = offAttributes(caps, m);
    return { state: 'off', attributes: off };
  },
};
