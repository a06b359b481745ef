// One card per entity: its name and state, and the controls its domain has (power, brightness,
// colour, set-points, positions, media keys). Every control is a small form that posts to
// /home/entities/<id>/<action>; htmx swaps the card the console answers with, and without
// script the form posts and comes back. The same card is what the live stream pushes. Every
// control has an id, so htmx (and home.js) put the keyboard focus back on it after a swap.
import type { HassState } from './home-live.js';
import { shortTime } from '../../../platform/console-partial.js';
import { html, raw } from '../../../platform/console-layout.js';

/** How a form field becomes a value of the service call's data. */
type Convert = (text: string) => unknown;

interface Action {
  /** The HA service, given the entity's domain and the form. */
  service(domain: string, form: (name: string) => string | undefined): string;
  /** form field → [data key, conversion]. */
  fields?: Record<string, [string, Convert]>;
}

export class BadField extends Error {}

const int =
  (name: string): Convert =>
  (t) => {
    if (!/^-?\d+$/.test(t.trim())) throw new BadField(`${name} must be a whole number`);
    return Number(t);
  };
const num =
  (name: string): Convert =>
  (t) => {
    const n = Number(t);
    if (!t.trim() || !Number.isFinite(n)) throw new BadField(`${name} must be a number`);
    return n;
  };
const percentToUnit =
  (name: string): Convert =>
  (t) =>
    (int(name)(t) as number) / 100;
const text = (t: string) => t;
const rgb: Convert = (t) => {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(t.trim());
  if (!m) throw new BadField('color must be #rrggbb');
  return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
};

const fixed = (service: string) => () => service;

/** What a card's forms may ask for. Anything else is a 404: the console is no open proxy. */
export const ACTIONS: Record<string, Action> = {
  power: {
    service(domain, form) {
      const to = form('to');
      if (to !== 'on' && to !== 'off') throw new BadField('to must be on or off');
      if (domain === 'cover') return to === 'on' ? 'open_cover' : 'close_cover';
      return `turn_${to}`;
    },
  },
  brightness: { service: fixed('turn_on'), fields: { brightness_pct: ['brightness_pct', int('brightness_pct')] } },
  color: { service: fixed('turn_on'), fields: { color: ['rgb_color', rgb] } },
  color_temp: {
    service: fixed('turn_on'),
    fields: { color_temp_kelvin: ['color_temp_kelvin', int('color_temp_kelvin')] },
  },
  percentage: { service: fixed('set_percentage'), fields: { percentage: ['percentage', int('percentage')] } },
  temperature: { service: fixed('set_temperature'), fields: { temperature: ['temperature', num('temperature')] } },
  hvac_mode: { service: fixed('set_hvac_mode'), fields: { hvac_mode: ['hvac_mode', text] } },
  position: { service: fixed('set_cover_position'), fields: { position: ['position', int('position')] } },
  stop: { service: fixed('stop_cover') },
  play_pause: { service: fixed('media_play_pause') },
  next: { service: fixed('media_next_track') },
  previous: { service: fixed('media_previous_track') },
  volume: { service: fixed('volume_set'), fields: { volume: ['volume_level', percentToUnit('volume')] } },
  set_value: { service: fixed('set_value'), fields: { value: ['value', num('value')] } },
  select_option: { service: fixed('select_option'), fields: { option: ['option', text] } },
  increment: { service: fixed('increment') },
  activate: { service: fixed('turn_on') },
  trigger: { service: fixed('trigger') },
};

/** The service call an action of a card makes: `{service, data}` or a BadField. */
export function serviceCall(
  action: Action,
  entityId: string,
  form: (name: string) => string | undefined,
): { service: string; data: Record<string, unknown> } {
  const domain = entityId.split('.')[0];
  const data: Record<string, unknown> = { entity_id: entityId };
  for (const [name, [key, convert]] of Object.entries(action.fields ?? {})) {
    const value = form(name);
    if (value === undefined) throw new BadField(`${name} is required`);
    data[key] = convert(value);
  }
  return { service: `${domain}.${action.service(domain, form)}`, data };
}

const POWERED = new Set(['light', 'switch', 'fan', 'input_boolean', 'automation', 'climate', 'media_player', 'cover']);

export const cardId = (entityId: string) => `card-${entityId}`;
export const nameOf = (s: HassState) =>
  typeof s.attributes.friendly_name === 'string' ? s.attributes.friendly_name : s.entity_id;

const attr = <T>(s: HassState, key: string): T | undefined => s.attributes[key] as T | undefined;

