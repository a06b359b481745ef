// HA's built-in intents that agents use most, handled on a home: the same handlers serve the
// conversation agent (sentences → intent), POST /api/intent/handle and the MCP tools.
// Wording of the English answers follows HA's intent responses where known.
import type { Context } from '../core/context.js';
import { HomeError } from '../core/errors.js';
import type { Home } from '../core/home.js';
import type { State } from '../core/state.js';
import { COLORS } from './colors.js';
import { answer, errorAnswer, IntentError, type IntentResponse } from './response.js';
import { findArea } from '../core/registry/lookup.js';
import { entityTarget, exposed, matchTargets, namesOf, normalize, type Slots } from './targets.js';

export interface IntentSlots extends Slots {
  state?: string;
  brightness?: number;
  color?: string;
  temperature?: number;
  position?: number;
  volume_level?: number;
}

/** Domains that turn on and off (HA's HassTurnOn/HassTurnOff reach these through homeassistant.*). */
const ON_OFF = [
  'light',
  'switch',
  'fan',
  'cover',
  'media_player',
  'climate',
  'input_boolean',
  'script',
  'scene',
  'lock',
  'valve',
];

type Handler = (home: Home, slots: IntentSlots, context: Context) => Promise<IntentResponse>;

function only(entities: State[], domains: string[], slots: IntentSlots): State[] {
  const kept = entities.filter((s) => domains.includes(s.domain));
  if (!kept.length) throw new IntentError('no_valid_targets', `Sorry, ${slots.name ?? 'that'} cannot do that`);
  return kept;
}

const withDefaultDomains = (slots: IntentSlots, domains: string[]): IntentSlots =>
  slots.name || slots.domain?.length ? slots : { ...slots, domain: domains };

/**
 * The slots for an intent about `domains`: without a name or domain, the intent's own domains;
 * a name that is both an area and an entity of another kind ("living room": an area and a
 * light) means the area when the intent is about something else (its thermostat).
 */
function slotsFor(home: Home, slots: IntentSlots, domains: string[]): IntentSlots {
  if (slots.name && !slots.area && findArea(home.registry, normalize(slots.name))) {
    const key = normalize(slots.name);
    const named = exposed(home).some((s) => domains.includes(s.domain) && namesOf(home, s).includes(key));
    if (!named) {
      const { name, ...rest } = slots;
      return { ...rest, area: name, domain: domains };
    }
  }
  return withDefaultDomains(slots, domains);
}

function onOffSpeech(service: 'turn_on' | 'turn_off' | 'toggle', entities: State[]): string {
  const domains = new Set(entities.map((s) => s.domain));
  const one = entities.length === 1;
  if (domains.size === 1) {
    const d = [...domains][0];
    if (d === 'cover') return service === 'turn_on' ? 'Opened' : service === 'turn_off' ? 'Closed' : 'Toggled';
    if (d === 'scene') return 'Activated';
    if (d === 'script' && service === 'turn_on') return 'Started';
    if (d === 'light')
      return `${service === 'turn_on' ? 'Turned on' : service === 'turn_off' ? 'Turned off' : 'Toggled'} the light${one ? '' : 's'}`;
  }
  return service === 'turn_on' ? 'Turned on' : service === 'turn_off' ? 'Turned off' : 'Toggled';
}

const onOff =
  (service: 'turn_on' | 'turn_off' | 'toggle'): Handler =>
  async (home, slots, context) => {
    const m = matchTargets(home, withDefaultDomains(slots, ['light', 'switch', 'fan']));
    const entities = only(m.entities, ON_OFF, slots);
    await home.callService('homeassistant', service, { entity_id: entities.map((s) => s.entity_id) }, { context });
    return answer('action_done', onOffSpeech(service, entities), entities.map(entityTarget), m.targets);
  };

/** Runs a domain service on the matched entities of that domain. */
const domainAction =
  (
    domain: string,
    service: string,
    speech: string,
    data: (slots: IntentSlots) => Record<string, unknown> = () => ({}),
  ): Handler =>
  async (home, slots, context) => {
    const m = matchTargets(home, slotsFor(home, slots, [domain]));
    const entities = only(m.entities, [domain], slots);
    await home.callService(
      domain,
      service,
      { ...data(slots), entity_id: entities.map((s) => s.entity_id) },
      { context },
    );
    return answer('action_done', speech, entities.map(entityTarget), m.targets);
  };