/** The state as a person reads it: with its unit, and position for covers. */
function stateText(s: HassState): string {
  const unit = attr<string>(s, 'unit_of_measurement');
  if (s.entity_id.startsWith('cover.') && typeof s.attributes.current_position === 'number')
    return `${s.state} · ${s.attributes.current_position} %`;
  return unit ? `${s.state} ${unit}` : s.state;
}

export interface CardOptions {
  csrf: string;
  /** Where a plain (script-less) form post comes back to. */
  back: string;
  /** A message to show in the card (a refused call). */
  error?: string;
}

export function renderCard(s: HassState, o: CardOptions): string {
  const id = s.entity_id;
  const domain = id.split('.')[0];
  const name = nameOf(s);
  const on = isOn(s);
  const controls: string[] = [];
  const form = (action: string, body: string, opts: { live?: boolean; label?: string } = {}) =>
    html`<form class="ctl" method="post" action="/home/entities/${id}/${action}" hx-post="/home/entities/${id}/${action}" hx-target="closest .card" hx-swap="outerHTML"${raw(opts.live ? ' hx-trigger="change, submit"' : '')}${raw(opts.label ? html` aria-label="${opts.label}"` : '')}>
<input type="hidden" name="_csrf" value="${o.csrf}"><input type="hidden" name="back" value="${o.back}">${raw(body)}</form>`;
  const slider = (
    action: string,
    fieldName: string,
    label: string,
    min: number,
    max: number,
    value: number,
    step = 1,
  ) => {
    const fid = `${id}-${action}`;
    return form(
      action,
      html`<label for="${fid}">${label}</label><span class="row"><input type="range" id="${fid}" name="${fieldName}" min="${min}" max="${max}" step="${step}" value="${value}"><output for="${fid}">${value}</output><button type="submit" class="apply">Set</button></span>`,
      { live: true },
    );
  };

  if (POWERED.has(domain) && s.state !== 'unavailable') {
    const to = on ? 'off' : 'on';
    const word = domain === 'cover' ? (on ? 'Close' : 'Open') : on ? 'On' : 'Off';
    controls.push(
      form(
        'power',
        html`<input type="hidden" name="to" value="${to}"><button type="submit" id="${id}-power" class="toggle" aria-pressed="${on ? 'true' : 'false'}" aria-label="${name}: ${domain === 'cover' ? (on ? 'open, close it' : 'closed, open it') : on ? 'on, turn off' : 'off, turn on'}">${word}</button>`,
      ),
    );
  }
  if (domain === 'light') {
    const modes = attr<string[]>(s, 'supported_color_modes') ?? [];
    if (modes.some((m) => m !== 'onoff')) {
      const b = attr<number>(s, 'brightness');
      controls.push(
        slider('brightness', 'brightness_pct', 'Brightness %', 1, 100, b ? Math.round((b / 255) * 100) : 100),
      );
    }
    if (modes.some((m) => ['hs', 'rgb', 'rgbw', 'rgbww', 'xy'].includes(m))) {
      const c = attr<number[]>(s, 'rgb_color') ?? [255, 255, 255];
      const hex = '#' + c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
      const fid = `${id}-color`;
      controls.push(
        form(
          'color',
          html`<label for="${fid}">Colour</label><span class="row"><input type="color" id="${fid}" name="color" value="${hex}"><button type="submit" class="apply">Set</button></span>`,
          { live: true },
        ),
      );
    }
    if (modes.includes('color_temp')) {
      const min = attr<number>(s, 'min_color_temp_kelvin') ?? 2000;
      const max = attr<number>(s, 'max_color_temp_kelvin') ?? 6500;
      controls.push(
        slider(
          'color_temp',
          'color_temp_kelvin',
          'Colour temperature K',
          min,
          max,
          attr<number>(s, 'color_temp_kelvin') ?? min,
          50,
        ),
      );
    }
  }
  if (domain === 'fan' && typeof s.attributes.percentage === 'number')
    controls.push(slider('percentage', 'percentage', 'Speed %', 0, 100, s.attributes.percentage));
  if (domain === 'climate') {
    const fid = `${id}-temperature`;
    const step = attr<number>(s, 'target_temp_step') ?? 0.5;
    controls.push(
      form(
        'temperature',
        html`<label for="${fid}">Target °</label><span class="row"><input type="number" id="${fid}" name="temperature" min="${attr<number>(s, 'min_temp') ?? 7}" max="${attr<number>(s, 'max_temp') ?? 35}" step="${step}" value="${attr<number>(s, 'temperature') ?? ''}"><button type="submit" class="apply">Set</button></span>`,
        { live: true },
      ),
    );
    const modes = attr<string[]>(s, 'hvac_modes') ?? [];
    if (modes.length) {
      const mid = `${id}-hvac`;
      controls.push(
        form(
          'hvac_mode',
          html`<label for="${mid}">Mode</label><span class="row"><select id="${mid}" name="hvac_mode">${modes.map((m) => raw(html`<option${raw(m === s.state ? ' selected' : '')}>${m}</option>`))}</select><button type="submit" class="apply">Set</button></span>`,
          { live: true },
        ),
      );
    }
  }
  if (domain === 'cover') {
    controls.push(slider('position', 'position', 'Position %', 0, 100, attr<number>(s, 'current_position') ?? 0));
    if (s.state === 'opening' || s.state === 'closing')
      controls.push(form('stop', html`<button type="submit" id="${id}-stop">Stop</button>`));
  }
  if (domain === 'media_player' && s.state !== 'off') {
    controls.push(
      html`<div class="media-keys" role="group" aria-label="${name} playback">${raw(form('previous', html`<button type="submit" id="${id}-previous" aria-label="Previous track">◀◀</button>`))}${raw(
        form(
          'play_pause',
          html`<button type="submit" id="${id}-play_pause" aria-label="${s.state === 'playing' ? 'Pause' : 'Play'}">${s.state === 'playing' ? '❚❚' : '▶'}</button>`,
        ),
      )}${raw(form('next', html`<button type="submit" id="${id}-next" aria-label="Next track">▶▶</button>`))}</div>`,
    );
    controls.push(
      slider('volume', 'volume', 'Volume %', 0, 100, Math.round((attr<number>(s, 'volume_level') ?? 0) * 100)),
    );
  }
  if (domain === 'input_number')
    controls.push(
      slider(
        'set_value',
        'value',
        'Value',
        attr<number>(s, 'min') ?? 0,
        attr<number>(s, 'max') ?? 100,
        Number(s.state) || 0,
        attr<number>(s, 'step') ?? 1,
      ),
    );
  if (domain === 'input_select') {
    const fid = `${id}-option`;
    const options = attr<string[]>(s, 'options') ?? [];
    controls.push(
      form(
        'select_option',
        html`<label for="${fid}">Option</label><span class="row"><select id="${fid}" name="option">${options.map((m) => raw(html`<option${raw(m === s.state ? ' selected' : '')}>${m}</option>`))}</select><button type="submit" class="apply">Set</button></span>`,
        { live: true },
      ),
    );
  }
  if (domain === 'counter')
    controls.push(
      form('increment', html`<button type="submit" id="${id}-increment" aria-label="${name}: add one">+1</button>`),
    );
  if (domain === 'scene' || domain === 'script')
    controls.push(
      form(
        'activate',
        html`<button type="submit" id="${id}-activate">${domain === 'scene' ? 'Activate' : 'Run'}</button>`,
      ),
    );
  if (domain === 'automation')
    controls.push(form('trigger', html`<button type="submit" id="${id}-trigger">Trigger now</button>`));

  const lastTriggered =
    domain === 'automation' || domain === 'script' ? attr<string | null>(s, 'last_triggered') : undefined;
  return html`<article class="card entity${raw(on ? ' on' : '')}" id="${cardId(id)}" data-entity="${id}" aria-labelledby="${cardId(id)}-name">
<header><h3 id="${cardId(id)}-name">${name}</h3><a class="history" href="/home/entities/${id}" aria-label="History of ${name}">History</a></header>
<p class="state"><span class="entity-id">${id}</span> <strong class="value">${stateText(s)}</strong></p>
${raw(lastTriggered !== undefined ? html`<p class="muted last-triggered">Last triggered: ${lastTriggered ? raw(html`<time datetime="${lastTriggered}">${shortTime(lastTriggered)}</time>`) : 'never'}</p>` : '')}
${raw(o.error ? html`<p class="error" role="alert">${o.error}</p>` : '')}
${raw(controls.join('\n'))}
</article>`;
}

/** Whether the entity counts as on (covers: open) for its toggle. */
function isOn(s: HassState): boolean {
  if (s.entity_id.startsWith('cover.')) return s.state !== 'closed';
  if (s.entity_id.startsWith('climate.') || s.entity_id.startsWith('media_player.'))
    return s.state !== 'off' && s.state !== 'unavailable';
  return s.state === 'on';
}