function requireNumber(
  slots: IntentSlots,
  key: 'brightness' | 'temperature' | 'position' | 'volume_level',
  min?: number,
  max?: number,
): number {
  const v = slots[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new IntentError('failed_to_handle', `${key} is required`);
  if ((min !== undefined && v < min) || (max !== undefined && v > max))
    throw new IntentError('failed_to_handle', `${key} must be between ${min} and ${max}`);
  return v;
}

const lightSet: Handler = async (home, slots, context) => {
  const data: Record<string, unknown> = {};
  let speech = 'Set';
  if (slots.brightness !== undefined) {
    const pct = Math.round(requireNumber(slots, 'brightness', 0, 100));
    data.brightness_pct = pct;
    speech = `Brightness set to ${pct}%`;
  }
  if (slots.color !== undefined) {
    const rgb = COLORS[slots.color.toLowerCase().trim()];
    if (!rgb) throw new IntentError('failed_to_handle', `Sorry, I don't know the colour ${slots.color}`);
    data.rgb_color = rgb;
    speech =
      slots.brightness !== undefined ? `${speech} and colour set to ${slots.color}` : `Colour set to ${slots.color}`;
  }
  if (!Object.keys(data).length) throw new IntentError('failed_to_handle', 'Say a brightness or a colour');
  return domainAction('light', 'turn_on', speech, () => data)(home, slots, context);
};

const climateSetTemperature: Handler = async (home, slots, context) => {
  const t = requireNumber(slots, 'temperature');
  return domainAction('climate', 'set_temperature', `Temperature set to ${t} degrees`, () => ({ temperature: t }))(
    home,
    slots,
    context,
  );
};

const climateGetTemperature: Handler = async (home, slots) => {
  const m = matchTargets(home, slotsFor(home, slots, ['climate']));
  const climate = only(m.entities, ['climate', 'sensor'], slots).filter(
    (s) => s.domain === 'climate' || s.attributes.device_class === 'temperature',
  );
  const first = climate[0];
  if (!first) throw new IntentError('no_valid_targets', 'Sorry, I am not aware of any thermostat there');
  const t = first.domain === 'climate' ? first.attributes.current_temperature : first.state;
  return answer('query_answer', `${String(t)} degrees`, [entityTarget(first)], m.targets);
};

const setPosition: Handler = async (home, slots, context) => {
  const p = Math.round(requireNumber(slots, 'position', 0, 100));
  return domainAction('cover', 'set_cover_position', 'Position set', () => ({ position: p }))(home, slots, context);
};

const setVolume: Handler = async (home, slots, context) => {
  const v = requireNumber(slots, 'volume_level', 0, 100);
  return domainAction('media_player', 'volume_set', 'Volume set', () => ({ volume_level: v / 100 }))(
    home,
    slots,
    context,
  );
};

const getState: Handler = async (home, slots) => {
  const m = matchTargets(home, slots);
  const entities = m.entities;
  if (slots.state !== undefined) {
    const wanted = slots.state.toLowerCase();
    const matching = entities.filter((s) => s.state === wanted);
    const other = entities.find((s) => s.state !== wanted);
    const text = !other
      ? 'Yes'
      : entities.length === 1
        ? `No, ${other.name} is ${other.state}`
        : `No, ${other.name} is ${other.state}`;
    return answer(
      'query_answer',
      text,
      matching.map(entityTarget),
      m.targets,
      entities.filter((s) => s.state !== wanted).map(entityTarget),
    );
  }
  const text = entities
    .map(
      (s) =>
        `${s.name} is ${s.state}${typeof s.attributes.unit_of_measurement === 'string' ? ` ${s.attributes.unit_of_measurement}` : ''}`,
    )
    .join(', ');
  return answer('query_answer', text, entities.map(entityTarget), m.targets);
};

const INTENTS: Record<string, Handler> = {
  HassTurnOn: onOff('turn_on'),
  HassTurnOff: onOff('turn_off'),
  HassToggle: onOff('toggle'),
  HassLightSet: lightSet,
  HassClimateSetTemperature: climateSetTemperature,
  HassClimateGetTemperature: climateGetTemperature,
  HassSetPosition: setPosition,
  HassGetState: getState,
  HassMediaPause: domainAction('media_player', 'media_pause', 'Paused'),
  HassMediaUnpause: domainAction('media_player', 'media_play', 'Resumed'),
  HassMediaNext: domainAction('media_player', 'media_next_track', 'Playing next'),
  HassMediaPrevious: domainAction('media_player', 'media_previous_track', 'Playing previous'),
  HassSetVolume: setVolume,
};

/** Handles an intent by name; every failure becomes HA's error response, never a throw. */
export async function handleIntent(
  home: Home,
  name: string,
  slots: IntentSlots,
  context: Context,
): Promise<IntentResponse> {
  const handler = Object.hasOwn(INTENTS, name) ? INTENTS[name] : undefined;
  if (!handler) return errorAnswer('no_intent_match', `Sorry, I don't know the intent ${name}`);
  try {
    return await handler(home, slots, context);
  } catch (err) {
    if (err instanceof IntentError) return errorAnswer(err.code, err.message);
    if (err instanceof HomeError) return errorAnswer('failed_to_handle', err.message);
    throw err;
  }
}
